import { expect } from 'chai';
import { DeviceUserTable } from '../support/device-users';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, unique, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

describe('employee-device assignments, area inheritance and pending device changes', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let table: DeviceUserTable;
  let companyId: number;
  let otherCompanyId: number;
  before(async () => {
    t = await startTestApp({}, 'assignments');
    ws = await createWorkspace(t.url, { maxCompanies: 3, maxDevices: 1000 });
    companyId = (await createCompany(t.url, ws.key)).id;
    otherCompanyId = (await createCompany(t.url, ws.key)).id;
    table = await DeviceUserTable.open(t.config.databaseUrl!);
  });
  after(async () => {
    await table.close();
    await t.stop();
  });

  const get = (path: string, key = ws.key) => rest(t.url, 'GET', path, { key });
  const send = (method: string, path: string, body: unknown, key = ws.key) => rest(t.url, method, path, { key, body });
  const employee = (overrides: Record<string, unknown> = {}) =>
    createEmployee(t.url, ws.key, companyId, { pin: unique('').slice(0, 20).replace(/\D/g, '') || '1', ...overrides });
  const device = (overrides: Record<string, unknown> = {}) => createDevice(t.url, ws.key, companyId, overrides);
  const pairsOf = (list: any[]) => list.map((a) => [a.device_id, a.employee_id, a.source, a.permission_id]);

  describe('direct assignments', () => {
    it('adds from the employee side (200, resulting array), updates an existing pair, and lists from both sides', async () => {
      const e = await employee();
      const [d1, d2] = [await device(), await device()];
      const r = await send('POST', `/public/v2/employees/${e.id}/devices`, [
        { device_id: d1.id, permission_id: 0 },
        { device_id: d2.id, permission_id: 14 },
      ]);
      expect(r.status).to.equal(200);
      expect(r.body[0]).to.deep.equal({
        employee_id: e.id,
        device_id: d1.id,
        permission_id: 0,
        source: 'direct',
        area_id: null,
        sync_status: 'pending',
        return_code: null,
        employee_name: 'Ada',
        employee_lastname: 'Lovelace',
        employee_pin: e.pin,
        device_name: 'Door',
        device_serial_number: d1.serial_number,
      });
      expect(pairsOf(r.body)).to.deep.equal([
        [d1.id, e.id, 'direct', 0],
        [d2.id, e.id, 'direct', 14],
      ]);
      const updated = await send('POST', `/public/v2/employees/${e.id}/devices`, [{ device_id: d1.id, permission_id: 6 }]);
      expect(pairsOf(updated.body)).to.deep.equal([
        [d1.id, e.id, 'direct', 6],
        [d2.id, e.id, 'direct', 14],
      ]);
      const listed = await get(`/public/v2/employees/${e.id}/devices`);
      expect(listed.status).to.equal(200);
      expect(listed.body).to.deep.equal(updated.body);
      expect(listed.headers.get('x-total-count')).to.equal('2');
      expect(pairsOf((await get(`/public/v2/devices/${d2.id}/employees`)).body)).to.deep.equal([[d2.id, e.id, 'direct', 14]]);
    });

    it('adds, removes and syncs from the device side', async () => {
      const [e1, e2, e3] = [await employee(), await employee(), await employee()];
      const d = await device();
      const path = `/public/v2/devices/${d.id}/employees`;
      const added = await send('POST', path, [
        { employee_id: e1.id, permission_id: 2 },
        { employee_id: e2.id, permission_id: 0 },
      ]);
      expect(added.status).to.equal(200);
      expect(pairsOf(added.body)).to.deep.equal([
        [d.id, e1.id, 'direct', 2],
        [d.id, e2.id, 'direct', 0],
      ]);
      const removed = await send('DELETE', path, [{ employee_id: e1.id }, { employee_id: e3.id }]);
      expect(removed.status).to.equal(200);
      expect(pairsOf(removed.body)).to.deep.equal([[d.id, e2.id, 'direct', 0]]);
      const synced = await send('POST', `${path}/sync`, [{ employee_id: e3.id, permission_id: 6 }]);
      expect(synced.status).to.equal(200);
      expect(pairsOf(synced.body)).to.deep.equal([[d.id, e3.id, 'direct', 6]]);
      const cleared = await send('POST', `${path}/sync`, []);
      expect(cleared.body).to.deep.equal([]);
      expect((await get(`/public/v2/employees/${e3.id}/devices`)).body).to.deep.equal([]);
    });

    it('removes and syncs from the employee side', async () => {
      const e = await employee();
      const [d1, d2, d3] = [await device(), await device(), await device()];
      const path = `/public/v2/employees/${e.id}/devices`;
      await send('POST', path, [
        { device_id: d1.id, permission_id: 0 },
        { device_id: d2.id, permission_id: 0 },
      ]);
      const removed = await send('DELETE', path, [{ device_id: d1.id }]);
      expect(removed.status).to.equal(200);
      expect(pairsOf(removed.body)).to.deep.equal([[d2.id, e.id, 'direct', 0]]);
      const synced = await send('POST', `${path}/sync`, [
        { device_id: d3.id, permission_id: 2 },
        { device_id: d2.id, permission_id: 6 },
      ]);
      expect(pairsOf(synced.body)).to.deep.equal([
        [d2.id, e.id, 'direct', 6],
        [d3.id, e.id, 'direct', 2],
      ]);
      expect(pairsOf((await send('POST', `${path}/sync`, [])).body)).to.deep.equal([]);
    });

    it('GraphQL operations do the same', async () => {
      const e = await employee();
      const d = await device();
      const fields = 'deviceId employeeId permissionId source syncStatus';
      const add = await gqlData(
        t.url,
        ws.key,
        `mutation ($e: Int!, $d: Int!) { assignDevicesToEmployee(employeeId: $e, items: [{ deviceId: $d, permissionId: 2 }]) { ${fields} } }`,
        { e: e.id, d: d.id },
      );
      expect(add.assignDevicesToEmployee).to.deep.equal([{ deviceId: d.id, employeeId: e.id, permissionId: 2, source: 'direct', syncStatus: 'pending' }]);
      const q = await gqlData(
        t.url,
        ws.key,
        `query ($e: Int!, $d: Int!) { employeeDevices(employeeId: $e) { totalCount nodes { deviceId } } deviceEmployees(deviceId: $d) { nodes { employeeId } } }`,
        { e: e.id, d: d.id },
      );
      expect(q.employeeDevices).to.deep.equal({ totalCount: 1, nodes: [{ deviceId: d.id }] });
      expect(q.deviceEmployees.nodes).to.deep.equal([{ employeeId: e.id }]);
      // Each device counts its people by sync status (one batched query for a whole list).
      const states = await gqlData(t.url, ws.key, `{ devices(first: 1000) { nodes { id syncState { synced pending failed } } } }`);
      expect(states.devices.nodes.find((n: any) => n.id === d.id).syncState).to.deep.equal({ synced: 0, pending: 1, failed: 0 });
      // An id for normalising clients: the pair.
      const ids = await gqlData(t.url, ws.key, `query ($e: Int!) { employeeDevices(employeeId: $e) { nodes { id } } }`, { e: e.id });
      expect(ids.employeeDevices.nodes).to.deep.equal([{ id: `${e.id}:${d.id}` }]);
      const mutations: [string, string, string, unknown[]][] = [
        ['assignEmployeesToDevice', 'deviceId', 'EmployeePermissionInput', [{ employeeId: e.id, permissionId: 6 }]],
        ['removeEmployeesFromDevice', 'deviceId', 'EmployeeRefInput', [{ employeeId: e.id }]],
        ['syncDeviceEmployees', 'deviceId', 'EmployeePermissionInput', [{ employeeId: e.id, permissionId: 0 }]],
        ['removeDevicesFromEmployee', 'employeeId', 'DeviceRefInput', [{ deviceId: d.id }]],
        ['syncEmployeeDevices', 'employeeId', 'DevicePermissionInput', [{ deviceId: d.id, permissionId: 14 }]],
      ];
      const expected = [[6], [], [0], [], [14]];
      for (const [index, [op, anchor, type, items]] of mutations.entries()) {
        const data = await gqlData(t.url, ws.key, `mutation ($a: Int!, $items: [${type}!]!) { ${op}(${anchor}: $a, items: $items) { permissionId } }`, {
          a: anchor === 'deviceId' ? d.id : e.id,
          items,
        });
        expect(
          data[op].map((x: any) => x.permissionId),
          op,
        ).to.deep.equal(expected[index]);
      }
    });
  });

  describe('refused requests change nothing', () => {
    let e: Awaited<ReturnType<typeof employee>>;
    let d: Awaited<ReturnType<typeof device>>;
    let before: unknown;
    beforeEach(async () => {
      e = await employee();
      d = await device();
      await send('POST', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id, permission_id: 2 }]);
      before = (await get(`/public/v2/employees/${e.id}/devices`)).body;
    });
    afterEach(async () => {
      expect((await get(`/public/v2/employees/${e.id}/devices`)).body, 'unchanged after the refused request').to.deep.equal(before);
    });

    for (const [label, body, field, code] of [
      [
        'a permission that is no terminal privilege',
        (dev: number) => [
          { device_id: dev, permission_id: 0 },
          { device_id: dev + 100000, permission_id: 0 },
          { device_id: dev, permission_id: 5 },
        ],
        'items.2.permission_id',
        'invalid_permission',
      ],
      ['a body that is not an array', (dev: number) => ({ device_id: dev, permission_id: 0 }), 'items', 'invalid_type'],
      ['an empty array', () => [], 'items', 'empty'],
      ['a wrongly typed item', () => [{ device_id: '1', permission_id: 0 }], 'items.0.device_id', 'invalid_type'],
      ['an item that is not an object', () => [7], 'items.0', 'invalid_type'],
      ['an unknown field', (dev: number) => [{ device_id: dev, permission_id: 0, door: 1 }], 'items.0.door', 'unknown_field'],
      ['a missing permission', (dev: number) => [{ device_id: dev }], 'items.0.permission_id', 'required'],
      [
        'a duplicate id',
        (dev: number) => [
          { device_id: dev, permission_id: 0 },
          { device_id: dev, permission_id: 6 },
        ],
        'items.1.device_id',
        'duplicate',
      ],
      ['more than 1000 items', () => Array.from({ length: 1001 }, (_, i) => ({ device_id: i + 1, permission_id: 0 })), 'items', 'too_many_items'],
      [
        'an unknown device id',
        (dev: number) => [
          { device_id: dev, permission_id: 6 },
          { device_id: 2000000000, permission_id: 0 },
        ],
        'items.1.device_id',
        'not_found',
      ],
    ] as [string, (dev: number) => unknown, string, string][]) {
      it(`refuses ${label} with 422 on add (and sync)`, async () => {
        for (const path of [`/public/v2/employees/${e.id}/devices`, `/public/v2/employees/${e.id}/devices/sync`]) {
          if (path.endsWith('sync') && code === 'empty') continue;
          const r = await send('POST', path, body(d.id));
          expect(r.status, `${path}: ${r.text}`).to.equal(422);
          expect(r.body.error.code).to.equal('validation_failed');
          expect(
            r.body.error.details.map((x: any) => [x.field, x.code]),
            r.text,
          ).to.deep.include([field, code]);
        }
      });
    }

    it('refuses a device of another company naming its id, keeping the valid items unapplied', async () => {
      const foreign = await createDevice(t.url, ws.key, otherCompanyId);
      const fresh = await device();
      const r = await send('POST', `/public/v2/employees/${e.id}/devices`, [
        { device_id: fresh.id, permission_id: 0 },
        { device_id: d.id, permission_id: 14 },
        { device_id: foreign.id, permission_id: 0 },
      ]);
      expect(r.status).to.equal(422);
      expect(r.body.error.details).to.have.length(1);
      expect(r.body.error.details[0]).to.include({ field: 'items.2.device_id', code: 'cross_company' });
      expect(r.body.error.details[0].message).to.contain(`Device ${foreign.id}`);
      const viaDevice = await send('POST', `/public/v2/devices/${foreign.id}/employees/sync`, [{ employee_id: e.id, permission_id: 0 }]);
      expect(viaDevice.body.error.details[0]).to.include({ field: 'items.0.employee_id', code: 'cross_company' });
    });

    it('refuses an empty or malformed removal, and ids of another workspace', async () => {
      expect((await send('DELETE', `/public/v2/employees/${e.id}/devices`, [])).body.error.details[0]).to.include({ field: 'items', code: 'empty' });
      const extra = await send('DELETE', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id, permission_id: 0 }]);
      expect(extra.body.error.details[0]).to.include({ field: 'items.0.permission_id', code: 'unknown_field' });
      const b = await createWorkspace(t.url);
      const bDevice = await createDevice(t.url, b.key, (await createCompany(t.url, b.key)).id);
      const foreign = await send('DELETE', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id }, { device_id: bDevice.id }]);
      expect(foreign.status).to.equal(422);
      expect(foreign.body.error.details[0]).to.include({ field: 'items.1.device_id', code: 'not_found' });
    });

    it('refuses employees without a pin (employee_has_no_pin) from both sides', async () => {
      const noPin = await createEmployee(t.url, ws.key, companyId);
      const r = await send('POST', `/public/v2/devices/${d.id}/employees`, [
        { employee_id: e.id, permission_id: 0 },
        { employee_id: noPin.id, permission_id: 0 },
      ]);
      expect(r.status).to.equal(422);
      expect(r.body.error.details[0]).to.include({ field: 'items.1.employee_id', code: 'employee_has_no_pin' });
      const other = await send('POST', `/public/v2/employees/${noPin.id}/devices`, [{ device_id: d.id, permission_id: 0 }]);
      expect(other.body.error.details[0]).to.include({ field: 'items', code: 'employee_has_no_pin' });
      expect((await get(`/public/v2/devices/${d.id}/employees`)).body.map((a: any) => a.employee_id)).to.deep.equal([e.id]);
    });

    it('answers 404 for an unknown or foreign employee or device in the path', async () => {
      const b = await createWorkspace(t.url);
      for (const [method, path, body] of [
        ['GET', '/public/v2/employees/999999/devices', undefined],
        ['POST', '/public/v2/employees/abc/devices', [{ device_id: d.id, permission_id: 0 }]],
        ['POST', '/public/v2/devices/999999/employees/sync', []],
      ] as const) {
        const r = await send(method, path, body);
        expect(r.status, path).to.equal(404);
      }
      expect((await get(`/public/v2/employees/${e.id}/devices`, b.key)).status).to.equal(404);
    });
  });

  describe('area inheritance', () => {
    it('an employee joining an area is on its devices with permission 0 (source area), and leaves with it', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const d = await device({ area_id: area.id });
      const e = await employee();
      await send('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      const listed = (await get(`/public/v2/employees/${e.id}/devices`)).body;
      expect(listed).to.have.length(1);
      expect(listed[0]).to.include({ device_id: d.id, source: 'area', area_id: area.id, permission_id: 0, sync_status: 'pending' });
      expect((await get(`/public/v2/devices/${d.id}/employees`)).body[0]).to.include({ employee_id: e.id, source: 'area' });
      await send('DELETE', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      expect((await get(`/public/v2/employees/${e.id}/devices`)).body).to.deep.equal([]);
    });

    it('a device moved between areas trades the old members for the new ones', async () => {
      const [a, b] = [await createArea(t.url, ws.key, companyId), await createArea(t.url, ws.key, companyId)];
      const [ea, eb] = [await employee(), await employee()];
      await send('POST', `/public/v2/areas/${a.id}/employees`, [{ employee_id: ea.id }]);
      await send('POST', `/public/v2/areas/${b.id}/employees`, [{ employee_id: eb.id }]);
      const d = await device({ area_id: a.id });
      expect((await get(`/public/v2/devices/${d.id}/employees`)).body.map((x: any) => [x.employee_id, x.area_id])).to.deep.equal([[ea.id, a.id]]);
      await send('PUT', `/public/v2/devices/${d.id}`, { area_id: b.id });
      expect((await get(`/public/v2/devices/${d.id}/employees`)).body.map((x: any) => [x.employee_id, x.area_id])).to.deep.equal([[eb.id, b.id]]);
      const rows = await table.rows(d.id);
      expect(rows.map((r) => [r.employee_id, r.present, r.sync_status])).to.deep.equal([
        [ea.id, false, 'pending'],
        [eb.id, true, 'pending'],
      ]);
    });

    it('direct and inherited on the same pair: both listed, direct permission applies, removing one keeps the other', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const d = await device({ area_id: area.id });
      const e = await employee();
      await send('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      const both = await send('POST', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id, permission_id: 6 }]);
      expect(pairsOf(both.body)).to.deep.equal([
        [d.id, e.id, 'direct', 6],
        [d.id, e.id, 'area', 0],
      ]);
      expect((await table.rows(d.id)).map((r) => [r.employee_id, r.privilege, r.present])).to.deep.equal([[e.id, 6, true]]);

      await send('DELETE', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      expect(pairsOf((await get(`/public/v2/employees/${e.id}/devices`)).body), 'leaving the area keeps the direct one').to.deep.equal([
        [d.id, e.id, 'direct', 6],
      ]);
      await send('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      const removed = await send('DELETE', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id }]);
      expect(pairsOf(removed.body), 'removing the direct one keeps the inherited one').to.deep.equal([[d.id, e.id, 'area', 0]]);
      expect((await table.rows(d.id)).map((r) => [r.privilege, r.present, r.sync_status])).to.deep.equal([[0, true, 'pending']]);
    });

    it('sync replaces only direct assignments', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const [inherited, direct, next] = [await device({ area_id: area.id }), await device(), await device()];
      const e = await employee();
      await send('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      await send('POST', `/public/v2/employees/${e.id}/devices`, [{ device_id: direct.id, permission_id: 0 }]);
      const synced = await send('POST', `/public/v2/employees/${e.id}/devices/sync`, [{ device_id: next.id, permission_id: 2 }]);
      expect(pairsOf(synced.body)).to.deep.equal([
        [inherited.id, e.id, 'area', 0],
        [next.id, e.id, 'direct', 2],
      ]);
      const cleared = await send('POST', `/public/v2/devices/${inherited.id}/employees/sync`, []);
      expect(pairsOf(cleared.body)).to.deep.equal([[inherited.id, e.id, 'area', 0]]);
    });

    it('deleting an area removes the assignments its devices inherited', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const d = await device({ area_id: area.id });
      const e = await employee();
      await send('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      await rest(t.url, 'DELETE', `/public/v2/areas/${area.id}`, { key: ws.key });
      expect((await get(`/public/v2/devices/${d.id}/employees`)).body).to.deep.equal([]);
      expect((await table.rows(d.id)).map((r) => [r.present, r.sync_status])).to.deep.equal([[false, 'pending']]);
    });

    it('an inherited employee without a pin stays off the device until it gets one', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const d = await device({ area_id: area.id });
      const e = await createEmployee(t.url, ws.key, companyId);
      await send('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      expect((await get(`/public/v2/devices/${d.id}/employees`)).body[0]).to.include({ employee_id: e.id, source: 'area', sync_status: null });
      expect(await table.rows(d.id)).to.deep.equal([]);
      await send('PUT', `/public/v2/employees/${e.id}`, { pin: '4711' });
      expect((await get(`/public/v2/devices/${d.id}/employees`)).body[0].sync_status).to.equal('pending');
      expect((await table.rows(d.id)).map((r) => [r.pin, r.present])).to.deep.equal([['4711', true]]);
    });
  });

  describe('pending changes in the desired-state table', () => {
    async function syncedPair() {
      const e = await employee({ name: 'Grace', lastname: 'Hopper' });
      const d = await device();
      await send('POST', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id, permission_id: 0 }]);
      await table.markSynced(d.id);
      expect((await get(`/public/v2/employees/${e.id}/devices`)).body[0].sync_status).to.equal('synced');
      expect(await table.pending(d.id)).to.deep.equal([]);
      return { e, d };
    }
    const row = async (deviceId: number) => {
      const rows = await table.rows(deviceId);
      expect(rows).to.have.length(1);
      return rows[0];
    };

    it('records the snapshot of a new assignment as a pending present row', async () => {
      const e = await employee({ name: 'Grace', lastname: 'Hopper' });
      const d = await device();
      await send('POST', `/public/v2/devices/${d.id}/employees`, [{ employee_id: e.id, permission_id: 14 }]);
      expect(await row(d.id)).to.include({
        employee_id: e.id,
        pin: e.pin,
        name: 'Grace Hopper',
        privilege: 14,
        present: true,
        sync_status: 'pending',
        previous_pin: null,
      });
      const work = await table.pending(d.id);
      expect(work.map((w) => [w.employeeId, w.present])).to.deep.equal([[e.id, true]]);
    });

    it('leaves an unchanged row alone (re-adding the same permission keeps synced)', async () => {
      const { e, d } = await syncedPair();
      await send('POST', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id, permission_id: 0 }]);
      expect((await row(d.id)).sync_status).to.equal('synced');
    });

    const changes: [string, (e: any, d: any) => Promise<unknown>, Record<string, unknown>][] = [
      [
        'a permission update',
        (e, d) => send('POST', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id, permission_id: 6 }]),
        { privilege: 6, present: true },
      ],
      ['a removal', (e, d) => send('DELETE', `/public/v2/devices/${d.id}/employees`, [{ employee_id: e.id }]), { present: false }],
      ['a sync that drops the pair', (e) => send('POST', `/public/v2/employees/${e.id}/devices/sync`, []), { present: false }],
      ['a name change', (e) => send('PUT', `/public/v2/employees/${e.id}`, { lastname: 'Murray' }), { name: 'Grace Murray', present: true }],
      ['a pin change', (e) => send('PUT', `/public/v2/employees/${e.id}`, { pin: '31337' }), { pin: '31337', present: true }],
      ['a deactivation', (e) => send('PUT', `/public/v2/employees/${e.id}`, { is_active: false }), { present: false }],
      ['an employee deletion', (e) => rest(t.url, 'DELETE', `/public/v2/employees/${e.id}`, { key: ws.key }), { present: false }],
      ['a move of the employee to another company', (e) => send('PUT', `/public/v2/employees/${e.id}`, { company_id: otherCompanyId }), { present: false }],
    ];
    for (const [label, change, expected] of changes) {
      it(`marks the pair pending after ${label}`, async () => {
        const { e, d } = await syncedPair();
        const r: any = await change(e, d);
        expect(r.status, r.text).to.equal(200);
        const after = await row(d.id);
        expect(after).to.include({ ...expected, sync_status: 'pending', employee_id: e.id });
        if (expected.present === false) expect(after.pin, 'the pin to delete is kept').to.equal(e.pin);
        if (label === 'a pin change') expect(after.previous_pin, 'the old pin to delete').to.equal(e.pin);
        const listed = (await get(`/public/v2/devices/${d.id}/employees`)).body;
        for (const a of listed) expect(a.sync_status).to.equal('pending');
        expect((await table.pending(d.id)).map((w) => w.employeeId)).to.deep.equal([e.id]);
      });
    }

    it('marks the pair pending after area membership changes and a device leaving the area', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const d = await device({ area_id: area.id });
      const e = await employee();
      await send('POST', `/public/v2/areas/${area.id}/employees/sync`, [{ employee_id: e.id }]);
      expect(await row(d.id)).to.include({ present: true, privilege: 0, sync_status: 'pending' });
      await table.markSynced(d.id);
      await send('POST', `/public/v2/areas/${area.id}/devices/sync`, []);
      expect(await row(d.id)).to.include({ present: false, sync_status: 'pending' });
      await table.markSynced(d.id);
      await send('POST', `/public/v2/areas/${area.id}/devices`, [{ device_id: d.id }]);
      expect(await row(d.id)).to.include({ present: true, sync_status: 'pending' });
    });

    it('a deleted device takes its rows with it', async () => {
      const { d } = await syncedPair();
      await rest(t.url, 'DELETE', `/public/v2/devices/${d.id}`, { key: ws.key });
      expect(await table.rows(d.id)).to.deep.equal([]);
    });
  });

  describe('tenant isolation', () => {
    it("workspace B gets 404 on every assignment route for A's ids, and A's assignments are unchanged", async () => {
      const e = await employee();
      const d = await device();
      await send('POST', `/public/v2/employees/${e.id}/devices`, [{ device_id: d.id, permission_id: 2 }]);
      const before = (await get(`/public/v2/employees/${e.id}/devices`)).body;
      const b = await createWorkspace(t.url);
      const bCompany = await createCompany(t.url, b.key);
      const bEmployee = await createEmployee(t.url, b.key, bCompany.id, { pin: '1' });
      const bDevice = await createDevice(t.url, b.key, bCompany.id);
      const calls: [string, string, unknown?][] = [
        ['GET', `/public/v2/employees/${e.id}/devices`],
        ['POST', `/public/v2/employees/${e.id}/devices`, [{ device_id: bDevice.id, permission_id: 0 }]],
        ['DELETE', `/public/v2/employees/${e.id}/devices`, [{ device_id: bDevice.id }]],
        ['POST', `/public/v2/employees/${e.id}/devices/sync`, []],
        ['GET', `/public/v2/devices/${d.id}/employees`],
        ['POST', `/public/v2/devices/${d.id}/employees`, [{ employee_id: bEmployee.id, permission_id: 0 }]],
        ['DELETE', `/public/v2/devices/${d.id}/employees`, [{ employee_id: bEmployee.id }]],
        ['POST', `/public/v2/devices/${d.id}/employees/sync`, []],
      ];
      for (const [method, path, body] of calls) {
        const r = await rest(t.url, method, path, { key: b.key, body });
        expect(r.status, `${method} ${path}`).to.equal(404);
        expect(r.body.error.code).to.equal('not_found');
      }
      const cross = await send('POST', `/public/v2/employees/${bEmployee.id}/devices`, [{ device_id: d.id, permission_id: 0 }], b.key);
      expect(cross.body.error.details[0]).to.include({ field: 'items.0.device_id', code: 'not_found' });
      expect((await get(`/public/v2/employees/${e.id}/devices`)).body).to.deep.equal(before);
      expect((await table.rows(d.id)).map((r) => r.employee_id)).to.deep.equal([e.id]);
    });
  });
});
