import { expect } from 'chai';
import { Client } from 'pg';
import { subscribe } from '../support/events';
import { createCompany, createDevice, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { iclock, registerAccessTerminal, type PairedTerminal } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression (a load test saw a lockdown's `doors_confirmed` arrive as 3, 1, 2): the outbox orders
// events by transaction id, which a transaction changing lockdown commands drew at its first write
// (the command's status), before it locked the lockdown row and counted. A count made second could
// so have its event delivered first. Such a transaction now takes an advisory lock on the lockdown
// before that write (the lockdown handler's `lockFirst`): a controller's results, the sweep that
// fails a command nobody answered; and so does the re-sending of a restarted controller's doors.
//
// The race is held open from a separate connection: it locks one command's row, so the transaction
// changing that command blocks on its first write (having drawn its id, when nothing keeps it from
// doing so first); the other change runs meanwhile; then the row is released.
describe('lockdown event order: two doors counted at once', () => {
  let t: TestApp;
  let offset = 0;
  before(async () => {
    t = await startTestApp(
      { TIMEGATE_WEBHOOK_POLL_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000', TIMEGATE_COMMAND_MAX_ATTEMPTS: '1' },
      'lockdown-event-order',
      { now: () => new Date(Date.now() + offset) },
    );
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
    waitUntil(`controller ${c.serial} is handed its lockdown command`, async () => {
      const poll = await iclock(t.url, 'GET', `/iclock/getrequest?SN=${c.serial}`, undefined, c.session.cookie);
      return /^C:(\w+):CONTROL DEVICE 06010100$/m.exec(poll.text)?.[1];
    });

  /**
   * Runs `first` while another connection holds the row of `held` (a device's command), so that it
   * stops at its write of that row; once it waits there, runs `second` and waits until that one
   * completed or waits for `first`; then releases the row. Returns both results.
   */
  async function heldAtFirstWrite<A, B>(held: { deviceId: number; commandId: string }, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
    const holder = new Client({ connectionString: t.config.databaseUrl! });
    await holder.connect();
    try {
      await holder.query('begin');
      const locked = await holder.query('select id from device_command where device_id = $1 and command_id = $2 for update', [held.deviceId, held.commandId]);
      expect(locked.rows).to.have.length(1);
      const holderPid = (await holder.query('select pg_backend_pid() as pid')).rows[0].pid as number;
      const firstDone = first();
      const firstPid = await waitUntil('the first transaction waits for the held row', async () => (await blockedBy(holderPid))[0]);
      let secondDone = false;
      const secondResult = second().finally(() => (secondDone = true));
      await waitUntil('the second transaction completed or waits for the first', async () => secondDone || (await blockedBy(firstPid)).length > 0);
      await holder.query('commit');
      return [await firstDone, await secondResult];
    } finally {
      await holder.end();
    }
  }

  const answer = (c: { serial: string; session: PairedTerminal }, commandId: string) =>
    iclock(t.url, 'POST', `/iclock/devicecmd?SN=${c.serial}`, `ID=${commandId}&Return=0&CMD=CONTROL DEVICE`, {
      ...c.session.cookie,
      'Content-Type': 'application/push;charset=UTF-8',
    });

  it("the later of two controllers' counts is never delivered first: doors_confirmed arrives as 1, 2 while the first answer is held at its first write", async function () {
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
    try {
      const created = await rest(t.url, 'POST', '/public/v2/lockdowns', { key: ws.key, body: { company_id: company.id, mode: 'lockdown', reason: 'Drill' } });
      expect(created.status, created.text).to.equal(202);
      expect(created.body).to.deep.include({ doors_pending: 2, doors_confirmed: 0 });
      const firstCommand = await fetchLockdownCommand(first);
      const secondCommand = await fetchLockdownCommand(second);

      // Controller 1's answer stops at its command's update; controller 2 answers meanwhile.
      const replies = await heldAtFirstWrite(
        { deviceId: first.id, commandId: firstCommand },
        () => answer(first, firstCommand),
        () => answer(second, secondCommand),
      );
      expect(replies.map((r) => r.text)).to.deep.equal(['OK', 'OK']);

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
      await updates.close();
    }
  });

  it("a poll that delivers a lockdown's command is answered while another transaction holds the lockdown: a delivery changes no door and takes no lock", async function () {
    this.timeout(60_000);
    const ws = await createWorkspace(t.url, { maxDevices: 10 });
    const company = await createCompany(t.url, ws.key);
    const door = await controller(ws.key, company.id);
    const created = await rest(t.url, 'POST', '/public/v2/lockdowns', { key: ws.key, body: { company_id: company.id, mode: 'lockdown', reason: 'Drill' } });
    expect(created.status, created.text).to.equal(202);
    const holder = new Client({ connectionString: t.config.databaseUrl! });
    await holder.connect();
    try {
      // Another controller's answer being counted holds the lockdown's row until its commit.
      await holder.query('begin');
      expect((await holder.query('select id from lockdown where id = $1 for update', [created.body.id])).rows).to.have.length(1);
      const holderPid = (await holder.query('select pg_backend_pid() as pid')).rows[0].pid as number;
      let answered = false;
      const poll = iclock(t.url, 'GET', `/iclock/getrequest?SN=${door.serial}`, undefined, door.session.cookie).finally(() => (answered = true));
      await waitUntil('the poll was answered or waits for the held lockdown', async () => answered || (await blockedBy(holderPid)).length > 0);
      expect(await blockedBy(holderPid), 'transactions waiting for the held lockdown').to.deep.equal([]);
      expect((await poll).text).to.match(/^C:\w+:CONTROL DEVICE 06010100$/m);
      const read = (await rest(t.url, 'GET', `/public/v2/lockdowns/${created.body.id}`, { key: ws.key })).body;
      expect(read).to.deep.include({ doors_pending: 1, doors_confirmed: 0 });
    } finally {
      await holder.query('commit');
      await holder.end();
    }
  });

  it('a door failed by the sweep (no answer) and a door confirmed at that moment are delivered in count order: doors_failed never goes back', async function () {
    this.timeout(60_000);
    const ws = await createWorkspace(t.url, { maxDevices: 10 });
    const company = await createCompany(t.url, ws.key);
    const answering = await controller(ws.key, company.id);
    const silent = await controller(ws.key, company.id);
    const updates = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription { lockdownUpdated(companyId: ${company.id}) { lockdown { change doorsPending doorsConfirmed doorsFailed door { deviceId state detail } } } }`,
    );
    try {
      const created = await rest(t.url, 'POST', '/public/v2/lockdowns', { key: ws.key, body: { company_id: company.id, mode: 'lockdown', reason: 'Drill' } });
      expect(created.status, created.text).to.equal(202);
      // The silent controller fetches its command and never answers; past the timeout (its only attempt), the sweep fails it.
      const unanswered = await fetchLockdownCommand(silent);
      offset += (t.config.commandTimeoutSeconds + 1) * 1000;
      const answered = await fetchLockdownCommand(answering);

      // The sweep stops at the silent controller's command; the other controller answers meanwhile.
      const [, reply] = await heldAtFirstWrite(
        { deviceId: silent.id, commandId: unanswered },
        () => t.app.terminals.sweep(),
        () => answer(answering, answered),
      );
      expect(reply.text).to.equal('OK');

      const events = await updates.waitFor(3);
      expect(events[0].lockdown).to.deep.include({ change: 'created', doorsPending: 2, doorsConfirmed: 0, doorsFailed: 0 });
      // The sweep counted first (the answer waited for it): its event comes first, and the counts only move forward.
      expect(events.slice(1).map((e) => [e.lockdown.door, e.lockdown.doorsPending, e.lockdown.doorsConfirmed, e.lockdown.doorsFailed])).to.deep.equal([
        [{ deviceId: silent.id, state: 'failed', detail: 'no_answer' }, 1, 0, 1],
        [{ deviceId: answering.id, state: 'confirmed', detail: null }, 0, 1, 1],
      ]);
    } finally {
      await updates.close();
    }
  });
  it('a controller restarting (its door back to pending) while another door is confirmed: the events end with the counts that are true', async function () {
    this.timeout(60_000);
    const ws = await createWorkspace(t.url, { maxDevices: 10 });
    const company = await createCompany(t.url, ws.key);
    const restarting = await controller(ws.key, company.id);
    const answering = await controller(ws.key, company.id);
    const updates = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription { lockdownUpdated(companyId: ${company.id}) { lockdown { change doorsPending doorsConfirmed door { deviceId state detail } } } }`,
    );
    try {
      const created = await rest(t.url, 'POST', '/public/v2/lockdowns', { key: ws.key, body: { company_id: company.id, mode: 'lockdown', reason: 'Drill' } });
      expect(created.status, created.text).to.equal(202);
      const confirmedFirst = await fetchLockdownCommand(restarting);
      expect((await answer(restarting, confirmedFirst)).text).to.equal('OK');
      const answered = await fetchLockdownCommand(answering);

      // The answer stops at its command's update; meanwhile the other controller restarts and handshakes (its door is re-sent).
      const [reply, handshake] = await heldAtFirstWrite(
        { deviceId: answering.id, commandId: answered },
        () => answer(answering, answered),
        () => iclock(t.url, 'GET', `/iclock/cdata?SN=${restarting.serial}&options=all&pushver=3.1.2&DeviceType=acc`, undefined, restarting.session.cookie),
      );
      expect(reply.text).to.equal('OK');
      expect(handshake.text).to.match(/RegistryCode=/);

      const events = await updates.waitFor(4);
      expect(events.slice(1).map((e) => [e.lockdown.door, e.lockdown.doorsPending, e.lockdown.doorsConfirmed])).to.deep.equal([
        [{ deviceId: restarting.id, state: 'confirmed', detail: null }, 1, 1],
        [{ deviceId: answering.id, state: 'confirmed', detail: null }, 0, 2],
        [{ deviceId: restarting.id, state: 'pending', detail: 'controller_restarted' }, 1, 1],
      ]);
      const read = (await rest(t.url, 'GET', `/public/v2/lockdowns/${created.body.id}`, { key: ws.key })).body;
      expect([read.doors_pending, read.doors_confirmed]).to.deep.equal([1, 1]);
    } finally {
      await updates.close();
    }
  });
});
