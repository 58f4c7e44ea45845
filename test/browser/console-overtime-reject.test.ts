import { expect } from 'chai';
import { createPunch, createShift } from '../support/attendance-seeding';
import { expectAccessible, expectNoHorizontalCutOff, expectNoPageProblems, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { signInWithKey } from '../support/console-sign-in';
import { readOutbox } from '../support/events';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

// An approver whose key holds `approve` alone rejects, from the timesheet's day dialog, a day whose
// overtime nobody filed: the day's one approval is filed rejected (rejectOvertimePeriod), never
// approved on the way. A company whose pay policy requires overtime approval, a default shift
// 09:00–17:00 (no break), Monday to Friday, UTC; 2026-05-04 is a Monday.
describe('console in the browser: an approve-only approver rejects an unfiled overtime day', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let employeeId: number;
  let approverKey: string;
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
  const dayOf = async (date: string) =>
    (
      await query(
        'query ($e: Int, $d: String!) { timesheet(employeeId: $e, startDate: $d, endDate: $d) { nodes { overtimeMinutes pendingOvertimeMinutes payItems { code minutes } } } }',
        { e: employeeId, d: date },
      )
    ).timesheet.nodes[0] as { overtimeMinutes: number; pendingOvertimeMinutes: number; payItems: { code: string; minutes: number }[] } | undefined;
  const approvals = async () =>
    (
      await query('query ($e: Int) { overtimeApprovals(employeeId: $e) { nodes { id date state minutes decisionComment decidedByKeyId requestedByKeyId } } }', {
        e: employeeId,
      })
    ).overtimeApprovals.nodes;
  /** The employee's overtime_approval.updated events as [date, state]: what webhooks and subscribers were told. */
  const events = async () => {
    const em = t.app.database.orm.em.fork();
    const stored = await readOutbox((sql, params) => em.getConnection().execute(sql, params), ws.id, 'overtime_approval.updated');
    return stored
      .map((e) => e.data as { employee_id: number; date: string; state: string })
      .filter((d) => d.employee_id === employeeId)
      .map((d) => [d.date, d.state]);
  };

  before(async () => {
    t = await startTestApp({}, 'console-overtime-reject');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Night Shift', pay_policy: { overtime_requires_approval: true } })).id;
    await createShift(t.url, ws.key, companyId, { name: 'Day', startTime: '09:00', endTime: '17:00', isDefault: true });
    const clockId = (await createDevice(t.url, ws.key, companyId, { name: 'Gate clock', mode_type: 'att' })).id;
    employeeId = (await createEmployee(t.url, ws.key, companyId, { name: 'Dana', lastname: 'Stay', pin: '9801', code: 'DS-1' })).id;
    for (const [time, state] of [
      ['09:00', '0'],
      ['18:20', '1'],
    ]) {
      await createPunch(t.url, ws.key, { employeeId, companyId, deviceId: clockId, punchTime: `2026-05-05T${time}:00Z`, punchState: state });
    }
    await waitUntil(
      'day computed',
      () => dayOf('2026-05-05'),
      (day) => day?.pendingOvertimeMinutes === 80,
    );
    approverKey = await createKey(t.url, ws.key, ['approve']);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('rejects the day in one decision: one approval, rejected with the comment, never approved; no overtime paid', async () => {
    expect(await approvals()).to.deep.equal([]);
    const page = await signInWithKey(browser, t.url, approverKey);
    await page.getByRole('link', { name: 'Timesheets' }).click();
    await page.getByLabel('Company').selectOption({ label: 'Acme Night Shift' });
    await page.getByLabel('Month').fill('2026-05');
    await page.getByRole('button', { name: /^Dana Stay, 2026-05-05: / }).click();
    const day = page.getByRole('dialog', { name: 'Dana Stay, 2026-05-05' });
    await day.getByText('80 min overtime waiting for approval').waitFor();

    // Cancel first: nothing is decided.
    await day.getByRole('button', { name: 'Reject overtime' }).click();
    const reject = page.getByRole('dialog', { name: "Reject Dana Stay's overtime on 2026-05-05?" });
    await reject.getByRole('button', { name: 'Cancel' }).click();
    expect(await approvals()).to.deep.equal([]);

    await day.getByRole('button', { name: 'Reject overtime' }).click();
    await reject.getByLabel('Comment (optional)').fill('Stayed without asking');
    await screenshot(page, 'hr-overtime-reject-unfiled-confirm');
    await expectAccessible(page);
    await reject.getByRole('button', { name: 'Reject overtime' }).click();
    await day.getByText('80 min overtime waiting for approval').waitFor({ state: 'detached' });
    await screenshot(page, 'hr-overtime-reject-unfiled-done');

    const stored = await approvals();
    expect(stored).to.have.length(1);
    expect(stored[0]).to.deep.include({ date: '2026-05-05', state: 'rejected', minutes: null, decisionComment: 'Stayed without asking' });
    expect(stored[0].decidedByKeyId).to.be.a('number');
    // The event stream: the day was filed rejected, with no approval before it.
    expect(await events()).to.deep.equal([['2026-05-05', 'rejected']]);
    const after = await dayOf('2026-05-05');
    expect(after).to.deep.include({ overtimeMinutes: 0, pendingOvertimeMinutes: 0 });
    expect(after?.payItems).to.deep.equal([{ code: 'regular', minutes: 480 }]);

    await expectAccessible(page);
    await expectNoHorizontalCutOff(page, 'hr-overtime-reject-unfiled');
    expectNoPageProblems(page);
    await page.close();
  });
});
