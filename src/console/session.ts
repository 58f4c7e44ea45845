// How the console is signed in: an API key (kept in sessionStorage: gone when the tab closes, and
// never sent anywhere but as the Authorization header of our own API), or a single sign-on session
// (an HttpOnly cookie the script never sees, plus the session's CSRF token, which the script sends
// as a header with every API request).
const KEY = 'timegate.apiKey';

export const storedKey = (): string | null => sessionStorage.getItem(KEY);
export const rememberKey = (key: string): void => sessionStorage.setItem(KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(KEY);

export type Scope = 'read' | 'write' | 'admin' | 'doors:unlock' | 'doors:manage' | 'approve';

/** The service's own rule: `admin` grants everything, `write`, `doors:manage` and `approve` include `read`. */
export function allows(scopes: readonly string[], needed: Scope): boolean {
  if (scopes.includes('admin') || scopes.includes(needed)) return true;
  return needed === 'read' && (scopes.includes('write') || scopes.includes('doors:manage') || scopes.includes('approve'));
}

/**
 * The console's areas, and whether scopes reach each: people and time (employees, punches,
 * timesheets) belong to `write` (the hr role), doors and access to `doors:manage`/`doors:unlock`
 * (the security role); a read-only key or the viewer role sees every area without changing any, and
 * so does a key with `approve` alone (a manager's). Requests (absences, punch corrections) belong to
 * `write` (filing them) and to `approve` (deciding them), whatever else the signer holds.
 */
export type Area = 'all' | 'people' | 'requests' | 'doors' | 'admin';

export function reaches(scopes: readonly string[], area: Area): boolean {
  const readOnly = !['write', 'admin', 'doors:manage', 'doors:unlock'].some((s) => scopes.includes(s));
  switch (area) {
    case 'all':
      return allows(scopes, 'read') || scopes.includes('doors:unlock');
    case 'people':
      return allows(scopes, 'write') || (readOnly && allows(scopes, 'read'));
    case 'requests':
      return allows(scopes, 'write') || allows(scopes, 'approve') || (readOnly && allows(scopes, 'read'));
    case 'doors':
      return allows(scopes, 'doors:manage') || allows(scopes, 'doors:unlock') || (readOnly && allows(scopes, 'read'));
    case 'admin':
      return allows(scopes, 'admin');
  }
}

/** A single sign-on session, as `/auth/session` describes it. */
export interface PersonSession {
  subject: string;
  email: string | null;
  name: string | null;
  roles: string[];
  scopes: string[];
  expiresAt: string;
  csrfToken: string;
}

export type SessionAnswer = ({ signedIn: true } & PersonSession) | { signedIn: false; singleSignOn: boolean };

export async function fetchSession(): Promise<SessionAnswer> {
  const response = await fetch('/auth/session', { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The sign-in state could not be read (${response.status}).`);
  return (await response.json()) as SessionAnswer;
}

/** Ends the session at the service (the cookie is cleared by its answer). */
export async function endSession(csrfToken: string): Promise<void> {
  await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { 'x-csrf-token': csrfToken } });
}

/** Why a single sign-on came back without a session (`/console?signin=...`), in words. */
export const SIGN_IN_NOTICES: Record<string, string> = {
  no_role: 'Your account has no Timegate role. Ask an administrator to add you to a group that has one.',
  expired: 'That sign-in took too long or was already used. Sign in again.',
  other_browser: 'That sign-in was not started in this browser, so it was refused. Sign in here.',
  failed: 'The identity provider did not confirm the sign-in. Try again.',
  unavailable: 'The identity provider could not be reached. Try again shortly.',
};
