// A real OpenID Connect provider (the `oidc-provider` package, the certified implementation), run in
// the test process on a free loopback port: the console's single sign-on talks to it exactly as to
// Entra ID or Okta (discovery, authorisation code with PKCE, signed ID tokens, userinfo). Its own
// development login page accepts any login (the login becomes the person's `sub`); consent is
// given at once, as a company's provider does for its own applications.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestPerson {
  email: string;
  name: string;
  groups: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers Timegate's callback (known once Timegate listens). */
  allowRedirect(redirectUri: string): void;
  stop(): Promise<void>;
}

export async function startOidcProvider(people: Record<string, TestPerson>): Promise<TestProvider> {
  // An ESM package without type declarations, loaded as such.
  const specifier: string = 'oidc-provider';
  const { default: Provider } = (await import(specifier)) as { default: new (issuer: string, config: object) => { callback(): http.RequestListener } };
  let handler: http.RequestListener | null = null;
  const server = http.createServer((req, res) => (handler ? handler(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'timegate-console';
  const clientSecret = 'test-client-secret-0123456789abcdef';
  return {
    issuer,
    clientId,
    clientSecret,
    allowRedirect(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          { client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ['code'], grant_types: ['authorization_code'] },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
        scopes: ['openid', 'offline_access', 'email', 'profile', 'groups'],
        pkce: { required: () => true },
        cookies: { keys: ['test-provider-cookie-key'] },
        findAccount: (_ctx: unknown, id: string) => ({
          accountId: id,
          claims: () => ({ sub: id, email: people[id]?.email, email_verified: true, name: people[id]?.name, groups: people[id]?.groups ?? [] }),
        }),
        // Consent is given at once (the first-party pattern of the package's documentation).
        loadExistingGrant: async (ctx: {
          oidc: {
            client: { clientId: string };
            session: { accountId: string };
            params: { scope: string };
            provider: { Grant: new (init: object) => { addOIDCScope(s: string): void; save(): Promise<string> } };
          };
        }) => {
          const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
          grant.addOIDCScope(ctx.oidc.params.scope);
          await grant.save();
          return grant;
        },
      });
      handler = provider.callback();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A minimal cookie jar per origin for signing in without a browser (name=value only). */
class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();
  take(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    this.cookies.set(host, jar);
  }
  header(url: string): string {
    return [...(this.cookies.get(new URL(url).host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Signs in to Timegate's console as `login` through the provider with plain HTTP requests (the
 * browser's part done by hand: redirects followed, the login form posted, cookies kept per host).
 * Returns Timegate's callback answer (its Set-Cookie headers and where it redirects), the callback
 * address and the Cookie header this "browser" sent with it. With `stopAtCallback`, the callback is
 * not visited: `status` 0, and the address is left for another browser (a login CSRF).
 */
export async function signInWithoutBrowser(
  timegateUrl: string,
  login: string,
  timegateHeaders: Record<string, string> = {},
  options: { stopAtCallback?: boolean; loginPath?: string } = {},
): Promise<{ status: number; location: string | null; setCookies: string[]; callbackUrl: string; callbackCookie: string; loginSetCookies: string[] }> {
  const jar = new CookieJar();
  const get = async (url: string, init: RequestInit = {}) => {
    const extra = new URL(url).origin === new URL(timegateUrl).origin ? timegateHeaders : {};
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...extra, ...(init.headers as Record<string, string>), cookie: jar.header(url) },
    });
    jar.take(url, response);
    return response;
  };
  let url = `${timegateUrl}${options.loginPath ?? '/auth/oidc/login'}`;
  let response = await get(url);
  const loginSetCookies = response.headers.getSetCookie();
  let callbackCookie = '';
  for (let hop = 0; hop < 10; hop += 1) {
    const location = response.headers.get('location');
    if (new URL(url).origin === new URL(timegateUrl).origin && new URL(url).pathname === '/auth/oidc/callback') {
      return { status: response.status, location, setCookies: response.headers.getSetCookie(), callbackUrl: url, callbackCookie, loginSetCookies };
    }
    if (location) {
      url = new URL(location, url).href;
      const next = new URL(url);
      if (next.origin === new URL(timegateUrl).origin && next.pathname === '/auth/oidc/callback') {
        callbackCookie = jar.header(url);
        if (options.stopAtCallback) return { status: 0, location: null, setCookies: [], callbackUrl: url, callbackCookie, loginSetCookies };
      }
      response = await get(url);
      continue;
    }
    // The provider's login form: any login and password.
    const html = await response.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no login form at ${url}: ${response.status} ${html.slice(0, 200)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    response = await get(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
    });
  }
  throw new Error('the sign-in did not come back to Timegate');
}
