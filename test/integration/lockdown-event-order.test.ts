import { expect } from 'chai';
import { Client } from 'pg';
import { subscribe } from '../support/events';
import { createCompany, createDevice, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { eventually, iclock, registerAccessTerminal, type PairedTerminal } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression (a load test saw a lockdown's `doors_confirmed` arrive as 3, 1, 2): the outbox orders
// events by transaction id, which the transaction recording a controller's result drew at its first
// write (the command's status), before it locked the lockdown row and counted. A controller whose
// count came second could so have its event delivered first. The results transaction now takes an
// advisory lock on the lockdown before that write (the lockdown handler's `lockFirst`).
//
// The race is held open from a separate connection: it locks controller 1's command row, so the
// transaction recording controller 1's answer blocks on its first write (having drawn its id, when
// nothing keeps it from doing so first); controller 2 answers meanwhile; then the row is released.
describe('lockdown event order: two controllers answering at once', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'lockdown-event-order');
  });
  after(() => t.stop());

  // Observed from the app's pool, outside the holder's transaction (pg_stat_activity is read once per transaction).
  const blockedBy = async (pid: number) =>
    (
      await t.app.database.orm.em
        .fork()
        .getConnection()
        .execute<{ pid: number }[]>('select pid from pg_stat_activity where ? = any(pg_blocking_pids(pid))', [pid])
    ).map((r) => r.pid);

  /** An access controller with one door, registered and paired over the Security PUSH handshake. */
  async function controller(key: string, companyId: number): Promise<{ id: number; serial: string; session: PairedTerminal }> {
    const device = await createDevice(t.url, key, companyId, { mode_type: 'acc' });
    const session = await registerAccessTerminal(
      t.url,
      device.serial_number,
      'DeviceType=acc,~DeviceName=inBio160,FirmVer=AC Ver 5.7.8,PushVersion=3.1.2,LockCount=1,ReaderCount=1',
    );
    return { id: device.id, serial: device.serial_number, session };
  }

  /** The controller polls until it is handed its lockdown command (operation 06); returns the command id. */
  const fetchLockdownCommand = (c: { serial: string; session: PairedTerminal }) =>
    eventually(async () => {
      const poll = await iclock(t.url, 'GET', `/iclock/getrequest?SN=${c.serial}`, undefined, c.session.cookie);
      return /^C:(\w+):CONTROL DEVICE 06010100$/m.exec(poll.text)?.[1];
    });

  const answer = (c: { serial: string; session: PairedTerminal }, commandId: string) =>
    iclock(t.url, 'POST', `/iclock/devicecmd?SN=${c.serial}`, `ID=${commandId}&Return=0&CMD=CONTROL DEVICE`, {
      ...c.session.cookie,
      'Content-Type': 'application/push;charset=UTF-8',
    });

  it('the later of two door counts is never delivered first: doors_confirmed arrives as 1, 2 while the first answer is held at its first write', async function () {
    this.timeout(60_000);
    const ws = await createWorkspace(t.url, { maxDevices: 10 });
    const company = await createCompany(t.url, ws.key);
    const first = await controller(ws.key, company.id);
    const second = await controller(ws.key, company.id);
    const updates = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription { lockdownUpdated(companyId: ${company.id}) { lockdown { change doorsConfirmed door { deviceId state } } } }`,
    );
    const holder = new Client({ connectionString: t.config.databaseUrl! });
    await holder.connect();
    try {
      const created = await rest(t.url, 'POST', '/public/v2/lockdowns', { key: ws.key, body: { company_id: company.id, mode: 'lockdown', reason: 'Drill' } });
      expect(created.status, created.text).to.equal(202);
      expect(created.body).to.deep.include({ doors_pending: 2, doors_confirmed: 0 });
      const firstCommand = await fetchLockdownCommand(first);
      const secondCommand = await fetchLockdownCommand(second);

      // Controller 1's command row, locked: recording its answer stops at the command's update.
      await holder.query('begin');
      const locked = await holder.query(`select id from device_command where device_id = $1 and command_id = $2 for update`, [first.id, firstCommand]);
      expect(locked.rows).to.have.length(1);
      const holderPid = (await holder.query('select pg_backend_pid() as pid')).rows[0].pid as number;
      const firstAnswer = answer(first, firstCommand);
      const firstPid = await eventually(async () => (await blockedBy(holderPid))[0]);

      // Controller 2 answers now: it either completes, or waits for controller 1's transaction (the fix).
      let secondDone = false;
      const secondAnswer = answer(second, secondCommand).finally(() => (secondDone = true));
      await eventually(async () => secondDone || (await blockedBy(firstPid)).length > 0);
      await holder.query('commit');
      expect((await firstAnswer).text).to.equal('OK');
      expect((await secondAnswer).text).to.equal('OK');

      const events = await updates.waitFor(3);
      expect(events[0].lockdown).to.deep.include({ change: 'created', doorsConfirmed: 0 });
      const doors = events.slice(1).map((e) => e.lockdown);
      expect(doors.map((d) => d.door.state)).to.deep.equal(['confirmed', 'confirmed']);
      expect(doors.map((d) => d.door.deviceId)).to.have.members([first.id, second.id]);
      // Delivered in count order: each event's count at least the previous one's, the last one the total.
      expect(doors.map((d) => d.doorsConfirmed)).to.deep.equal([1, 2]);
      const read = (await rest(t.url, 'GET', `/public/v2/lockdowns/${created.body.id}`, { key: ws.key })).body;
      expect(read.doors_confirmed).to.equal(2);
    } finally {
      await holder.end();
      await updates.close();
    }
  });
});
