// a request's computation has a budget. A timesheet that needs more days computed than
// one request may compute answers 503 computation_budget_exceeded with Retry-After, keeps what it
// computed, and a retry continues from there.
import { expect } from 'chai';
import { createCompany, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

describe('timesheet compute budget', () => {
  let t: TestApp;
  before(async () => {
    // 1 ms: every request computes one batch (50 employees) and stops there.
    t = await startTestApp({ TIMEGATE_REQUEST_COMPUTE_BUDGET_MS: '1', TIMEGATE_ATTENDANCE_WORKER: 'false' }, 'compute-budget');
  });
  after(() => t.stop());

  it('a year for 120 employees is computed over three requests, each answered 503 with Retry-After until the last, and nothing is computed twice', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    for (let i = 0; i < 120; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          rest(t.url, 'POST', '/public/v2/employees', {
            key: ws.key,
            body: { name: `P${i + j}`, lastname: 'Budget', code: `B${i + j}`, pin: String(5000 + i + j), company_id: company.id },
          }),
        ),
      );
    }
    const summary = () =>
      rest(t.url, 'GET', `/public/v2/timesheets/summary?company_id=${company.id}&start_date=2026-01-01&end_date=2026-12-31&per_page=1000`, { key: ws.key });

    const refusals: string[] = [];
    let answer = await summary();
    while (answer.status === 503 && refusals.length < 5) {
      expect(answer.body.error.code).to.equal('computation_budget_exceeded');
      expect(answer.headers.get('retry-after')).to.equal('1');
      refusals.push(answer.body.error.message);
      answer = await summary();
    }
    expect(answer.status, answer.text).to.equal(200);
    // 120 employees in batches of 50: the first two requests stop after one batch each.
    expect(refusals).to.have.length(2);
    expect(refusals[0]).to.contain('50 of 120 employees done');
    expect(refusals[1]).to.contain('50 of 70 employees done');
    expect(answer.body).to.have.length(120);
    // Everything is stored now: the same request computes nothing and is answered at once.
    expect((await summary()).status).to.equal(200);
  });
});
