import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { startReceiver, subscribe } from '../support/events';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

/** Lockdown and evacuation: door by door through the interactive lane, enforced by the controllers, released. */
describe('lockdowns', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'lockdowns');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const doorsOf = async (deviceId: number) => (await rest(t.url, 'GET', `/public/v2/devices/${deviceId}/doors`, { key: ws.key })).body as any[];
  const simulator = (serialNumber: string, lockCount: number) =>
    new SimulatedTerminal({ serverUrl: t.url, serialNumber, family: 'acc', pollIntervalMs: 50, lockCount });

  it('locks down a company with two controllers door by door, refuses an unlock during it, releases; events in order on a subscription and as webhooks', async () => {
    const receiver = await startReceiver();
    const company = await createCompany(t.url, ws.key);
    const north = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const south = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const northTerminal = simulator(north.serial_number, 2);
    const southTerminal = simulator(south.serial_number, 1);
    const hook = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: receiver.url, event_types: ['lockdown.updated'] } });
    expect(hook.status).to.equal(201);
    northTerminal.start();
    southTerminal.start();
    const updates = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription { lockdownUpdated(companyId: ${company.id}) { type lockdown { lockdownId status change mode doorsPending doorsConfirmed door { doorId state } } } }`,
    );
    try {
      await waitUntil(
        'both controllers are connected and north reports two doors',
        async () => northTerminal.isConnected && southTerminal.isConnected && (await doorsOf(north.id)).length === 2,
      );
      const doors = [...(await doorsOf(north.id)), ...(await doorsOf(south.id))];

      const created = await rest(t.url, 'POST', '/public/v2/lockdowns', {
        key: ws.key,
        body: { company_id: company.id, mode: 'lockdown', reason: 'Intruder in building B' },
      });
      expect(created.status, created.text).to.equal(202);
      expect(created.body).to.deep.include({
        company_id: company.id,
        scope: 'company',
        mode: 'lockdown',
        status: 'active',
        doors_pending: 3,
        doors_confirmed: 0,
      });
      expect(created.body.doors.map((d: any) => [d.door_id, d.state])).to.have.deep.members(doors.map((d) => [d.id, 'pending']));
      // The interactive lane carries operation 06 to each door.
      const commands = await sql("select device_id, command from device_command where kind = 'lockdown_apply' order by device_id, command");
      expect(commands).to.deep.equal([
        { device_id: north.id, command: 'CONTROL DEVICE 06010100' },
        { device_id: north.id, command: 'CONTROL DEVICE 06020100' },
        { device_id: south.id, command: 'CONTROL DEVICE 06010100' },
      ]);

      // Each door is confirmed by its own controller's answer.
      const confirmed = await updates.waitFor(4);
      expect(confirmed[0]).to.deep.include({ type: 'lockdown.updated' });
      expect(confirmed[0].lockdown).to.deep.include({ lockdownId: created.body.id, change: 'created', status: 'active', doorsPending: 3, door: null });
      expect(confirmed.slice(1).map((u) => [u.lockdown.change, u.lockdown.door.state])).to.deep.equal([
        ['door', 'confirmed'],
        ['door', 'confirmed'],
        ['door', 'confirmed'],
      ]);
      expect(confirmed.slice(1).map((u) => u.lockdown.doorsConfirmed)).to.deep.equal([1, 2, 3]);
      expect(confirmed.slice(1).map((u) => u.lockdown.door.doorId)).to.have.members(doors.map((d) => d.id));
      const read = (await rest(t.url, 'GET', `/public/v2/lockdowns/${created.body.id}`, { key: ws.key })).body;
      expect(read.doors.every((d: any) => d.state === 'confirmed' && d.return_code === 0 && d.confirmed_at)).to.equal(true);
      expect([...northTerminal.store.lockedDownDoors].sort()).to.deep.equal([1, 2]);
      expect([...southTerminal.store.lockedDownDoors]).to.deep.equal([1]);

      // The controller refuses a credential at a locked-down door (its generic code 23): a `lockdown` refusal.
      northTerminal.punch({ pin: '77' });
      await waitUntil(
        'the refused opening is stored',
        async () => (await sql('select event_class from door_event where device_id = ? and event_code = 23', [north.id])).length,
        (v) => v === 1,
      );
      const refusals = (await rest(t.url, 'GET', `/public/v2/door_events?device_id=${north.id}&reason=lockdown`, { key: ws.key })).body;
      expect(refusals.map((e: any) => [e.event_code, e.reason, e.pin])).to.deep.equal([[23, 'lockdown', '77']]);
      expect((await rest(t.url, 'GET', `/public/v2/door_events?device_id=${north.id}&reason=outside_schedule`, { key: ws.key })).body).to.deep.equal([]);

      // A remote unlock is refused while the door is locked down; an override needs the admin scope.
      const [northDoor1] = doors;
      const refused = await rest(t.url, 'POST', `/public/v2/doors/${northDoor1.id}/actions`, { key: ws.key, body: { action: 'unlock', duration: 5 } });
      expect(refused.status).to.equal(409);
      expect(refused.body.error.code).to.equal('lockdown_active');
      const legacy = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: ws.key, body: { device_serial: north.serial_number, duration: 5, door: 2 } });
      expect(legacy.status).to.equal(409);
      const unlocker = await createKey(t.url, ws.key, ['doors:unlock']);
      const notAdmin = await rest(t.url, 'POST', `/public/v2/doors/${northDoor1.id}/actions`, {
        key: unlocker,
        body: { action: 'unlock', duration: 5, override: true },
      });
      expect(notAdmin.status).to.equal(403);
      expect((await sql('select count(*)::int as n from door_action where device_id = ?', [north.id]))[0].n).to.equal(0);
      // Cancelling an alarm does not undo a lockdown.
      expect((await rest(t.url, 'POST', `/public/v2/doors/${northDoor1.id}/actions`, { key: unlocker, body: { action: 'cancel_alarm' } })).status).to.equal(
        202,
      );
      // A second lockdown of the same doors waits for the release.
      const again = await rest(t.url, 'POST', '/public/v2/lockdowns', { key: ws.key, body: { door_ids: [northDoor1.id], mode: 'evacuate', reason: 'Fire' } });
      expect(again.status).to.equal(409);

      const released = await rest(t.url, 'POST', `/public/v2/lockdowns/${created.body.id}/release`, { key: ws.key });
      expect(released.status).to.equal(202);
      expect(released.body).to.deep.include({ status: 'released', doors_pending: 3 });
      expect(released.body.released_at).to.be.a('string');
      const all = await updates.waitFor(8);
      expect(all.slice(4).map((u) => [u.lockdown.change, u.lockdown.status, u.lockdown.door?.state ?? null])).to.deep.equal([
        ['released', 'released', null],
        ['door', 'released', 'released'],
        ['door', 'released', 'released'],
        ['door', 'released', 'released'],
      ]);
      expect(northTerminal.store.lockedDownDoors.size + southTerminal.store.lockedDownDoors.size).to.equal(0);
      expect(
        (await sql("select command from device_command where kind = 'lockdown_release' and device_id = ? order by command", [north.id])).map((r) => r.command),
      ).to.deep.equal(['CONTROL DEVICE 06010000', 'CONTROL DEVICE 06020000']);
      // Released: the unlock goes through.
      expect(
        (await rest(t.url, 'POST', `/public/v2/doors/${northDoor1.id}/actions`, { key: ws.key, body: { action: 'unlock', duration: 5 } })).status,
      ).to.equal(202);
      // Releasing again changes nothing.
      expect((await rest(t.url, 'POST', `/public/v2/lockdowns/${created.body.id}/release`, { key: ws.key })).body.status).to.equal('released');

      await t.app.webhooks.runOnce();
      const delivered = receiver.received.map((r) => [r.json.type, r.json.data.change, r.json.data.status, r.json.data.door?.state ?? null]);
      expect(delivered).to.deep.equal(all.map((u) => ['lockdown.updated', u.lockdown.change, u.lockdown.status, u.lockdown.door?.state ?? null]));
      expect(receiver.received[0]!.json.data).to.deep.include({
        lockdown_id: created.body.id,
        company_id: company.id,
        mode: 'lockdown',
        reason: 'Intruder in building B',
        doors_total: 3,
      });
    } finally {
      await updates.close();
      await northTerminal.stop();
      await southTerminal.stop();
      await receiver.close();
    }
  });

  it('an admin key may override a lockdown for one remote unlock; an evacuation holds doors open and refuses a remote close', async () => {
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const terminal = simulator(device.serial_number, 1);
    terminal.start();
    try {
      await waitUntil('the controller is connected', async () => terminal.isConnected);
      const [door] = await doorsOf(device.id);
      const lockdown = (await rest(t.url, 'POST', '/public/v2/lockdowns', { key: ws.key, body: { door_ids: [door.id], mode: 'lockdown', reason: 'Drill' } }))
        .body;
      const overridden = await rest(t.url, 'POST', `/public/v2/doors/${door.id}/actions`, {
        key: ws.key,
        body: { action: 'unlock', duration: 5, override: true },
      });
      expect(overridden.status).to.equal(202);
      await rest(t.url, 'POST', `/public/v2/lockdowns/${lockdown.id}/release`, { key: ws.key });

      const evacuation = await rest(t.url, 'POST', '/public/v2/lockdowns', {
        key: ws.key,
        body: { company_id: company.id, mode: 'evacuate', reason: 'Fire alarm' },
      });
      expect(evacuation.status).to.equal(202);
      await waitUntil('the evacuation is confirmed on the controller', async () => {
        const r = (await rest(t.url, 'GET', `/public/v2/lockdowns/${evacuation.body.id}`, { key: ws.key })).body;
        return r.doors_confirmed === 1 ? r : null;
      });
      expect(await sql("select command from device_command where kind = 'lockdown_apply' and device_id = ? order by id", [device.id])).to.deep.equal([
        { command: 'CONTROL DEVICE 06010100' },
        { command: 'CONTROL DEVICE 07010100' },
      ]);
      expect([...terminal.store.emergencyOpenDoors]).to.deep.equal([1]);
      // Anyone passes a door held open; a remote close would shut it.
      const record = terminal.punch({ pin: '4242' });
      expect(record.event).to.equal(1);
      expect((await rest(t.url, 'POST', `/public/v2/doors/${door.id}/actions`, { key: ws.key, body: { action: 'close' } })).status).to.equal(409);
      expect((await rest(t.url, 'POST', `/public/v2/doors/${door.id}/actions`, { key: ws.key, body: { action: 'unlock', duration: 3 } })).status).to.equal(202);
      await rest(t.url, 'POST', `/public/v2/lockdowns/${evacuation.body.id}/release`, { key: ws.key });
      await waitUntil(
        'the controller closed its doors',
        async () => terminal.store.emergencyOpenDoors.size,
        (v) => v === 0,
      );
    } finally {
      await terminal.stop();
    }
  });

  it('an attendance terminal cannot lock down: its door fails at once, the others proceed', async () => {
    const company = await createCompany(t.url, ws.key);
    const clock = await createDevice(t.url, ws.key, company.id);
    const lockdown = await rest(t.url, 'POST', '/public/v2/lockdowns', { key: ws.key, body: { company_id: company.id, mode: 'lockdown', reason: 'Test' } });
    expect(lockdown.status).to.equal(202);
    expect(lockdown.body.doors).to.have.length(1);
    expect(lockdown.body.doors[0]).to.deep.include({ device_id: clock.id, state: 'failed', detail: 'unsupported_by_device' });
    expect(lockdown.body).to.deep.include({ doors_failed: 1, doors_pending: 0 });
    const released = await rest(t.url, 'POST', `/public/v2/lockdowns/${lockdown.body.id}/release`, { key: ws.key });
    expect(released.body.doors[0].state).to.equal('released');
  });

  it('refuses a bad request precisely and changes nothing; another workspace sees no lockdown of this one', async () => {
    const company = await createCompany(t.url, ws.key);
    const other = await createWorkspace(t.url);
    const before = (await sql('select count(*)::int as n from lockdown'))[0].n;
    const post = (body: Record<string, unknown>, key = ws.key) => rest(t.url, 'POST', '/public/v2/lockdowns', { key, body });
    const two = await post({ company_id: company.id, door_ids: [1], mode: 'lockdown', reason: 'x' });
    expect(two.status).to.equal(422);
    expect(two.body.error.details[0].code).to.equal('one_scope_required');
    expect((await post({ company_id: company.id, mode: 'lockout', reason: 'x' })).status).to.equal(422);
    expect((await post({ company_id: company.id, mode: 'lockdown', reason: '  ' })).status).to.equal(422);
    const empty = await post({ company_id: company.id, mode: 'lockdown', reason: 'No doors here' });
    expect(empty.status).to.equal(422);
    expect(empty.body.error.details[0].code).to.equal('no_doors');
    expect((await post({ company_id: company.id, mode: 'lockdown', reason: 'Not theirs' }, other.key)).status).to.equal(422);
    expect((await sql('select count(*)::int as n from lockdown'))[0].n).to.equal(before);
    const mine = (await rest(t.url, 'GET', '/public/v2/lockdowns', { key: ws.key })).body;
    expect(mine.length).to.be.greaterThan(0);
    expect((await rest(t.url, 'GET', '/public/v2/lockdowns', { key: other.key })).body).to.deep.equal([]);
    expect((await rest(t.url, 'GET', `/public/v2/lockdowns/${mine[0].id}`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'POST', `/public/v2/lockdowns/${mine[0].id}/release`, { key: other.key })).status).to.equal(404);
    const reader = await createKey(t.url, ws.key, ['read']);
    expect((await post({ company_id: company.id, mode: 'lockdown', reason: 'x' }, reader)).status).to.equal(403);
  });

  it('a controller restarted during a lockdown (its lock-down state lost) gets the command again at its handshake, and its door is locked down again', async () => {
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const other = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const terminal = simulator(device.serial_number, 1);
    const otherTerminal = simulator(other.serial_number, 1);
    terminal.start();
    otherTerminal.start();
    const updates = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription { lockdownUpdated(companyId: ${company.id}) { lockdown { change door { deviceId state detail } doorsPending doorsConfirmed } } }`,
    );
    try {
      await waitUntil('both controllers are connected', async () => terminal.isConnected && otherTerminal.isConnected);
      const created = await rest(t.url, 'POST', '/public/v2/lockdowns', { key: ws.key, body: { company_id: company.id, mode: 'lockdown', reason: 'Drill' } });
      expect(created.status).to.equal(202);
      await updates.waitFor(3);
      expect(terminal.store.lockedDownDoors.has(1)).to.equal(true);

      // Power lost: the controller comes back unlocked, handshakes, and is sent operation 06 again.
      terminal.restart();
      expect(terminal.store.lockedDownDoors.size).to.equal(0);
      await waitUntil('the restarted controller locks the door again', async () => terminal.store.lockedDownDoors.has(1));
      const [pending, confirmed] = (await updates.waitFor(5)).slice(3);
      expect(pending.lockdown).to.deep.include({ change: 'door', doorsPending: 1, doorsConfirmed: 1 });
      expect(pending.lockdown.door).to.deep.equal({ deviceId: device.id, state: 'pending', detail: 'controller_restarted' });
      expect(confirmed.lockdown.door).to.deep.equal({ deviceId: device.id, state: 'confirmed', detail: null });
      const applied = await sql<{ device_id: number; command: string }>(
        "select device_id, command from device_command where kind = 'lockdown_apply' and reference = ? order by id",
        [`lockdown:${created.body.id}`],
      );
      expect(applied.map((c) => [c.device_id, c.command])).to.deep.equal([
        [device.id, 'CONTROL DEVICE 06010100'],
        [other.id, 'CONTROL DEVICE 06010100'],
        [device.id, 'CONTROL DEVICE 06010100'],
      ]);
      const denied = await subscribe(t.app, ws.id, ws.key, `subscription { accessDenied(deviceId: ${device.id}) { denial { eventCode reason } } }`);
      try {
        expect(terminal.punch({ pin: '4343' }).event).to.equal(23);
        expect((await denied.waitFor(1)).map((e: any) => e.denial)).to.deep.equal([{ eventCode: 23, reason: 'lockdown' }]);
      } finally {
        await denied.close();
      }
      const read = (await rest(t.url, 'GET', `/public/v2/lockdowns/${created.body.id}`, { key: ws.key })).body;
      expect(read.doors.map((d: any) => d.state)).to.deep.equal(['confirmed', 'confirmed']);

      // Released: a later restart sends nothing.
      await rest(t.url, 'POST', `/public/v2/lockdowns/${created.body.id}/release`, { key: ws.key });
      await waitUntil('the controller no longer locks the door', async () => !terminal.store.lockedDownDoors.has(1));
      terminal.restart();
      await waitUntil('the controller is connected again', async () => terminal.isConnected);
      const after = await sql("select count(*)::int as n from device_command where kind = 'lockdown_apply' and reference = ?", [`lockdown:${created.body.id}`]);
      expect(after[0].n).to.equal(3);
    } finally {
      await updates.close();
      await terminal.stop();
      await otherTerminal.stop();
    }
  });

  it('an override access level: its members refused at a locked-down door are let through by a remote opening; others stay refused', async () => {
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const terminal = simulator(device.serial_number, 1);
    terminal.start();
    try {
      await waitUntil('the controller is connected and reports its door', async () => terminal.isConnected && (await doorsOf(device.id)).length === 1);
      const [door] = await doorsOf(device.id);
      const always = (await rest(t.url, 'GET', `/public/v2/access_schedules?company_id=${company.id}`, { key: ws.key })).body[0];
      const guards = (
        await rest(t.url, 'POST', '/public/v2/access_levels', {
          key: ws.key,
          body: { company_id: company.id, name: 'Guards', schedule_id: always.id, door_ids: [door.id] },
        })
      ).body;
      const guard = await createEmployee(t.url, ws.key, company.id, { pin: '6601' });
      await createEmployee(t.url, ws.key, company.id, { pin: '6602' });
      await rest(t.url, 'POST', `/public/v2/access_levels/${guards.id}/employees`, { key: ws.key, body: [{ employee_id: guard.id }] });

      // Refused precisely, changing nothing: an evacuation has no override; a level of another company.
      const evacuate = await rest(t.url, 'POST', '/public/v2/lockdowns', {
        key: ws.key,
        body: { company_id: company.id, mode: 'evacuate', reason: 'Fire', override_access_level_id: guards.id },
      });
      expect(evacuate.status).to.equal(422);
      expect(evacuate.body.error.details.map((d: any) => [d.field, d.code])).to.deep.equal([['override_access_level_id', 'not_allowed']]);
      const otherCompany = await createCompany(t.url, ws.key);
      const otherAlways = (await rest(t.url, 'GET', `/public/v2/access_schedules?company_id=${otherCompany.id}`, { key: ws.key })).body[0];
      const foreign = (
        await rest(t.url, 'POST', '/public/v2/access_levels', {
          key: ws.key,
          body: { company_id: otherCompany.id, name: 'Other', schedule_id: otherAlways.id, door_ids: [] },
        })
      ).body;
      const gql = await rest(t.url, 'POST', '/graphql', {
        key: ws.key,
        body: {
          query: 'mutation ($input: CreateLockdownInput!) { createLockdown(input: $input) { id } }',
          variables: { input: { companyId: company.id, mode: 'lockdown', reason: 'Drill', overrideAccessLevelId: foreign.id } },
        },
      });
      expect(gql.body.errors[0].extensions.details.map((d: any) => [d.field, d.code])).to.deep.equal([['overrideAccessLevelId', 'company_mismatch']]);
      expect((await sql('select count(*)::int as n from lockdown where company_id = ?', [company.id]))[0].n).to.equal(0);

      const created = await rest(t.url, 'POST', '/public/v2/lockdowns', {
        key: ws.key,
        body: { company_id: company.id, mode: 'lockdown', reason: 'Intruder', override_access_level_id: guards.id },
      });
      expect(created.status).to.equal(202);
      expect(created.body.override_access_level_id).to.equal(guards.id);
      await waitUntil(
        'the controller locks the door and the lockdown shows it confirmed',
        async () =>
          terminal.store.lockedDownDoors.has(1) &&
          (await rest(t.url, 'GET', `/public/v2/lockdowns/${created.body.id}`, { key: ws.key })).body.doors_confirmed === 1,
      );

      // Another person is refused and stays outside; the guard is refused by the controller, then let through remotely.
      expect(terminal.punch({ pin: '6602' }).event).to.equal(23);
      await waitUntil(
        'the refusal of 6602 is stored',
        async () => (await sql("select 1 from door_event where device_id = ? and pin = '6602' and reason = 'lockdown'", [device.id])).length,
        (v) => v === 1,
      );
      expect(terminal.punch({ pin: '6601' }).event).to.equal(23);
      const opened = await waitUntil('the override opening is stored', async () => {
        const rows = await sql<{ event_code: number }>('select event_code from door_event where device_id = ? and event_code = 8', [device.id]);
        return rows.length === 1 && rows;
      });
      expect(opened).to.have.length(1);
      const overrides = await waitUntil('every override command succeeded', async () => {
        const rows = await sql<{ command: string; status: string }>(
          "select command, status from device_command where device_id = ? and kind = 'lockdown_override'",
          [device.id],
        );
        return rows.every((r) => r.status === 'succeeded') && rows;
      });
      expect(overrides).to.deep.equal([{ command: 'CONTROL DEVICE 01010105', status: 'succeeded' }]);
      expect(terminal.store.lockedDownDoors.has(1)).to.equal(true);
    } finally {
      await terminal.stop();
    }
  });
});
