import { expect } from 'chai';
import { createCompany, createEmployee } from '../support/factories';
import { rest } from '../support/http';
import { signInWithoutBrowser, startOidcProvider, type TestProvider } from '../support/oidc-provider';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Employees sign in to the self-service app with the company's single sign-on (docs/self-service.md):
 * the person is matched to an employee by e-mail (or directory id), needs no console role, and gets
 * an app session (its own cookie, CSRF token as the console's) that reaches GraphQL `me` only.
 */
describe('self-service single sign-on: a person of the provider becomes their employee in /me', () => {
  let provider: TestProvider;
  let t: TestApp;
  let employeeId: number;

  before(async () => {
    provider = await startOidcProvider({
      erin: { email: 'Erin.Field@example.com', name: 'Erin Field', groups: [] },
      twin: { email: 'twin@example.com', name: 'Twin', groups: [] },
      stranger: { email: 'stranger@example.com', name: 'Stranger', groups: [] },
    });
    t = await startTestApp(
      {
        TIMEGATE_OIDC_ISSUER: provider.issuer,
        TIMEGATE_OIDC_CLIENT_ID: provider.clientId,
        TIMEGATE_OIDC_CLIENT_SECRET: provider.clientSecret,
        TIMEGATE_OIDC_SCOPES: 'openid profile email groups',
        TIMEGATE_OIDC_ROLE_MAP: 'HR=hr',
      },
      'me-sso',
    );
    provider.allowRedirect(`${t.url}/auth/oidc/callback`);
    const company = await createCompany(t.url, t.adminKey, { name: 'Field Ltd' });
    employeeId = (await createEmployee(t.url, t.adminKey, company.id, { name: 'Erin', lastname: 'Field', email: 'erin.field@example.com' })).id;
    await createEmployee(t.url, t.adminKey, company.id, { email: 'twin@example.com' });
    await createEmployee(t.url, t.adminKey, company.id, { email: 'TWIN@example.com' });
  });
  after(async () => {
    await t?.stop();
    await provider?.stop();
  });

  it('matched by e-mail without regard to case, with no console role: an app session that reaches me and nothing of the workspace', async () => {
    const answer = await signInWithoutBrowser(t.url, 'erin', {}, { loginPath: '/auth/oidc/login?app=me' });
    expect(answer.location).to.equal('/me');
    const cookie = answer.setCookies.find((c) => c.startsWith('timegate_me_session='))!;
    expect(cookie).to.match(/HttpOnly; SameSite=Lax/);
    const pair = cookie.split(';')[0]!;
    const session = await rest(t.url, 'GET', '/auth/me/session', { headers: { cookie: pair } });
    expect(session.body).to.include({ signedIn: true, employeeId });
    const ask = (query: string, csrf?: string) =>
      fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: pair, ...(csrf ? { 'x-csrf-token': csrf } : {}) },
        body: JSON.stringify({ query }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const me = await ask('{ me { employee { id name } } }', session.body.csrfToken);
    expect(me.body.data.me.employee).to.deep.equal({ id: employeeId, name: 'Erin' });
    // Without its CSRF token the cookie is refused; with it, workspace fields are forbidden.
    const withoutToken = await ask('{ me { employee { id } } }');
    expect(withoutToken.status).to.equal(403);
    expect(withoutToken.body.errors[0].extensions.code).to.equal('csrf_refused');
    const employees = await ask('{ employees { totalCount } }', session.body.csrfToken);
    expect(employees.body.errors[0].extensions.code).to.equal('forbidden');
    // The console session is not opened: /auth/session says nobody is signed in there.
    expect((await rest(t.url, 'GET', '/auth/session', { headers: { cookie: pair } })).body.signedIn).to.equal(false);
    const out = await rest(t.url, 'POST', '/auth/me/logout', { headers: { cookie: pair, 'x-csrf-token': session.body.csrfToken } });
    expect(out.status).to.equal(204);
    expect((await rest(t.url, 'GET', '/auth/me/session', { headers: { cookie: pair } })).body.signedIn).to.equal(false);
  });

  it('nobody signs in when no employee matches, or two do', async () => {
    for (const [login, reason] of [
      ['stranger', 'no_employee'],
      ['twin', 'ambiguous'],
    ] as const) {
      const answer = await signInWithoutBrowser(t.url, login, {}, { loginPath: '/auth/oidc/login?app=me' });
      expect(answer.location, login).to.equal(`/me?signin=${reason}`);
      expect(
        answer.setCookies.some((c) => c.startsWith('timegate_me_session=')),
        login,
      ).to.equal(false);
    }
  });

  it('the console sign-in still needs a console role', async () => {
    const answer = await signInWithoutBrowser(t.url, 'erin');
    expect(answer.location).to.equal('/console?signin=no_role');
  });
});
