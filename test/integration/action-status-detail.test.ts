import { expect } from 'chai';
import { formatLocalTime } from '../../src/protocol';
import { CLOCK_SYNC_TOLERANCE_SECONDS } from '../../src/services/fleet/device-action.service';
import { createWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { createTerminalDevice, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

describe('status_detail: why a door or device action is where it is', () => {
  let t: TestApp;
  let key: string;
  let clock = Date.parse('2026-04-01T08:00:00Z');
  const now = () => new Date(clock);
  before(async () => {
    t = await startTestApp(
      { TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000', TIMEGATE_PENDING_ACTIONS_PER_DEVICE: '10' },
      'status_detail',
      { now },
    );
    key = (await createWorkspace(t.url, { maxCompanies: 100, maxDevices: 100 })).key;
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const unlock = (serial: string) => rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: serial, duration: 5 } });
  const doorAction = async (id: string) => (await rest(t.url, 'GET', `/v1/devices/door/actions/${id}`, { key })).body;
  const act = (deviceId: number, type: string) => rest(t.url, 'POST', `/public/v2/devices/${deviceId}/actions`, { key, body: { type } });
  const deviceAction = async (deviceId: number, id: string) => (await rest(t.url, 'GET', `/public/v2/devices/${deviceId}/actions/${id}`, { key })).body;
  const commandIds = (text: string) => (text === 'OK' ? [] : text.split('\n').map((line) => line.split(':')[1]!));
  const poll = async (serial: string) => commandIds((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${serial}`)).text);
  const answer = (serial: string, id: string, code: number) => iclock(t.url, 'POST', `/iclock/devicecmd?SN=${serial}`, `ID=${id}&Return=${code}&CMD=X`);
  /** Brings a terminal online (a poll, the presence batch written). */
  async function online(serial: string) {
    await poll(serial);
    await t.app.terminals.flush();
  }

  it('device_pending while it waits for a terminal that never connected, device_offline for one that went silent; REST and GraphQL', async () => {
    const fresh = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    const waiting = await unlock(fresh.serial_number);
    expect(waiting.body).to.include({ status: 'queued', status_detail: 'device_pending' });
    const q = await gql(t.url, key, 'query ($id: String!) { doorAction(actionId: $id) { status statusDetail } }', { id: waiting.body.action_id });
    expect(q.data?.doorAction ?? q).to.deep.equal({ status: 'queued', statusDetail: 'device_pending' });

    const silent = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    await online(silent.serial_number);
    clock += 300_000;
    await t.app.terminals.sweep();
    const door = await unlock(silent.serial_number);
    expect(door.body).to.include({ status: 'queued', status_detail: 'device_offline' });
    const reboot = await act(silent.id, 'reboot');
    expect(reboot.body).to.include({ status: 'queued', status_detail: 'device_offline' });
    const listed = await gql(t.url, key, 'query ($id: Int!) { deviceActions(deviceId: $id) { nodes { status statusDetail } } }', { id: silent.id });
    expect(listed.data.deviceActions.nodes).to.deep.equal([{ status: 'queued', statusDetail: 'device_offline' }]);
    // Back online: nothing to say any more.
    await online(silent.serial_number);
    expect((await deviceAction(silent.id, reboot.body.action_id)).status_detail).to.equal(null);
  });

  it('no_answer when the terminal fetched it and never answered: a device action while it is retried and once it failed; a door action stays sent, with its first sent_at', async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    await online(device.serial_number);
    const door = await unlock(device.serial_number);
    const reboot = await act(device.id, 'reboot');
    expect(door.body.status_detail).to.equal(null);
    // The unlock's deadline is shorter than its retries: keep the command deliverable.
    await sql('update device_command set expires_at = null where reference = ?', [`door_action:${door.body.action_id}`]);
    let firstSent: string | null = null;
    for (let attempt = 1; attempt <= t.config.commandMaxAttempts; attempt++) {
      expect(await poll(device.serial_number)).to.have.length(2);
      const delivered = await doorAction(door.body.action_id);
      expect(delivered).to.include({ status: 'sent', status_detail: null });
      firstSent ??= delivered.sent_at;
      expect(delivered.sent_at).to.equal(firstSent);
      clock += (t.config.commandTimeoutSeconds + 1) * 1000;
      await t.app.terminals.sweep();
      expect(await doorAction(door.body.action_id)).to.include({
        status: 'sent',
        status_detail: 'no_answer',
        sent_at: firstSent,
        return_code: null,
        completed_at: null,
      });
      const device_ = await deviceAction(device.id, reboot.body.action_id);
      if (attempt < t.config.commandMaxAttempts) expect(device_).to.include({ status: 'queued', status_detail: 'no_answer' });
      else expect(device_).to.include({ status: 'failed', status_detail: 'no_answer' });
    }
  });

  it('an unlock the controller took and never answered (the door opened) is sent with sent_at and no_answer, never expired; announced; not counted as pending', async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc', time_zone: 'UTC' });
    await online(device.serial_number);
    const door = await unlock(device.serial_number);
    const [command] = await poll(device.serial_number);
    expect(command).to.be.a('string');
    // The controller opens the door and logs it (rtlog 8: remote opening), but never posts the command's result.
    const at = formatLocalTime(new Date(clock + 1000), 'UTC');
    const rtlog = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${device.serial_number}&table=rtlog`,
      `time=${at}\tpin=0\tcardno=0\teventaddr=1\tevent=8\tinoutstatus=2\tverifytype=200\tindex=1\n`,
    );
    expect(rtlog.status, rtlog.text).to.equal(200);
    const [opened] = await sql(`select count(*)::int as n from door_event where device_id = ? and event_code = 8`, [device.id]);
    expect(opened.n).to.equal(1);
    // Past the command timeout and the unlock's deadline (both 60 s by default): the sweep concludes it.
    clock += (Math.max(t.config.commandTimeoutSeconds, t.config.doorActionExpirySeconds) + 1) * 1000;
    await t.app.terminals.sweep();
    const read = await doorAction(door.body.action_id);
    expect(read).to.include({ status: 'sent', status_detail: 'no_answer', return_code: null, completed_at: null });
    expect(read.sent_at).to.be.a('string');
    const graphql = await gql(t.url, key, 'query ($id: String!) { doorAction(actionId: $id) { status statusDetail sentAt } }', { id: door.body.action_id });
    expect(graphql.data.doorAction).to.deep.include({ status: 'sent', statusDetail: 'no_answer', sentAt: read.sent_at });
    // Not sent again: the door is not opened a second time, late.
    expect(await poll(device.serial_number)).to.deep.equal([]);
    clock += 3600_000;
    await t.app.terminals.sweep();
    expect(await doorAction(door.body.action_id)).to.include({ status: 'sent', status_detail: 'no_answer' });
    // Subscribers and webhooks were told: the last door.action.updated says no_answer.
    const [last] = await sql(`select data from event where type = 'door.action.updated' and data->>'action_id' = ? order by id desc limit 1`, [
      door.body.action_id,
    ]);
    expect(last.data).to.include({ status: 'sent', status_detail: 'no_answer', sent_at: read.sent_at });
  });

  it('door actions delivered without an answer wait for nothing: a controller that never answers is not refused device_queue_full after the bound', async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    await online(device.serial_number);
    for (let i = 0; i < t.config.pendingActionsPerDevice; i++) expect((await unlock(device.serial_number)).status).to.equal(202);
    expect((await unlock(device.serial_number)).status).to.equal(429);
    let taken = 0;
    while (taken < t.config.pendingActionsPerDevice) {
      const ids = await poll(device.serial_number);
      expect(ids.length).to.be.greaterThan(0);
      taken += ids.length;
    }
    clock += (t.config.commandTimeoutSeconds + 1) * 1000;
    await t.app.terminals.sweep();
    const [row] = await sql(`select count(*)::int as n from door_action where device_id = ? and status = 'sent' and status_detail = 'no_answer'`, [device.id]);
    expect(row.n).to.equal(t.config.pendingActionsPerDevice);
    expect((await unlock(device.serial_number)).status).to.equal(202);
  });

  it("device_refused with the terminal's return code", async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    await online(device.serial_number);
    const door = await unlock(device.serial_number);
    const reboot = await act(device.id, 'reboot');
    const [doorCommand, rebootCommand] = await poll(device.serial_number);
    await answer(device.serial_number, doorCommand!, -11);
    await answer(device.serial_number, rebootCommand!, -1002);
    expect(await doorAction(door.body.action_id)).to.include({ status: 'failed', status_detail: 'device_refused', return_code: -11 });
    const failed = await deviceAction(device.id, reboot.body.action_id);
    expect(failed).to.include({ status: 'failed', status_detail: 'device_refused' });
    expect(failed.result.return_code).to.equal(-1002);
  });

  it('deadline_passed for a door action and a device action that were never delivered', async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    const door = await unlock(device.serial_number);
    const reboot = await act(device.id, 'reboot');
    clock += (t.config.deviceActionExpirySeconds + 1) * 1000;
    await t.app.terminals.sweep();
    expect(await doorAction(door.body.action_id)).to.include({ status: 'expired', status_detail: 'deadline_passed', sent_at: null });
    expect(await deviceAction(device.id, reboot.body.action_id)).to.include({ status: 'expired', status_detail: 'deadline_passed' });
  });

  it(`clock.sync succeeds only when the clock read afterwards is within ${CLOCK_SYNC_TOLERANCE_SECONDS} s: clock_skew_after_sync beyond, clock_not_read without a reading`, async () => {
    const device = await createTerminalDevice(t.url, key, { time_zone: 'UTC' });
    await online(device.serial_number);
    /** One real-time ATTLOG record stamped `skew` seconds off the service clock. */
    const punchWithSkew = (skew: number) =>
      iclock(
        t.url,
        'POST',
        `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG`,
        `41\t${formatLocalTime(new Date(clock + skew * 1000), 'UTC')}\t0\t1\t0\t0\n`,
      );
    const sync = async () => {
      const created = await act(device.id, 'clock.sync');
      const [id] = await poll(device.serial_number);
      await answer(device.serial_number, id!, 0);
      const action = await deviceAction(device.id, created.body.action_id);
      expect(action).to.include({ status: 'sent', status_detail: 'awaiting_clock_reading' });
      clock += 5_000;
      return created.body.action_id as string;
    };

    // A lone record is only a candidate: a second one a minute later, its time advanced with ours, confirms it.
    const good = await sync();
    await punchWithSkew(1);
    expect(await deviceAction(device.id, good)).to.deep.include({ status: 'sent', status_detail: 'awaiting_clock_reading' });
    clock += 60_000;
    await punchWithSkew(1);
    expect(await deviceAction(device.id, good)).to.deep.include({ status: 'succeeded', status_detail: null });

    const bad = await sync();
    await punchWithSkew(40);
    clock += 60_000;
    await punchWithSkew(40);
    const failed = await deviceAction(device.id, bad);
    expect(failed).to.include({ status: 'failed', status_detail: 'clock_skew_after_sync' });
    expect(failed.result.skew_after).to.equal(40);

    const unread = await sync();
    clock += (t.config.deviceActionExpirySeconds + 1) * 1000;
    await t.app.terminals.sweep();
    const expired = await deviceAction(device.id, unread);
    expect(expired).to.include({ status: 'failed', status_detail: 'clock_not_read' });
    expect(expired.result.skew_after).to.equal(null);
  });

  it("yesterday's backlog sent one record per upload reads no clock: no skew, no alert, no clock.sync concluded; real-time punches from a clock 300 s fast read +300 s", async () => {
    const device = await createTerminalDevice(t.url, key, { time_zone: 'UTC' });
    await online(device.serial_number);
    const upload = (at: Date) =>
      iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG`, `42\t${formatLocalTime(at, 'UTC')}\t0\t1\t0\t0\n`);
    const readDevice = async () => (await rest(t.url, 'GET', `/public/v2/devices/${device.id}`, { key })).body;
    const alerts = async () =>
      (await sql("select data from event where type = 'device.clock_skew' and (data->>'device_id')::int = ?", [device.id])).map((r) => r.data);
    // The operator asked for a clock.sync; the terminal took it and waits for a reading.
    const created = await act(device.id, 'clock.sync');
    const [id] = await poll(device.serial_number);
    await answer(device.serial_number, id!, 0);
    clock += 5_000;

    // Back online, the terminal re-sends yesterday's punches one per upload: back to back, then slower.
    const yesterday = clock - 86_400_000;
    for (const [i, hour] of [8, 9, 12, 13, 17, 18].entries()) {
      expect((await upload(new Date(yesterday + (hour - 8) * 3_600_000))).text).to.match(/^OK/);
      clock += i < 3 ? 1_000 : 20_000;
    }
    expect(await sql('select count(*)::int as n from punch where device_id = ?', [device.id])).to.deep.equal([{ n: 6 }]);
    expect(await readDevice()).to.include({ clock_skew_seconds: null, clock_checked_at: null });
    expect(await alerts()).to.deep.equal([]);
    expect(await deviceAction(device.id, created.body.action_id)).to.include({ status: 'sent', status_detail: 'awaiting_clock_reading' });
    // A record re-sent (already stored) is no candidate either.
    await upload(new Date(yesterday + 10 * 3_600_000));
    clock += 60_000;
    await upload(new Date(yesterday + 10 * 3_600_000));
    expect((await readDevice()).clock_skew_seconds).to.equal(null);

    // Real-time punches from a clock 300 s fast: the second, a minute later, confirms the first.
    await upload(new Date(clock + 300_000));
    clock += 60_000;
    await upload(new Date(clock + 300_000));
    expect((await readDevice()).clock_skew_seconds).to.equal(300);
    const concluded = await deviceAction(device.id, created.body.action_id);
    expect(concluded).to.include({ status: 'failed', status_detail: 'clock_skew_after_sync' });
    expect(concluded.result.skew_after).to.equal(300);
    expect(await alerts()).to.deep.equal([]);
    // From now on a single real-time punch reads the clock: it agrees with the reading.
    clock += 15 * 60_000;
    await upload(new Date(clock + 301_000));
    expect((await readDevice()).clock_skew_seconds).to.equal(301);
    expect((await alerts()).map((a) => a.clock_skew_seconds)).to.deep.equal([301]);
  });
});
