// The console session's cookie, and how a request signed in with it becomes a credential of the API
// (GraphQL over HTTP and over WebSocket alike).
import { DomainError } from '../../errors/domain-error';
import { csrfTokenMatches } from './console-session.service';

export const SESSION_COOKIE = 'timegate_session';
/** The self-service app's session (docs/self-service.md): an employee signed in at /me. */
export const ME_SESSION_COOKIE = 'timegate_me_session';
/** The browser binding of a sign-in in progress (docs/single-sign-on.md): only its callback reads it. */
export const SIGN_IN_COOKIE = 'timegate_signin';
const SIGN_IN_PATH = '/auth/oidc/callback';
export const CSRF_HEADER = 'x-csrf-token';

/** The value of cookie `name` in a Cookie header if it has the form `pattern`, or null. */
function cookieOf(cookieHeader: string | undefined, name: string, pattern: RegExp): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return pattern.test(value) ? value : null;
    }
  }
  return null;
}

/** The session token in a Cookie header, or null. */
export function sessionTokenOf(cookieHeader: string | undefined): string | null {
  return cookieOf(cookieHeader, SESSION_COOKIE, /^tgs_[\w-]{43}$/);
}

/** The self-service session token in a Cookie header, or null. */
export function meSessionTokenOf(cookieHeader: string | undefined): string | null {
  return cookieOf(cookieHeader, ME_SESSION_COOKIE, /^tgm_[\w-]{43}$/);
}

/** The self-service session's cookie: the console session's rules (HttpOnly, SameSite=Lax, Path=/), its own name. */
export function meSessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return `${ME_SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}; Expires=${expiresAt.toUTCString()}`;
}

export function clearedMeSessionCookie(secure: boolean): string {
  return `${ME_SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/** The sign-in binding in a Cookie header (32 random bytes, base64url), or null. */
export function signInBindingOf(cookieHeader: string | undefined): string | null {
  return cookieOf(cookieHeader, SIGN_IN_COOKIE, /^[\w-]{43}$/);
}

/**
 * The cookie that binds a sign-in to the browser that started it: set by /auth/oidc/login, sent back
 * only to the callback (Path), HttpOnly, SameSite=Lax (the provider's redirect back is a top-level
 * GET, which carries it; another site's subrequests do not), Secure over https, for as long as a
 * sign-in may stay at the provider.
 */
export function signInCookie(binding: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SIGN_IN_COOKIE}=${binding}; Path=${SIGN_IN_PATH}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}; Max-Age=${maxAgeSeconds}`;
}

export function clearedSignInCookie(secure: boolean): string {
  return `${SIGN_IN_COOKIE}=; Path=${SIGN_IN_PATH}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}; Max-Age=0`;
}

/**
 * The cookie: HttpOnly (no script reads it; the CSRF token is what the console's script gets),
 * SameSite=Lax (not sent with another site's POSTs, subrequests or WebSocket handshakes; sent when
 * the provider redirects the browser back, a top-level GET), Secure when the console is served over
 * https, Path=/ (the console at /console, the API at /graphql), expiring with the session.
 */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}; Expires=${expiresAt.toUTCString()}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

/**
 * The credential of an API request from the console: the Authorization header when there is one
 * (a machine, or the console signed in with a key), otherwise the session cookie, but only with the
 * session's CSRF token alongside. Throws `csrf_refused` for a cookie without its token.
 */
export function consoleCredential(headers: { authorization?: string; cookie?: string }, csrfToken: string | undefined): string | undefined {
  if (headers.authorization) return headers.authorization;
  const token = sessionTokenOf(headers.cookie);
  const meToken = meSessionTokenOf(headers.cookie);
  if (token === null && meToken === null) return undefined;
  // One browser may hold both sessions (a manager in the console and in /me): the CSRF token says
  // which one the page that sent the request belongs to.
  if (token !== null && csrfTokenMatches(token, csrfToken)) return `Session ${token}`;
  if (meToken !== null && csrfTokenMatches(meToken, csrfToken)) return `EmployeeSession ${meToken}`;
  throw new DomainError('csrf_refused', "A request signed in with the console session must carry the session's X-CSRF-Token header.");
}
