import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { createArea, createCompany, createDevice, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';
import { createScimKey, patchOp, scimRequest } from '../support/scim';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

describe('SCIM deprovisioning reaches the terminals', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  let key: string;
  const terminals: SimulatedTerminal[] = [];
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'scim-deprovisioning');
    ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 100 });
    companyId = (await createCompany(t.url, ws.key)).id;
    key = await createScimKey(t.url, ws.key, companyId);
  });
  afterEach(async () => {
    await Promise.all(terminals.splice(0).map((terminal) => terminal.stop()));
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const scim = (method: string, path: string, body?: unknown) => scimRequest(t.url, key, method, path, body);
  function terminal(serialNumber: string, family: 'att' | 'acc'): SimulatedTerminal {
    const sim = new SimulatedTerminal({ serverUrl: t.url, serialNumber, family, pollIntervalMs: 40, errorDelayMs: 100 });
    terminals.push(sim);
    sim.start();
    return sim;
  }
  /** Every desired-state row of the employee synced (the terminal acknowledged its commands), present or not. */
  const settled = (employeeId: number, present: boolean) =>
    waitUntil(
      `employee ${employeeId} is settled on both terminals (present: ${present})`,
      async () => {
        const rows = await sql<{ present: boolean; sync_status: string }>('select present, sync_status from device_user where employee_id = ?', [employeeId]);
        return rows.length === 2 && rows.every((r) => r.present === present && r.sync_status === 'synced') ? rows : null;
      },
      20_000,
    );

  async function provisionedOnTwoTerminals(pin: string) {
    const area = await createArea(t.url, ws.key, companyId);
    const att = await createDevice(t.url, ws.key, companyId, { mode_type: 'att', area_id: area.id });
    const acc = await createDevice(t.url, ws.key, companyId, { mode_type: 'acc', area_id: area.id });
    const simAtt = terminal(att.serial_number, 'att');
    const simAcc = terminal(acc.serial_number, 'acc');
    const user = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE],
      userName: `leaver${pin}@example.com`,
      name: { givenName: 'Lea', familyName: 'Ver' },
      [ENTERPRISE]: { employeeNumber: pin },
    });
    expect(user.status, user.text).to.equal(201);
    const group = await scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: `Site ${pin}`,
      members: [{ value: user.body.id }],
    });
    await gqlData(t.url, ws.key, 'mutation ($id: ID!, $a: Int) { setDirectoryGroupMapping(id: $id, input: { areaId: $a, accessLevelIds: [] }) { id } }', {
      id: group.body.id,
      a: area.id,
    });
    const employeeId = Number(user.body.id);
    await settled(employeeId, true);
    expect(simAtt.store.users.has(pin)).to.equal(true);
    expect(simAcc.store.users.has(pin)).to.equal(true);
    // A fingerprint enrolled at the attendance terminal reaches the access terminal; a punch is recorded.
    const enrolled = simAtt.enrollFingerprint(pin, 2);
    await waitUntil('the access terminal holds the template', async () =>
      [...simAcc.store.templates.values()].some((x) => x.pin === pin && x.tmp === enrolled.tmp),
    );
    simAtt.punch({ pin, at: new Date('2026-11-20T08:00:00Z') });
    await waitUntil(
      'the punch is stored',
      async () => (await sql('select 1 from punch where employee_id = ?', [employeeId])).length,
      (v) => v === 1,
    );
    await settled(employeeId, true);
    return { employeeId, simAtt, simAcc, enrolled, user: user.body, groupId: group.body.id as string, areaId: area.id };
  }

  const holds = (sim: SimulatedTerminal, pin: string) =>
    sim.store.users.has(pin) ||
    [...sim.store.templates.values()].some((x) => x.pin === pin) ||
    [...sim.store.authorizations.values()].some((a) => a.pin === pin);

  it('Entra ID "active": "False" removes the person from every terminal (user, templates, authorisation) as revocations, keeps punches; "True" restores everything', async () => {
    const pin = '61001';
    const { employeeId, simAtt, simAcc, enrolled, user } = await provisionedOnTwoTerminals(pin);

    const off = await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    expect(off.status, off.text).to.equal(200);
    await settled(employeeId, false);
    expect(holds(simAtt, pin), 'attendance terminal').to.equal(false);
    expect(holds(simAcc, pin), 'access terminal').to.equal(false);
    // The deletes went as revocations (priority 2) and every terminal acknowledged them.
    const deletes = await sql<{ command: string; priority: number; status: string }>(
      `select command, priority, status from device_command where device_user_id in (select id from device_user where employee_id = ?) and command like 'DATA DELETE %' order by id`,
      [employeeId],
    );
    expect(deletes.map((d) => d.command)).to.include.members([
      `DATA DELETE USERINFO PIN=${pin}`,
      `DATA DELETE user Pin=${pin}`,
      `DATA DELETE userauthorize Pin=${pin}`,
    ]);
    expect(
      deletes.every((d) => d.priority === 2 && d.status === 'succeeded'),
      JSON.stringify(deletes),
    ).to.equal(true);
    // History stays: the punch, the template and the employee (inactive).
    expect(await sql('select 1 from punch where employee_id = ?', [employeeId])).to.have.length(1);
    expect(await sql('select 1 from employee_template where employee_id = ?', [employeeId])).to.have.length(1);
    expect((await rest(t.url, 'GET', `/public/v2/employees/${employeeId}`, { key: ws.key })).body).to.include({ is_active: false, pin });

    const on = await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'Replace', path: 'active', value: 'True' }));
    expect(on.body.active).to.equal(true);
    await settled(employeeId, true);
    expect(simAtt.store.users.has(pin)).to.equal(true);
    expect(simAcc.store.users.has(pin)).to.equal(true);
    // Both terminals hold the fingerprint again, the one it was enrolled on included.
    for (const sim of [simAtt, simAcc])
      expect(
        [...sim.store.templates.values()].some((x) => x.pin === pin && x.tmp === enrolled.tmp),
        'template back',
      ).to.equal(true);
  });

  it('Okta DELETE removes the person from every terminal; the employee is kept, deleted, with their punches', async () => {
    const pin = '61002';
    const { employeeId, simAtt, simAcc, user } = await provisionedOnTwoTerminals(pin);
    expect((await scim('DELETE', `/Users/${user.id}`)).status).to.equal(204);
    await settled(employeeId, false);
    expect(holds(simAtt, pin)).to.equal(false);
    expect(holds(simAcc, pin)).to.equal(false);
    const [employee] = await sql<{ deleted_at: Date | null; is_active: boolean }>('select deleted_at, is_active from employee where id = ?', [employeeId]);
    expect(employee!.deleted_at).to.not.equal(null);
    expect(employee!.is_active).to.equal(false);
    expect(await sql('select 1 from punch where employee_id = ?', [employeeId])).to.have.length(1);
    expect(await sql('select 1 from scim_group_member where employee_id = ?', [employeeId])).to.have.length(0);
  });

  it('Okta no-path replace {"active": false} removes the person too; removal from the mapped group alone takes them off the area terminals', async () => {
    const pin = '61003';
    const { employeeId, simAtt, simAcc, user, groupId } = await provisionedOnTwoTerminals(pin);
    await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', value: { active: false } }));
    await settled(employeeId, false);
    expect(holds(simAtt, pin) || holds(simAcc, pin)).to.equal(false);
    await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', value: { active: true } }));
    await settled(employeeId, true);
    await scim('PATCH', `/Groups/${groupId}`, patchOp({ op: 'remove', path: `members[value eq "${user.id}"]` }));
    await settled(employeeId, false);
    expect(holds(simAtt, pin) || holds(simAcc, pin)).to.equal(false);
  });
});
