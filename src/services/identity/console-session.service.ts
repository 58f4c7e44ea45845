import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../errors/domain-error';
import type { Principal, Scope } from '../../context/request-context';

/** How long a sign-in may stay at the provider before its state is forgotten. */
export const SIGN_IN_MINUTES = 10;
/** Ended and expired sessions are kept this long (for a support question), then deleted. */
const KEEP_OLD_SESSIONS_DAYS = 7;

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** The person a provider vouched for, and the roles and scopes the role mapping gave them. */
export interface SignedInPerson {
  workspaceId: number;
  subject: string;
  email: string | null;
  name: string | null;
  roles: string[];
  scopes: Scope[];
}

export interface SessionInfo extends SignedInPerson {
  id: number;
  expiresAt: Date;
}

/**
 * The console's CSRF token of a session: derived from the session token (SHA-256 of it with a
 * label), so it needs no storage and reveals nothing of the token. The console reads it from
 * `/auth/session` (same origin only) and sends it as a header; a cross-site page can make the
 * browser send the cookie, but cannot read the token to send alongside it.
 */
export function csrfTokenOf(sessionToken: string): string {
  return crypto.createHash('sha256').update(`timegate csrf\n${sessionToken}`).digest('base64url');
}

export function csrfTokenMatches(sessionToken: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const given = Buffer.from(presented);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/**
 * The key a sign-in is kept under: SHA-256 of its `state` and of the binding its browser holds in
 * the sign-in cookie. A callback finds its sign-in only with both, so the `state` of a sign-in
 * started elsewhere (an attacker's unused callback address) names nothing in another browser.
 */
export function signInKey(state: string, binding: string): string {
  return sha256(`timegate sign-in\n${state}\n${binding}`);
}

/** Remembers a sign-in leaving for the provider (and forgets the ones that never came back). */
export async function rememberSignIn(
  em: EntityManager,
  signIn: { state: string; binding: string; codeVerifier: string; nonce: string; purpose?: SignInPurpose },
  now: Date,
): Promise<void> {
  await em.execute('delete from console_sign_in where created_at < ?', [new Date(now.getTime() - SIGN_IN_MINUTES * 60_000)]);
  await em.execute('insert into console_sign_in (state, code_verifier, nonce, purpose, created_at) values (?, ?, ?, ?, ?)', [
    signInKey(signIn.state, signIn.binding),
    signIn.codeVerifier,
    signIn.nonce,
    signIn.purpose ?? 'console',
    now,
  ]);
}

/** What a sign-in opens: a console session, or an employee's session of the self-service app (docs/self-service.md). */
export type SignInPurpose = 'console' | 'me';

/**
 * Takes (once) the sign-in a callback's `state` names, started in the browser holding `binding`;
 * null when unknown, used, too old, or started in another browser (nothing is taken then).
 */
export async function takeSignIn(
  em: EntityManager,
  state: string,
  binding: string,
  now: Date,
): Promise<{ codeVerifier: string; nonce: string; purpose: SignInPurpose } | null> {
  const rows = await em.execute<{ code_verifier: string; nonce: string; purpose: string }[]>(
    'delete from console_sign_in where state = ? and created_at >= ? returning code_verifier, nonce, purpose',
    [signInKey(state, binding), new Date(now.getTime() - SIGN_IN_MINUTES * 60_000)],
  );
  return rows[0] ? { codeVerifier: rows[0].code_verifier, nonce: rows[0].nonce, purpose: rows[0].purpose === 'me' ? 'me' : 'console' } : null;
}

/** The workspace single sign-on works in: the configured one, or the first workspace. */
export async function signInWorkspace(em: EntityManager, configured: number | null): Promise<number> {
  const rows =
    configured === null
      ? await em.execute<{ id: number }[]>('select id from workspace order by id limit 1')
      : await em.execute<{ id: number }[]>('select id from workspace where id = ?', [configured]);
  if (!rows[0]) throw new DomainError('not_found', 'The workspace of single sign-on does not exist.');
  return rows[0].id;
}

/** Opens a session; returns its token (for the cookie, never stored) and when it expires. */
export async function openSession(em: EntityManager, person: SignedInPerson, minutes: number, now: Date): Promise<{ token: string; expiresAt: Date }> {
  await em.execute('delete from console_session where expires_at < ?', [new Date(now.getTime() - KEEP_OLD_SESSIONS_DAYS * 86_400_000)]);
  const token = `tgs_${crypto.randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + minutes * 60_000);
  await em.execute(
    'insert into console_session (workspace_id, token_hash, subject, email, name, roles, scopes, created_at, expires_at) values (?, ?, ?, ?, ?, ?::text[], ?::text[], ?, ?)',
    [
      person.workspaceId,
      sha256(token),
      person.subject,
      person.email,
      person.name,
      `{${person.roles.join(',')}}`,
      `{${person.scopes.map((s) => `"${s}"`).join(',')}}`,
      now,
      expiresAt,
    ],
  );
  return { token, expiresAt };
}

/** The live session of a token (not ended, not expired at `now`), or null. */
export async function findSession(em: EntityManager, token: string, now: Date): Promise<SessionInfo | null> {
  const rows = await em.execute<
    { id: number; workspace_id: number; subject: string; email: string | null; name: string | null; roles: string[]; scopes: string[]; expires_at: Date }[]
  >(
    'select id, workspace_id, subject, email, name, roles, scopes, expires_at from console_session where token_hash = ? and ended_at is null and expires_at > ?',
    [sha256(token), now],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    subject: row.subject,
    email: row.email,
    name: row.name,
    roles: row.roles,
    scopes: row.scopes as Scope[],
    expiresAt: new Date(row.expires_at),
  };
}

/** The principal of a session token: the person, with their roles' scopes in the session's workspace. */
export async function sessionPrincipal(em: EntityManager, token: string, now: Date): Promise<Principal> {
  const session = await findSession(em, token, now);
  if (!session) throw new DomainError('unauthenticated', 'The console session has expired or was ended: sign in again.');
  return {
    kind: 'workspace',
    workspaceId: session.workspaceId,
    keyId: null,
    scopes: session.scopes,
    person: { sessionId: session.id, subject: session.subject, email: session.email },
  };
}

/** Ends a session (sign-out): its token stops working at once. */
export async function endSession(em: EntityManager, token: string, now: Date): Promise<void> {
  await em.execute('update console_session set ended_at = ? where token_hash = ? and ended_at is null', [now, sha256(token)]);
}
