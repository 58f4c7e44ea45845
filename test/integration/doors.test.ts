import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { startReceiver, subscribe } from '../support/events';
import { createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice, iclock, registerAccessTerminal } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

/** Doors: listing and naming, door commands and their lifecycle, alarms and refusals as events. */
describe('doors', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000', TIMEGATE_RELAY_INVERTED_MODELS: 'c3-400, ProMA' }, 'doors');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  /**
   * Events of these types about the device in the outbox: every subscriber and webhook reads them
   * from there, so once the terminal's upload was acknowledged this count is final (no waiting).
   */
  const outboxCount = async (types: string[], deviceId: number) =>
    (await sql(`select count(*)::int as n from event where type = any(?) and (data->>'device_id')::int = ?`, [`{${types.join(',')}}`, deviceId]))[0]
      .n as number;
  const doorsOf = async (deviceId: number) => (await rest(t.url, 'GET', `/public/v2/devices/${deviceId}/doors`, { key: ws.key })).body;
  const action = (doorId: number, body: Record<string, unknown>, key = ws.key) => rest(t.url, 'POST', `/public/v2/doors/${doorId}/actions`, { key, body });
  const actionStatus = (actionId: string, status: string) =>
    waitUntil(`door action ${actionId} is ${status}`, async () => {
      const r = await rest(t.url, 'GET', `/v1/devices/door/actions/${actionId}`, { key: ws.key });
      return r.body.status === status ? r.body : null;
    });

  function simulator(serialNumber: string): SimulatedTerminal {
    return new SimulatedTerminal({ serverUrl: t.url, serialNumber, family: 'acc', pollIntervalMs: 50 });
  }

  it('a device has its doors: one for an attendance terminal, as many as an access-control terminal reports; named, read and scoped', async () => {
    const clock = await createTerminalDevice(t.url, ws.key);
    const attDoors = await doorsOf(clock.id);
    expect(attDoors).to.have.length(1);
    expect(attDoors[0]).to.deep.include({ device_id: clock.id, number: 1, name: 'Door 1', state: { sensor: 'unknown', relay: 'unknown', alarms: [] } });

    const panel = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    expect(await doorsOf(panel.id)).to.have.length(1);
    // The controller registers and reports four locks.
    const session = await registerAccessTerminal(
      t.url,
      panel.serial_number,
      'DeviceType=acc,~DeviceName=inBio460,FirmVer=AC Ver 5.7.8,PushVersion=3.1.2,LockCount=4,ReaderCount=4',
    );
    const four = await doorsOf(panel.id);
    expect(four.map((d: any) => [d.number, d.name])).to.deep.equal([
      [1, 'Door 1'],
      [2, 'Door 2'],
      [3, 'Door 3'],
      [4, 'Door 4'],
    ]);

    const renamed = await rest(t.url, 'PUT', `/public/v2/doors/${four[1].id}`, { key: ws.key, body: { name: 'Loading bay' } });
    expect(renamed.status).to.equal(200);
    expect(renamed.body).to.include({ id: four[1].id, number: 2, name: 'Loading bay' });
    expect((await rest(t.url, 'GET', `/public/v2/doors/${four[1].id}`, { key: ws.key })).body.name).to.equal('Loading bay');
    const gql = await rest(t.url, 'POST', '/graphql', {
      key: ws.key,
      body: { query: `{ deviceDoors(deviceId: ${panel.id}) { number name state { sensor relay alarms } } }` },
    });
    expect(gql.body.data.deviceDoors[1]).to.deep.equal({ number: 2, name: 'Loading bay', state: { sensor: 'unknown', relay: 'unknown', alarms: [] } });

    // Bad input changes nothing; another workspace sees none of it.
    expect((await rest(t.url, 'PUT', `/public/v2/doors/${four[1].id}`, { key: ws.key, body: { name: '' } })).status).to.equal(422);
    expect((await rest(t.url, 'PUT', `/public/v2/doors/${four[1].id}`, { key: ws.key, body: { name: 'x', number: 3 } })).status).to.equal(422);
    const other = await createWorkspace(t.url);
    expect((await rest(t.url, 'GET', `/public/v2/doors/${four[1].id}`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/devices/${panel.id}/doors`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'PUT', `/public/v2/doors/${four[1].id}`, { key: other.key, body: { name: 'Mine' } })).status).to.equal(404);
    expect((await rest(t.url, 'POST', `/public/v2/doors/${four[1].id}/actions`, { key: other.key, body: { action: 'close' } })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/doors/${four[1].id}`, { key: ws.key })).body.name).to.equal('Loading bay');

    const capabilities = async (id: number) =>
      (await rest(t.url, 'POST', '/graphql', { key: ws.key, body: { query: `{ device(id: ${id}) { capabilities { doors accessLevels } } }` } })).body.data
        .device.capabilities;
    expect(await capabilities(panel.id)).to.deep.equal({ doors: 4, accessLevels: true });
    // Attendance terminals: their PUSH 2.x access settings, until they refuse them (access-levels.test.ts).
    expect(await capabilities(clock.id)).to.deep.equal({ doors: 1, accessLevels: true });

    // A terminal that reports fewer locks keeps the doors it no longer has, absent.
    await iclock(t.url, 'POST', `/iclock/registry?SN=${panel.serial_number}`, 'DeviceType=acc,LockCount=2', session.cookie);
    expect((await doorsOf(panel.id)).map((d: any) => [d.number, d.present])).to.deep.equal([
      [1, true],
      [2, true],
      [3, false],
      [4, false],
    ]);
    // Re-flashed as a time clock, it handshakes as an attendance terminal: one lock output.
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${panel.serial_number}&options=all&DeviceType=att`, undefined, session.cookie)).status).to.equal(200);
    expect((await doorsOf(panel.id)).filter((d: any) => d.present).map((d: any) => [d.number, d.name])).to.deep.equal([[1, 'Door 1']]);
    expect((await doorsOf(panel.id))[1]).to.include({ name: 'Loading bay', present: false });
    expect(await capabilities(panel.id)).to.deep.include({ doors: 1 });
  });

  it('the relay bit reads as the Security PUSH document says (0 pulled in = unlocked, 1 = locked), turned round for a model listed in TIMEGATE_RELAY_INVERTED_MODELS', async () => {
    const state = async (model: string, relay: string) => {
      const panel = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
      const session = await registerAccessTerminal(
        t.url,
        panel.serial_number,
        `DeviceType=acc,~DeviceName=${model},FirmVer=AC Ver 5.7.8,PushVersion=3.1.2,LockCount=1,ReaderCount=2`,
      );
      // Door 1 held open: sensor 0b10 (open), the relay bit as given.
      const upload = await iclock(
        t.url,
        'POST',
        `/iclock/cdata?SN=${panel.serial_number}&table=rtstate`,
        `time=2026-11-25 13:40:02\tsensor=02\trelay=${relay}\talarm=0000000000000000\n`,
        session.cookie,
      );
      expect(upload.text).to.equal('OK');
      const [door] = await doorsOf(panel.id);
      return door.state.relay as string;
    };
    expect(await state('inBio460', '00')).to.equal('unlocked');
    expect(await state('inBio460', '01')).to.equal('locked');
    // The independent reading (bit 1 = released) for the models listed, whatever case they report.
    expect(await state('C3-400', '01')).to.equal('unlocked');
    expect(await state('C3-400', '00')).to.equal('locked');
    expect(await state('proma', '01')).to.equal('unlocked');
  });

  it('hold_open, close and cancel_alarm reach the terminal as CONTROL DEVICE commands and finish; an unlock opens the door once', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const [door] = await doorsOf(device.id);
    const opened = await subscribe(t.app, ws.id, ws.key, `subscription { doorOpened(deviceId: ${device.id}) { doorOpening { door source actionId } } }`);
    const terminal = simulator(device.serial_number);
    terminal.start();
    try {
      const expected: Record<string, string> = {
        hold_open: 'CONTROL DEVICE 010101FF',
        close: 'CONTROL DEVICE 01010100',
        cancel_alarm: 'CONTROL DEVICE 02010000',
      };
      for (const [name, command] of Object.entries(expected)) {
        const queued = await action(door.id, { action: name });
        expect(queued.status, name).to.equal(202);
        expect(queued.body).to.include({ action: name, status: 'queued', door: 1, duration: 0, device_id: device.id });
        const [row] = await sql('select command from device_command where reference = ?', [`door_action:${queued.body.action_id}`]);
        expect(row.command).to.equal(command);
        expect((await actionStatus(queued.body.action_id, 'succeeded')).return_code).to.equal(0);
      }
      const unlock = await action(door.id, { action: 'unlock', duration: 4 });
      expect(unlock.status).to.equal(202);
      const [row] = await sql('select command from device_command where reference = ?', [`door_action:${unlock.body.action_id}`]);
      expect(row.command).to.equal('CONTROL DEVICE 01010104');
      await actionStatus(unlock.body.action_id, 'succeeded');
      // The terminal logs its remote openings (rtlog 8) too: each physical opening is one door.opened.
      await waitUntil(
        'the two remote openings are stored',
        async () => (await sql('select count(*)::int as n from door_event where device_id = ? and event_code = 8', [device.id]))[0].n,
        (v) => v === 2,
      );
      expect(await outboxCount(['door.opened'], device.id), 'one door.opened per physical opening').to.equal(2);
      await waitUntil(
        'the webhook received the two door.opened events',
        async () => opened.received.length,
        (v) => v >= 2,
      );
      expect(opened.received.map((e: any) => e.doorOpening)).to.deep.equal([
        {
          door: 1,
          source: 'remote_unlock',
          actionId: (await sql("select action_id from door_action where device_id = ? and action = 'hold_open'", [device.id]))[0].action_id,
        },
        { door: 1, source: 'remote_unlock', actionId: unlock.body.action_id },
      ]);
      // The door's relay and sensor follow the terminal's rtstate.
      const state = await waitUntil('the door relay is unlocked', async () =>
        (await doorsOf(device.id))[0].state.relay === 'unlocked' ? (await doorsOf(device.id))[0].state : null,
      );
      expect(state).to.deep.equal({ sensor: 'open', relay: 'unlocked', alarms: [] });
    } finally {
      await opened.close();
      await terminal.stop();
    }
  });

  it('refuses bad door actions precisely and queues nothing: unknown action, missing or stray duration, attendance limits, scope', async () => {
    const panel = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const [door] = await doorsOf(panel.id);
    const clock = await createTerminalDevice(t.url, ws.key);
    const [clockDoor] = await doorsOf(clock.id);
    const cases: Array<[number, Record<string, unknown>, string, string]> = [
      [door.id, { action: 'explode' }, 'action', 'invalid_action'],
      [door.id, { action: 'unlock' }, 'duration', 'required'],
      [door.id, { action: 'unlock', duration: 255 }, 'duration', 'out_of_range'],
      [door.id, { action: 'close', duration: 5 }, 'duration', 'not_allowed'],
      [clockDoor.id, { action: 'hold_open' }, 'action', 'unsupported_by_device'],
      [clockDoor.id, { action: 'close' }, 'action', 'unsupported_by_device'],
    ];
    for (const [id, body, field, code] of cases) {
      const r = await action(id, body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.error.details, JSON.stringify(body)).to.have.length(1);
      expect(r.body.error.details[0], JSON.stringify(body)).to.include({ field, code });
    }
    expect((await action(door.id, { action: 'unlock', duration: 'long' })).status).to.equal(422);
    const writer = await createKey(t.url, ws.key, ['read', 'write']);
    expect((await action(door.id, { action: 'unlock', duration: 3 }, writer)).status).to.equal(403);
    const [{ n }] = await sql('select count(*)::int as n from door_action where device_id in (?, ?)', [panel.id, clock.id]);
    expect(n).to.equal(0);
    // An attendance terminal's lock takes unlock (AC_UNLOCK) and cancel_alarm (AC_UNALARM).
    const unalarm = await action(clockDoor.id, { action: 'cancel_alarm' });
    expect(unalarm.status).to.equal(202);
    const [row] = await sql('select command from device_command where reference = ?', [`door_action:${unalarm.body.action_id}`]);
    expect(row.command).to.equal('AC_UNALARM');
  });

  it('a forced door raises one door.alarm (webhook and subscription) and cancelling clears it; a held-open alarm ends when the door closes', async () => {
    const receiver = await startReceiver();
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const [door] = await doorsOf(device.id);
    const hook = await rest(t.url, 'POST', '/public/v2/webhooks', {
      key: ws.key,
      body: { url: receiver.url, event_types: ['door.alarm', 'door.alarm.cleared'] },
    });
    expect(hook.status).to.equal(201);
    const alarms = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription { doorAlarm(doorId: ${door.id}) { type alarm { doorId deviceId door kind source eventCode } } }`,
    );
    const terminal = simulator(device.serial_number);
    terminal.start();
    try {
      await waitUntil('the terminal is connected', async () => terminal.isConnected);
      terminal.doorAlarm('forced_open');
      const [raised] = await alarms.waitFor(1);
      expect(raised).to.deep.equal({
        type: 'door.alarm',
        alarm: { doorId: door.id, deviceId: device.id, door: 1, kind: 'forced_open', source: raised.alarm.source, eventCode: raised.alarm.eventCode },
      });
      // Both the rtlog record (102) and the rtstate flag report it: still one event.
      await waitUntil(
        'the forced-open record is stored',
        async () => (await sql('select count(*)::int as n from door_event where device_id = ? and event_code = 102', [device.id]))[0].n,
        (v) => v === 1,
      );
      expect(await outboxCount(['door.alarm'], device.id), 'one alarm for the record and the flag').to.equal(1);
      expect(alarms.received).to.have.length(1);
      // The rtstate report (sensor open) follows the record; the alarm is still the one event.
      await waitUntil('the door sensor is open', async () => ((await doorsOf(device.id))[0].state.sensor === 'open' ? true : null));
      expect((await doorsOf(device.id))[0].state).to.deep.include({ sensor: 'open', alarms: ['forced_open'] });
      expect(await outboxCount(['door.alarm'], device.id)).to.equal(1);

      const cancel = await action(door.id, { action: 'cancel_alarm' });
      await actionStatus(cancel.body.action_id, 'succeeded');
      const [, cleared] = await alarms.waitFor(2);
      expect(cleared).to.deep.include({ type: 'door.alarm.cleared' });
      expect(cleared.alarm).to.include({ doorId: door.id, kind: 'forced_open' });
      await waitUntil('the door has no alarm left', async () => ((await doorsOf(device.id))[0].state.alarms.length === 0 ? true : null));

      terminal.doorAlarm('held_open');
      const [, , held] = await alarms.waitFor(3);
      expect(held.alarm).to.include({ kind: 'held_open' });
      terminal.closeDoor();
      const [, , , ended] = await alarms.waitFor(4);
      expect(ended).to.deep.include({ type: 'door.alarm.cleared' });
      expect(ended.alarm).to.include({ kind: 'held_open' });
      expect(await outboxCount(['door.alarm', 'door.alarm.cleared'], device.id)).to.equal(4);
      expect(alarms.received).to.have.length(4);

      await t.app.webhooks.runOnce();
      const delivered = receiver.received.map((r) => [r.json.type, r.json.data.kind, r.json.data.door_id]);
      expect(delivered).to.deep.equal([
        ['door.alarm', 'forced_open', door.id],
        ['door.alarm.cleared', 'forced_open', door.id],
        ['door.alarm', 'held_open', door.id],
        ['door.alarm.cleared', 'held_open', door.id],
      ]);
    } finally {
      await alarms.close();
      await terminal.stop();
      await receiver.close();
    }
  });

  it('refusals in the terminal log become access.denied with their reason, the person when known, once', async () => {
    const company = (await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, body: { name: 'Denials', code: 'DNY' } })).body;
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: company.id });
    const [door] = await doorsOf(device.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '4242' });
    const denied = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription { accessDenied(deviceId: ${device.id}) { denial { doorId door reason eventCode employeeId pin } } }`,
    );
    try {
      const lines = [
        'time=2026-11-20 08:00:00\tpin=4242\tcardno=0\teventaddr=1\tevent=22\tinoutstatus=0\tverifytype=1\tindex=501',
        'time=2026-11-20 08:00:05\tpin=999\tcardno=0\teventaddr=1\tevent=27\tinoutstatus=0\tverifytype=1\tindex=502',
        'time=2026-11-20 08:00:09\tpin=4242\tcardno=0\teventaddr=1\tevent=29\tinoutstatus=0\tverifytype=1\tindex=503',
      ].join('\n');
      const upload = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=rtlog`, `${lines}\n`);
      expect(upload.text).to.equal('OK');
      const events = await denied.waitFor(3);
      expect(events.map((e: any) => e.denial)).to.deep.equal([
        { doorId: door.id, door: 1, reason: 'outside_schedule', eventCode: 22, employeeId: employee.id, pin: '4242' },
        { doorId: door.id, door: 1, reason: 'not_registered', eventCode: 27, employeeId: null, pin: '999' },
        { doorId: door.id, door: 1, reason: 'expired', eventCode: 29, employeeId: employee.id, pin: '4242' },
      ]);
      // The terminal re-sends its log: nothing new.
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=rtlog`, `${lines}\n`)).status).to.equal(200);
      expect(await outboxCount(['access.denied'], device.id), 'no event for a re-sent record').to.equal(3);
      expect(denied.received).to.have.length(3);
    } finally {
      await denied.close();
    }
  });
});
