import { expect } from 'chai';
import pino from 'pino';
import { createApp, type App } from '../../src/app';
import { SimulatedTerminal, type SimulatedTerminalConfig } from '../../src/simulator';
import { parseCommandReply } from '../../src/simulator/command-parser';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

describe('sync engine: assignments and templates reach the terminals', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  const terminals: SimulatedTerminal[] = [];
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'device-sync');
    ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 100 });
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  afterEach(async () => {
    await Promise.all(terminals.splice(0).map((terminal) => terminal.stop()));
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const send = (method: string, path: string, body?: unknown, key = ws.key) => rest(t.url, method, path, { key, body });
  const pin = () => String(Math.floor(Math.random() * 1e9));
  const employee = (overrides: Record<string, unknown> = {}) => createEmployee(t.url, ws.key, companyId, { pin: pin(), ...overrides });
  const device = (family: 'att' | 'acc' = 'att') => createDevice(t.url, ws.key, companyId, { mode_type: family });

  function terminal(serialNumber: string, family: 'att' | 'acc', options: Partial<SimulatedTerminalConfig> = {}): SimulatedTerminal {
    const sim = new SimulatedTerminal({ serverUrl: t.url, serialNumber, family, pollIntervalMs: 40, errorDelayMs: 100, ...options });
    terminals.push(sim);
    sim.start();
    return sim;
  }

  async function assignment(employeeId: number, deviceId: number) {
    const listed = await send('GET', `/public/v2/employees/${employeeId}/devices`);
    return listed.body.find((a: any) => a.device_id === deviceId) as { sync_status: string; return_code: number | null };
  }
  const settles = (employeeId: number, deviceId: number, status = 'synced') =>
    waitUntil(`employee ${employeeId} on device ${deviceId} is ${status}`, async () => {
      const a = await assignment(employeeId, deviceId);
      return a?.sync_status === status ? a : null;
    });
  const assign = (employeeId: number, deviceId: number, permission = 0) =>
    send('POST', `/public/v2/employees/${employeeId}/devices`, [{ device_id: deviceId, permission_id: permission }]);

  describe('users', () => {
    it('attendance: an assignment reaches the terminal on its next poll and becomes synced', async () => {
      const d = await device('att');
      const sim = terminal(d.serial_number, 'att');
      const e = await employee({ name: 'Grace', lastname: 'Hopper' });
      expect((await assign(e.id, d.id, 14)).body[0].sync_status).to.equal('pending');
      expect(await settles(e.id, d.id)).to.include({ sync_status: 'synced', return_code: null });
      expect(sim.store.users.get(e.pin!)).to.include({ name: 'Grace Hopper', privilege: '14' });
      const [command] = await sql(`select command, kind, status, reference from device_command where device_id = ? and kind = 'user_sync'`, [d.id]);
      expect(command).to.include({ command: `DATA UPDATE USERINFO PIN=${e.pin}\tName=Grace Hopper\tPri=14`, status: 'succeeded' });
    });

    it('access control: user and authorisation on every door (LockCount) reach the terminal', async () => {
      const d = await device('acc');
      const sim = terminal(d.serial_number, 'acc');
      const e = await employee({ name: 'Alan', lastname: 'Turing' });
      await assign(e.id, d.id, 0);
      await settles(e.id, d.id);
      expect(sim.store.users.get(e.pin!)).to.include({ name: 'Alan Turing', privilege: '0' });
      expect([...sim.store.authorizations.values()]).to.deep.equal([{ pin: e.pin, timezoneId: '1', doorId: '1', devId: '1' }]);
      const commands = await sql(`select command from device_command where device_id = ? and kind = 'user_sync' order by step`, [d.id]);
      expect(commands.map((c) => c.command)).to.deep.equal([
        `DATA UPDATE user CardNo=\tPin=${e.pin}\tPassword=\tGroup=0\tStartTime=0\tEndTime=0\tName=Alan Turing\tPrivilege=0`,
        `DATA UPDATE userauthorize Pin=${e.pin}\tAuthorizeTimezoneId=1\tAuthorizeDoorId=1\tDevID=1`,
      ]);
    });

    it('a TAB/LF in a stored name cannot inject a field or a command: it arrives as one field', async () => {
      const d = await device('att');
      const sim = terminal(d.serial_number, 'att');
      const e = await employee();
      // The API refuses control characters, so plant them the way legacy data would arrive.
      await sql(`update employee set name = ? where id = ?`, ['Eve\tPIN=999\nC:1:CLEAR DATA', e.id]);
      await assign(e.id, d.id);
      await settles(e.id, d.id);
      expect(sim.store.users.get(e.pin!)!.name).to.equal('EvePIN=999C:1:CLEAR DATA Lovelace');
      expect([...sim.store.users.keys()]).to.deep.equal([e.pin]);
    });

    it('a terminal refusing the command makes the assignment failed with its return code', async () => {
      const d = await device('att');
      terminal(d.serial_number, 'att', { failCommands: (c) => (c.text.includes('USERINFO') ? -1001 : null) });
      const e = await employee();
      await assign(e.id, d.id);
      expect(await settles(e.id, d.id, 'failed')).to.include({ return_code: -1001 });
    });

    it('a transient code (-1005 busy) is retried and the assignment ends synced', async () => {
      const d = await device('acc');
      let refusals = 0;
      const sim = terminal(d.serial_number, 'acc', { failCommands: (c) => (c.text.includes('DATA UPDATE user ') && refusals++ === 0 ? -1005 : null) });
      const e = await employee();
      await assign(e.id, d.id);
      await settles(e.id, d.id);
      expect(refusals).to.equal(2);
      expect(sim.store.users.has(e.pin!)).to.equal(true);
      const [user] = await sql(`select attempts, status from device_command where device_id = ? and step = 0`, [d.id]);
      expect(user).to.deep.equal({ attempts: 2, status: 'succeeded' });
    });

    it('unassign deletes the user; deactivate, name and pin changes each reach the terminal', async () => {
      for (const family of ['att', 'acc'] as const) {
        const d = await device(family);
        const sim = terminal(d.serial_number, family);
        const e = await employee();
        await assign(e.id, d.id);
        await settles(e.id, d.id);
        const row = async () => (await sql(`select sync_status, present, pin from device_user where device_id = ?`, [d.id]))[0];

        await send('PUT', `/public/v2/employees/${e.id}`, { name: 'Renamed' });
        await waitUntil(
          'the rename reached the terminal',
          async () => sim.store.users.get(e.pin!)?.name,
          (v) => v === 'Renamed Lovelace',
        );
        await settles(e.id, d.id);

        const newPin = pin();
        await send('PUT', `/public/v2/employees/${e.id}`, { pin: newPin });
        await settles(e.id, d.id);
        expect([...sim.store.users.keys()], family).to.deep.equal([newPin]);
        expect(sim.store.users.get(newPin)!.name).to.equal('Renamed Lovelace');

        await send('PUT', `/public/v2/employees/${e.id}`, { is_active: false });
        await waitUntil(
          'the deactivation is synced',
          async () => (await row()).sync_status,
          (v) => v === 'synced',
        );
        expect(sim.store.users.size, family).to.equal(0);
        await send('PUT', `/public/v2/employees/${e.id}`, { is_active: true });
        await settles(e.id, d.id);
        expect([...sim.store.users.keys()]).to.deep.equal([newPin]);

        expect((await send('DELETE', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id }])).status).to.equal(200);
        await waitUntil(
          'the removal is synced',
          async () => (await row()).sync_status,
          (v) => v === 'synced',
        );
        expect(await row()).to.include({ present: false, pin: newPin });
        expect(sim.store.users.size, family).to.equal(0);
        expect(sim.store.authorizations.size).to.equal(0);
      }
    });

    it('an area-inherited assignment reaches the device', async () => {
      const d = await device('att');
      const sim = terminal(d.serial_number, 'att');
      const e = await employee();
      const area = await createArea(t.url, ws.key, companyId);
      await send('POST', `/public/v2/areas/${area.id}/devices`, [{ device_id: d.id }]);
      await send('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      await settles(e.id, d.id);
      expect(sim.store.users.get(e.pin!)!.privilege).to.equal('0');
    });

    it('a change made while the command is in flight keeps the row pending until its own commands succeed', async () => {
      const d = await device('att');
      const e = await employee();
      await assign(e.id, d.id);
      const first = await iclock(t.url, 'GET', `/iclock/getrequest?SN=${d.serial_number}`);
      const [, firstId] = first.text.split(':');
      await send('PUT', `/public/v2/employees/${e.id}`, { lastname: 'Byron' });
      await iclock(t.url, 'POST', `/iclock/devicecmd?SN=${d.serial_number}`, `ID=${firstId}&Return=0&CMD=DATA`);
      expect((await assignment(e.id, d.id)).sync_status).to.equal('pending');
      const second = await iclock(t.url, 'GET', `/iclock/getrequest?SN=${d.serial_number}`);
      expect(second.text).to.match(/^C:\w+:DATA UPDATE USERINFO PIN=\d+\tName=Ada Byron\tPri=0$/);
      await iclock(t.url, 'POST', `/iclock/devicecmd?SN=${d.serial_number}`, `ID=${second.text.split(':')[1]}&Return=0&CMD=DATA`);
      expect((await assignment(e.id, d.id)).sync_status).to.equal('synced');
    });

    it('two app instances on one database never build or deliver a change twice', async () => {
      const second: App = await createApp(t.config, { logger: pino({ level: 'silent' }) });
      try {
        const d = await device('acc');
        const employees = await Promise.all(Array.from({ length: 6 }, () => employee()));
        await send(
          'POST',
          `/public/v2/devices/${d.id}/employees`,
          employees.map((e) => ({ employee_id: e.id, permission_id: 0 })),
        );
        const polls = await Promise.all(
          Array.from({ length: 12 }, (_, i) => iclock(i % 2 ? t.url : second.url, 'GET', `/iclock/getrequest?SN=${d.serial_number}`)),
        );
        await Promise.all([t.app.terminals.sweep(), second.terminals.sweep()]);
        const delivered = polls.flatMap((p) => (p.text === 'OK' ? [] : parseCommandReply(p.text)));
        // Each record once: 6 users and their 6 authorisations, in two multi-record commands.
        const records = delivered.flatMap((c) => c.records.map((r) => `${c.table} ${r.get('pin')}`));
        expect(new Set(records).size).to.equal(records.length);
        expect(records).to.have.length(12);
        const [{ commands, distinct, batches }] = await sql(
          `select count(*) filter (where device_user_id is not null)::int as commands,
                  count(distinct (device_user_id, device_user_version, step)) filter (where device_user_id is not null)::int as distinct,
                  count(*) filter (where kind = 'record_batch')::int as batches
           from device_command where device_id = ?`,
          [d.id],
        );
        expect(commands).to.equal(12); // 6 users x (user + userauthorize), built once
        expect(distinct).to.equal(12);
        expect(batches).to.equal(2);
      } finally {
        await second.stop();
      }
    });
  });

  describe('templates', () => {
    const TEMPLATES =
      'query ($id: Int!) { employeeTemplates(employeeId: $id) { id type index subIndex version format valid duress size sourceDeviceId updatedAt } }';

    it('a fingerprint enrolled on A is stored once, reaches B (same version) and the access terminal, not C (other version); deleting removes it', async () => {
      const [a, b, c, acc] = [await device('att'), await device('att'), await device('att'), await device('acc')];
      const simA = terminal(a.serial_number, 'att');
      const simB = terminal(b.serial_number, 'att');
      const simC = terminal(c.serial_number, 'att', { fingerprintVersion: '12' });
      const simAcc = terminal(acc.serial_number, 'acc');
      const e = await employee();
      await send(
        'POST',
        `/public/v2/employees/${e.id}/devices`,
        [a, b, c, acc].map((d) => ({ device_id: d.id, permission_id: 0 })),
      );
      for (const d of [a, b, c, acc]) await settles(e.id, d.id);

      const enrolled = simA.enrollFingerprint(e.pin!, 3);
      const stored = await waitUntil(
        'the enrolled template is stored',
        async () => (await gqlData(t.url, ws.key, TEMPLATES, { id: e.id })).employeeTemplates[0],
      );
      expect(stored).to.include({
        type: 'fingerprint',
        index: 3,
        subIndex: 0,
        version: '10.0',
        format: 'zk',
        valid: true,
        duress: false,
        size: enrolled.tmp.length,
        sourceDeviceId: a.id,
      });
      await waitUntil('terminal B holds the template', async () =>
        [...simB.store.templates.values()].find((x) => x.pin === e.pin && x.no === 3 && x.tmp === enrolled.tmp),
      );
      await waitUntil('the access terminal holds the template', async () =>
        [...simAcc.store.templates.values()].find((x) => x.pin === e.pin && x.no === 3 && x.tmp === enrolled.tmp),
      );
      for (const d of [b, c, acc]) await settles(e.id, d.id);
      expect(simC.store.templates.size).to.equal(0);
      const [sent] = await sql(`select command from device_command where device_id = ? and command like 'DATA UPDATE FINGERTMP%'`, [b.id]);
      expect(sent.command).to.equal(`DATA UPDATE FINGERTMP PIN=${e.pin}\tFID=3\tSize=${enrolled.tmp.length}\tValid=1\tTMP=${enrolled.tmp}`);

      // A re-upload of the same template changes nothing and sends nothing again.
      const before = await sql(`select id, updated_at from employee_template where employee_id = ?`, [e.id]);
      // (Counted by the template's own bytes: other work of the terminals may queue unrelated commands meanwhile.)
      const templateSends = async () =>
        (await sql(`select count(*)::int as n from device_command where strpos(command, ?) > 0`, [enrolled.tmp]))[0].n as number;
      const sendsBefore = await templateSends();
      simA.resendHistory();
      await waitUntil(
        'terminal A sent everything',
        async () => simA.pendingCount,
        (v) => v === 0,
      );
      expect(await sql(`select id, updated_at from employee_template where employee_id = ?`, [e.id])).to.deep.equal(before);
      expect(await templateSends()).to.equal(sendsBefore);

      const deleted = await gqlData(t.url, ws.key, 'mutation ($id: Int!) { deleteEmployeeTemplate(id: $id) { id type } }', { id: stored.id });
      expect(deleted.deleteEmployeeTemplate).to.deep.equal({ id: stored.id, type: 'fingerprint' });
      await waitUntil(
        'every terminal deleted its templates',
        async () => simB.store.templates.size === 0 && simAcc.store.templates.size === 0 && simA.store.templates.size === 0,
      );
      expect((await gqlData(t.url, ws.key, TEMPLATES, { id: e.id })).employeeTemplates).to.deep.equal([]);
      expect(simB.store.users.has(e.pin!)).to.equal(true);
    });

    // Regression: a change to the user rebuilt every terminal's commands with all stored templates,
    // writing the terminal's own capture back to it (and over a newer enrolment there).
    it('hardening: a template captured on a terminal is never sent back to that terminal, only to the others', async () => {
      const [a, b] = [await device('att'), await device('att')];
      const simA = terminal(a.serial_number, 'att');
      terminal(b.serial_number, 'att');
      const e = await employee();
      await send(
        'POST',
        `/public/v2/employees/${e.id}/devices`,
        [a, b].map((d) => ({ device_id: d.id, permission_id: 0 })),
      );
      for (const d of [a, b]) await settles(e.id, d.id);
      simA.enrollFingerprint(e.pin!, 4);
      await waitUntil(
        'the fingerprint update is queued for terminal B',
        async () => (await sql(`select 1 from device_command where device_id = ? and command like 'DATA UPDATE FINGERTMP%'`, [b.id])).length,
        (v) => v > 0,
      );
      for (const d of [a, b]) await settles(e.id, d.id);

      // A name change makes both rows pending again: B gets the template with the user, A only the user.
      const fingerprints = async (deviceId: number) =>
        (await sql(`select count(*)::int as n from device_command where device_id = ? and command like 'DATA UPDATE FINGERTMP%'`, [deviceId]))[0].n;
      const sentToB = await fingerprints(b.id);
      expect((await send('PUT', `/public/v2/employees/${e.id}`, { name: 'Renamed' })).status).to.equal(200);
      for (const d of [a, b]) await settles(e.id, d.id);
      expect(await fingerprints(a.id)).to.equal(0);
      expect(await fingerprints(b.id)).to.be.above(sentToB);
      const [user] = await sql(`select command from device_command where device_id = ? and command like 'DATA UPDATE USERINFO%' order by id desc limit 1`, [
        a.id,
      ]);
      expect(user.command).to.contain('Name=Renamed');
    });

    // Regression (a flake in CI): the versions a terminal reported in INFO lived only in the adapter's
    // cache until the next presence batch (an hour here). A cache entry reloaded from the row in
    // between — here after an edit of the device — forgot them, and the next build marked the user
    // synced without the template.
    it('hardening: the algorithm versions a terminal reported survive a reload of its cache entry', async () => {
      const [a, b] = [await device('att'), await device('att')];
      const simA = terminal(a.serial_number, 'att');
      const simB = terminal(b.serial_number, 'att');
      const e = await employee();
      await send(
        'POST',
        `/public/v2/employees/${e.id}/devices`,
        [a, b].map((d) => ({ device_id: d.id, permission_id: 0 })),
      );
      for (const d of [a, b]) await settles(e.id, d.id);
      const [stored] = await sql(`select fp_algorithm from device where id = ?`, [b.id]);
      expect(stored.fp_algorithm).to.equal('10');
      // B's INFO after the user arrived has been answered: its next polls carry none.
      const polls = simB.stats.polls;
      await waitUntil(
        'terminal B polled 3 more times',
        async () => simB.stats.polls,
        (v) => v >= polls + 3,
      );

      expect((await send('PUT', `/public/v2/devices/${b.id}`, { name: 'Reloaded' })).status).to.equal(200);
      const [{ last }] = await sql(`select coalesce(max(id), 0) as last from device_command where device_id = ?`, [b.id]);
      const enrolled = simA.enrollFingerprint(e.pin!, 5);
      await waitUntil('terminal B holds the new template', async () =>
        [...simB.store.templates.values()].find((x) => x.pin === e.pin && x.no === 5 && x.tmp === enrolled.tmp),
      );
      await settles(e.id, b.id);
      // One build, with the template: not the user alone first (marked synced without it), then again
      // once the terminal's next INFO told the versions anew.
      const built = await sql(`select command from device_command where device_id = ? and id > ? order by id`, [b.id, last]);
      expect(built.map((c) => c.command.split(' PIN=')[0])).to.deep.equal(['DATA UPDATE USERINFO', 'DATA UPDATE FINGERTMP']);
    });

    it('unified templates (BIODATA / tabledata biodata) are stored with their own version and type', async () => {
      const d = await device('acc');
      const sim = terminal(d.serial_number, 'acc');
      const e = await employee();
      sim.enrollBiometric(e.pin!, 9, 0);
      const [stored] = await waitUntil('the unified template is stored', async () => {
        const list = (await gqlData(t.url, ws.key, TEMPLATES, { id: e.id })).employeeTemplates;
        return list.length ? list : null;
      });
      expect(stored).to.include({ type: 'visible_light_face', index: 0, version: '58.0', sourceDeviceId: d.id });
    });

    it('never exposes template data; terminal users do not become employees; templates are private to the workspace', async () => {
      const fields = await gqlData(t.url, ws.key, '{ __type(name: "EmployeeTemplate") { fields { name } } }');
      expect(fields.__type.fields.map((f: any) => f.name)).to.not.include.members(['data', 'tmp', 'template']);

      const d = await device('att');
      const sim = terminal(d.serial_number, 'att');
      const e = await employee();
      const enrolled = sim.enrollFingerprint(e.pin!, 0);
      const stranger = pin();
      sim.enrollFingerprint(stranger, 0);
      const [stored] = await waitUntil("the employee's template is stored", async () => {
        const list = (await gqlData(t.url, ws.key, TEMPLATES, { id: e.id })).employeeTemplates;
        return list.length ? list : null;
      });
      await waitUntil(
        'the terminal sent everything',
        async () => sim.pendingCount,
        (v) => v === 0,
      );
      const [{ employees }] = await sql(`select count(*)::int as employees from employee where pin = ?`, [stranger]);
      expect(employees).to.equal(0);
      const [{ templates }] = await sql(`select count(*)::int as templates from employee_template where workspace_id = ?`, [ws.id]);
      expect(templates).to.be.at.least(1);

      const viaEmployee = await gql(t.url, ws.key, 'query ($id: Int!) { employee(id: $id) { templates { id type version } } }', { id: e.id });
      expect(viaEmployee.data.employee.templates).to.deep.equal([{ id: stored.id, type: 'fingerprint', version: '10.0' }]);
      expect(JSON.stringify(viaEmployee)).to.not.include(enrolled.tmp);

      const other = await createWorkspace(t.url);
      const foreignList = await gql(t.url, other.key, TEMPLATES, { id: e.id });
      expect(foreignList.errors![0].extensions!.code).to.equal('not_found');
      const foreignDelete = await gql(t.url, other.key, 'mutation ($id: Int!) { deleteEmployeeTemplate(id: $id) { id } }', { id: stored.id });
      expect(foreignDelete.errors![0].extensions!.code).to.equal('not_found');
      expect(await sql(`select id from employee_template where id = ?`, [stored.id])).to.have.length(1);
    });
  });
});
