import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { createShift } from '../support/attendance-seeding';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, recordPageProblems, screenshot, type TestBrowser } from '../support/browser';
import { createCompany, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/**
 * The self-service app (/me) on a phone-sized Chromium (390 px): an invitation link signs the
 * employee in, the big button punches with the phone's (emulated) position inside the geofence and
 * the day shows it; a punch made offline waits on the phone and is sent, with the time it was made,
 * once the phone is back online.
 */
describe('self-service app in the browser: invitation, punch inside the fence, offline punch queued and sent', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let employee: { id: number };
  const depot = { latitude: 52.5219, longitude: 13.4132 };

  before(async () => {
    t = await startTestApp({}, 'me-app');
    ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key, { name: 'Acme Field', settings: { mobile_punch: true } });
    // A shift holding any time of any day: one instance a date, whose windows do not reach into the
    // next date's (with the default four hours, an evening punch is nearer the next date's start and
    // belongs to that date's day, not to today's).
    await createShift(t.url, ws.key, company.id, {
      name: 'Day',
      startTime: '00:00',
      endTime: '23:59',
      workdays: [1, 2, 3, 4, 5, 6, 7],
      checkInBeforeMinutes: 0,
      checkOutAfterMinutes: 0,
      isDefault: true,
    });
    employee = await createEmployee(t.url, ws.key, company.id, { name: 'Dana', lastname: 'Driver', pin: '7701', code: 'DD-1' });
    const writeKey = await createKey(t.url, ws.key, ['write']);
    const fence = await rest(t.url, 'POST', '/public/v2/geofences', {
      key: writeKey,
      body: { company_id: company.id, name: 'Depot', ...depot, radius_m: 150 },
    });
    expect(fence.status, fence.text).to.equal(201);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  async function invitationUrl(): Promise<string> {
    const made = await rest(t.url, 'POST', `/public/v2/employees/${employee.id}/invitations`, { key: ws.key, body: {} });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.url).to.match(/\/me\/invitation#tgi_[0-9A-Za-z]{40}$/);
    return made.body.url as string;
  }

  async function phone(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.grantPermissions(['geolocation'], { origin: t.url });
    await context.setGeolocation({ ...depot, latitude: depot.latitude + 0.0005, accuracy: 12 });
    const page = await context.newPage();
    recordPageProblems(page);
    return { context, page };
  }

  const punches = async () => {
    const r = await rest(t.url, 'GET', `/public/v2/punches?employee_id=${employee.id}`, { key: ws.key });
    return r.body as { id: number; source: string; geofence_id: number | null; offline_queued: boolean | null; punch_time: string; punch_state: string }[];
  };

  it('invitation link → signed in → punch with the phone inside the fence (keyboard) → the day shows it; the link works once', async function () {
    this.timeout(120_000);
    const url = await invitationUrl();
    const { context, page } = await phone();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Dana Driver' }).waitFor();
    // The secret left the address bar at once.
    expect(page.url()).to.equal(`${t.url}/me`);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'timegate_me_session')!;
    expect(session).to.include({ httpOnly: true, sameSite: 'Lax', path: '/' });
    await page.getByRole('button', { name: 'Check-In' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'me-signed-in');

    // With the keyboard: Tab to the big button, Enter.
    for (let i = 0; i < 15 && (await page.evaluate('document.activeElement?.textContent')) !== 'Check-In'; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).to.equal('Check-In');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'recorded' }).waitFor();
    await page.getByTestId('punches').getByText('(phone)').waitFor();
    const stored = await punches();
    expect(stored).to.have.length(1);
    expect(stored[0]).to.include({ source: 'mobile', punch_state: '0', offline_queued: false });
    expect(stored[0]!.geofence_id).to.be.a('number');
    // The day shows the punch: an "In" time, and the next punch is a check-out.
    await page.getByRole('button', { name: 'Check-Out' }).waitFor();
    await page
      .getByTestId('today-state')
      .getByText(/In \d\d:\d\d/)
      .waitFor();
    await expectAccessible(page);
    await expectNoHorizontalCutOff(page, 'me-today');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'me-punched');

    // The week, the month, balances and requests are there and accessible too.
    for (const tab of ['Week', 'Month', 'Balances', 'Requests']) {
      await page.getByRole('button', { name: tab, exact: true }).click();
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      await expectAccessible(page);
    }
    // Time off asked for (the company's first absence type, a week ahead), then withdrawn while it waits, by its own Cancel button.
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByRole('status').filter({ hasText: 'Request sent.' }).waitFor();
    await page
      .getByRole('listitem')
      .filter({ hasText: /Vacation, .*: pending/ })
      .waitFor();
    await page.getByRole('button', { name: /^Cancel the request from \d{4}-\d{2}-\d{2}$/ }).click();
    await page.getByRole('status').filter({ hasText: 'Request cancelled.' }).waitFor();
    await page
      .getByRole('listitem')
      .filter({ hasText: /Vacation, .*: cancelled/ })
      .waitFor();
    await screenshot(page, 'me-requests');

    // The link was spent: a second browser opening it is not signed in.
    const other = await phone();
    await other.page.goto(url);
    await other.page.getByText('This link is not valid').waitFor();
    await other.context.close();
    await context.close();
  });

  it('a punch made offline waits on the phone and is sent with its time when back online, marked offline_queued', async function () {
    this.timeout(120_000);
    const { context, page } = await phone();
    await page.goto(await invitationUrl());
    await page.getByRole('heading', { name: 'Dana Driver' }).waitFor();
    // The service worker keeps the app's shell for offline use.
    await waitUntil(
      'the service worker controls the page',
      () => page.evaluate<boolean>('navigator.serviceWorker.ready.then(() => true)'),
      (ready) => ready,
    );
    const before = (await punches()).length;
    await page.locator('[data-testid=punches][aria-busy=false]').waitFor();
    const button = page.getByRole('button', { name: /^Check-(In|Out)$/ });
    const label = await button.textContent();
    await context.setOffline(true);
    const madeAt = Date.now();
    await button.click();
    await page.getByTestId('queued').getByText('1 punch waits').waitFor();
    await page.getByRole('status').filter({ hasText: 'saved on this phone' }).waitFor();
    await screenshot(page, 'me-offline-queued');
    expect(await punches()).to.have.length(before);

    await context.setOffline(false);
    const after = await waitUntil('the queued punch arrives', punches, (list) => list.length === before + 1);
    const sent = after.find((p) => p.offline_queued)!;
    expect(sent).to.include({ source: 'mobile', punch_state: label === 'Check-In' ? '0' : '1' });
    // Sent with the time it was made (within the second of the click), not the time it arrived.
    expect(Math.abs(new Date(sent.punch_time).getTime() - madeAt)).to.be.below(5_000);
    await waitUntil(
      'the queue is empty',
      () => page.getByTestId('queued').count(),
      (n) => n === 0,
    );
    await page.getByTestId('punches').getByText('sent later').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'me-offline-sent');
    await context.close();
  });
});
