// Employees' own ways in (docs/self-service.md): tokens that act as one employee (`tg_emp_…`, for
// an integrator's own app), one-time invitation links to the self-service app and the app's
// sessions, what each of them turns into (an employee principal), and which employee a person signed
// in with single sign-on is. Every secret is shown once and stored as its SHA-256 hash.
import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { boundedCache } from '../../kernel/cache';
import { DomainError } from '../../errors/domain-error';
import { EmployeeAccessToken } from '../../entities';
import { workspaceOf, type EmployeePrincipal, type RequestContext } from '../../context/request-context';
import { FieldChecker, limits } from '../common/validation';
import { textArray } from '../common/sql-arrays';
import { hashKey, randomSecret } from './secrets';

export const EMPLOYEE_TOKEN_PREFIX = 'tg_emp_';
const INVITATION_PREFIX = 'tgi_';
/** An invitation link works once, within this many days. */
export const INVITATION_DAYS = 7;
/** Ended and expired self-service sessions are kept this long (for a support question), then deleted. */
const KEEP_OLD_SESSIONS_DAYS = 7;
/** The path an invitation link opens; the secret travels in the fragment, which no server or link preview sees. */
export const INVITATION_PATH = '/me/invitation';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** The live (not deleted), active employee of the workspace, or 404. */
async function employeeOfWorkspace(em: EntityManager, workspaceId: number, employeeId: number): Promise<{ id: number; isActive: boolean }> {
  const [row] = await em.execute<{ id: number; is_active: boolean }[]>(
    'select id, is_active from employee where id = ? and workspace_id = ? and deleted_at is null',
    [employeeId, workspaceId],
  );
  if (!row) throw DomainError.notFound('Employee', employeeId);
  return { id: row.id, isActive: row.is_active };
}

/** A way in is given to an active employee only: an inactive one could not use it. */
function refuseInactive(employee: { id: number; isActive: boolean }): void {
  if (!employee.isActive) {
    throw DomainError.field('employeeId', 'inactive', `Employee ${employee.id} is inactive: activate them first (an inactive employee cannot sign in).`);
  }
}

const keyIdOf = (ctx: RequestContext) => (ctx.principal.kind === 'workspace' ? ctx.principal.keyId : null);

// --- Employee tokens -------------------------------------------------------------------------

/** A created token: the row plus the secret, which is shown this once and never again. */
export interface IssuedEmployeeToken {
  accessToken: EmployeeAccessToken;
  token: string;
}

export async function issueEmployeeAccessToken(ctx: RequestContext, employeeId: number, name?: string | null): Promise<IssuedEmployeeToken> {
  const check = new FieldChecker();
  check.text('name', name, { max: limits.apiKeyName });
  check.done();
  const workspaceId = workspaceOf(ctx);
  refuseInactive(await employeeOfWorkspace(ctx.em, workspaceId, employeeId));
  const token = randomSecret(EMPLOYEE_TOKEN_PREFIX);
  const accessToken = ctx.em.create(EmployeeAccessToken, {
    workspaceId,
    employeeId,
    name: name ?? '',
    tokenHash: hashKey(token),
    prefix: token.slice(0, EMPLOYEE_TOKEN_PREFIX.length + 4),
    last4: token.slice(-4),
    createdByKeyId: keyIdOf(ctx),
  } as EmployeeAccessToken);
  await ctx.em.persist(accessToken).flush();
  return { accessToken, token };
}

export async function listEmployeeAccessTokens(ctx: RequestContext, employeeId: number): Promise<EmployeeAccessToken[]> {
  const workspaceId = workspaceOf(ctx);
  await employeeOfWorkspace(ctx.em, workspaceId, employeeId);
  return ctx.em.find(EmployeeAccessToken, { workspaceId, employeeId }, { orderBy: { id: 'asc' } });
}

export async function revokeEmployeeAccessToken(ctx: RequestContext, employeeId: number, tokenId: number): Promise<EmployeeAccessToken> {
  const workspaceId = workspaceOf(ctx);
  const accessToken = await ctx.em.findOne(EmployeeAccessToken, { id: tokenId, employeeId, workspaceId });
  if (!accessToken) throw DomainError.notFound('EmployeeAccessToken', tokenId);
  if (!accessToken.revokedAt) {
    accessToken.revokedAt = ctx.now();
    await ctx.em.flush();
  }
  forgetToken(accessToken.id);
  return accessToken;
}

const MAX_CACHED_TOKENS = 10_000;
/** Valid tokens seen in the last `TIMEGATE_KEY_CACHE_MS`, as API keys are (api-key.service.ts). */
const validTokens = boundedCache<string, { principal: EmployeePrincipal; until: number }>(MAX_CACHED_TOKENS);

