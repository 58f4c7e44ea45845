import { expect } from 'chai';
import { readOutbox } from '../support/events';
import { createArea, createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { erasePunchLocations } from '../../src/services/self-service/punch-locations';

// Employee self-service through REST and GraphQL with employee tokens (docs/self-service.md): the
// employee's own days, balances and requests; nothing of anyone else; no decisions; punches from a
// phone inside a geofence, stored with their source and position, feeding the day like a terminal's.
describe('self-service: an employee token sees and asks for its own, and punches from a phone inside a geofence', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let writeKey: string;
  let approveKey: string;
  let pinSeq = 8100;
  // The depot: Berlin, Alexanderplatz; 200 m around it.
  const depot = { latitude: 52.5219, longitude: 13.4132 };

  before(async () => {
    t = await startTestApp({}, 'self-service');
    ws = await createWorkspace(t.url, { maxCompanies: 50, maxEmployees: 500 });
    writeKey = await createKey(t.url, ws.key, ['write']);
    approveKey = await createKey(t.url, ws.key, ['approve']);
  });
  after(() => t.stop());

  /** The company's default shift: 09:00–17:00, Monday to Friday, unless a test says otherwise. */
  const NINE_TO_FIVE = { start_time: '09:00', end_time: '17:00' };
  /**
   * A shift that holds a punch made now, whatever the time and day: one instance a date, all day,
   * every day, with windows that do not reach into the next date's (with the default four hours, a
   * punch after 21:00 lies outside 09:00–17:00's window and is listed on its date unpaired).
   */
  const ALL_DAY = { start_time: '00:00', end_time: '23:59', workdays: [1, 2, 3, 4, 5, 6, 7], check_in_before_minutes: 0, check_out_after_minutes: 0 };

  async function setup(settings: Record<string, unknown> = { mobile_punch: true }, shiftTimes: Record<string, unknown> = NINE_TO_FIVE) {
    const company = await createCompany(t.url, ws.key, { settings });
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', ...shiftTimes, is_default: true },
    });
    expect(shift.status, shift.text).to.equal(201);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: String(pinSeq++) });
    const other = await createEmployee(t.url, ws.key, company.id, { pin: String(pinSeq++) });
    const fence = await rest(t.url, 'POST', '/public/v2/geofences', {
      key: writeKey,
      body: { company_id: company.id, name: 'Depot', ...depot, radius_m: 200 },
    });
    expect(fence.status, fence.text).to.equal(201);
    const type = await rest(t.url, 'POST', '/public/v2/absence_types', {
      key: ws.key,
      body: { company_id: company.id, name: 'Holiday leave', code: `HL${pinSeq}`, annual_allowance: 25 },
    });
    expect(type.status, type.text).to.equal(201);
    const token = await issueToken(employee.id);
    const otherToken = await issueToken(other.id);
    return { company, employee, other, fence: fence.body as { id: number }, absenceType: type.body as { id: number }, token, otherToken };
  }

  async function issueToken(employeeId: number): Promise<string> {
    const issued = await rest(t.url, 'POST', `/public/v2/employees/${employeeId}/access_tokens`, { key: writeKey, body: { name: 'Field app' } });
    expect(issued.status, issued.text).to.equal(201);
    expect(issued.body.token).to.match(/^tg_emp_[0-9A-Za-z]{40}$/);
    return issued.body.token as string;
  }

  const today = () => new Date().toISOString().slice(0, 10);
  /** A Monday to Friday at least `days` days ahead (a request must hold a workday of the Monday-to-Friday shift). */
  const inFuture = (days: number) => {
    const date = new Date(Date.now() + days * 86_400_000);
    while (date.getUTCDay() === 0 || date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() + 1);
    return date.toISOString().slice(0, 10);
  };
  /** An area of the company holding these employees. */
  async function areaWith(companyId: number, employeeIds: number[]) {
    const area = await createArea(t.url, ws.key, companyId);
    const added = await rest(t.url, 'POST', `/public/v2/areas/${area.id}/employees`, { key: ws.key, body: employeeIds.map((id) => ({ employee_id: id })) });
    expect(added.status, added.text).to.equal(200);
    return area;
  }

  it('a token is shown once, listed without its secret, stored as a hash, and stops working when revoked', async () => {
    const { employee, token } = await setup();
    const me = await rest(t.url, 'GET', '/public/v2/me', { key: token });
    expect(me.status, me.text).to.equal(200);
    expect(me.body.employee).to.include({ id: employee.id });
    const listed = await rest(t.url, 'GET', `/public/v2/employees/${employee.id}/access_tokens`, { key: writeKey });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body).to.have.length(1);
    expect(listed.body[0]).to.not.have.property('token');
    expect(listed.body[0].prefix).to.equal(token.slice(0, 11));
    const [row] = await t.app.database.orm.em.fork().getConnection().execute('select token_hash from employee_access_token where id = ?', [listed.body[0].id]);
    expect(row.token_hash)
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.include(token);
    // A token of one employee cannot be revoked under another.
    expect((await rest(t.url, 'DELETE', `/public/v2/employees/${employee.id + 1}/access_tokens/${listed.body[0].id}`, { key: writeKey })).status).to.equal(404);
    const revoked = await rest(t.url, 'DELETE', `/public/v2/employees/${employee.id}/access_tokens/${listed.body[0].id}`, { key: writeKey });
    expect(revoked.status, revoked.text).to.equal(200);
    expect(revoked.body.revoked_at).to.be.a('string');
    const after = await rest(t.url, 'GET', '/public/v2/me', { key: token });
    expect(after.status).to.equal(401);
    expect(after.body.error.code).to.equal('unauthenticated');
  });

  it('the own timesheet: the same day rows as /public/v2/timesheets, over REST and GraphQL, and only the own', async () => {
    const { company, employee, other, token } = await setup();
    const device = await createDevice(t.url, ws.key, company.id);
    for (const [who, at, state] of [
      [employee.id, '2026-03-03T09:00:00Z', '0'],
      [employee.id, '2026-03-03T17:00:00Z', '1'],
      [other.id, '2026-03-03T08:00:00Z', '0'],
    ] as const) {
      const made = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { company_id: company.id, employee_id: who, device_id: device.id, punch_time: at, punch_state: state },
      });
      expect(made.status, made.text).to.equal(201);
    }
    const range = 'start_date=2026-03-02&end_date=2026-03-04';
    const mine = await rest(t.url, 'GET', `/public/v2/me/timesheets?${range}`, { key: token });
    expect(mine.status, mine.text).to.equal(200);
    const hr = await rest(t.url, 'GET', `/public/v2/timesheets?${range}&employee_id=${employee.id}`, { key: ws.key });
    expect(mine.body).to.deep.equal(hr.body);
    expect(mine.body.map((d: { employee_id: number }) => d.employee_id)).to.deep.equal([employee.id, employee.id, employee.id]);
    expect(mine.body[1]).to.include({ date: '2026-03-03', status: 'present', worked_minutes: 480 });
    const data = await gqlData(
      t.url,
      token,
      'query { me { employee { id } timesheet(startDate: "2026-03-03", endDate: "2026-03-03") { nodes { employeeId date workedMinutes } } } }',
    );
    expect(data.me.timesheet.nodes).to.deep.equal([{ employeeId: employee.id, date: '2026-03-03', workedMinutes: 480 }]);
    const punches = await rest(t.url, 'GET', '/public/v2/me/punches?start_date=2026-03-03&end_date=2026-03-03', { key: token });
    expect(punches.body.map((p: { employee_id: number; source: string }) => [p.employee_id, p.source])).to.deep.equal([
      [employee.id, 'manual'],
      [employee.id, 'manual'],
    ]);
    const balances = await rest(t.url, 'GET', '/public/v2/me/absence_balances?year=2026', { key: token });
    expect(balances.status, balances.text).to.equal(200);
    expect(balances.body[0]).to.include({ allowance: 25, remaining: 25 });
  });

  it('an absence request filed and cancelled by the employee (REST and GraphQL), with its events; an approved one stays for HR', async () => {
    const { employee, absenceType, token } = await setup();
    const start = inFuture(30);
    const filed = await rest(t.url, 'POST', '/public/v2/me/absence_requests', {
      key: token,
      body: { absence_type_id: absenceType.id, start_date: start, end_date: start, note: 'Dentist' },
    });
    expect(filed.status, filed.text).to.equal(201);
    expect(filed.body).to.include({ employee_id: employee.id, state: 'pending', requested_by_employee_id: employee.id, requested_by_key_id: null });
    // The employee names no one: an employee_id in the body is refused, not obeyed.
    const someoneElse = await rest(t.url, 'POST', '/public/v2/me/absence_requests', {
      key: token,
      body: { employee_id: employee.id + 1, absence_type_id: absenceType.id, start_date: start, end_date: start },
    });
    expect(someoneElse.status).to.equal(422);
    const listed = await rest(t.url, 'GET', '/public/v2/me/absence_requests?state=pending', { key: token });
    expect(listed.body.map((r: { id: number }) => r.id)).to.deep.equal([filed.body.id]);
    const cancelled = await rest(t.url, 'POST', `/public/v2/me/absence_requests/${filed.body.id}/cancel`, { key: token, body: {} });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body).to.include({ state: 'cancelled', decided_by_employee_id: employee.id });
    const again = await rest(t.url, 'POST', `/public/v2/me/absence_requests/${filed.body.id}/cancel`, { key: token, body: {} });
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('invalid_transition');

    const second = await gqlData(
      t.url,
      token,
      'mutation ($t: Int!, $d: String!) { createMyAbsenceRequest(input: { absenceTypeId: $t, startDate: $d, endDate: $d }) { id state employeeId } }',
      {
        t: absenceType.id,
        d: inFuture(40),
      },
    );
    expect(second.createMyAbsenceRequest).to.include({ state: 'pending', employeeId: employee.id });
    const approved = await rest(t.url, 'POST', `/public/v2/absence_requests/${second.createMyAbsenceRequest.id}/approve`, { key: approveKey, body: {} });
    expect(approved.status, approved.text).to.equal(200);
    // Cancelling an approved absence reverts days: that needs the `approve` scope, which an employee never has.
    const late = await gql(t.url, token, 'mutation ($id: Int!) { cancelMyAbsenceRequest(id: $id) { state } }', { id: second.createMyAbsenceRequest.id });
    expect(late.errors?.[0]?.extensions?.code).to.equal('forbidden');
    const events = await readOutbox((sql, params) => t.app.database.orm.em.fork().getConnection().execute(sql, params), ws.id);
    const mine = events.filter((e) => e.type === 'absence_request.updated' && (e.data as { id?: number }).id === filed.body.id);
    expect(mine.map((e) => [(e.data as { state: string }).state, (e.data as { requested_by_employee_id: number }).requested_by_employee_id])).to.deep.equal([
      ['pending', employee.id],
      ['cancelled', employee.id],
    ]);
  });

  it('a punch correction filed and cancelled by the employee; voiding a punch of someone else is refused', async () => {
    const { company, employee, other, token } = await setup();
    const device = await createDevice(t.url, ws.key, company.id);
    const theirs = await rest(t.url, 'POST', '/public/v2/punches', {
      key: ws.key,
      body: { company_id: company.id, employee_id: other.id, device_id: device.id, punch_time: '2026-03-04T09:00:00Z', punch_state: '0' },
    });
    const filed = await rest(t.url, 'POST', '/public/v2/me/punch_corrections', {
      key: token,
      body: { reason: 'Forgot to clock out', punch_time: '2026-03-04T17:30:00Z', punch_state: '1' },
    });
    expect(filed.status, filed.text).to.equal(201);
    expect(filed.body).to.include({ employee_id: employee.id, state: 'pending', requested_by_employee_id: employee.id });
    const listed = await gqlData(t.url, token, 'query { me { punchCorrections { nodes { id state } } } }');
    expect(listed.me.punchCorrections.nodes).to.deep.equal([{ id: filed.body.id, state: 'pending' }]);
    const cancelled = await rest(t.url, 'POST', `/public/v2/me/punch_corrections/${filed.body.id}/cancel`, { key: token, body: {} });
    expect(cancelled.body).to.include({ state: 'cancelled' });
    const voidTheirs = await rest(t.url, 'POST', '/public/v2/me/punch_corrections', {
      key: token,
      body: { reason: 'Not mine', void_punch_id: theirs.body.id },
    });
    expect(voidTheirs.status, voidTheirs.text).to.equal(422);
    expect(voidTheirs.body.error.details[0]).to.include({ field: 'void_punch_id', code: 'not_found' });
  });

  it('another employee is refused: their requests are not found, the workspace routes and fields are forbidden', async () => {
    const { absenceType, other, otherToken, token } = await setup();
    const start = inFuture(50);
    const theirs = await rest(t.url, 'POST', '/public/v2/me/absence_requests', {
      key: otherToken,
      body: { absence_type_id: absenceType.id, start_date: start, end_date: start },
    });
    expect(theirs.status, theirs.text).to.equal(201);
    const cancel = await rest(t.url, 'POST', `/public/v2/me/absence_requests/${theirs.body.id}/cancel`, { key: token, body: {} });
    expect(cancel.status).to.equal(404);
    expect((await rest(t.url, 'GET', '/public/v2/me/absence_requests', { key: token })).body).to.deep.equal([]);
    for (const path of [
      `/public/v2/employees/${other.id}`,
      `/public/v2/timesheets?start_date=2026-03-01&end_date=2026-03-02&employee_id=${other.id}`,
      `/public/v2/absence_requests/${theirs.body.id}`,
    ]) {
      const r = await rest(t.url, 'GET', path, { key: token });
      expect(r.status, path).to.equal(403);
      expect(r.body.error.code, path).to.equal('forbidden');
    }
    const field = await gql(t.url, token, 'query ($id: Int!) { employee(id: $id) { id name } }', { id: other.id });
    expect(field.errors?.[0]?.extensions?.code).to.equal('forbidden');
    expect(field.data).to.equal(null);
    // The request of the other employee is unchanged.
    expect((await rest(t.url, 'GET', `/public/v2/absence_requests/${theirs.body.id}`, { key: ws.key })).body.state).to.equal('pending');
  });

  it('an employee of another workspace sees nothing of this one and names nothing of it', async () => {
    const { absenceType, token } = await setup();
    const start = inFuture(55);
    const mine = await rest(t.url, 'POST', '/public/v2/me/absence_requests', {
      key: token,
      body: { absence_type_id: absenceType.id, start_date: start, end_date: start },
    });
    expect(mine.status, mine.text).to.equal(201);
    const elsewhere = await createWorkspace(t.url);
    const company = await createCompany(t.url, elsewhere.key);
    const stranger = await createEmployee(t.url, elsewhere.key, company.id);
    const issued = await rest(t.url, 'POST', `/public/v2/employees/${stranger.id}/access_tokens`, { key: elsewhere.key, body: {} });
    const strangerToken = issued.body.token as string;
    expect((await rest(t.url, 'POST', `/public/v2/me/absence_requests/${mine.body.id}/cancel`, { key: strangerToken, body: {} })).status).to.equal(404);
    expect((await rest(t.url, 'GET', '/public/v2/me/absence_requests', { key: strangerToken })).body).to.deep.equal([]);
    // This workspace's absence type is unknown to the stranger.
    const filed = await rest(t.url, 'POST', '/public/v2/me/absence_requests', {
      key: strangerToken,
      body: { absence_type_id: absenceType.id, start_date: start, end_date: start },
    });
    expect(filed.status, filed.text).to.equal(422);
    expect(filed.body.error.details[0].field).to.equal('absence_type_id');
    expect((await rest(t.url, 'GET', `/public/v2/me/absence_requests`, { key: token })).body.map((r: { state: string }) => r.state)).to.deep.equal(['pending']);
  });

  it('approving is refused: the approve routes and mutations, and the manager ones without manager approvals', async () => {
    const { absenceType, otherToken, token } = await setup();
    const start = inFuture(60);
    const theirs = await rest(t.url, 'POST', '/public/v2/me/absence_requests', {
      key: otherToken,
      body: { absence_type_id: absenceType.id, start_date: start, end_date: start },
    });
    const own = await rest(t.url, 'POST', '/public/v2/me/absence_requests', {
      key: token,
      body: { absence_type_id: absenceType.id, start_date: start, end_date: start },
    });
    for (const id of [theirs.body.id, own.body.id]) {
      const r = await rest(t.url, 'POST', `/public/v2/absence_requests/${id}/approve`, { key: token, body: {} });
      expect(r.status).to.equal(403);
      const g = await gql(t.url, token, 'mutation ($id: Int!) { approveAbsenceRequest(id: $id) { state } }', { id });
      expect(g.errors?.[0]?.extensions?.code).to.equal('forbidden');
      const manager = await rest(t.url, 'POST', `/public/v2/me/reports/absence_requests/${id}/approve`, { key: token, body: {} });
      expect(manager.status, manager.text).to.equal(403);
    }
    const states = await rest(t.url, 'GET', '/public/v2/me/absence_requests', { key: token });
    expect(states.body.map((r: { state: string }) => r.state)).to.deep.equal(['pending']);
  });

  it('a phone punch inside the fence is stored with source, position and fence, feeds the day and the events', async () => {
    const { employee, fence, token } = await setup({ mobile_punch: true }, ALL_DAY);
    const made = await rest(t.url, 'POST', '/public/v2/me/punches', {
      key: token,
      body: { punch_state: '0', latitude: depot.latitude + 0.001, longitude: depot.longitude, accuracy_m: 15.4 },
    });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.include({
      employee_id: employee.id,
      source: 'mobile',
      record_type: 'mobile',
      latitude: depot.latitude + 0.001,
      longitude: depot.longitude,
      accuracy_m: 16,
      geofence_id: fence.id,
      offline_queued: false,
    });
    const day = await rest(t.url, 'GET', `/public/v2/me/timesheets?start_date=${today()}&end_date=${today()}`, { key: token });
    expect(day.body[0].punch_ids).to.include(made.body.id);
    expect(day.body[0].first_in).to.be.a('string');
    const events = await readOutbox((sql, params) => t.app.database.orm.em.fork().getConnection().execute(sql, params), ws.id, 'attendance.created');
    const event = events.find((e) => (e.data as { id: number }).id === made.body.id);
    expect(event?.data).to.include({ source: 'mobile', geofence_id: fence.id, employee_id: employee.id });
    // The event carries the fence, never the position (docs/self-service.md, privacy).
    expect(event?.data).to.not.have.property('latitude');
    const seen = await gqlData(t.url, ws.key, 'query ($id: SafeInt!) { punch(id: $id) { source geofenceId latitude } }', { id: made.body.id });
    expect(seen.punch).to.deep.equal({ source: 'mobile', geofenceId: fence.id, latitude: depot.latitude + 0.001 });
  });

  it('outside every fence and too inaccurate are refused with 422 and store nothing; disabled is 403', async () => {
    const { fence, token } = await setup({ mobile_punch: true, mobile_punch_accuracy_m: 50 });
    // About 1.1 km north of the centre: 900 m and some outside the 200 m fence.
    const outside = await rest(t.url, 'POST', '/public/v2/me/punches', {
      key: token,
      body: { punch_state: '0', latitude: depot.latitude + 0.01, longitude: depot.longitude, accuracy_m: 10 },
    });
    expect(outside.status, outside.text).to.equal(422);
    expect(outside.body.error).to.include({ code: 'outside_geofence', geofence_id: fence.id });
    expect(outside.body.error.distance_m).to.be.within(900, 920);
    const graphql = await gql(
      t.url,
      token,
      'mutation { createMyPunch(input: { punchState: "0", latitude: 52.5319, longitude: 13.4132, accuracyM: 10 }) { created } }',
    );
    expect(graphql.errors?.[0]?.extensions).to.include({ code: 'outside_geofence', geofenceId: fence.id });
    const inaccurate = await rest(t.url, 'POST', '/public/v2/me/punches', { key: token, body: { punch_state: '0', ...depot, accuracy_m: 51 } });
    expect(inaccurate.status, inaccurate.text).to.equal(422);
    expect(inaccurate.body.error).to.include({ code: 'location_inaccurate', accuracy_m: 51, max_accuracy_m: 50 });
    expect((await rest(t.url, 'GET', '/public/v2/me/punches', { key: token })).body).to.deep.equal([]);

    const off = await setup({ mobile_punch: false });
    const disabled = await rest(t.url, 'POST', '/public/v2/me/punches', { key: off.token, body: { punch_state: '0', ...depot, accuracy_m: 5 } });
    expect(disabled.status, disabled.text).to.equal(403);
    expect(disabled.body.error.code).to.equal('mobile_punch_disabled');
    // Off by default.
    const plain = (await createCompany(t.url, ws.key)) as unknown as { settings: unknown };
    expect(plain.settings).to.deep.equal({ mobile_punch: false, mobile_punch_accuracy_m: 100, manager_approvals: false });
  });

  it('a fence limited to an area applies to its employees only', async () => {
    const { company, employee, other, token, otherToken } = await setup();
    const area = await areaWith(company.id, [other.id]);
    const yard = { latitude: 48.1372, longitude: 11.5756 };
    const fence = await rest(t.url, 'POST', '/public/v2/geofences', {
      key: writeKey,
      body: { company_id: company.id, name: 'Yard', ...yard, radius_m: 100, area_ids: [area.id] },
    });
    expect(fence.status, fence.text).to.equal(201);
    const theirs = await rest(t.url, 'POST', '/public/v2/me/punches', { key: otherToken, body: { punch_state: '0', ...yard, accuracy_m: 5 } });
    expect(theirs.status, theirs.text).to.equal(201);
    expect(theirs.body.geofence_id).to.equal(fence.body.id);
    const mine = await rest(t.url, 'POST', '/public/v2/me/punches', { key: token, body: { punch_state: '0', ...yard, accuracy_m: 5 } });
    expect(mine.status, mine.text).to.equal(422);
    expect(mine.body.error.code).to.equal('outside_geofence');
    expect(employee.id).to.not.equal(other.id);
  });

  it('a position is erased after TIMEGATE_PUNCH_LOCATION_DAYS; the punch keeps its fence and accuracy', async () => {
    const { fence, token } = await setup();
    const made = await rest(t.url, 'POST', '/public/v2/me/punches', { key: token, body: { punch_state: '0', ...depot, accuracy_m: 9 } });
    expect(made.status, made.text).to.equal(201);
    const em = t.app.database.orm.em.fork();
    // 89 days later the position is still kept; 91 days later it is gone.
    await erasePunchLocations(em, new Date(Date.now() + 89 * 86_400_000), t.config.punchLocationDays);
    expect((await rest(t.url, 'GET', `/public/v2/punches/${made.body.id}`, { key: ws.key })).body.latitude).to.equal(depot.latitude);
    expect(await erasePunchLocations(em, new Date(Date.now() + 91 * 86_400_000), t.config.punchLocationDays)).to.be.at.least(1);
    const after = await rest(t.url, 'GET', `/public/v2/punches/${made.body.id}`, { key: ws.key });
    expect(after.body).to.include({ latitude: null, longitude: null, accuracy_m: 9, geofence_id: fence.id, source: 'mobile' });
  });

  it('an offline punch keeps the time it was made, is stored once, and is refused after 72 hours', async () => {
    const { token } = await setup();
    const at = new Date(Date.now() - 2 * 3_600_000);
    at.setUTCMilliseconds(0);
    const body = { punch_state: '1', ...depot, accuracy_m: 8, offline_queued: true, punch_time: at.toISOString() };
    const first = await rest(t.url, 'POST', '/public/v2/me/punches', { key: token, body });
    expect(first.status, first.text).to.equal(201);
    expect(first.body).to.include({ punch_time: at.toISOString(), offline_queued: true, source: 'mobile' });
    const resent = await rest(t.url, 'POST', '/public/v2/me/punches', { key: token, body });
    expect(resent.status, resent.text).to.equal(200);
    expect(resent.body.id).to.equal(first.body.id);
    const old = await rest(t.url, 'POST', '/public/v2/me/punches', {
      key: token,
      body: { ...body, punch_time: new Date(Date.now() - 73 * 3_600_000).toISOString() },
    });
    expect(old.status, old.text).to.equal(422);
    expect(old.body.error.code).to.equal('offline_punch_too_old');
  });

  it("a manager decides their reports' requests with the approve rules, never their own", async () => {
    const { company, employee, other, absenceType, token, otherToken } = await setup({ mobile_punch: false, manager_approvals: true });
    const area = await areaWith(company.id, [employee.id, other.id]);
    const set = await rest(t.url, 'PUT', `/public/v2/areas/${area.id}/approvers`, { key: writeKey, body: { employee_ids: [employee.id] } });
    expect(set.status, set.text).to.equal(200);
    expect(set.body).to.deep.equal([employee.id]);
    const start = inFuture(70);
    const theirs = await rest(t.url, 'POST', '/public/v2/me/absence_requests', {
      key: otherToken,
      body: { absence_type_id: absenceType.id, start_date: start, end_date: start },
    });
    const own = await rest(t.url, 'POST', '/public/v2/me/absence_requests', {
      key: token,
      body: { absence_type_id: absenceType.id, start_date: start, end_date: start },
    });
    const pending = await rest(t.url, 'GET', '/public/v2/me/reports/absence_requests', { key: token });
    expect(pending.body.map((r: { id: number }) => r.id)).to.deep.equal([theirs.body.id]);
    expect((await rest(t.url, 'POST', `/public/v2/me/reports/absence_requests/${own.body.id}/approve`, { key: token, body: {} })).status).to.equal(404);
    const approved = await rest(t.url, 'POST', `/public/v2/me/reports/absence_requests/${theirs.body.id}/approve`, { key: token, body: { comment: 'Fine' } });
    expect(approved.status, approved.text).to.equal(200);
    expect(approved.body).to.include({ state: 'approved', decided_by_employee_id: employee.id, decided_by_key_id: null });
    // The report is no manager.
    expect((await rest(t.url, 'GET', '/public/v2/me/reports/absence_requests', { key: otherToken })).status).to.equal(403);
  });
});
