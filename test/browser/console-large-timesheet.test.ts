import { expect } from 'chai';
import { expectNoPageProblems, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { signInWithKey } from '../support/console-sign-in';
import { createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

const EMPLOYEES = 70;
const MONTH = '2026-03';

/**
 * A month timesheet larger than one page of the API (70 people × 31 days = 2,170 days, pages of
 * 1,000): the console reads the pages after the first several at a time (slices of days), not one
 * after the other; the grid draws only the rows in view, counts them all (aria-rowcount), draws every
 * row once scrolled to, in the order of the people's names, and a cell of the last row opens its day.
 */
describe('console in the browser: a month timesheet of more than one page', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;

  before(async () => {
    t = await startTestApp({}, 'console-large-timesheet');
    ws = await createWorkspace(t.url);
    const companyId = (await createCompany(t.url, ws.key, { name: 'Large Co' })).id;
    for (let first = 1; first <= EMPLOYEES; first += 10) {
      await Promise.all(
        // Created last name first: the grid must order the people by name, not by id.
        Array.from({ length: 10 }, (_, i) =>
          createEmployee(t.url, ws.key, companyId, { name: 'Person', lastname: String(EMPLOYEES + 1 - first - i).padStart(3, '0') }),
        ),
      );
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('reads the pages after the first in parallel; the grid draws the rows in view, counts them all, and draws each when scrolled to', async () => {
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
    const grid = page.getByRole('table', { name: `Timesheet ${MONTH}-01 to ${MONTH}-31` });
    await page.getByRole('rowheader', { name: 'Person 001' }).waitFor({ timeout: 60_000 });
    // The table counts every row (and the header), but only the rows in view (and a few beyond) are drawn.
    expect(await grid.getAttribute('aria-rowcount')).to.equal(String(EMPLOYEES + 1));
    const rows = grid.locator('tbody tr[aria-rowindex]');
    const drawn = await rows.count();
    expect(drawn, 'rows drawn at first').to.be.within(10, EMPLOYEES - 1);
    // Scrolled down to the end, the rows drawn are the last ones, each with its place among all.
    const names = new Set(await grid.locator('tbody th[scope="row"]').allTextContents());
    const box = page.locator('.sheet-scroll');
    for (let step = 0; step < 20 && !names.has(`Person ${String(EMPLOYEES).padStart(3, '0')}`); step++) {
      await box.evaluate((b) => b.scrollBy(0, b.clientHeight));
      await page.waitForFunction(
        (seen) => [...(globalThis as any).document.querySelectorAll('.sheet tbody th[scope="row"]')].some((th: any) => !seen.includes(th.textContent)),
        [...names],
      );
      for (const name of await grid.locator('tbody th[scope="row"]').allTextContents()) names.add(name);
    }
    expect([...names].sort()).to.deep.equal(Array.from({ length: EMPLOYEES }, (_, i) => `Person ${String(i + 1).padStart(3, '0')}`));
    const last = grid.getByRole('row', { name: new RegExp(`^Person ${String(EMPLOYEES).padStart(3, '0')}`) });
    expect(await last.getAttribute('aria-rowindex')).to.equal(String(EMPLOYEES + 1));
    expect(await rows.count(), 'rows drawn at the end').to.be.below(EMPLOYEES);
    // Every drawn row has its 31 days, no day twice.
    const cellsPerRow = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td.day').length));
    expect(new Set(cellsPerRow)).to.deep.equal(new Set([31]));
    // Scrolled to the end, the last row is in view inside the box.
    await box.evaluate((b) => b.scrollTo(0, b.scrollHeight));
    await page.waitForFunction(() => {
      const b = (globalThis as any).document.querySelector('.sheet-scroll');
      const rows = b.querySelectorAll('tbody tr[aria-rowindex]');
      const row = rows[rows.length - 1].getBoundingClientRect();
      const frame = b.getBoundingClientRect();
      return row.bottom <= frame.bottom + 1 && row.top >= frame.top;
    });

    // The first page of the whole month, then slices of days of about a page each, several at once.
    expect(ranges[0]).to.equal(`${MONTH}-01..${MONTH}-31`);
    expect(
      ranges.slice(1).every((r) => !r.endsWith('(next page)') && r !== ranges[0]),
      ranges.join(', '),
    ).to.equal(true);
    expect(ranges.length).to.be.within(3, 5);
    expect(mostInFlight, ranges.join(', ')).to.be.at.least(2);

    // A cell of the last row opens its day; the arrow keys walk up the rows, drawing those scrolled to.
    await page.getByRole('button', { name: `Person ${String(EMPLOYEES).padStart(3, '0')}, ${MONTH}-31:` }).click();
    const dialog = page.getByRole('dialog', { name: `Person ${String(EMPLOYEES).padStart(3, '0')}, ${MONTH}-31` });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // One row at a time: the next key goes to the row the last one focused (drawn on the way).
    const focusedLabel = async () => String(await page.evaluate('document.activeElement?.getAttribute("aria-label")'));
    for (let i = 0; i < drawn + 5; i++) {
      const before = await focusedLabel();
      await page.keyboard.press('ArrowUp');
      await waitUntil('the focus moves up a row', focusedLabel, (label) => label !== before);
    }
    const focused = await focusedLabel();
    expect(focused).to.match(new RegExp(`^Person ${String(EMPLOYEES - drawn - 5).padStart(3, '0')}, ${MONTH}-31:`));
    await screenshot(page, 'large-timesheet');
    expectNoPageProblems(page);
  });
});
