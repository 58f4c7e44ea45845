import { expect } from 'chai';
import { formatLocalTime } from '../../src/protocol';
import { SimulatedTerminal } from '../../src/simulator';
import { createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { snapshotChanges, workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

/** Visitor passes: a user row the controller itself ends, removed afterwards, listed with its uses. */
describe('visitor passes', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  /** The service clock runs this far ahead of the real one (the removal job's "afterwards"). */
  let shiftMs = 0;
  before(async () => {
    t = await startTestApp({}, 'visitor_passes', { now: () => new Date(Date.now() + shiftMs) });
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const call = (method: string, path: string, body?: unknown) => rest(t.url, method, path, { key: ws.key, body });
  const company = async (code: string) => (await call('POST', '/public/v2/companies', { name: code, code })).body;
  const commandsOf = async (deviceId: number) =>
    (await sql<{ command: string }>("select command from device_command where device_id = ? and kind = 'visitor_pass' order by id", [deviceId])).map(
      (c) => c.command,
    );

  it('admits before its end and refuses after it with the controller offline; listed with its uses; removed from the controller afterwards', async () => {
    const acme = await company('VIS1');
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id, time_zone: 'UTC' });
    const [door] = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body;
    const host = await createEmployee(t.url, ws.key, acme.id, { pin: '4001', name: 'Hope', lastname: 'Host' });
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50, enforceAccess: true });
    terminal.start();
    try {
      await waitUntil(
        'the controller is online',
        async () => (await call('GET', `/public/v2/devices/${device.id}`)).body.status,
        (v) => v === 'online',
      );
      const from = new Date(Date.now() - 3600_000);
      const until = new Date(Date.now() + 2 * 3600_000);
      const created = await call('POST', '/public/v2/visitor_passes', {
        company_id: acme.id,
        name: 'Grace Visitor',
        host_employee_id: host.id,
        valid_from: from.toISOString(),
        valid_until: until.toISOString(),
        door_ids: [door.id],
        card_no: '10293847',
      });
      expect(created.status, created.text).to.equal(201);
      const pass = created.body;
      expect(pass).to.include({
        company_id: acme.id,
        name: 'Grace Visitor',
        host_employee_id: host.id,
        card_no: '10293847',
        status: 'active',
        removed_at: null,
      });
      expect(pass.pin, 'a generated pin').to.match(/^9\d{7}$/);
      expect(pass.door_ids).to.deep.equal([door.id]);

      // The controller (DateFmtFunOn=0) holds days: the first and the last day of the window, in its zone.
      const day = (at: Date) => formatLocalTime(at, 'UTC').slice(0, 10).replaceAll('-', '');
      expect(await commandsOf(device.id)).to.deep.equal([
        `DATA UPDATE user CardNo=10293847\tPin=${pass.pin}\tPassword=\tGroup=0\tStartTime=${day(from)}\tEndTime=${day(new Date(until.getTime() - 1000))}\tName=Grace Visitor\tPrivilege=0`,
        `DATA UPDATE userauthorize Pin=${pass.pin}\tAuthorizeTimezoneId=1\tAuthorizeDoorId=1\tDevID=1`,
      ]);
      await waitUntil(
        'the controller holds the visitor and their rights',
        async () => terminal.store.users.has(pass.pin) && [...terminal.store.authorizations.values()].some((a) => a.pin === pass.pin),
      );

      // Before its end: admitted. Offline, three days later: the controller refuses it by itself (29).
      expect(terminal.punch({ pin: pass.pin, status: 0 }).event).to.equal(0);
      terminal.goOffline();
      expect(terminal.punch({ pin: pass.pin, status: 0, at: new Date(Date.now() + 3 * 86_400_000) }).event).to.equal(29);
      terminal.goOnline();
      const uses = await waitUntil('the two uses are stored', async () => {
        const got = (await call('GET', `/public/v2/visitor_passes/${pass.id}`)).body.uses;
        return got.length === 2 && got;
      });
      expect(uses.map((u: any) => [u.event_code, u.opened, u.device_id, u.door])).to.deep.equal([
        [0, true, device.id, 1],
        [29, false, device.id, 1],
      ]);
      expect((await call('GET', `/public/v2/visitor_passes?company_id=${acme.id}`)).body.map((p: any) => p.id)).to.deep.equal([pass.id]);

      // While the pass lives, its pin is not given to an employee.
      const clash = await call('POST', '/public/v2/employees', { name: 'Pin', lastname: 'Clash', code: 'PINCLASH', company_id: acme.id, pin: pass.pin });
      expect(clash.body.error.details.map((d: any) => [d.field, d.code])).to.deep.equal([['pin', 'already_taken']]);

      // Afterwards (the service clock past its end) the job deletes it from the controller.
      shiftMs = 3 * 3600_000;
      try {
        await t.app.jobs.runNow('visitor_passes');
      } finally {
        shiftMs = 0;
      }
      expect((await sql('select removed_at from visitor_pass where id = ?', [pass.id]))[0].removed_at).to.not.equal(null);
      expect((await commandsOf(device.id)).slice(2)).to.deep.equal([
        `DATA DELETE userauthorize Pin=${pass.pin}`,
        `DATA DELETE templatev10 Pin=${pass.pin}`,
        `DATA DELETE user Pin=${pass.pin}`,
      ]);
      await waitUntil('the controller deleted the visitor', async () => !terminal.store.users.has(pass.pin));
      expect((await call('GET', `/public/v2/visitor_passes/${pass.id}`)).body.status).to.equal('ended');
    } finally {
      await terminal.stop();
    }
  });

  it('a revoked pass leaves its controllers at once; bad passes are refused precisely and change nothing; other workspaces do not see it', async () => {
    const acme = await company('VIS2');
    const other = await company('VIS3');
    const panel = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id });
    const clock = await createTerminalDevice(t.url, ws.key, { mode_type: 'att', company_id: acme.id });
    const theirs = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: other.id });
    const [door] = (await call('GET', `/public/v2/devices/${panel.id}/doors`)).body;
    const [clockDoor] = (await call('GET', `/public/v2/devices/${clock.id}/doors`)).body;
    const [theirDoor] = (await call('GET', `/public/v2/devices/${theirs.id}/doors`)).body;
    const host = await createEmployee(t.url, ws.key, acme.id, { pin: '4101' });
    const otherHost = await createEmployee(t.url, ws.key, other.id, { pin: '4102' });
    const now = Date.now();
    const body = {
      company_id: acme.id,
      name: 'Vic',
      host_employee_id: host.id,
      valid_from: new Date(now).toISOString(),
      valid_until: new Date(now + 3600_000).toISOString(),
      door_ids: [door.id],
    };

    // The earlier test's terminal presence is written now, not in the background during the cases.
    await t.app.terminals.flush();
    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ door_ids: [clockDoor.id] }, 'door_ids.0', 'unsupported_by_device'],
      [{ door_ids: [theirDoor.id] }, 'door_ids.0', 'company_mismatch'],
      [{ door_ids: [999999] }, 'door_ids.0', 'not_found'],
      [{ host_employee_id: otherHost.id }, 'host_employee_id', 'company_mismatch'],
      [{ valid_until: new Date(now - 1000).toISOString() }, 'valid_until', 'before_start_date'],
      [{ valid_from: new Date(now - 7200_000).toISOString(), valid_until: new Date(now - 3600_000).toISOString() }, 'valid_until', 'out_of_range'],
      [{ pin: '4101' }, 'pin', 'already_taken'],
      [{ pin: 'bad pin!' }, 'pin', 'invalid_pin'],
      [{ card_no: 'ABC' }, 'card_no', 'invalid_card_no'],
    ];
    for (const [change, field, code] of cases) {
      const r = await call('POST', '/public/v2/visitor_passes', { ...body, ...change });
      expect(r.status, `${field} ${code}`).to.equal(422);
      expect(
        r.body.error.details.map((d: any) => [d.field, d.code]),
        `${field} ${code}`,
      ).to.deep.include([field, code]);
    }
    const after = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    expect(after, snapshotChanges(before, after)).to.deep.equal(before);

    const pass = (await call('POST', '/public/v2/visitor_passes', { ...body, pin: '7777' })).body;
    expect(pass.pin).to.equal('7777');
    const otherWs = await createWorkspace(t.url);
    expect((await rest(t.url, 'GET', `/public/v2/visitor_passes/${pass.id}`, { key: otherWs.key })).status).to.equal(404);
    expect((await rest(t.url, 'DELETE', `/public/v2/visitor_passes/${pass.id}`, { key: otherWs.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', '/public/v2/visitor_passes', { key: otherWs.key })).body).to.deep.equal([]);
    const revoked = await call('DELETE', `/public/v2/visitor_passes/${pass.id}`);
    expect(revoked.body.status).to.equal('ended');
    expect(revoked.body.revoked_at).to.not.equal(null);
    expect(await commandsOf(panel.id)).to.deep.equal([
      `DATA UPDATE user CardNo=\tPin=7777\tPassword=\tGroup=0\tStartTime=${formatLocalTime(new Date(now), 'UTC').slice(0, 10).replaceAll('-', '')}\tEndTime=${formatLocalTime(
        new Date(now + 3600_000 - 1000),
        'UTC',
      )
        .slice(0, 10)
        .replaceAll('-', '')}\tName=Vic\tPrivilege=0`,
      'DATA UPDATE userauthorize Pin=7777\tAuthorizeTimezoneId=1\tAuthorizeDoorId=1',
      'DATA DELETE userauthorize Pin=7777',
      'DATA DELETE templatev10 Pin=7777',
      'DATA DELETE user Pin=7777',
    ]);
    // Its pin is free again.
    expect((await call('POST', '/public/v2/visitor_passes', { ...body, pin: '7777' })).status).to.equal(201);
  });

  it('a users.reconcile fix keeps a live visitor on the controller (it is not an unexpected user)', async () => {
    const acme = await company('VIS4');
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: acme.id });
    const [door] = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body;
    const host = await createEmployee(t.url, ws.key, acme.id, { pin: '4201' });
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50 });
    terminal.start();
    try {
      const pass = (
        await call('POST', '/public/v2/visitor_passes', {
          company_id: acme.id,
          name: 'Stay',
          host_employee_id: host.id,
          valid_from: new Date().toISOString(),
          valid_until: new Date(Date.now() + 3600_000).toISOString(),
          door_ids: [door.id],
        })
      ).body;
      await waitUntil('the controller holds the visitor', async () => terminal.store.users.has(pass.pin));
      terminal.store.upsertUser('98', { name: 'Stranger' });
      const fix = await call('POST', `/public/v2/devices/${device.id}/actions`, { type: 'users.reconcile', options: { fix: true } });
      const result = await waitUntil(
        'the reconcile fix is complete',
        async () =>
          (await call('GET', `/public/v2/devices/${device.id}/actions/${fix.body.action_id}`)).body.result?.complete &&
          (await call('GET', `/public/v2/devices/${device.id}/actions/${fix.body.action_id}`)).body.result,
      );
      expect(result.unexpected_on_device).to.deep.equal(['98']);
      await waitUntil('the controller no longer holds 98', async () => !terminal.store.users.has('98'));
      expect(terminal.store.users.has(pass.pin)).to.equal(true);
    } finally {
      await terminal.stop();
    }
  });
});