function forgetToken(tokenId: number): void {
  for (const [hash, entry] of [...validTokens.entries()]) if (entry.principal.tokenId === tokenId) validTokens.delete(hash);
}

/** The principal of `Authorization: Bearer tg_emp_…`: its employee, while neither the token is revoked nor the employee deleted or inactive. */
export async function employeeTokenPrincipal(em: EntityManager, token: string, cacheMs: number, now: number): Promise<EmployeePrincipal> {
  const hash = hashKey(token);
  const cached = validTokens.get(hash);
  if (cached && cached.until > now) return cached.principal;
  const [row] = await em.execute<{ id: number; workspace_id: number; employee_id: number; company_id: number }[]>(
    `select t.id, t.workspace_id, t.employee_id, e.company_id from employee_access_token t join employee e on e.id = t.employee_id
     where t.token_hash = ? and t.revoked_at is null and e.deleted_at is null and e.is_active`,
    [hash],
  );
  if (!row) throw new DomainError('unauthenticated', 'The employee token is not valid, has been revoked, or its employee is inactive.');
  const principal: EmployeePrincipal = {
    kind: 'employee',
    workspaceId: row.workspace_id,
    employeeId: row.employee_id,
    companyId: row.company_id,
    tokenId: row.id,
    sessionId: null,
  };
  if (cacheMs > 0) validTokens.set(hash, { principal, until: now + cacheMs });
  return principal;
}

// --- Invitations -------------------------------------------------------------------------------

export interface Invitation {
  employeeId: number;
  url: string;
  expiresAt: Date;
}

/**
 * A one-time link to the self-service app for the employee, valid for INVITATION_DAYS: the newest
 * link is the only one that works (making one forgets the employee's unused ones). The address is
 * TIMEGATE_PUBLIC_URL, or else the one the request reached.
 */
export async function createEmployeeInvitation(ctx: RequestContext, employeeId: number): Promise<Invitation> {
  const workspaceId = workspaceOf(ctx);
  refuseInactive(await employeeOfWorkspace(ctx.em, workspaceId, employeeId));
  const secret = randomSecret(INVITATION_PREFIX);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  await ctx.em.transactional(async (em) => {
    await em.execute('delete from employee_invitation where employee_id = ? and (used_at is null or used_at < ?)', [
      employeeId,
      new Date(now.getTime() - KEEP_OLD_SESSIONS_DAYS * 86_400_000),
    ]);
    await em.execute(
      'insert into employee_invitation (workspace_id, employee_id, token_hash, created_by_key_id, created_at, expires_at) values (?, ?, ?, ?, ?, ?)',
      [workspaceId, employeeId, hashKey(secret), keyIdOf(ctx), now, expiresAt],
    );
  });
  const base = ctx.config.publicUrl ?? ctx.origin ?? '';
  return { employeeId, url: `${base}${INVITATION_PATH}#${secret}`, expiresAt };
}

/**
 * Opens the app with an invitation link's secret: once (the link is spent even if the browser goes
 * away before it stores the cookie), within its days, for an employee who is still active. Returns
 * the new session, or null for a link that is unknown, spent or expired.
 */
export async function redeemInvitation(em: EntityManager, secret: string, sessionDays: number, now: Date): Promise<OpenedEmployeeSession | null> {
  if (!/^tgi_[0-9A-Za-z]{40}$/.test(secret)) return null;
  const [row] = await em.execute<{ workspace_id: number; employee_id: number }[]>(
    `update employee_invitation i set used_at = ? from employee e
     where i.token_hash = ? and i.used_at is null and i.expires_at > ? and e.id = i.employee_id and e.deleted_at is null and e.is_active
     returning i.workspace_id, i.employee_id`,
    [now, hashKey(secret), now],
  );
  if (!row) return null;
  return openEmployeeSession(em, { workspaceId: row.workspace_id, employeeId: row.employee_id, via: 'invitation', subject: null }, sessionDays, now);
}

// --- Self-service sessions ---------------------------------------------------------------------

export interface OpenedEmployeeSession {
  token: string;
  expiresAt: Date;
  employeeId: number;
}

