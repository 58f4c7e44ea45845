import { expect } from 'chai';
import { createCompany, createEmployee, createKey, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The hostile requests go to the service as a child process: a request that holds its event loop
 * then fails this test by its timeout (and the process is killed), instead of hanging the test run.
 */
const REQUEST_TIMEOUT_MS = 10_000;

async function call(url: string, path: string, init: { key?: string; method?: string; body?: unknown; timeoutMs?: number } = {}) {
  const response = await fetch(url + path, {
    method: init.method ?? 'GET',
    headers: { ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
    signal: AbortSignal.timeout(init.timeoutMs ?? REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const timesheetSummary = `query ($s: String!, $e: String!) { timesheetSummary(startDate: $s, endDate: $e) { totalCount } }`;

describe('input ranges: no date makes a request hold the event loop or reach SQL', () => {
  let t: TestApp;
  let service: ServiceProcess;
  let readKey: string;
  let adminKey: string;
  before(async function () {
    this.timeout(120_000);
    t = await startTestApp({ TIMEGATE_ATTENDANCE_WORKER: 'false' }, 'input-ranges');
    const ws = await createWorkspace(t.url);
    adminKey = ws.key;
    readKey = await createKey(t.url, ws.key, ['read']);
    // The loop ran per employee: a workspace without employees never reached it.
    await createEmployee(t.url, ws.key, (await createCompany(t.url, ws.key)).id, { pin: '7' });
    // The year of the heavy summary below is computed in one request however long a busy machine takes
    // (past the default budget of 20 s it answered 503 computation_budget_exceeded): the test is about
    // the event loop during it, not about the budget (test/integration/timesheet-compute-budget.test.ts).
    service = await startServiceProcess(t.config.databaseUrl!, { TIMEGATE_ATTENDANCE_WORKER: 'false', TIMEGATE_REQUEST_COMPUTE_BUDGET_MS: '600000' });
  });
  after(async () => {
    await service?.kill('SIGKILL');
    await t?.stop();
  });

  const healthy = async () => expect((await call(service.url, '/healthz')).status).to.equal(200);

  // Regression: addDays wrote the day after 9999-12-31 as "+010000-01-01", which sorts before
  // "9999-12-31": the day loop of a read key's timesheet never ended and the service stopped.
  for (const path of ['/public/v2/timesheets', '/public/v2/timesheets/summary']) {
    it(`GET ${path} for 9999-12-31 is a 422 naming the dates, answered at once, and /healthz stays alive`, async function () {
      this.timeout(30_000);
      const r = await call(service.url, `${path}?start_date=9999-12-31&end_date=9999-12-31`, { key: readKey });
      expect(r.status).to.equal(422);
      expect(r.body.error.code).to.equal('validation_failed');
      expect(r.body.error.details.map((d: { field: string; code: string }) => `${d.field}:${d.code}`)).to.deep.equal([
        'start_date:out_of_range',
        'end_date:out_of_range',
      ]);
      await healthy();
    });
  }

  it('GraphQL timesheetSummary and timesheet for 9999-12-31 are validation_failed naming the dates', async function () {
    this.timeout(30_000);
    for (const field of ['timesheetSummary', 'timesheet']) {
      const r = await call(service.url, '/graphql', {
        key: readKey,
        method: 'POST',
        body: { query: timesheetSummary.replace('timesheetSummary', field), variables: { s: '9999-12-31', e: '9999-12-31' } },
      });
      expect(r.body.errors[0].extensions.code, field).to.equal('validation_failed');
      expect(r.body.errors[0].extensions.details.map((d: { field: string }) => d.field)).to.deep.equal(['startDate', 'endDate']);
    }
    await healthy();
  });

  // Regression: year 0 passed the calendar check and reached PostgreSQL (a 500 with the SQL in the log).
  it('0000-01-01 is a 422 on REST and a validation error on GraphQL, never a 500', async function () {
    this.timeout(30_000);
    for (const path of ['/public/v2/timesheets', '/public/v2/timesheets/summary']) {
      const r = await call(service.url, `${path}?start_date=0000-01-01&end_date=0000-01-01`, { key: readKey });
      expect(r.status, path).to.equal(422);
      expect(r.body.error.details[0]).to.include({ field: 'start_date', code: 'out_of_range' });
    }
    const g = await call(service.url, '/graphql', {
      key: readKey,
      method: 'POST',
      body: { query: timesheetSummary, variables: { s: '0000-01-01', e: '0000-01-01' } },
    });
    expect(g.body.errors[0].extensions.code).to.equal('validation_failed');
    expect(g.body.errors[0].extensions.details[0]).to.include({ field: 'startDate', code: 'out_of_range' });
    await healthy();
  });

  it('the range is 1900-01-01 to 2199-12-31: its ends are served, the days beyond refused', async function () {
    this.timeout(30_000);
    for (const [start, end, status] of [
      ['1900-01-01', '1900-01-31', 200],
      ['2199-12-01', '2199-12-31', 200],
      ['1899-12-31', '1900-01-31', 422],
      ['2199-12-01', '2200-01-01', 422],
    ] as const) {
      const r = await call(service.url, `/public/v2/timesheets/summary?start_date=${start}&end_date=${end}`, { key: readKey });
      expect(r.status, `${start}..${end}`).to.equal(status);
    }
  });

  it('a manual punch in 9999 or year 0 is refused (out_of_range), and nothing is stored', async function () {
    this.timeout(30_000);
    const before = (await query(t.config.databaseUrl!, 'select count(*)::int as n from punch'))[0].n;
    for (const time of ['9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z', '2200-01-01T00:00:00']) {
      const r = await call(service.url, '/public/v2/punches', {
        key: adminKey,
        method: 'POST',
        body: { employee_id: 1, device_id: 1, company_id: 1, punch_time: time, punch_state: '0' },
      });
      expect(r.status, time).to.equal(422);
      expect(
        r.body.error.details.find((d: { field: string }) => d.field === 'punch_time'),
        time,
      ).to.include({ code: 'out_of_range' });
    }
    const filter = await call(service.url, '/public/v2/punches?start_date=9999-12-31', { key: readKey });
    expect(filter.status).to.equal(422);
    expect(filter.body.error.details[0]).to.include({ field: 'start_date', code: 'out_of_range' });
    expect((await query(t.config.databaseUrl!, 'select count(*)::int as n from punch'))[0].n).to.equal(before);
    await healthy();
  });

  // A year of days for 400 employees is seconds of CPU. Computed in one synchronous go, /healthz
  // and every other request waited for it; in 10 ms slices they are answered in between. The
  // measure is relative (the longest /healthz wait against the request's own time), so a loaded
  // machine slows both alike.
  it('a timesheet that computes a year of days for 400 employees gives the event loop back: /healthz answers throughout', async function () {
    this.timeout(300_000);
    const other = await createWorkspace(t.url);
    const company = await createCompany(t.url, other.key);
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: other.key,
      body: { company_id: company.id, name: 'Day', start_time: '08:00', end_time: '17:00', is_default: true },
    });
    expect(shift.status).to.equal(201);
    await query(
      t.config.databaseUrl!,
      `insert into employee (workspace_id, company_id, name, lastname, code, is_active, created_at, updated_at)
       select $1, $2, 'Ada', 'L', 'Y' || g, true, now(), now() from generate_series(1, 400) g`,
      [other.id, company.id],
    );
    let running = true;
    const started = Date.now();
    const summary = call(service.url, '/public/v2/timesheets/summary?start_date=2025-01-01&end_date=2025-12-31&per_page=1', {
      key: other.key,
      timeoutMs: 240_000,
    }).finally(() => {
      running = false;
    });
    const waits: number[] = [];
    while (running) {
      const asked = Date.now();
      await healthy();
      waits.push(Date.now() - asked);
    }
    const answer = await summary;
    const took = Date.now() - started;
    expect(answer.status).to.equal(200);
    expect(answer.body).to.have.length(1);
    expect((await query(t.config.databaseUrl!, 'select count(*)::int as n from attendance_day where workspace_id = $1', [other.id]))[0].n).to.equal(400 * 365);
    const longest = Math.max(...waits);
    expect(waits.length).to.be.greaterThan(10);
    expect(longest, `the longest /healthz wait against the summary's ${took} ms`).to.be.below(took / 5);
  });
});
