import { expect } from 'chai';
import WebSocket from 'ws';
import { createCompany, createEmployee } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { signInWithoutBrowser, startOidcProvider, type TestProvider } from '../support/oidc-provider';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Console single sign-on against a real OpenID provider (oidc-provider on loopback): the session
 * cookie's flags, roles as scopes, the CSRF token, sign-out, expiry, and the audit log naming the
 * person behind each change.
 */
describe('single sign-on: sessions, cookie, CSRF and audit', () => {
  let provider: TestProvider;
  let t: TestApp;
  let companyId: number;

  before(async () => {
    provider = await startOidcProvider({
      alice: { email: 'alice@example.com', name: 'Alice Hr', groups: ['HR'] },
      sam: { email: 'sam@example.com', name: 'Sam Guard', groups: ['Security Desk'] },
      ada: { email: 'ada@example.com', name: 'Ada Admin', groups: ['Timegate Admins', 'HR'] },
      nobody: { email: 'nobody@example.com', name: 'No Role', groups: ['Sales'] },
    });
    t = await startTestApp(
      {
        TIMEGATE_OIDC_ISSUER: provider.issuer,
        TIMEGATE_OIDC_CLIENT_ID: provider.clientId,
        TIMEGATE_OIDC_CLIENT_SECRET: provider.clientSecret,
        TIMEGATE_OIDC_SCOPES: 'openid profile email groups',
        TIMEGATE_OIDC_ROLE_MAP: 'Timegate Admins=admin,HR=hr,Security Desk=security',
      },
      'sso',
    );
    provider.allowRedirect(`${t.url}/auth/oidc/callback`);
    companyId = (await createCompany(t.url, t.adminKey, { name: 'Signed-in Ltd' })).id;
  });
  after(async () => {
    await t?.stop();
    await provider?.stop();
  });

  /** Signs `login` in; returns the session cookie (name=value) and the session's CSRF token. */
  async function session(login: string): Promise<{ cookie: string; csrf: string; session: any }> {
    const answer = await signInWithoutBrowser(t.url, login);
    expect(answer.location, `callback of ${login}`).to.equal('/console');
    const cookie = answer.setCookies[0]!.split(';')[0]!;
    const info = await rest(t.url, 'GET', '/auth/session', { headers: { cookie } });
    expect(info.body.signedIn).to.equal(true);
    return { cookie, csrf: info.body.csrfToken, session: info.body };
  }

  async function asSession(s: { cookie: string; csrf?: string }, query: string, variables: Record<string, unknown> = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json', cookie: s.cookie };
    if (s.csrf !== undefined) headers['x-csrf-token'] = s.csrf;
    const response = await fetch(`${t.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    const body = (await response.json()) as any;
    return { status: response.status, data: body.data ?? null, code: (body.errors?.[0]?.extensions?.code ?? body.error?.code) as string | undefined };
  }

  /** Opens a graphql-ws socket with the cookie; the first answer to connection_init. */
  function socketInit(cookie: string, csrfToken: string | undefined): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${t.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers: { cookie } });
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: csrfToken === undefined ? {} : { csrfToken } })));
      socket.on('message', (data) => {
        resolve(JSON.parse(String(data)).type);
        socket.close();
      });
      socket.on('close', (code) => resolve(`closed ${code}`));
      socket.on('error', reject);
    });
  }

  const createEmployeeMutation = `mutation ($companyId: Int!, $code: String!) { createEmployee(input: { companyId: $companyId, name: "Made", lastname: "In Session", code: $code }) { id } }`;
  const createLevelMutation = `mutation ($companyId: Int!) { createAccessLevel(input: { companyId: $companyId, name: "Night", scheduleId: 1 }) { id } }`;

  it('sets an HttpOnly, SameSite=Lax session cookie that expires with the session, not Secure over http; Secure when the request came over https', async () => {
    const answer = await signInWithoutBrowser(t.url, 'alice');
    expect(answer.status).to.equal(302);
    expect(answer.location).to.equal('/console');
    // The session cookie, and the sign-in cookie cleared (it served its one callback).
    expect(answer.setCookies).to.have.length(2);
    expect(answer.setCookies[1]).to.equal('timegate_signin=; Path=/auth/oidc/callback; HttpOnly; SameSite=Lax; Max-Age=0');
    const attributes = answer.setCookies[0]!.split(';').map((a) => a.trim());
    expect(attributes[0]).to.match(/^timegate_session=tgs_[\w-]{43}$/);
    expect(attributes).to.include.members(['Path=/', 'HttpOnly', 'SameSite=Lax']);
    expect(attributes).to.not.include('Secure');
    const expires = new Date(attributes.find((a) => a.startsWith('Expires='))!.slice('Expires='.length)).getTime();
    // TIMEGATE_SESSION_MINUTES defaults to 480.
    expect(expires - Date.now()).to.be.within(479 * 60_000, 481 * 60_000);

    const behindTls = await signInWithoutBrowser(t.url, 'alice', { 'x-forwarded-proto': 'https' });
    expect(behindTls.setCookies[0]!.split(';').map((a) => a.trim())).to.include.members(['HttpOnly', 'SameSite=Lax', 'Secure']);
  });

  it('gives each person the scopes of their roles: hr writes people but cannot grant doors; security the reverse; admin both', async () => {
    const alice = await session('alice');
    expect(alice.session).to.include({ subject: 'alice', email: 'alice@example.com', name: 'Alice Hr' });
    expect(alice.session.roles).to.deep.equal(['hr']);
    expect(alice.session.scopes).to.deep.equal(['write', 'approve']);
    expect((await asSession(alice, createEmployeeMutation, { companyId, code: 'S-1' })).data?.createEmployee.id).to.be.a('number');
    const refused = await asSession(alice, createLevelMutation, { companyId });
    expect(refused.code).to.equal('forbidden');

    const sam = await session('sam');
    expect(sam.session.roles).to.deep.equal(['security']);
    expect((await asSession(sam, createEmployeeMutation, { companyId, code: 'S-2' })).code).to.equal('forbidden');
    // Allowed past the scope check: refused only for the unknown schedule.
    expect((await asSession(sam, createLevelMutation, { companyId })).code).to.not.equal('forbidden');

    const ada = await session('ada');
    expect(ada.session.roles).to.deep.equal(['admin', 'hr']);
    expect((await asSession(ada, `{ apiKeys { id } }`)).data?.apiKeys).to.be.an('array');
    // A session is no API key: it cannot pass for one.
    expect((await asSession(ada, `{ currentApiKey { id } }`)).code).to.equal('forbidden');
  });

  it('refuses a person whose claims map to no role: back to the console with the reason, no cookie', async () => {
    const answer = await signInWithoutBrowser(t.url, 'nobody');
    expect(answer.location).to.equal('/console?signin=no_role');
    expect(answer.setCookies).to.deep.equal([]);
  });

  it('a callback is used once: replaying it opens no second session', async () => {
    const answer = await signInWithoutBrowser(t.url, 'alice');
    expect(answer.location).to.equal('/console');
    const replay = await fetch(answer.callbackUrl, { redirect: 'manual', headers: { cookie: answer.callbackCookie } });
    expect(replay.headers.get('location')).to.equal('/console?signin=expired');
    expect(replay.headers.getSetCookie()).to.deep.equal([]);
  });

  describe('login CSRF: a sign-in counts only in the browser that started it', () => {
    const signInCookieOf = (setCookies: string[]) => setCookies.find((c) => c.startsWith('timegate_signin='));

    it('the sign-in start sets an HttpOnly, SameSite=Lax cookie for the callback only, for 10 minutes; Secure over https', async () => {
      const plain = await signInWithoutBrowser(t.url, 'alice', {}, { stopAtCallback: true });
      const attributes = signInCookieOf(plain.loginSetCookies)!
        .split(';')
        .map((a) => a.trim());
      expect(attributes[0]).to.match(/^timegate_signin=[\w-]{43}$/);
      expect(attributes.slice(1)).to.deep.equal(['Path=/auth/oidc/callback', 'HttpOnly', 'SameSite=Lax', 'Max-Age=600']);
      expect(plain.callbackCookie).to.contain(attributes[0]);
      const tls = await signInWithoutBrowser(t.url, 'alice', { 'x-forwarded-proto': 'https' }, { stopAtCallback: true });
      expect(
        signInCookieOf(tls.loginSetCookies)!
          .split(';')
          .map((a) => a.trim()),
      ).to.include('Secure');
    });

    it("an attacker's unused callback opened in a victim's browser signs nobody in and leaves the victim's session alone", async () => {
      // The attacker signs in at the provider as themselves and keeps the callback address unused.
      const attacker = await signInWithoutBrowser(t.url, 'ada', {}, { stopAtCallback: true });
      const victim = await session('alice');
      const count = async () =>
        Number((await t.app.database.orm.em.fork().getConnection().execute<{ n: number }[]>('select count(*)::int as n from console_session'))[0]!.n);
      const before = await count();

      // The victim's browser, signed in as alice, is made to open it (a link, an image, a redirect).
      const forced = await fetch(attacker.callbackUrl, { redirect: 'manual', headers: { cookie: victim.cookie } });
      expect(forced.status).to.equal(302);
      expect(forced.headers.get('location')).to.equal('/console?signin=other_browser');
      expect(forced.headers.getSetCookie(), 'no cookie set').to.deep.equal([]);
      expect(await count(), 'no session opened').to.equal(before);
      const still = await rest(t.url, 'GET', '/auth/session', { headers: { cookie: victim.cookie } });
      expect(still.body).to.include({ signedIn: true, subject: 'alice' });

      // A browser with a sign-in of its own under way holds another binding: refused as well.
      const own = await signInWithoutBrowser(t.url, 'alice', {}, { stopAtCallback: true });
      const crossed = await fetch(attacker.callbackUrl, { redirect: 'manual', headers: { cookie: own.callbackCookie } });
      expect(crossed.headers.get('location')).to.equal('/console?signin=expired');
      expect(crossed.headers.getSetCookie()).to.deep.equal([]);
      expect(await count()).to.equal(before);

      // In the browser that started it, the same callback signs in (the refusals took nothing).
      const atHome = await fetch(attacker.callbackUrl, { redirect: 'manual', headers: { cookie: attacker.callbackCookie } });
      expect(atHome.headers.get('location')).to.equal('/console');
      const opened = atHome.headers.getSetCookie()[0]!.split(';')[0]!;
      expect((await rest(t.url, 'GET', '/auth/session', { headers: { cookie: opened } })).body).to.include({ signedIn: true, subject: 'ada' });
    });
  });

  it("refuses cookie-authenticated GraphQL without the CSRF token or with another session's, over HTTP and WebSocket", async () => {
    const alice = await session('alice');
    const sam = await session('sam');
    const missing = await asSession({ cookie: alice.cookie }, createEmployeeMutation, { companyId, code: 'CSRF-1' });
    expect(missing.status).to.equal(403);
    expect(missing.code).to.equal('csrf_refused');
    const wrong = await asSession({ cookie: alice.cookie, csrf: sam.csrf }, createEmployeeMutation, { companyId, code: 'CSRF-2' });
    expect(wrong.code).to.equal('csrf_refused');
    // Nothing was created by either.
    const list = await gqlData(t.url, t.adminKey, `{ employees(first: 1000) { nodes { code } } }`);
    expect(list.employees.nodes.map((e: { code: string }) => e.code)).to.not.include.members(['CSRF-1', 'CSRF-2']);
    // Reads need it too (the token is per request, not per kind of operation).
    expect((await asSession({ cookie: alice.cookie }, `{ workspace { name } }`)).code).to.equal('csrf_refused');
    expect((await asSession(alice, `{ workspace { name } }`)).data?.workspace.name).to.be.a('string');
    // WebSocket: the handshake carries the cookie; the token goes in the connection parameters.
    expect(await socketInit(alice.cookie, alice.csrf)).to.equal('connection_ack');
    expect(await socketInit(alice.cookie, undefined)).to.equal('closed 4401');
    expect(await socketInit(alice.cookie, sam.csrf)).to.equal('closed 4401');
    // REST never takes the cookie: it is the machines' surface.
    expect((await rest(t.url, 'GET', '/public/v2/employees', { headers: { cookie: alice.cookie, 'x-csrf-token': alice.csrf } })).status).to.equal(401);
  });

  it('ends the session at sign-out (which needs the CSRF token) and after its lifetime', async () => {
    const alice = await session('alice');
    const noToken = await rest(t.url, 'POST', '/auth/logout', { headers: { cookie: alice.cookie } });
    expect(noToken.status).to.equal(403);
    expect(noToken.body.error.code).to.equal('csrf_refused');
    expect((await asSession(alice, `{ workspace { name } }`)).data).to.not.equal(null);
    const out = await rest(t.url, 'POST', '/auth/logout', { headers: { cookie: alice.cookie, 'x-csrf-token': alice.csrf } });
    expect(out.status).to.equal(204);
    expect(out.headers.getSetCookie()[0]).to.match(/^timegate_session=; Path=\/; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970/);
    const after = await asSession(alice, `{ workspace { name } }`);
    expect(after.status).to.equal(401);
    expect(after.code).to.equal('unauthenticated');
    expect((await rest(t.url, 'GET', '/auth/session', { headers: { cookie: alice.cookie } })).body.signedIn).to.equal(false);

    const sam = await session('sam');
    await t.app.database.orm.em.fork().execute(`update console_session set expires_at = now() - interval '1 second' where subject = 'sam'`);
    expect((await asSession(sam, `{ workspace { name } }`)).code).to.equal('unauthenticated');
  });

  it('records the person (subject, email) behind every change made with a session; key changes name no person', async () => {
    const alice = await session('alice');
    const made = await asSession(alice, createEmployeeMutation, { companyId, code: 'AUDIT-1' });
    expect(made.data?.createEmployee.id).to.be.a('number');
    const refused = await asSession(alice, createLevelMutation, { companyId });
    expect(refused.code).to.equal('forbidden');
    await createEmployee(t.url, t.adminKey, companyId, { code: 'AUDIT-KEY' });
    const audit = await gqlData(t.url, t.adminKey, `{ auditEvents(first: 20) { nodes { operation apiKeyId actorSubject actorEmail outcome arguments } } }`);
    const nodes = audit.auditEvents.nodes as Array<{
      operation: string;
      apiKeyId: number | null;
      actorSubject: string | null;
      actorEmail: string | null;
      outcome: string;
      arguments: any;
    }>;
    const bySession = nodes.find((n) => n.operation === 'createEmployee' && JSON.stringify(n.arguments).includes('AUDIT-1'))!;
    expect(bySession).to.include({ apiKeyId: null, actorSubject: 'alice', actorEmail: 'alice@example.com', outcome: 'ok' });
    const byKey = nodes.find((n) => n.operation === 'createEmployee' && JSON.stringify(n.arguments).includes('AUDIT-KEY'))!;
    expect(byKey.apiKeyId).to.be.a('number');
    expect(byKey).to.include({ actorSubject: null, actorEmail: null });
  });

  it('tells a visitor that single sign-on is offered, never cached; API keys still work beside it', async () => {
    const answer = await rest(t.url, 'GET', '/auth/session');
    expect(answer.body).to.deep.equal({ signedIn: false, singleSignOn: true });
    expect(answer.headers.get('cache-control')).to.equal('no-store');
    const plain = await gql(t.url, t.adminKey, `{ workspace { name } }`);
    expect(plain.data?.workspace.name).to.be.a('string');
  });
});
