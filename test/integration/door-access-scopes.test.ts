import { expect } from 'chai';
import { accessRoutes } from '../../src/rest/access.routes';
import { createArea, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { createTerminalDevice } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// A `write` key could give anyone permanent door access (access levels, schedules, members) while a
// one-off unlock needed `doors:unlock`. Granting door access now needs `doors:manage` (or `admin`),
// through REST and GraphQL alike; `write` keeps people and devices, `read` still reads levels.
describe('door access needs doors:manage: a write key cannot grant it', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let writer: string;
  let manager: string;
  let companyId: number;
  let doorId: number;
  let employeeId: number;
  let areaId: number;

  before(async () => {
    t = await startTestApp({}, 'door-access-scopes');
    ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10 });
    const device = await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' });
    const [door] = (await rest(t.url, 'GET', `/public/v2/devices/${device.id}/doors`, { key: ws.key })).body;
    doorId = door.id;
    companyId = (await rest(t.url, 'GET', `/public/v2/devices/${device.id}`, { key: ws.key })).body.company_id;
    employeeId = (await createEmployee(t.url, ws.key, companyId, { pin: '7001' })).id;
    areaId = (await createArea(t.url, ws.key, companyId)).id;
    writer = await createKey(t.url, ws.key, ['read', 'write']);
    manager = await createKey(t.url, ws.key, ['doors:manage']);
  });
  after(() => t.stop());

  const count = async (table: string) =>
    Number((await t.app.database.orm.em.fork().getConnection().execute<{ n: number }[]>(`select count(*)::int as n from ${table}`))[0]!.n);

  it('every REST route that changes access schedules, levels or their members: 403 with a write key (nothing changes), done with a doors:manage key', async () => {
    const hours = [{ weekday: 1, start_time: '08:00', end_time: '12:00' }];
    let scheduleId = 0;
    let levelId = 0;
    const steps: Array<[string, string, () => string, () => unknown, (body: any) => void]> = [
      [
        'createAccessSchedule',
        'POST',
        () => '/public/v2/access_schedules',
        () => ({ company_id: companyId, name: 'Mornings', intervals: hours }),
        (b) => (scheduleId = b.id),
      ],
      ['updateAccessSchedule', 'PUT', () => `/public/v2/access_schedules/${scheduleId}`, () => ({ name: 'Early' }), (b) => expect(b.name).to.equal('Early')],
      [
        'createAccessLevel',
        'POST',
        () => '/public/v2/access_levels',
        () => ({ company_id: companyId, name: 'Staff', schedule_id: scheduleId, door_ids: [] }),
        (b) => (levelId = b.id),
      ],
      [
        'updateAccessLevel',
        'PUT',
        () => `/public/v2/access_levels/${levelId}`,
        () => ({ door_ids: [doorId] }),
        (b) => expect(b.door_ids).to.deep.equal([doorId]),
      ],
      [
        'addAccessLevelEmployees',
        'POST',
        () => `/public/v2/access_levels/${levelId}/employees`,
        () => [{ employee_id: employeeId }],
        (b) => expect(b).to.have.length(1),
      ],
      [
        'syncAccessLevelEmployees',
        'POST',
        () => `/public/v2/access_levels/${levelId}/employees/sync`,
        () => [{ employee_id: employeeId, end_date: '2030-01-01' }],
        (b) => expect(b).to.have.length(1),
      ],
      [
        'removeAccessLevelEmployees',
        'DELETE',
        () => `/public/v2/access_levels/${levelId}/employees`,
        () => [{ employee_id: employeeId }],
        (b) => expect(b).to.deep.equal([]),
      ],
      ['addAccessLevelAreas', 'POST', () => `/public/v2/access_levels/${levelId}/areas`, () => [{ area_id: areaId }], (b) => expect(b).to.have.length(1)],
      ['syncAccessLevelAreas', 'POST', () => `/public/v2/access_levels/${levelId}/areas/sync`, () => [{ area_id: areaId }], (b) => expect(b).to.have.length(1)],
      ['removeAccessLevelAreas', 'DELETE', () => `/public/v2/access_levels/${levelId}/areas`, () => [{ area_id: areaId }], (b) => expect(b).to.deep.equal([])],
      ['deleteAccessLevel', 'DELETE', () => `/public/v2/access_levels/${levelId}`, () => undefined, (b) => expect(b.id).to.equal(levelId)],
      ['deleteAccessSchedule', 'DELETE', () => `/public/v2/access_schedules/${scheduleId}`, () => undefined, (b) => expect(b.id).to.equal(scheduleId)],
    ];
    const tables = ['access_schedule', 'access_level', 'access_level_door', 'access_level_employee', 'access_level_area', 'device_user'];
    for (const [name, method, path, body, check] of steps) {
      const before = await Promise.all(tables.map(count));
      const refused = await rest(t.url, method, path(), { key: writer, body: body() });
      expect(refused.status, `${name} with a write key: ${refused.text}`).to.equal(403);
      expect(refused.body.error.code).to.equal('forbidden');
      expect(refused.body.error.message).to.contain('doors:manage');
      expect(await Promise.all(tables.map(count)), `${name} changed something`).to.deep.equal(before);
      const done = await rest(t.url, method, path(), { key: manager, body: body() });
      expect(done.status, `${name} with a doors:manage key: ${done.text}`).to.be.oneOf([200, 201]);
      check(done.body);
    }
    // Every changing route of the access surface was tried.
    const changing = accessRoutes.filter((route) => route.method !== 'GET').map((route) => route.name);
    expect(steps.map(([name]) => name).sort()).to.deep.equal([...changing].sort());
  });

  it('every GraphQL mutation of access schedules, levels and members is forbidden to a write key; a doors:manage key runs them', async () => {
    const run = (key: string, query: string, variables: Record<string, unknown> = {}) => gql(t.url, key, query, variables);
    const created = await run(
      manager,
      'mutation ($c: Int!) { createAccessSchedule(input: { companyId: $c, name: "Nights", intervals: [{ weekday: 2, startTime: "20:00", endTime: "23:00" }] }) { id } }',
      { c: companyId },
    );
    expect(created.errors, JSON.stringify(created.errors)).to.equal(undefined);
    const scheduleId = created.data.createAccessSchedule.id;
    const level = await run(
      manager,
      'mutation ($c: Int!, $s: Int!, $d: Int!) { createAccessLevel(input: { companyId: $c, name: "Night staff", scheduleId: $s, doorIds: [$d] }) { id } }',
      { c: companyId, s: scheduleId, d: doorId },
    );
    expect(level.errors, JSON.stringify(level.errors)).to.equal(undefined);
    const levelId = level.data.createAccessLevel.id;
    const v = { c: companyId, s: scheduleId, l: levelId, d: doorId, e: employeeId, a: areaId };
    const mutations = [
      'mutation ($c: Int!) { createAccessSchedule(input: { companyId: $c, name: "X", intervals: [] }) { id } }',
      'mutation ($s: Int!) { updateAccessSchedule(id: $s, input: { name: "Y" }) { id } }',
      'mutation ($s: Int!) { deleteAccessSchedule(id: $s) { id } }',
      'mutation ($c: Int!, $s: Int!, $d: Int!) { createAccessLevel(input: { companyId: $c, name: "X", scheduleId: $s, doorIds: [$d] }) { id } }',
      'mutation ($l: Int!, $d: Int!) { updateAccessLevel(id: $l, input: { doorIds: [$d] }) { id } }',
      'mutation ($l: Int!) { deleteAccessLevel(id: $l) { id } }',
      'mutation ($l: Int!, $e: Int!) { addAccessLevelEmployees(accessLevelId: $l, items: [{ employeeId: $e }]) { employeeId } }',
      'mutation ($l: Int!, $e: Int!) { removeAccessLevelEmployees(accessLevelId: $l, items: [{ employeeId: $e }]) { employeeId } }',
      'mutation ($l: Int!, $e: Int!) { syncAccessLevelEmployees(accessLevelId: $l, items: [{ employeeId: $e }]) { employeeId } }',
      'mutation ($l: Int!, $a: Int!) { addAccessLevelAreas(accessLevelId: $l, items: [{ areaId: $a }]) { areaId } }',
      'mutation ($l: Int!, $a: Int!) { removeAccessLevelAreas(accessLevelId: $l, items: [{ areaId: $a }]) { areaId } }',
      'mutation ($l: Int!, $a: Int!) { syncAccessLevelAreas(accessLevelId: $l, items: [{ areaId: $a }]) { areaId } }',
    ];
    for (const mutation of mutations) {
      const used = Object.fromEntries(Object.entries(v).filter(([name]) => mutation.includes(`$${name}:`)));
      const refused = await run(writer, mutation, used);
      expect(refused.errors?.[0]?.extensions?.code, mutation).to.equal('forbidden');
    }
    const members = await run(writer, 'query ($l: Int!) { accessLevel(id: $l) { id doorIds } accessLevelEmployees(accessLevelId: $l) { totalCount } }', {
      l: levelId,
    });
    expect(members.errors).to.equal(undefined);
    expect(members.data).to.deep.equal({ accessLevel: { id: levelId, doorIds: [doorId] }, accessLevelEmployees: { totalCount: 0 } });
    for (const mutation of mutations.slice(6)) {
      const done = await run(manager, mutation, Object.fromEntries(Object.entries(v).filter(([name]) => mutation.includes(`$${name}:`))));
      expect(done.errors, `${mutation}: ${JSON.stringify(done.errors)}`).to.equal(undefined);
    }
  });

  it('doors:manage reads but does not write people or open doors; write still renames a door; admin manages access', async () => {
    expect((await rest(t.url, 'GET', `/public/v2/access_levels?company_id=${companyId}`, { key: manager })).status).to.equal(200);
    expect((await rest(t.url, 'GET', '/public/v2/employees', { key: manager })).status).to.equal(200);
    expect(
      (await rest(t.url, 'POST', '/public/v2/employees', { key: manager, body: { name: 'N', lastname: 'O', code: 'DM1', company_id: companyId } })).status,
    ).to.equal(403);
    expect((await rest(t.url, 'POST', `/public/v2/doors/${doorId}/actions`, { key: manager, body: { action: 'unlock', duration: 3 } })).status).to.equal(403);
    expect((await rest(t.url, 'GET', `/public/v2/access_levels?company_id=${companyId}`, { key: writer })).status).to.equal(200);
    const renamed = await gql(t.url, writer, 'mutation ($d: Int!) { updateDoor(id: $d, input: { name: "Lobby" }) { name } }', { d: doorId });
    expect(renamed.errors).to.equal(undefined);
    const byAdmin = await rest(t.url, 'POST', '/public/v2/access_schedules', {
      key: ws.key,
      body: { company_id: companyId, name: 'Admin made', intervals: [] },
    });
    expect(byAdmin.status, byAdmin.text).to.equal(201);
    const listed = await gql(t.url, manager, '{ currentApiKey { scopes } }');
    expect(listed.data.currentApiKey.scopes).to.deep.equal(['doors:manage']);
  });
});
