import { expect } from 'chai';
import { SimulatedTerminal, type SimulatedTerminalConfig } from '../../src/simulator';
import { parseCommandReply, type ParsedCommand } from '../../src/simulator/command-parser';
import { createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

/** Multi-record commands: table rows travel many per command, a refused command is retried record by record. */
describe('multi-record commands: table rows reach a terminal many per command', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const terminals: SimulatedTerminal[] = [];
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'record_batches');
    ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 20, maxEmployees: 5000 });
  });
  afterEach(async () => {
    await Promise.all(terminals.splice(0).map((terminal) => terminal.stop()));
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const call = (method: string, path: string, body?: unknown) => rest(t.url, method, path, { key: ws.key, body });
  const officeHours = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_time: '08:30', end_time: '17:30' }));

  function terminal(serialNumber: string, options: Partial<SimulatedTerminalConfig> = {}) {
    const sim = new SimulatedTerminal({ serverUrl: t.url, serialNumber, family: 'acc', pollIntervalMs: 30, errorDelayMs: 100, lockCount: 4, ...options });
    const delivered: ParsedCommand[] = [];
    sim.on('poll', ({ reply }: { reply: string }) => delivered.push(...parseCommandReply(reply)));
    terminals.push(sim);
    sim.start();
    return { sim, delivered };
  }

  /** People of a company, written straight into the table (how they came to exist is not under test; the level that puts them on the terminal is). */
  async function people(companyId: number, count: number, firstPin: number) {
    return sql<{ id: number; pin: string }>(
      `insert into employee (workspace_id, company_id, name, lastname, code, pin, created_at, updated_at)
       select ?, ?, 'Person' || g, 'Lovelace', 'E' || g, g::text, now(), now() from generate_series(?::int, ?::int) g order by g returning id, pin`,
      [ws.id, companyId, firstPin, firstPin + count - 1],
    );
  }

  /** An access controller with 4 doors and a level over all of them, office hours. */
  async function controllerWithLevel(options: Partial<SimulatedTerminalConfig> = {}) {
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', time_zone: 'UTC' });
    const [{ company_id: companyId }] = await sql('select company_id from device where id = ?', [device.id]);
    const wire = terminal(device.serial_number, options);
    const doors = await waitUntil('the controller reports its four doors', async () => {
      const listed = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body as { id: number }[];
      return listed.length === 4 ? listed : null;
    });
    const schedule = (await call('POST', '/public/v2/access_schedules', { company_id: companyId, name: 'Office', intervals: officeHours })).body;
    const level = (
      await call('POST', '/public/v2/access_levels', { company_id: companyId, name: 'Everyone', schedule_id: schedule.id, door_ids: doors.map((d) => d.id) })
    ).body;
    return { device, companyId, level, ...wire };
  }
  const synced = (deviceId: number, count: number) =>
    waitUntil(
      `${count} people are synced to device ${deviceId}`,
      async () =>
        (await sql("select count(*)::int as n from device_user where device_id = ? and sync_status = 'synced' and present", [deviceId]))[0].n === count,
      60_000,
    );

  it('500 people on a level over 4 doors arrive in a few multi-record commands, and every one of them ends synced', async () => {
    const { device, companyId, level, sim, delivered } = await controllerWithLevel();
    const staff = await people(companyId, 500, 700000);
    expect(
      (
        await call(
          'POST',
          `/public/v2/access_levels/${level.id}/employees`,
          staff.map((e) => ({ employee_id: e.id })),
        )
      ).status,
    ).to.equal(200);
    await synced(device.id, 500);

    // One timezone row, 500 users and 500 authorisations (one per person: the level's doors as a mask) in a handful of commands.
    const data = delivered.filter((c) => c.verb === 'DATA UPDATE');
    expect(data.length).to.be.at.most(4);
    expect(data.filter((c) => c.table === 'user').flatMap((c) => c.records)).to.have.length(500);
    expect(data.filter((c) => c.table === 'userauthorize').flatMap((c) => c.records)).to.have.length(500);
    expect(data.findIndex((c) => c.table === 'timezone')).to.be.lessThan(data.findIndex((c) => c.table === 'userauthorize'));
    expect(sim.store.users.size).to.equal(500);
    expect(new Set([...sim.store.authorizations.values()].map((a) => `${a.pin}:${a.timezoneId}:${a.doorId}`)).size).to.equal(500);
    expect([...sim.store.authorizations.values()].every((a) => a.doorId === '15' && a.timezoneId === '2')).to.equal(true);
    // Each person's records concluded with the command that carried them.
    const [rows] = await sql(
      `select count(*) filter (where status = 'succeeded' and batch_id is not null)::int as carried, count(*) filter (where kind = 'record_batch')::int as batches
       from device_command where device_id = ?`,
      [device.id],
    );
    expect(rows.carried).to.equal(1000);
    expect(rows.batches).to.equal(2);

    // Taking the level away: each person's deletes (authorisations, templates, then the user, the
    // reference's order) travel table by table, and the time zone nobody uses any more goes last.
    const before = delivered.length;
    await call(
      'DELETE',
      `/public/v2/access_levels/${level.id}/employees`,
      staff.map((e) => ({ employee_id: e.id })),
    );
    await waitUntil(
      'the terminal holds no user and nothing is pending',
      async () =>
        sim.store.users.size === 0 &&
        (await sql("select count(*)::int as n from device_user where device_id = ? and sync_status = 'pending'", [device.id]))[0].n === 0,
      60_000,
    );
    const deletes = delivered.slice(before).filter((c) => c.verb === 'DATA DELETE');
    expect(deletes.map((c) => [c.table, c.records.length])).to.deep.equal([
      ['userauthorize', 500],
      ['templatev10', 500],
      ['biodata', 500],
      ['user', 500],
      ['timezone', 1],
    ]);
    expect(sim.store.authorizations.size).to.equal(0);
  });

  it('a command the terminal refuses is retried record by record: the good rows end synced, the bad one failed with its own return code', async () => {
    const bad = '810003';
    const { device, companyId, level, sim, delivered } = await controllerWithLevel({
      // The controller refuses a record of this pin (-11 bad parameters), and with it the whole command carrying it.
      failCommands: (c) => (c.verb === 'DATA UPDATE' && c.table === 'user' && c.records.some((r) => r.get('pin') === bad) ? -11 : null),
    });
    const staff = await people(companyId, 6, 810000);
    await call(
      'POST',
      `/public/v2/access_levels/${level.id}/employees`,
      staff.map((e) => ({ employee_id: e.id })),
    );
    await waitUntil(
      'the 6 rows are settled',
      async () => (await sql("select count(*)::int as n from device_user where device_id = ? and sync_status <> 'pending'", [device.id]))[0].n,
      (v) => v === 6,
      30_000,
    );
    const rows = await sql<{ pin: string; sync_status: string; return_code: number | null }>(
      'select pin, sync_status, return_code from device_user where device_id = ? order by pin',
      [device.id],
    );
    expect(rows.filter((r) => r.pin !== bad).every((r) => r.sync_status === 'synced' && r.return_code === null)).to.equal(true);
    expect(rows.find((r) => r.pin === bad)).to.include({ sync_status: 'failed', return_code: -11 });
    expect([...sim.store.users.keys()].sort()).to.deep.equal(
      staff
        .map((e) => e.pin)
        .filter((p) => p !== bad)
        .sort(),
    );
    // On the wire: the batch of six, then each of its records alone.
    const users = delivered.filter((c) => c.table === 'user');
    expect(users[0]!.records).to.have.length(6);
    expect(users.slice(1).map((c) => c.records.length)).to.deep.equal([1, 1, 1, 1, 1, 1]);
    const [batch] = await sql(
      "select status, return_code from device_command where device_id = ? and kind = 'record_batch' and command like 'DATA UPDATE user %'",
      [device.id],
    );
    expect(batch).to.deep.equal({ status: 'failed', return_code: -11 });
    // Queued alone, a record is no longer carried: it is a command of its own.
    const [carried] = await sql(
      "select count(*)::int as n from device_command where device_id = ? and kind <> 'record_batch' and batch_id is not null and command like 'DATA UPDATE user %'",
      [device.id],
    );
    expect(carried.n).to.equal(0);
  });

  it('a poll answered by hand: one negative Return for the whole command puts each of its records back in the queue alone', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const [{ company_id: companyId }] = await sql('select company_id from device where id = ?', [device.id]);
    const sn = device.serial_number;
    await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2&DeviceType=acc`);
    await iclock(t.url, 'POST', `/iclock/registry?SN=${sn}`, 'DeviceType=acc,~DeviceName=F20/M,LockCount=1,MaxPackageSize=2048000');
    const staff = await people(companyId, 3, 820000);
    await call(
      'POST',
      `/public/v2/devices/${device.id}/employees`,
      staff.map((e) => ({ employee_id: e.id, permission_id: 0 })),
    );
    const poll = async () => parseCommandReply((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text);
    const answer = (results: string[]) => iclock(t.url, 'POST', `/iclock/devicecmd?SN=${sn}`, results.join('\n'));
    const first = await poll();
    expect(first.map((c) => [c.table, c.records.length])).to.deep.equal([
      ['user', 3],
      ['userauthorize', 3],
    ]);
    await answer([`ID=${first[0]!.id}&Return=-12&CMD=DATA UPDATE`, `ID=${first[1]!.id}&Return=0&CMD=DATA UPDATE`]);
    const second = await poll();
    expect(second.map((c) => [c.table, c.records[0]!.get('pin')])).to.deep.equal(staff.map((e) => ['user', e.pin]));
    await answer(second.map((c, i) => `ID=${c.id}&Return=${i === 1 ? -1001 : 0}&CMD=DATA UPDATE`));
    const rows = await sql<{ pin: string; sync_status: string; return_code: number | null }>(
      'select pin, sync_status, return_code from device_user where device_id = ? order by pin',
      [device.id],
    );
    expect(rows.map((r) => [r.pin, r.sync_status, r.return_code])).to.deep.equal([
      [staff[0]!.pin, 'synced', null],
      [staff[1]!.pin, 'failed', -1001],
      [staff[2]!.pin, 'synced', null],
    ]);
    expect((await poll()).length).to.equal(0);
  });

  it('a multi-record command never answered, after its last attempt, puts its records back in the queue alone', async () => {
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const [{ company_id: companyId }] = await sql('select company_id from device where id = ?', [device.id]);
    const sn = device.serial_number;
    await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2&DeviceType=acc`);
    await iclock(t.url, 'POST', `/iclock/registry?SN=${sn}`, 'DeviceType=acc,~DeviceName=F20/M,LockCount=1,MaxPackageSize=2048000');
    const staff = await people(companyId, 2, 830000);
    await call(
      'POST',
      `/public/v2/devices/${device.id}/employees`,
      staff.map((e) => ({ employee_id: e.id, permission_id: 0 })),
    );
    const poll = async () => parseCommandReply((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text);
    expect((await poll()).map((c) => c.records.length)).to.deep.equal([2, 2]);
    // No answer: the sweep finds the commands sent long ago, on their last attempt.
    await sql(`update device_command set attempts = ?, sent_at = now() - interval '1 hour' where device_id = ? and status = 'sent'`, [
      t.config.commandMaxAttempts,
      device.id,
    ]);
    await t.app.terminals.sweep();
    const alone = await poll();
    expect(alone.map((c) => [c.table, c.records.length])).to.deep.equal([
      ['user', 1],
      ['user', 1],
      ['userauthorize', 1],
      ['userauthorize', 1],
    ]);
    const [batches] = await sql(
      "select count(*) filter (where status = 'failed')::int as failed from device_command where device_id = ? and kind = 'record_batch'",
      [device.id],
    );
    expect(batches.failed).to.equal(2);
    await iclock(t.url, 'POST', `/iclock/devicecmd?SN=${sn}`, alone.map((c) => `ID=${c.id}&Return=0&CMD=DATA UPDATE`).join('\n'));
    const rows = await sql("select count(*)::int as n from device_user where device_id = ? and sync_status = 'synced'", [device.id]);
    expect(rows[0].n).to.equal(2);
  });
});
