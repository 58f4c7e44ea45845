import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { accessibilityViolations, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { signInThroughProvider } from '../support/console-sign-in';
import { createCompany } from '../support/factories';
import { gqlData } from '../support/http';
import { startOidcProvider, type TestProvider } from '../support/oidc-provider';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The console's single sign-on in a real Chromium against a real OpenID provider on loopback
 * (oidc-provider): sign-in, roles deciding what the console shows and what the API allows, session
 * expiry, sign-out and CSRF refusal.
 */
describe('console single sign-on in the browser', () => {
  let provider: TestProvider;
  let t: TestApp;
  let browser: TestBrowser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    provider = await startOidcProvider({
      alice: { email: 'alice@example.com', name: 'Alice Hr', groups: ['HR'] },
      sam: { email: 'sam@example.com', name: 'Sam Guard', groups: ['Security Desk'] },
      nobody: { email: 'nobody@example.com', name: 'No Role', groups: ['Sales'] },
    });
    t = await startTestApp(
      {
        TIMEGATE_OIDC_ISSUER: provider.issuer,
        TIMEGATE_OIDC_CLIENT_ID: provider.clientId,
        TIMEGATE_OIDC_CLIENT_SECRET: provider.clientSecret,
        TIMEGATE_OIDC_SCOPES: 'openid profile email groups',
        TIMEGATE_OIDC_ROLE_MAP: 'Timegate Admins=admin,HR=hr,Security Desk=security',
        TIMEGATE_KEY_CACHE_MS: '200',
      },
      'sso-browser',
    );
    provider.allowRedirect(`${t.url}/auth/oidc/callback`);
    await createCompany(t.url, t.adminKey, { name: 'Signed-in Ltd' });
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
    await provider?.stop();
  });

  /** A fresh browser (no cookies) signing in as `login` at the provider's own login page. */
  async function signIn(login: string, expectSignedIn = true): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    return signInThroughProvider(context, t.url, login, expectSignedIn);
  }

  const navLinks = async (page: Page) => page.getByRole('navigation', { name: 'Pages' }).getByRole('link').allTextContents();

  /** Runs a GraphQL operation from the page as the console does (cookie; the CSRF token unless `withToken` is false). */
  function fromPage(page: Page, query: string, withToken = true): Promise<{ status: number; code: string | null; data: unknown }> {
    return page.evaluate(
      async ({ query, withToken }) => {
        const session = (await (await fetch('/auth/session')).json()) as any;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (withToken) headers['x-csrf-token'] = session.csrfToken;
        const response = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query }) });
        const body = (await response.json()) as any;
        return { status: response.status, code: body.errors?.[0]?.extensions?.code ?? body.error?.code ?? null, data: body.data ?? null };
      },
      { query, withToken },
    );
  }

  it('an hr person signs in through the provider, sees people pages only, works with them; security is refused by the console and the API', async () => {
    const page = await signIn('alice');
    await page.getByText('Alice Hr · hr').waitFor();
    expect(await navLinks(page)).to.deep.equal([
      'Overview',
      'Devices',
      'Employees',
      'Punches',
      'Timesheets',
      'Attendance report',
      'Shifts',
      'Rosters and overrides',
      'Requests',
      'Leave balances',
      'Holidays',
      'Pay periods',
      'Pay policy',
    ]);
    const [cookie] = (await page.context().cookies(t.url)).filter((c) => c.name === 'timegate_session');
    expect(cookie).to.include({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    expect(await page.evaluate('document.cookie')).to.not.contain('timegate_session');
    await screenshot(page, 'sso-hr-overview');
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    // The console's own mutation, with the session: an employee is created.
    await page.getByRole('link', { name: 'Employees' }).click();
    await page.getByLabel('First name').fill('Signed');
    await page.getByLabel('Last name').fill('By Alice');
    await page.getByLabel('Employee code').fill('SSO-1');
    await page.getByRole('button', { name: 'Create employee' }).click();
    await page.getByRole('heading', { name: 'Signed By Alice' }).waitFor();
    const audit = await gqlData(t.url, t.adminKey, `{ auditEvents(first: 5, operation: "createEmployee") { nodes { actorSubject actorEmail outcome } } }`);
    expect(audit.auditEvents.nodes[0]).to.deep.equal({ actorSubject: 'alice', actorEmail: 'alice@example.com', outcome: 'ok' });

    // The security page is not offered, and not shown even by its address.
    await page.goto(`${t.url}/console#/access`);
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Access schedules' }).count()).to.equal(0);
    // And the API refuses what the security role may do.
    const grant = await fromPage(page, `mutation { createAccessLevel(input: { companyId: 1, name: "Night", scheduleId: 1 }) { id } }`);
    expect(grant.code).to.equal('forbidden');
    const unlock = await fromPage(page, `mutation { performDoorAction(doorId: 1, input: { action: "unlock" }) { actionId } }`);
    expect(unlock.code).to.equal('forbidden');
  });

  it('a security person sees doors and access, not people; the API refuses people changes', async () => {
    const page = await signIn('sam');
    await page.getByText('Sam Guard · security').waitFor();
    expect(await navLinks(page)).to.deep.equal([
      'Overview',
      'Devices',
      'Door board',
      'Refused today',
      'Lockdowns',
      'Visitor passes',
      'Linkage rules',
      'Access',
    ]);
    await page.getByRole('link', { name: 'Access' }).click();
    await page.getByRole('heading', { name: 'Access schedules' }).waitFor();
    await screenshot(page, 'sso-security-access');
    await page.goto(`${t.url}/console#/employees`);
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create employee' }).count()).to.equal(0);
    const refused = await fromPage(page, `mutation { createEmployee(input: { companyId: 1, name: "Not", lastname: "Allowed", code: "NO-1" }) { id } }`);
    expect(refused.code).to.equal('forbidden');
  });

  it("refuses requests without the CSRF token and a cross-site page's forms; the session survives them", async () => {
    const page = await signIn('alice');
    const bare = await fromPage(page, `mutation { createEmployee(input: { companyId: 1, name: "No", lastname: "Token", code: "CSRF-B" }) { id } }`, false);
    expect(bare).to.include({ status: 403, code: 'csrf_refused' });

    // A page of another site (localhost is another site than 127.0.0.1) posts forms at Timegate.
    const attack = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><title>attack</title>
<form id="out" method="post" action="${t.url}/auth/logout" target="f1"></form>
<form id="gql" method="post" action="${t.url}/graphql" enctype="text/plain" target="f2"><input name='{"query":"mutation { createEmployee(input: { companyId: 1, name: \\"Forged\\", lastname: \\"Form\\", code: \\"CSRF-F\\" }) { id } }","x":"' value='"}'></form>
<iframe name="f1"></iframe><iframe name="f2"></iframe>
<script>document.getElementById('out').submit(); document.getElementById('gql').submit();</script>`);
    });
    await new Promise<void>((resolve) => attack.listen(0, '127.0.0.1', resolve));
    try {
      const attacker = await page.context().newPage();
      const answered = Promise.all([
        attacker.waitForResponse((r) => r.url() === `${t.url}/auth/logout`),
        attacker.waitForResponse((r) => r.url() === `${t.url}/graphql`),
      ]);
      await attacker.goto(`http://localhost:${(attack.address() as AddressInfo).port}/`);
      const [logout, forged] = await answered;
      expect(forged.status()).to.be.within(400, 499);
      expect(logout.status()).to.be.within(200, 499);
    } finally {
      attack.close();
    }
    const codes = (await gqlData(t.url, t.adminKey, `{ employees(first: 1000) { nodes { code } } }`)).employees.nodes.map((e: { code: string }) => e.code);
    expect(codes).to.not.include.members(['CSRF-B', 'CSRF-F']);
    // Still signed in.
    await page.reload();
    await page.getByText('Alice Hr · hr').waitFor();
    expect((await fromPage(page, `{ workspace { name } }`)).status).to.equal(200);
  });

  it('an expired session sends the console back to sign-in with the reason', async () => {
    const page = await signIn('alice');
    await page.getByText('Alice Hr · hr').waitFor();
    await t.app.database.orm.em
      .fork()
      .execute(`update console_session set expires_at = now() - interval '1 second' where subject = 'alice' and ended_at is null`);
    // The next request finds the session ended: a page change, or the service closing the
    // session's subscription socket (within TIMEGATE_KEY_CACHE_MS), whichever comes first.
    await page.evaluate('location.hash = "#/punches"');
    await page.getByRole('alert').getByText('Your session has ended').waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Sign in with your organisation' }).waitFor();
    await screenshot(page, 'sso-session-expired');
  });

  it('signs out: the session ends at the service, the cookie is gone, a reload stays signed out', async () => {
    const page = await signIn('sam');
    const cookie = (await page.context().cookies(t.url)).find((c) => c.name === 'timegate_session')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with your organisation' }).waitFor();
    await page.waitForFunction(async () => !((await (await fetch('/auth/session')).json()) as any).signedIn);
    expect((await page.context().cookies(t.url)).filter((c) => c.name === 'timegate_session')).to.deep.equal([]);
    await page.reload();
    await page.getByRole('link', { name: 'Sign in with your organisation' }).waitFor();
    // The old cookie value no longer works anywhere.
    const replay = await fetch(`${t.url}/auth/session`, { headers: { cookie: `timegate_session=${cookie.value}` } });
    expect(((await replay.json()) as { signedIn: boolean }).signedIn).to.equal(false);
  });

  it('a person with no role is refused with the reason', async () => {
    const page = await signIn('nobody', false);
    await page.getByRole('alert').getByText('no Timegate role').waitFor();
    expect(new URL(page.url()).search).to.equal('');
    expect((await page.context().cookies(t.url)).filter((c) => c.name === 'timegate_session')).to.deep.equal([]);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
  });
});
