import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { expectNoPageProblems, launchBrowser, screenshot } from '../support/browser';
import { signInWithKey } from '../support/console-sign-in';
import { createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const EMPLOYEES = 70;
const MONTH = '2026-03';

/**
 * A month timesheet larger than one page of the API (70 people × 31 days = 2,170 days, pages of
 * 1,000): the console reads the pages after the first several at a time (slices of days), not one
 * after the other, draws every row exactly once (more rows than it draws in its first go), and a
 * cell of a row drawn late still opens its day.
 */
describe('console in the browser: a month timesheet of more than one page', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: Browser;

  before(async () => {
    t = await startTestApp({}, 'console-large-timesheet');
    ws = await createWorkspace(t.url);
    const companyId = (await createCompany(t.url, ws.key, { name: 'Large Co' })).id;
    for (let first = 1; first <= EMPLOYEES; first += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => createEmployee(t.url, ws.key, companyId, { name: 'Person', lastname: String(first + i).padStart(3, '0') })),
      );
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('reads the pages after the first in parallel and draws every row once; a late-drawn cell opens its day', async () => {
    const page = await signInWithKey(browser, t.url, ws.key);

    // Timesheet requests: how many, and how many at once.
    let inFlight = 0;
    let mostInFlight = 0;
    const ranges: string[] = [];
    page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (!body.includes('query Timesheet(')) return;
      const { variables } = JSON.parse(body) as { variables: { startDate: string; endDate: string; after: string | null } };
      ranges.push(`${variables.startDate}..${variables.endDate}${variables.after ? ' (next page)' : ''}`);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
    });
    const settled = (request: { postData(): string | null }) => {
      if ((request.postData() ?? '').includes('query Timesheet(')) inFlight -= 1;
    };
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);

    await page.goto(`${t.url}/console#/timesheets/${MONTH}`);
    const rows = page.locator('table.sheet tbody tr');
    await page.getByRole('rowheader', { name: `Person ${String(EMPLOYEES).padStart(3, '0')}` }).waitFor({ timeout: 60_000 });
    expect(await rows.count()).to.equal(EMPLOYEES);
    expect((await page.locator('table.sheet tbody th[scope="row"]').allTextContents()).sort()).to.deep.equal(
      Array.from({ length: EMPLOYEES }, (_, i) => `Person ${String(i + 1).padStart(3, '0')}`),
    );
    // Every row has its 31 days, no day twice.
    const cellsPerRow = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td.day').length));
    expect(new Set(cellsPerRow)).to.deep.equal(new Set([31]));
    const buttons = await page.locator('table.sheet tbody td.day button').count();
    expect(buttons).to.equal(EMPLOYEES * 31);

    // The first page of the whole month, then slices of days of about a page each, several at once.
    expect(ranges[0]).to.equal(`${MONTH}-01..${MONTH}-31`);
    expect(
      ranges.slice(1).every((r) => !r.endsWith('(next page)') && r !== ranges[0]),
      ranges.join(', '),
    ).to.equal(true);
    expect(ranges.length).to.be.within(3, 5);
    expect(mostInFlight, ranges.join(', ')).to.be.at.least(2);

    // The last row was drawn after the first go (rows come in slices); its cell opens the day.
    await page.getByRole('button', { name: `Person ${String(EMPLOYEES).padStart(3, '0')}, ${MONTH}-31:` }).click();
    await page.getByRole('dialog', { name: `Person ${String(EMPLOYEES).padStart(3, '0')}, ${MONTH}-31` }).waitFor();
    await screenshot(page, 'large-timesheet');
    expectNoPageProblems(page);
  });
});
