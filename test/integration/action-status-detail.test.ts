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
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'status_detail', { now });
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

  it('no_answer when the terminal fetched it and never answered, while it is retried and once it failed', async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    await online(device.serial_number);
    const door = await unlock(device.serial_number);
    expect(door.body.status_detail).to.equal(null);
    // The unlock's deadline is shorter than its retries: keep the command deliverable.
    await sql('update device_command set expires_at = null where reference = ?', [`door_action:${door.body.action_id}`]);
    for (let attempt = 1; attempt <= t.config.commandMaxAttempts; attempt++) {
      expect(await poll(device.serial_number)).to.have.length(1);
      expect(await doorAction(door.body.action_id)).to.include({ status: 'sent', status_detail: null });
      clock += (t.config.commandTimeoutSeconds + 1) * 1000;
      await t.app.terminals.sweep();
      const read = await doorAction(door.body.action_id);
      if (attempt < t.config.commandMaxAttempts) expect(read).to.include({ status: 'queued', status_detail: 'no_answer' });
      else expect(read).to.include({ status: 'failed', status_detail: 'no_answer', return_code: null });
    }
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

    const good = await sync();
    await punchWithSkew(1);
    expect(await deviceAction(device.id, good)).to.deep.include({ status: 'succeeded', status_detail: null });

    const bad = await sync();
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
});
