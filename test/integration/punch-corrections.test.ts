import { expect } from 'chai';
import { startReceiver, subscribe } from '../support/events';
import { waitUntil } from '../support/wait-until';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

// Punch corrections through REST and GraphQL against the real database. Each test has its own
// company with a default shift 09:00–17:00 (no break), Monday to Friday, UTC, one terminal and one
// employee. 2026-03-02 is a Monday; every date used lies in the past of the test run.
describe('punch corrections: forgotten punches added and punches voided on approval, days recomputed at once', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let writeKey: string;
  let approveKey: string;
  let readKey: string;
  let pinSeq = 7000;

  before(async () => {
    t = await startTestApp({}, 'punch-corrections');
    ws = await createWorkspace(t.url, { maxCompanies: 50, maxDevices: 50 });
    writeKey = await createKey(t.url, ws.key, ['write']);
    approveKey = await createKey(t.url, ws.key, ['approve']);
    readKey = await createKey(t.url, ws.key, ['read']);
  });
  after(() => t.stop());

  async function setup() {
    const company = await createCompany(t.url, ws.key);
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
    });
    expect(shift.status, shift.text).to.equal(201);
    const device = await createDevice(t.url, ws.key, company.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: String(pinSeq++) });
    /** A punch made at the terminal (a manual entry naming it). */
    const punch = async (at: string, state: string) => {
      const made = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { company_id: company.id, employee_id: employee.id, device_id: device.id, punch_time: at, punch_state: state },
      });
      expect(made.status, made.text).to.equal(201);
      return made.body as { id: number };
    };
    return { company, employee, punch };
  }
  const file = (body: Record<string, unknown>, key = writeKey) => rest(t.url, 'POST', '/public/v2/punch_corrections', { key, body });
  const decide = (id: number, decision: 'approve' | 'reject' | 'cancel', key = approveKey, comment?: string) =>
    rest(t.url, 'POST', `/public/v2/punch_corrections/${id}/${decision}`, { key, body: comment === undefined ? {} : { comment } });
  const day = async (employeeId: number, date: string) => {
    const response = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employeeId}&start_date=${date}&end_date=${date}`, { key: ws.key });
    expect(response.status, response.text).to.equal(200);
    return response.body[0] as { status: string; worked_minutes: number; punch_ids: number[]; exceptions: string[] };
  };

  it('a forgotten check-out corrected and approved: the day goes incomplete to present at once, with its event; the punch is manual and names its correction', async () => {
    const { employee, punch } = await setup();
    await punch('2026-03-03T09:00:00Z', '0');
    expect(await day(employee.id, '2026-03-03')).to.include({ status: 'incomplete', worked_minutes: 0 });
    const days = await subscribe(
      t.app,
      ws.id,
      readKey,
      'subscription ($e: Int) { attendanceDayUpdated(employeeId: $e) { day { date status workedMinutes } } }',
      { e: employee.id },
    );
    const filings = await subscribe(
      t.app,
      ws.id,
      readKey,
      'subscription ($e: Int) { punchCorrectionUpdated(employeeId: $e) { type correction { id state createdPunchIds } } }',
      { e: employee.id },
    );

    const filed = await file({ employee_id: employee.id, reason: 'Forgot to clock out', punch_time: '2026-03-03T17:30:00Z', punch_state: '1' });
    expect(filed.status, filed.text).to.equal(201);
    expect(filed.body).to.deep.include({
      state: 'pending',
      punches: [{ punch_time: '2026-03-03T17:30:00.000Z', punch_state: '1' }],
      void_punch_id: null,
      created_punch_ids: [],
      first_date: '2026-03-03',
      last_date: '2026-03-03',
    });
    // Filing changes nothing yet.
    expect((await day(employee.id, '2026-03-03')).status).to.equal('incomplete');

    const approved = await decide(filed.body.id, 'approve', approveKey, 'Confirmed by the shift lead');
    expect(approved.status, approved.text).to.equal(200);
    expect(approved.body).to.include({ state: 'approved', decision_comment: 'Confirmed by the shift lead' });
    expect(approved.body.created_punch_ids).to.have.length(1);
    const [created] = approved.body.created_punch_ids;
    // The recomputed day is announced.
    const changed = await days.waitFor(1);
    expect(changed[0].day).to.deep.equal({ date: '2026-03-03', status: 'present', workedMinutes: 510 });
    expect(await day(employee.id, '2026-03-03')).to.include({ status: 'present', worked_minutes: 510 });
    expect((await day(employee.id, '2026-03-03')).exceptions).to.deep.equal(['manual_punch']);
    const shown = await gqlData(t.url, readKey, 'query ($id: SafeInt!) { punch(id: $id) { recordType correctionId employeeId punchState } }', { id: created });
    expect(shown.punch).to.deep.equal({ recordType: 'manual', correctionId: filed.body.id, employeeId: employee.id, punchState: '1' });
    // Who approved it: the correction's decider, the key the audit log names for the decision.
    const audit = await gqlData(t.url, ws.key, `{ auditEvents(operation: "approvePunchCorrection") { nodes { apiKeyId arguments } } }`);
    expect(audit.auditEvents.nodes[0]).to.deep.include({
      apiKeyId: approved.body.decided_by_key_id,
      arguments: { id: filed.body.id, comment: 'Confirmed by the shift lead' },
    });
    const events = await filings.waitFor(2);
    expect(events.map((e) => [e.type, e.correction.state])).to.deep.equal([
      ['punch_correction.updated', 'pending'],
      ['punch_correction.updated', 'approved'],
    ]);
    expect(events[1].correction.createdPunchIds).to.deep.equal([created]);
    await days.close();
    await filings.close();
    // A decided correction takes no second decision.
    const again = await decide(filed.body.id, 'approve');
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('invalid_transition');
  });

  it('a forgotten week in one bulk correction (GraphQL), then a void correction removes one punch', async () => {
    const { employee } = await setup();
    const punches = ['02', '03', '04', '05', '06'].flatMap((d) => [
      { punchTime: `2026-03-${d}T09:00:00Z`, punchState: '0' },
      { punchTime: `2026-03-${d}T17:00:00Z`, punchState: '1' },
    ]);
    const filed = await gqlData(
      t.url,
      writeKey,
      'mutation ($input: CreatePunchCorrectionInput!) { createPunchCorrection(input: $input) { id firstDate lastDate punches { punchState } } }',
      {
        input: { employeeId: employee.id, reason: 'Badge broken all week', punches },
      },
    );
    expect(filed.createPunchCorrection).to.include({ firstDate: '2026-03-02', lastDate: '2026-03-06' });
    expect(filed.createPunchCorrection.punches).to.have.length(10);
    const approved = await gqlData(t.url, approveKey, 'mutation ($id: Int!) { approvePunchCorrection(id: $id) { state createdPunchIds } }', {
      id: filed.createPunchCorrection.id,
    });
    expect(approved.approvePunchCorrection.createdPunchIds).to.have.length(10);
    const week = await gqlData(
      t.url,
      readKey,
      'query ($e: Int!) { timesheet(employeeId: $e, startDate: "2026-03-02", endDate: "2026-03-06") { nodes { status workedMinutes } } }',
      { e: employee.id },
    );
    expect(week.timesheet.nodes.map((n: any) => [n.status, n.workedMinutes])).to.deep.equal(Array(5).fill(['present', 480]));

    // Friday's check-out was wrong after all: void it.
    const fridayOut = approved.approvePunchCorrection.createdPunchIds[9];
    const voiding = await file({ employee_id: employee.id, reason: 'Left at noon, not 17:00', void_punch_id: fridayOut });
    expect(voiding.status, voiding.text).to.equal(201);
    expect(voiding.body).to.include({ void_punch_id: fridayOut, first_date: '2026-03-06' });
    expect((await decide(voiding.body.id, 'approve')).status).to.equal(200);
    expect(await day(employee.id, '2026-03-06')).to.include({ status: 'incomplete', worked_minutes: 0 });
    const voided = await rest(t.url, 'GET', `/public/v2/punches/${fridayOut}`, { key: ws.key });
    expect(voided.body.void_reason).to.equal(`Punch correction ${voiding.body.id}: Left at noon, not 17:00`);
  });

  it('rejected or cancelled changes nothing; bad corrections are refused', async () => {
    const { employee, punch } = await setup();
    await punch('2026-03-10T09:00:00Z', '0');
    const filed = await file({ employee_id: employee.id, reason: 'Forgot', punch_time: '2026-03-10T17:00:00Z', punch_state: '1' });
    const rejected = await decide(filed.body.id, 'reject', approveKey, 'No evidence');
    expect(rejected.body).to.include({ state: 'rejected', decision_comment: 'No evidence' });
    expect(rejected.body.created_punch_ids).to.deep.equal([]);
    expect(await day(employee.id, '2026-03-10')).to.include({ status: 'incomplete' });
    const second = await file({ employee_id: employee.id, reason: 'Forgot', punch_time: '2026-03-10T17:00:00Z', punch_state: '1' });
    expect((await decide(second.body.id, 'cancel', writeKey)).body.state).to.equal('cancelled');
    expect((await day(employee.id, '2026-03-10')).punch_ids).to.have.length(1);

    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ punch_time: '2026-03-10T17:00:00Z', punch_state: '1', void_punch_id: 1 }, 'void_punch_id', 'not_allowed'],
      [{}, 'punch_time', 'required'],
      [{ punch_time: 'tomorrow', punch_state: '1' }, 'punch_time', 'invalid_date'],
      [{ punch_time: '2026-03-10T17:00:00Z', punch_state: '99' }, 'punch_state', 'unknown_state'],
      [{ punches: [] }, 'punches', 'empty'],
      [
        {
          punches: [
            { punch_time: '2026-03-10T17:00:00Z', punch_state: '1' },
            { punch_time: '2026-03-10T17:00:00Z', punch_state: '1' },
          ],
        },
        'punches',
        'duplicate',
      ],
    ];
    for (const [body, field, code] of cases) {
      const refused = await file({ employee_id: employee.id, reason: 'x', ...body });
      expect(refused.status, JSON.stringify(body)).to.equal(422);
      expect(refused.body.error.details[0], JSON.stringify(body)).to.include({ field, code });
    }
  });

  it('a correction into a locked pay period is refused, filed or approved', async () => {
    const { company, employee } = await setup();
    const pending = await file({ employee_id: employee.id, reason: 'Forgot', punch_time: '2026-04-07T17:00:00Z', punch_state: '1' });
    expect(pending.status).to.equal(201);
    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: ws.key,
      body: { company_id: company.id, start_date: '2026-04-01', end_date: '2026-04-30' },
    });
    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/lock`, { key: ws.key })).status).to.equal(200);
    const filed = await file({ employee_id: employee.id, reason: 'Forgot', punch_time: '2026-04-08T17:00:00Z', punch_state: '1' });
    expect(filed.status).to.equal(409);
    expect(filed.body.error.code).to.equal('period_locked');
    const approved = await decide(pending.body.id, 'approve');
    expect(approved.status).to.equal(409);
    expect(approved.body.error.code).to.equal('period_locked');
    expect((await rest(t.url, 'GET', `/public/v2/punch_corrections/${pending.body.id}`, { key: ws.key })).body.state).to.equal('pending');
  });

  it('a read key cannot approve, nor can a write key; both may read', async () => {
    const { employee } = await setup();
    const filed = await file({ employee_id: employee.id, reason: 'Forgot', punch_time: '2026-03-11T17:00:00Z', punch_state: '1' });
    expect((await file({ employee_id: employee.id, reason: 'Forgot', punch_time: '2026-03-11T18:00:00Z', punch_state: '1' }, readKey)).status).to.equal(403);
    for (const key of [readKey, writeKey]) {
      const refused = await decide(filed.body.id, 'approve', key);
      expect(refused.status).to.equal(403);
      expect(refused.body.error.code).to.equal('forbidden');
      expect((await decide(filed.body.id, 'reject', key)).status).to.equal(403);
      expect((await rest(t.url, 'GET', `/public/v2/punch_corrections/${filed.body.id}`, { key })).body.state).to.equal('pending');
    }
    const viaGraphql = await gql(t.url, readKey, 'mutation ($id: Int!) { approvePunchCorrection(id: $id) { state } }', { id: filed.body.id });
    expect(viaGraphql.errors?.[0]?.extensions?.code).to.equal('forbidden');
    // An absence request likewise: filed with write, not approved with read.
    const types = (await rest(t.url, 'GET', `/public/v2/absence_types?company_id=${employee.company_id}`, { key: readKey })).body;
    const absence = await rest(t.url, 'POST', '/public/v2/absence_requests', {
      key: writeKey,
      body: { employee_id: employee.id, absence_type_id: types[0].id, start_date: '2026-03-12', end_date: '2026-03-12' },
    });
    expect(absence.status, absence.text).to.equal(201);
    expect((await rest(t.url, 'POST', `/public/v2/absence_requests/${absence.body.id}/approve`, { key: readKey, body: {} })).status).to.equal(403);
  });

  it('webhooks: an endpoint subscribed to punch_correction.updated and absence_request.updated receives each filing and decision', async () => {
    const own = await createWorkspace(t.url);
    const company = await createCompany(t.url, own.key);
    await rest(t.url, 'POST', '/public/v2/shifts', {
      key: own.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
    });
    const employee = await createEmployee(t.url, own.key, company.id);
    const receiver = await startReceiver();
    try {
      const hook = await rest(t.url, 'POST', '/public/v2/webhooks', {
        key: own.key,
        body: { url: receiver.url, event_types: ['punch_correction.updated', 'absence_request.updated'] },
      });
      expect(hook.status, hook.text).to.equal(201);
      const correction = await rest(t.url, 'POST', '/public/v2/punch_corrections', {
        key: own.key,
        body: { employee_id: employee.id, reason: 'Forgot', punch_time: '2026-03-18T17:00:00Z', punch_state: '1' },
      });
      await rest(t.url, 'POST', `/public/v2/punch_corrections/${correction.body.id}/approve`, { key: own.key, body: { comment: 'ok' } });
      const vacation = (await rest(t.url, 'GET', `/public/v2/absence_types?company_id=${company.id}`, { key: own.key })).body.find(
        (type: any) => type.code === 'VAC',
      );
      const absence = await rest(t.url, 'POST', '/public/v2/absence_requests', {
        key: own.key,
        body: { employee_id: employee.id, absence_type_id: vacation.id, start_date: '2026-03-19', end_date: '2026-03-19' },
      });
      expect(absence.status, absence.text).to.equal(201);
      await waitUntil(
        'the webhook received the three updates',
        async () => {
          await t.app.webhooks.runOnce();
          return receiver.received.length >= 3;
        },
        15_000,
      );
      const seen = receiver.received.map((r) => [r.json.type, r.json.data.id, r.json.data.state]).sort();
      expect(seen).to.deep.equal([
        ['absence_request.updated', absence.body.id, 'pending'],
        ['punch_correction.updated', correction.body.id, 'approved'],
        ['punch_correction.updated', correction.body.id, 'pending'],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('tenant isolation: another workspace neither sees, decides, nor files against our corrections, employees or punches', async () => {
    const { employee, punch } = await setup();
    const ours = await punch('2026-03-16T09:00:00Z', '0');
    const filed = await file({ employee_id: employee.id, reason: 'Forgot', punch_time: '2026-03-16T17:00:00Z', punch_state: '1' });
    const other = await createWorkspace(t.url);
    const theirEmployee = await createEmployee(t.url, other.key, (await createCompany(t.url, other.key)).id);
    const sub = await subscribe(t.app, other.id, other.key, 'subscription { punchCorrectionUpdated { correction { id } } }');
    expect((await rest(t.url, 'GET', `/public/v2/punch_corrections/${filed.body.id}`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/punch_corrections?employee_id=${employee.id}`, { key: other.key })).body).to.deep.equal([]);
    expect((await decide(filed.body.id, 'approve', other.key)).status).to.equal(404);
    expect((await decide(filed.body.id, 'cancel', other.key)).status).to.equal(404);
    const forOurs = await file({ employee_id: employee.id, reason: 'x', punch_time: '2026-03-16T17:00:00Z', punch_state: '1' }, other.key);
    expect(forOurs.body.error.details[0]).to.include({ field: 'employee_id', code: 'not_found' });
    const voidOurs = await file({ employee_id: theirEmployee.id, reason: 'x', void_punch_id: ours.id }, other.key);
    expect(voidOurs.body.error.details[0]).to.include({ field: 'void_punch_id', code: 'not_found' });
    // Our approval reaches none of their subscribers; their own filing does.
    expect((await decide(filed.body.id, 'approve')).status).to.equal(200);
    const theirs = await file({ employee_id: theirEmployee.id, reason: 'Forgot', punch_time: '2026-03-16T17:00:00Z', punch_state: '1' }, other.key);
    expect(theirs.status, theirs.text).to.equal(201);
    expect((await sub.waitFor(1)).map((e) => e.correction.id)).to.deep.equal([theirs.body.id]);
    await sub.close();
  });
});
