import { expect } from 'chai';
import { createCompany, createDevice, createEmployee, createWorkspace, setWorkspaceTimeZone, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { openDeletion } from '../support/open-deletion';
import { startTestApp, type TestApp } from '../support/test-app';

interface Setup {
  ws: TestWorkspace;
  company: { id: number };
  employee: { id: number; pin: string | null };
  device: { id: number; serial_number: string };
}

describe('punches', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'punches');
  });
  after(() => t.stop());

  /** A workspace with one company, an employee with a pin and a device in `deviceZone`. */
  async function setup(options: { workspaceZone?: string; deviceZone?: string; maxCompanies?: number } = {}): Promise<Setup> {
    const ws = await createWorkspace(t.url, { maxCompanies: options.maxCompanies ?? 2 });
    if (options.workspaceZone) await setWorkspaceTimeZone(t.url, ws.key, options.workspaceZone);
    const company = await createCompany(t.url, ws.key);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '1001' });
    const device = await createDevice(t.url, ws.key, company.id, options.deviceZone ? { time_zone: options.deviceZone } : {});
    return { ws, company, employee, device };
  }

  const punchBody = (s: Setup, overrides: Record<string, unknown> = {}) => ({
    employee_id: s.employee.id,
    device_id: s.device.id,
    company_id: s.company.id,
    punch_time: '2024-07-28T08:30:00Z',
    punch_state: '0',
    ...overrides,
  });
  const post = (s: Setup, body: unknown) => rest(t.url, 'POST', '/public/v2/punches', { key: s.ws.key, body });
  const listAll = async (key: string, query = '') => {
    const r = await rest(t.url, 'GET', `/public/v2/punches${query}`, { key });
    expect(r.status, r.text).to.equal(200);
    return r.body as any[];
  };

  it('creates a manual punch from a flat body (201) with every stored field', async () => {
    const s = await setup({ deviceZone: 'Asia/Tokyo' });
    const r = await post(s, punchBody(s, { punch_time: '2024-07-28T08:30:00+02:00', punch_state: '1' }));
    expect(r.status, r.text).to.equal(201);
    const { id, received_at, ...rest_ } = r.body;
    expect(id).to.be.a('number');
    expect(Date.parse(received_at)).to.be.closeTo(Date.now(), 60_000);
    expect(rest_).to.deep.equal({
      company_id: s.company.id,
      employee_id: s.employee.id,
      device_id: s.device.id,
      device_serial: s.device.serial_number,
      pin: '1001',
      punch_time: '2024-07-28T06:30:00.000Z',
      local_time: '2024-07-28 15:30:00',
      time_zone: 'Asia/Tokyo',
      punch_state: '1',
      verify_type: 'manual',
      verify_code: null,
      record_type: 'manual',
      work_code: null,
      device_record_index: null,
      voided_at: null,
      void_reason: null,
      // Where it came from (docs/self-service.md): entered through the API, no phone position.
      source: 'manual',
      latitude: null,
      longitude: null,
      accuracy_m: null,
      geofence_id: null,
      offline_queued: null,
    });
    const got = await rest(t.url, 'GET', `/public/v2/punches/${id}`, { key: s.ws.key });
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(r.body);
  });

  it("reads a punch_time without offset as wall-clock time in the DEVICE's zone (wrapped body)", async () => {
    const s = await setup({ workspaceZone: 'America/Sao_Paulo', deviceZone: 'Asia/Tokyo' });
    const r = await post(s, { punch: punchBody(s, { punch_time: '2024-03-10T08:00:00' }) });
    expect(r.status, r.text).to.equal(201);
    expect(r.body.punch_time).to.equal('2024-03-09T23:00:00.000Z');
    expect(r.body.local_time).to.equal('2024-03-10 08:00:00');
    expect(r.body.time_zone).to.equal('Asia/Tokyo');
  });

  it('is idempotent: the same punch again returns the stored one with 200, also when the instant is written differently', async () => {
    const s = await setup({ deviceZone: 'Asia/Kolkata' });
    const first = await post(s, punchBody(s, { punch_time: '2024-07-28T08:30:00Z' }));
    expect(first.status).to.equal(201);
    const again = await post(s, punchBody(s, { punch_time: '2024-07-28T08:30:00Z' }));
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(first.body);
    // 14:00 in Kolkata, written as local time and with a fraction of a second: still the same punch.
    const local = await post(s, { punch: punchBody(s, { punch_time: '2024-07-28T14:00:00.400' }) });
    expect(local.status).to.equal(200);
    expect(local.body.id).to.equal(first.body.id);
    const g = await gqlData(t.url, s.ws.key, `mutation ($input: CreatePunchInput!) { createPunch(input: $input) { created punch { id } } }`, {
      input: { employeeId: s.employee.id, deviceId: s.device.id, companyId: s.company.id, punchTime: '2024-07-28T08:30:00Z', punchState: '0' },
    });
    expect(g.createPunch).to.deep.equal({ created: false, punch: { id: first.body.id } });
    expect(await listAll(s.ws.key)).to.have.length(1);
  });

  it('concurrent identical punches make one row: one 201, the others 200 with the same id', async () => {
    const s = await setup();
    const responses = await Promise.all(Array.from({ length: 12 }, () => post(s, punchBody(s, { punch_time: '2024-07-29T07:00:00Z' }))));
    expect(responses.map((r) => r.status).sort()).to.deep.equal([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).to.equal(1);
    expect(await listAll(s.ws.key)).to.have.length(1);
  });

  it('a different state at the same device, pin and time is the same punch (the key has no state)', async () => {
    const s = await setup();
    const first = await post(s, punchBody(s, { punch_state: '0' }));
    const second = await post(s, punchBody(s, { punch_state: '1' }));
    expect(second.status).to.equal(200);
    expect(second.body).to.deep.equal(first.body);
  });

  describe('refused manual punches (422 naming the fields, nothing stored)', () => {
    let s: Setup;
    let other: Setup;
    let foreign: Setup;
    let otherCompanyEmployee: { id: number };
    let otherCompanyDevice: { id: number };
    let pinless: { id: number };
    before(async () => {
      s = await setup();
      other = s; // same workspace, second company below
      const company2 = await createCompany(t.url, s.ws.key);
      otherCompanyEmployee = await createEmployee(t.url, s.ws.key, company2.id, { pin: '1001' });
      otherCompanyDevice = await createDevice(t.url, s.ws.key, company2.id);
      pinless = await createEmployee(t.url, s.ws.key, s.company.id);
      foreign = await setup();
    });

    const cases: [string, () => unknown, [string, string][]][] = [
      ['an unknown punch_state', () => punchBody(s, { punch_state: '9' }), [['punch_state', 'unknown_state']]],
      ['an employee of another company', () => punchBody(s, { employee_id: otherCompanyEmployee.id }), [['employee_id', 'company_mismatch']]],
      ['a device of another company', () => punchBody(s, { device_id: otherCompanyDevice.id }), [['device_id', 'company_mismatch']]],
      ['a company that owns neither', () => punchBody(other, { company_id: foreign.company.id }), [['company_id', 'not_found']]],
      [
        "another workspace's employee, device and company",
        () => punchBody(s, { employee_id: foreign.employee.id, device_id: foreign.device.id, company_id: foreign.company.id }),
        [
          ['company_id', 'not_found'],
          ['device_id', 'not_found'],
          ['employee_id', 'not_found'],
        ],
      ],
      ['an employee without a pin', () => punchBody(s, { employee_id: pinless.id }), [['employee_id', 'employee_has_no_pin']]],
      ['a punch_time that is not a date', () => punchBody(s, { punch_time: 'yesterday' }), [['punch_time', 'invalid_date']]],
      ['a punch_time on a day that does not exist', () => punchBody(s, { punch_time: '2024-02-30T10:00:00Z' }), [['punch_time', 'invalid_date']]],
      ['a punch_time without a time', () => punchBody(s, { punch_time: '2024-07-28' }), [['punch_time', 'invalid_date']]],
      ['a blank punch_state', () => punchBody(s, { punch_state: '' }), [['punch_state', 'blank']]],
      [
        'missing fields',
        () => ({}),
        [
          ['company_id', 'required'],
          ['device_id', 'required'],
          ['employee_id', 'required'],
          ['punch_state', 'required'],
          ['punch_time', 'required'],
        ],
      ],
      ['an id sent as a string', () => punchBody(s, { employee_id: String(s.employee.id) }), [['employee_id', 'invalid_type']]],
      ['a state sent as a number', () => punchBody(s, { punch_state: 0 }), [['punch_state', 'invalid_type']]],
      ['an unknown field', () => punchBody(s, { verify_type: 'face' }), [['verify_type', 'unknown_field']]],
      ['an unknown field inside the wrapper', () => ({ punch: punchBody(s, { record_type: 'device' }) }), [['record_type', 'unknown_field']]],
    ];
    for (const [label, body, expected] of cases) {
      it(`refuses ${label}`, async () => {
        const r = await post(s, body());
        expect(r.status, r.text).to.equal(422);
        expect(r.body.error.code).to.equal('validation_failed');
        expect(r.body.error.details.map((d: any) => [d.field, d.code]).sort()).to.deep.equal(expected);
        expect(await listAll(s.ws.key)).to.deep.equal([]);
        expect(await listAll(foreign.ws.key)).to.deep.equal([]);
      });
    }

    it('GraphQL refuses the same cross-company punch with the same field error', async () => {
      const r = await gql(t.url, s.ws.key, `mutation ($input: CreatePunchInput!) { createPunch(input: $input) { created } }`, {
        input: { employeeId: otherCompanyEmployee.id, deviceId: s.device.id, companyId: s.company.id, punchTime: '2024-07-28T08:30:00Z', punchState: '0' },
      });
      expect(r.errors?.[0].extensions?.code).to.equal('validation_failed');
      expect(r.errors?.[0].extensions?.details?.map((d) => [d.field, d.code])).to.deep.equal([['employeeId', 'company_mismatch']]);
      expect(await listAll(s.ws.key)).to.deep.equal([]);
    });
  });

  describe('date filter at day boundaries in a non-UTC workspace zone (Asia/Kolkata, UTC+05:30)', () => {
    let s: Setup;
    const ids: Record<string, number> = {};
    const localTimes = ['2024-05-09T23:59:59', '2024-05-10T00:00:00', '2024-05-10T23:59:59', '2024-05-11T00:00:00'];
    before(async () => {
      s = await setup({ workspaceZone: 'Asia/Kolkata', deviceZone: 'Asia/Kolkata' });
      for (const time of localTimes) {
        const r = await post(s, punchBody(s, { punch_time: time }));
        expect(r.status, r.text).to.equal(201);
        ids[time] = r.body.id;
      }
    });
    const idsOf = (times: string[]) => times.map((time) => ids[time]).reverse(); // newest first
    const query = async (q: string) => (await listAll(s.ws.key, `?${q}`)).map((p) => p.id);

    it('bare start and end dates cover exactly the local day, the end day included whole', async () => {
      expect(await query('start_date=2024-05-10&end_date=2024-05-10')).to.deep.equal(idsOf(localTimes.slice(1, 3)));
    });

    it('a bare start date alone begins at local midnight; a bare end date alone ends at the next local midnight', async () => {
      expect(await query('start_date=2024-05-10')).to.deep.equal(idsOf(localTimes.slice(1)));
      expect(await query('end_date=2024-05-10')).to.deep.equal(idsOf(localTimes.slice(0, 3)));
    });

    it('a date-time with offset is an instant; the end is inclusive', async () => {
      // 18:30Z on the 9th is local midnight of the 10th.
      expect(await query('start_date=2024-05-09T18:30:00Z&end_date=2024-05-10T23:59:59%2B05:30')).to.deep.equal(idsOf(localTimes.slice(1, 3)));
      expect(await query('start_date=2024-05-09T18:30:01Z')).to.deep.equal(idsOf(localTimes.slice(2)));
      // An unencoded "+" arrives as a space; it is still read as the offset.
      expect(await query('start_date=2024-05-10T00:00:00+05:30&end_date=2024-05-10T00:00:00+05:30')).to.deep.equal([ids[localTimes[1]!]]);
    });

    it('a date-time without offset is read in the workspace zone', async () => {
      expect(await query('start_date=2024-05-10T00:00:00&end_date=2024-05-10T23:59:58')).to.deep.equal([ids[localTimes[1]!]]);
    });

    it('GraphQL applies the same filter', async () => {
      const g = await gqlData(t.url, s.ws.key, '{ punches(startDate: "2024-05-10", endDate: "2024-05-10") { totalCount nodes { id } } }');
      expect(g.punches.nodes.map((p: any) => p.id)).to.deep.equal(idsOf(localTimes.slice(1, 3)));
    });

    it('refuses invalid dates with 422 naming each parameter, and an end before the start', async () => {
      const r = await rest(t.url, 'GET', '/public/v2/punches?start_date=2024-13-01&end_date=soon', { key: s.ws.key });
      expect(r.status).to.equal(422);
      expect(r.body.error.details.map((d: any) => [d.field, d.code])).to.deep.equal([
        ['start_date', 'invalid_date'],
        ['end_date', 'invalid_date'],
      ]);
      const reversed = await rest(t.url, 'GET', '/public/v2/punches?start_date=2024-05-11&end_date=2024-05-10', { key: s.ws.key });
      expect(reversed.status).to.equal(422);
      expect(reversed.body.error.details[0]).to.include({ field: 'end_date', code: 'before_start_date' });
      const badId = await rest(t.url, 'GET', '/public/v2/punches?employee_id=abc', { key: s.ws.key });
      expect(badId.status).to.equal(422);
      expect(badId.body.error.details[0].field).to.equal('employee_id');
    });
  });

  it('lists newest first (then highest id), pages with Link and X-Total-Count, and filters by employee, device and company', async () => {
    const s = await setup({ maxCompanies: 2 });
    const employee2 = await createEmployee(t.url, s.ws.key, s.company.id, { pin: '2002' });
    const company2 = await createCompany(t.url, s.ws.key);
    const employee3 = await createEmployee(t.url, s.ws.key, company2.id, { pin: '3003' });
    const device3 = await createDevice(t.url, s.ws.key, company2.id);
    const made: number[] = [];
    for (const [employee, time] of [
      [s.employee.id, '2024-01-01T08:00:00Z'],
      [s.employee.id, '2024-01-03T08:00:00Z'],
      [employee2.id, '2024-01-02T08:00:00Z'],
      [employee2.id, '2024-01-03T08:00:00Z'], // same instant as the second: the higher id comes first
    ] as const) {
      made.push((await post(s, punchBody(s, { employee_id: employee, punch_time: time }))).body.id);
    }
    const p3 = await post(s, {
      employee_id: employee3.id,
      device_id: device3.id,
      company_id: company2.id,
      punch_time: '2023-12-31T08:00:00Z',
      punch_state: '0',
    });
    const expected = [made[3], made[1], made[2], made[0], p3.body.id];
    expect((await listAll(s.ws.key)).map((p) => p.id)).to.deep.equal(expected);

    const page2 = await rest(t.url, 'GET', '/public/v2/punches?per_page=2&page=2', { key: s.ws.key });
    expect(page2.body.map((p: any) => p.id)).to.deep.equal(expected.slice(2, 4));
    expect(page2.headers.get('x-total-count')).to.equal('5');
    const pastTheEnd = await rest(t.url, 'GET', '/public/v2/punches?per_page=2&page=9', { key: s.ws.key });
    expect(pastTheEnd.body).to.deep.equal([]);
    expect(pastTheEnd.headers.get('x-total-count'), 'the total of a page past the end').to.equal('5');
    const links = Object.fromEntries(
      page2.headers
        .get('link')!
        .split(', ')
        .map((l) => {
          const [, url, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(l)!;
          return [rel, Object.fromEntries(new URL(url!, t.url).searchParams)];
        }),
    );
    expect(links).to.deep.equal({
      first: { page: '1', per_page: '2' },
      prev: { page: '1', per_page: '2' },
      next: { page: '3', per_page: '2' },
      last: { page: '3', per_page: '2' },
    });

    expect((await listAll(s.ws.key, `?employee_id=${employee2.id}`)).map((p) => p.id)).to.deep.equal([made[3], made[2]]);
    expect((await listAll(s.ws.key, `?device_id=${device3.id}`)).map((p) => p.id)).to.deep.equal([p3.body.id]);
    expect((await listAll(s.ws.key, `?company_id=${s.company.id}`)).map((p) => p.id)).to.deep.equal(expected.slice(0, 4));
    const g = await gqlData(t.url, s.ws.key, `{ punches(first: 2, companyId: ${company2.id}) { totalCount nodes { id } pageInfo { hasNextPage } } }`);
    expect(g.punches).to.deep.equal({ totalCount: 1, nodes: [{ id: p3.body.id }], pageInfo: { hasNextPage: false } });
  });

  it("keeps workspaces apart: B never sees A's punches and cannot punch on A's device or employee", async () => {
    const a = await setup();
    const b = await setup();
    const punch = await post(a, punchBody(a));
    expect((await rest(t.url, 'GET', `/public/v2/punches/${punch.body.id}`, { key: b.ws.key })).status).to.equal(404);
    expect((await gql(t.url, b.ws.key, `{ punch(id: ${punch.body.id}) { id } }`)).errors?.[0].extensions?.code).to.equal('not_found');
    expect(await listAll(b.ws.key)).to.deep.equal([]);
    expect(await listAll(b.ws.key, `?employee_id=${a.employee.id}`)).to.deep.equal([]);
    const r = await post(b, punchBody(b, { device_id: a.device.id, employee_id: a.employee.id }));
    expect(r.status).to.equal(422);
    expect(r.body.error.details.map((d: any) => d.field).sort()).to.deep.equal(['device_id', 'employee_id']);
    expect(await listAll(b.ws.key)).to.deep.equal([]);
    expect((await listAll(a.ws.key)).map((p) => p.id)).to.deep.equal([punch.body.id]);
  });

  it('deleting the device or the employee keeps their punches (serial and pin kept, the deleted employee still named); the company cannot be deleted while it has punches', async () => {
    const s = await setup();
    const punch = await post(s, punchBody(s));
    expect((await rest(t.url, 'DELETE', `/public/v2/devices/${s.device.id}`, { key: s.ws.key })).status).to.equal(200);
    expect((await gql(t.url, s.ws.key, `mutation { deleteEmployee(id: ${s.employee.id}) { id } }`)).errors).to.equal(undefined);
    const kept = await rest(t.url, 'GET', `/public/v2/punches/${punch.body.id}`, { key: s.ws.key });
    expect(kept.body).to.deep.equal({ ...punch.body, device_id: null });
    expect(kept.body.device_serial).to.equal(s.device.serial_number);
    expect(kept.body.pin).to.equal('1001');
    const del = await gql(t.url, s.ws.key, `mutation { deleteCompany(id: ${s.company.id}) { id } }`);
    expect(del.errors?.[0].extensions?.code).to.equal('resource_in_use');
    expect((await rest(t.url, 'GET', `/public/v2/companies/${s.company.id}`, { key: s.ws.key })).status).to.equal(200);
  });

  it('a manual punch naming an employee whose deletion is under way waits for it, then is refused (422 not_found) and stores nothing', async () => {
    const s = await setup();
    const deletion = await openDeletion(t.app.database.url, 'employee', s.employee.id);
    const created = post(s, punchBody(s));
    const waited = await deletion.blocksThenCommit(created);
    expect(waited, 'the punch did not wait for the deletion').to.equal(true);
    const r = await created;
    expect(r.status, r.text).to.equal(422);
    expect(r.body.error.details).to.deep.equal([
      { field: 'employee_id', code: 'not_found', message: `Employee ${s.employee.id} does not exist in this workspace.` },
    ]);
    expect(await listAll(s.ws.key)).to.deep.equal([]);
  });

  it('punches are never updated or deleted through the API', async () => {
    const s = await setup();
    const punch = await post(s, punchBody(s));
    // The path exists for reading only: 405, and Allow says so.
    for (const method of ['PUT', 'DELETE']) {
      const r = await rest(t.url, method, `/public/v2/punches/${punch.body.id}`, { key: s.ws.key, body: method === 'PUT' ? { punch_state: '1' } : undefined });
      expect(r.status, method).to.equal(405);
      expect(r.headers.get('allow'), method).to.equal('GET, HEAD');
    }
    expect((await rest(t.url, 'GET', `/public/v2/punches/${punch.body.id}`, { key: s.ws.key })).body).to.deep.equal(punch.body);
  });
});
