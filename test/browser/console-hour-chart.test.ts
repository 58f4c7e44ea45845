import { expect } from 'chai';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, recordPageProblems, screenshot, type TestBrowser } from '../support/browser';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// The overview's "punches per hour" chart counts every punch of the day (the service counts them):
// it drew the punch list's first 1,000, so a busy day was undercounted.
describe('console in the browser: punches per hour on the overview', () => {
  let t: TestApp;
  let browser: TestBrowser;
  before(async () => {
    t = await startTestApp({}, 'console-hour-chart');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('a day of 1,100 punches is drawn as 1,100, and a punch arriving while the page is open is counted', async () => {
    const ws = await createWorkspace(t.url);
    const c = await createCompany(t.url, ws.key, { name: 'Acme' });
    const device = await createDevice(t.url, ws.key, c.id, { name: 'Front door' });
    await createEmployee(t.url, ws.key, c.id, { pin: '51' });
    // Today in the workspace zone (UTC), as the page (in UTC too) asks for it: from 00:00, every 5 s.
    const day = new Date().toISOString().slice(0, 10);
    const at = (s: number) => `${day} ${[Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':')}`;
    const lines = Array.from({ length: 1100 }, (_, i) => `51\t${at(i * 5)}\t0\t1\t0`);
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, lines.join('\n'))).text).to.equal('OK: 1100');

    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, timezoneId: 'UTC' });
    await context.addInitScript(`sessionStorage.setItem('timegate.apiKey', ${JSON.stringify(ws.key)})`);
    const page = await context.newPage();
    recordPageProblems(page);
    await page.goto(`${t.url}/console`);
    await page.getByRole('img', { name: 'Punches per hour today: 1100 in all' }).waitFor();
    // 720 in the first hour (00:00 to 00:59:55), 380 in the second.
    await page.getByText('0h: 720, 1h: 380').waitFor({ state: 'attached' });
    await screenshot(page, 'overview-hour-chart-1100');
    // The latest punches beside it, newest first (the first page of the day, as the punch list orders it).
    const feed = page.getByRole('list', { name: 'Latest punches' }).getByRole('listitem');
    expect(await feed.first().textContent()).to.contain(at(1099 * 5).slice(11));
    expect(await feed.count()).to.equal(12);

    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, `51\t${at(2 * 3600)}\t1\t1\t0`)).text).to.equal(
      'OK: 1',
    );
    await page.getByRole('img', { name: 'Punches per hour today: 1101 in all' }).waitFor();
    expect((await gqlData(t.url, ws.key, `{ punchCountsByHour(date: "${day}") }`)).punchCountsByHour.slice(0, 3)).to.deep.equal([720, 380, 1]);
    await expectAccessible(page);
    await expectNoHorizontalCutOff(page, 'overview-hour-chart');
    await context.close();
  });
});
