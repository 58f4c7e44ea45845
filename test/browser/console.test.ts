import os from 'node:os';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { SimulatedTerminal } from '../../src/simulator';
import {
  accessibilityViolations,
  expectAccessible,
  expectNoPageProblems,
  launchBrowser,
  recordPageProblems,
  screenshot,
  screenshotOfFailure,
  type TestBrowser,
} from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

/** The console and the GraphQL explorer in a real Chromium, against the real service and the simulator. */
describe('console in the browser', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  const terminals: SimulatedTerminal[] = [];
  before(async () => {
    // Every address of the machine, so that the page can be opened by host name too.
    t = await startTestApp({ HOST: '0.0.0.0', TIMEGATE_PRESENCE_FLUSH_MS: '200', TIMEGATE_KEY_CACHE_MS: '500' }, 'console');
    ws = await createWorkspace(t.url, { maxDevices: 20 });
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Works' })).id;
    browser = await launchBrowser();
    tab = consoleTab(browser, t.url);
  });
  afterEach(async () => {
    await Promise.all(terminals.splice(0).map((terminal) => terminal.stop()));
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  function terminal(serialNumber: string, family: 'att' | 'acc'): SimulatedTerminal {
    const sim = new SimulatedTerminal({ serverUrl: t.url, serialNumber, family, pollIntervalMs: 100 });
    terminals.push(sim);
    sim.start();
    return sim;
  }

  /**
   * Signed in with `key` (1280 px wide), from the root address, which sends a person to the console:
   * the file's console tab (consoleTab), signed in through the form by the first test.
   */
  let tab: ConsoleTab;
  async function signedIn(key = ws.key): Promise<Page> {
    const page = await tab(key, { width: 1280, openAt: '/' });
    expect(new URL(page.url()).pathname).to.equal('/console');
    return page;
  }

  it('signs in with a key, shows the workspace and the key scopes; a terminal comes online and a punch arrives without a reload', async () => {
    const device = await createDevice(t.url, ws.key, companyId, { name: 'Front clock', mode_type: 'att' });
    const page = await signedIn();
    await page.getByText('admin', { exact: false }).first().waitFor();
    const tile = page.locator(`.tile[data-serial="${device.serial_number}"]`);
    await tile.waitFor();
    expect(await tile.getAttribute('class')).to.contain('tile-pending');
    expect(await page.locator('.count-online .count-value').textContent()).to.equal('0');

    const sim = terminal(device.serial_number, 'att');
    await page.locator(`.tile-online[data-serial="${device.serial_number}"]`).waitFor({ timeout: 15_000 });
    expect(await page.locator('.count-online .count-value').textContent()).to.equal('1');

    sim.punch({ pin: '4711' });
    const feed = page.getByRole('list', { name: 'Latest punches' });
    await feed.getByText('4711').waitFor({ timeout: 15_000 });
    await screenshot(page, 'overview');
    await expectAccessible(page);

    // An unknown terminal calls in: it is offered for registration, and once registered it is on the board.
    const stranger = `UNREG${Date.now().toString(36).toUpperCase()}`;
    const unknown = new SimulatedTerminal({ serverUrl: t.url, serialNumber: stranger, family: 'att', pollIntervalMs: 200 });
    terminals.push(unknown);
    unknown.start();
    await page.getByRole('button', { name: `Register ${stranger}` }).click({ timeout: 20_000 });
    await page
      .locator(`.tile[data-serial="${stranger}"]`)
      .waitFor({ timeout: 15_000 })
      .catch(async (error) => {
        await screenshotOfFailure(page, 'overview-register-failed');
        throw error;
      });

    // On a phone-width screen nothing runs off the side.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).to.equal(true);
    await screenshot(page, 'overview-phone');
  });

  it('creates an employee, assigns a terminal and shows it synced; opens a door and shows the action succeed', async () => {
    const panel = await createDevice(t.url, ws.key, companyId, { name: 'Gate', mode_type: 'acc' });
    terminal(panel.serial_number, 'acc');
    const page = await signedIn();
    await page.getByRole('link', { name: 'Devices' }).click();
    await page.getByRole('link', { name: 'Gate' }).waitFor();
    await screenshot(page, 'devices');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Employees' }).click();
    await page.getByLabel('Search').waitFor();
    await expectAccessible(page);
    // Keyboard: the pages are reachable with Tab from the top, and focus is visible (an outline).
    await page.reload();
    await page.getByLabel('Search').waitFor();
    // The first Tab offers to skip to the content; the pages follow the header.
    const focused = () => page.evaluate('document.activeElement.textContent');
    await page.keyboard.press('Tab');
    expect(await focused()).to.equal('Skip to content');
    await page.keyboard.press('Tab');
    expect(await focused()).to.equal('Sign out');
    await page.keyboard.press('Tab');
    expect(await focused()).to.equal('Overview');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).to.not.equal('none');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Employee code').fill('GH-1');
    await page.getByLabel('Pin on the terminals').fill('8101');
    await page.getByRole('button', { name: 'Create employee' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await screenshot(page, 'employees');
    await expectAccessible(page);

    await page.getByLabel('Terminal', { exact: true }).selectOption({ label: `Gate (${panel.serial_number})` });
    await page.getByRole('button', { name: 'Assign' }).click();
    const row = page.locator(`tr[data-device="${panel.id}"]`);
    await row.locator('.badge-synced').waitFor({ timeout: 15_000 });
    await screenshot(page, 'employee-synced');

    // The devices list shows the terminal's people in sync.
    await page.getByRole('link', { name: 'Devices' }).click();
    await page.locator(`td.sync-state[data-device="${panel.id}"]`).getByText('1 synced').waitFor({ timeout: 15_000 });
    await page.goto(`${t.url}/console#/employees`);
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await row.getByRole('link', { name: 'Gate' }).click();
    await page.getByRole('button', { name: 'Open Door 1' }).click();
    await page.getByRole('status').locator('.badge-succeeded').waitFor({ timeout: 15_000 });
    await page.getByRole('cell', { name: 'Grace Hopper' }).waitFor();
    await page.getByText('Nothing waiting for this terminal.').waitFor({ timeout: 15_000 });
    await screenshot(page, 'device-door-opened');
    await expectAccessible(page);

    // Edit the employee: the new name is shown and goes to the terminal again.
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByLabel('First name').fill('Gracie');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Gracie Hopper' }).waitFor();
    await page.locator(`tr[data-device="${panel.id}"] .badge-synced`).waitFor({ timeout: 15_000 });
    await expectAccessible(page);
  });

  it('a read-only key is offered no write or door buttons; a bad key gets a clear message; punches can be filtered', async () => {
    const device = await createDevice(t.url, ws.key, companyId, { name: 'Side door', mode_type: 'acc' });
    const reader = await createKey(t.url, ws.key, ['read']);
    const page = await signedIn(reader);
    await page
      .getByText('read', { exact: true })
      .or(page.getByText(/· read$/))
      .first()
      .waitFor();
    await page.goto(`${t.url}/console#/employees`);
    await page.getByRole('heading', { name: 'Employees' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create employee' }).count()).to.equal(0);
    await page.goto(`${t.url}/console#/devices/${device.id}`);
    await page.getByRole('heading', { name: 'Doors' }).waitFor();
    expect(await page.getByRole('button', { name: /^Open / }).count()).to.equal(0);
    await page.goto(`${t.url}/console#/punches`);
    await page.getByLabel('From').waitFor();
    await screenshot(page, 'punches');
    await expectAccessible(page);

    // With the keyboard alone: Tab to the key, type it, Enter; the refusal is announced (role alert).
    const stranger = await browser.newPage();
    recordPageProblems(stranger);
    await stranger.goto(`${t.url}/console`);
    await stranger.keyboard.press('Tab');
    expect(await stranger.evaluate('document.activeElement.id')).to.equal('api-key');
    await stranger.keyboard.type('tg_live_not_a_real_key');
    await stranger.keyboard.press('Enter');
    await stranger.getByRole('alert').getByText('unknown or was revoked').waitFor();
    await screenshot(stranger, 'sign-in-refused');
    await expectAccessible(stranger);
    await stranger.close();
  });

  it('timesheet month grid with CSV export, access schedules, a device action followed to its end', async () => {
    const clock = await createDevice(t.url, ws.key, companyId, { name: 'Hall clock', mode_type: 'att' });
    terminal(clock.serial_number, 'att');
    const ada = await createEmployee(t.url, ws.key, companyId, { name: 'Ada', lastname: 'Sheet', pin: '9301' });
    const day = new Date().toISOString().slice(0, 10);
    for (const time of ['08:00:00', '16:30:00']) {
      const punch = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { employee_id: ada.id, device_id: clock.id, company_id: companyId, punch_time: `${day}T${time}Z`, punch_state: '0' },
      });
      expect(punch.status, punch.text).to.be.oneOf([200, 201]);
    }
    const page = await signedIn();
    await page.goto(`${t.url}/console#/timesheets`);
    await page.getByLabel('Company').selectOption({ label: 'Acme Works' });
    const row = page.locator(`tr[data-employee="${ada.id}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.locator('td.day:not(.cell-none)').count()).to.be.above(0);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = await (await download.createReadStream()).toArray();
    const text = Buffer.concat(csv as Buffer[]).toString('utf8');
    expect(text.split('\n')[0]).to.match(/^employee_id,date,shift_id,status/);
    expect(text).to.contain(`${ada.id},${day}`);
    await screenshot(page, 'timesheets');
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Access' }).click();
    await page.getByRole('rowheader', { name: 'Always' }).first().waitFor();
    await screenshot(page, 'access');
    await expectAccessible(page);

    await page.goto(`${t.url}/console#/devices/${clock.id}`);
    await page.getByRole('button', { name: 'Read info' }).click();
    await page.locator('tr[data-action] .badge-succeeded').waitFor({ timeout: 15_000 });
    await screenshot(page, 'device-actions');
  });

  it('admins see webhooks with deliveries, and keys: a key is created (shown once) and revoked; a revoked key is signed out', async () => {
    const hook = await rest(t.url, 'POST', '/public/v2/webhooks', {
      key: ws.key,
      body: { url: 'http://127.0.0.1:9/hook', event_types: ['attendance.created'] },
    });
    expect(hook.status).to.equal(201);
    const page = await signedIn();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('http://127.0.0.1:9/hook').waitFor();
    // The list is open and empty when the test event is sent: it shows the new delivery by itself.
    await page.getByRole('button', { name: 'Show deliveries' }).click();
    await page.getByText('No deliveries yet.').waitFor();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByRole('cell', { name: /webhook\.test/ }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'webhooks');
    await expectAccessible(page);
    // Replay sends the delivery's 64-bit id (SafeInt) back: the mutation answers the same delivery, pending again.
    const [listed] = (await rest(t.url, 'GET', `/public/v2/webhooks/${hook.body.id}/deliveries`, { key: ws.key })).body;
    const replayed = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('RedeliverWebhook'));
    await page.getByRole('button', { name: 'Replay' }).click();
    const answer = await (await replayed).json();
    expect(answer.errors).to.equal(undefined);
    expect(answer.data.redeliverWebhook).to.deep.equal({ id: listed.id, status: 'pending' });

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('kiosk');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByRole('status').locator('code').textContent())!;
    expect(secret).to.match(/^tg_/);
    // The console's own key is not offered for revoking; a key without a name is named by its prefix.
    expect(await page.getByRole('button', { name: 'Revoke admin' }).count()).to.equal(0);
    await page.getByText("this console's key").waitFor();
    await page.getByRole('button', { name: 'Revoke kiosk' }).click();
    await page.getByText(/^revoked/).waitFor();
    await screenshot(page, 'api-keys');
    await expectAccessible(page);

    // Signed in with a key that is then revoked: the console signs out and says why.
    const temporary = await createKey(t.url, ws.key, ['read']);
    const reader = await signedIn(temporary);
    expect(await reader.getByRole('link', { name: 'API keys' }).count()).to.equal(0);
    const keys = await gqlData(t.url, ws.key, '{ apiKeys { id prefix last4 revokedAt } }');
    const mine = keys.apiKeys.find((k: any) => temporary.startsWith(k.prefix) && temporary.endsWith(k.last4) && !k.revokedAt);
    await gqlData(t.url, ws.key, 'mutation ($id: Int!) { revokeApiKey(id: $id) { id } }', { id: mine.id });
    await reader.getByRole('alert').getByText('revoked').waitFor({ timeout: 20_000 });
    // The last test of the tab: closed, so that the tests after it run with no console open beside
    // them (with it open, the /docs test's 2 MB API reference missed its 15 s on a busy machine).
    await reader.close();
  });

  it('the GraphQL explorer works offline: a query and a subscription, with the key as a header', async () => {
    const device = await createDevice(t.url, ws.key, companyId, { name: 'Explorer clock', mode_type: 'att' });
    const sim = terminal(device.serial_number, 'att');
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const external: string[] = [];
    recordPageProblems(page);
    page.on('request', (request) => {
      if (!request.url().startsWith(t.url) && !request.url().startsWith(t.url.replace('http', 'ws')) && !request.url().startsWith('data:'))
        external.push(request.url());
    });
    await page.goto(`${t.url}/graphql`);
    await page.getByLabel('API key').fill(ws.key);
    await page.getByRole('button', { name: 'Open the explorer' }).click();
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.result-window').getByText('"name"').waitFor({ timeout: 15_000 });
    await screenshot(page, 'graphiql-query');
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    await page.goto(`${t.url}/graphql#query=${encodeURIComponent('subscription { punchCreated { punch { pin } } }')}`);
    await page.reload();
    // The punch is made once the explorer has sent its subscription over the WebSocket.
    const subscribed = new Promise<void>((resolve) =>
      page.on('websocket', (socket) =>
        socket.on('framesent', (frame) => {
          if (typeof frame.payload === 'string' && frame.payload.includes('"subscribe"') && frame.payload.includes('punchCreated')) resolve();
        }),
      ),
    );
    await page.locator('.graphiql-execute-button').click();
    await subscribed;
    sim.punch({ pin: '5150' });
    await page.locator('.result-window').getByText('5150').waitFor({ timeout: 15_000 });
    await screenshot(page, 'graphiql-subscription');
    expect(external).to.deep.equal([]);
    expectNoPageProblems(page);
    await page.close();
  });

  it('/docs loads its assets by address and by host name over plain HTTP', async () => {
    const port = new URL(t.url).port;
    for (const host of ['127.0.0.1', os.hostname()]) {
      const page = await browser.newPage();
      const failed: string[] = [];
      page.on('requestfailed', (request) => failed.push(request.url()));
      await page.goto(`http://${host}:${port}/docs`);
      await page.locator('.swagger-ui .info .title').waitFor({ timeout: 15_000 });
      expect(failed, host).to.deep.equal([]);
      await screenshot(page, `docs-${host === '127.0.0.1' ? 'address' : 'hostname'}`);
      await page.close();
    }
  });
});