/** Opens a session of the app for the employee; returns its token (for the cookie, never stored). */
export async function openEmployeeSession(
  em: EntityManager,
  who: { workspaceId: number; employeeId: number; via: 'invitation' | 'single_sign_on'; subject: string | null },
  days: number,
  now: Date,
): Promise<OpenedEmployeeSession> {
  await em.execute('delete from employee_session where expires_at < ?', [new Date(now.getTime() - KEEP_OLD_SESSIONS_DAYS * 86_400_000)]);
  const token = `tgm_${crypto.randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + days * 86_400_000);
  await em.execute('insert into employee_session (workspace_id, employee_id, token_hash, via, subject, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?)', [
    who.workspaceId,
    who.employeeId,
    sha256(token),
    who.via,
    who.subject,
    now,
    expiresAt,
  ]);
  return { token, expiresAt, employeeId: who.employeeId };
}

export interface EmployeeSessionInfo {
  id: number;
  workspaceId: number;
  employeeId: number;
  companyId: number;
  name: string;
  lastname: string;
  expiresAt: Date;
}

/** The live session of a token (not ended, not expired, its employee neither deleted nor inactive), or null. */
export async function findEmployeeSession(em: EntityManager, token: string, now: Date): Promise<EmployeeSessionInfo | null> {
  const [row] = await em.execute<
    { id: number; workspace_id: number; employee_id: number; company_id: number; name: string; lastname: string; expires_at: Date }[]
  >(
    `select s.id, s.workspace_id, s.employee_id, e.company_id, e.name, e.lastname, s.expires_at
     from employee_session s join employee e on e.id = s.employee_id
     where s.token_hash = ? and s.ended_at is null and s.expires_at > ? and e.deleted_at is null and e.is_active`,
    [sha256(token), now],
  );
  if (!row) return null;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    employeeId: row.employee_id,
    companyId: row.company_id,
    name: row.name,
    lastname: row.lastname,
    expiresAt: new Date(row.expires_at),
  };
}

/** The principal of a self-service session token. */
export async function employeeSessionPrincipal(em: EntityManager, token: string, now: Date): Promise<EmployeePrincipal> {
  const session = await findEmployeeSession(em, token, now);
  if (!session) throw new DomainError('unauthenticated', 'The self-service session has expired or was ended: sign in again.');
  return {
    kind: 'employee',
    workspaceId: session.workspaceId,
    employeeId: session.employeeId,
    companyId: session.companyId,
    tokenId: null,
    sessionId: session.id,
  };
}

/** Ends a session (sign-out): its token stops working at once. */
export async function endEmployeeSession(em: EntityManager, token: string, now: Date): Promise<void> {
  await em.execute('update employee_session set ended_at = ? where token_hash = ? and ended_at is null', [now, sha256(token)]);
}

// --- Single sign-on --------------------------------------------------------------------------

/** What a provider said about a person, as far as finding their employee record goes. */
export interface ProviderIdentity {
  /** Ids the directory may know the person by: the `oid` claim (Entra ID's object id) and `sub`. */
  directoryIds: string[];
  /** Names the person may be known by: `email`, `preferred_username`, `upn` (compared without case). */
  names: string[];
}

export type EmployeeMatch = { found: true; employeeId: number } | { found: false; reason: 'no_employee' | 'ambiguous' };

/**
 * The one live, active employee of the workspace a person signed in with single sign-on is: first by
 * directory id (a SCIM user whose `externalId` is the person's `oid` or `sub`), then by name (an
 * employee whose e-mail, or whose SCIM `userName`, is the person's e-mail, `preferred_username` or
 * `upn`, without regard to case). Two candidates at the same step are ambiguous: nobody signs in.
 */
export async function employeeOfIdentity(em: EntityManager, workspaceId: number, identity: ProviderIdentity): Promise<EmployeeMatch> {
  const pick = (rows: { id: number }[]): EmployeeMatch | null =>
    rows.length === 1 ? { found: true, employeeId: rows[0]!.id } : rows.length > 1 ? { found: false, reason: 'ambiguous' } : null;
  const ids = identity.directoryIds.filter((id) => id !== '');
  if (ids.length > 0) {
    const byId = await em.execute<{ id: number }[]>(
      `select distinct e.id from scim_user s join employee e on e.id = s.employee_id
       where s.workspace_id = ? and s.external_id = any(?::text[]) and e.deleted_at is null and e.is_active`,
      [workspaceId, textArray(ids)],
    );
    const found = pick(byId);
    if (found) return found;
  }
  const names = [...new Set(identity.names.filter((n) => n !== '').map((n) => n.toLowerCase()))];
  if (names.length > 0) {
    const byName = await em.execute<{ id: number }[]>(
      `select distinct e.id from employee e left join scim_user s on s.employee_id = e.id
       where e.workspace_id = ? and e.deleted_at is null and e.is_active and (lower(e.email) = any(?::text[]) or lower(s.user_name) = any(?::text[]))`,
      [workspaceId, textArray(names), textArray(names)],
    );
    const found = pick(byName);
    if (found) return found;
  }
  return { found: false, reason: 'no_employee' };
}
