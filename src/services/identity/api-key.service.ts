import { boundedCache } from '../../kernel/cache';
import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, Company, Workspace } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { SCOPES, workspaceOf, type Principal, type RequestContext, type Scope } from '../../context/request-context';
import { FieldChecker, limits } from '../common/validation';
import { sessionPrincipal } from './console-session.service';
import { LIVE_KEY_PREFIX, TEST_KEY_PREFIX } from '../../kernel/sandbox';
import { employeeSessionPrincipal, employeeTokenPrincipal, EMPLOYEE_TOKEN_PREFIX } from './employee-access.service';
import { hashKey, randomSecret } from './secrets';

/** `tg_live_` (a sandbox's: `tg_test_`) + 40 base62 characters from the system CSPRNG (secrets.ts). */
export function generateKey(prefix: string = LIVE_KEY_PREFIX): string {
  return randomSecret(prefix);
}

/** A created key: the entity plus the secret, which is shown this once and never again. */
export interface IssuedApiKey {
  apiKey: ApiKey;
  key: string;
}

export async function issueKey(em: EntityManager, workspaceId: number, scopes: Scope[], name: string, companyId: number | null = null): Promise<IssuedApiKey> {
  // A sandbox's keys say so: `tg_test_` (docs/sandbox.md).
  const [workspace] = await em.execute<{ sandbox: boolean }[]>('select sandbox from workspace where id = ?', [workspaceId]);
  const prefix = workspace?.sandbox ? TEST_KEY_PREFIX : LIVE_KEY_PREFIX;
  const key = generateKey(prefix);
  const apiKey = em.create(ApiKey, {
    workspaceId,
    name,
    keyHash: hashKey(key),
    prefix: key.slice(0, prefix.length + 4),
    last4: key.slice(-4),
    scopes: [...new Set(scopes)],
    companyId,
  } as ApiKey);
  em.persist(apiKey);
  await em.flush();
  return { apiKey, key };
}

function timingSafeEqualText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/**
 * Resolves `Authorization: Bearer <key>` to a principal, or throws `unauthenticated`. The lookup is
 * by hash, so a wrong key never reaches a comparison of secrets; the master key is compared in
 * constant time.
 */
export async function authenticate(
  em: EntityManager,
  authorization: string | undefined,
  masterKey: string | null,
  cacheMs = 0,
  now = Date.now(),
): Promise<Principal> {
  // A console session (the cookie, turned into this by the GraphQL entry once its CSRF token matched).
  const session = /^Session\s+(tgs_\S+)\s*$/.exec(authorization ?? '');
  if (session) return sessionPrincipal(em, session[1], new Date(now));
  // A self-service session (the app's cookie, turned into this by the web entry once its CSRF token matched).
  const employeeSession = /^EmployeeSession\s+(tgm_\S+)\s*$/.exec(authorization ?? '');
  if (employeeSession) return employeeSessionPrincipal(em, employeeSession[1]!, new Date(now));
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new DomainError('unauthenticated', 'Send an API key as `Authorization: Bearer <key>`.');
  const key = match[1];
  if (masterKey !== null && timingSafeEqualText(key, masterKey)) return { kind: 'operator' };
  if (key.startsWith(EMPLOYEE_TOKEN_PREFIX)) return employeeTokenPrincipal(em, key, cacheMs, now);
  const hash = hashKey(key);
  const cached = validKeys.get(hash);
  if (cached && cached.until > now) return cached.principal;
  const rows = await em.execute<{ id: number; workspace_id: number; scopes: string[]; company_id: number | null; sandbox: boolean }[]>(
    'select k.id, k.workspace_id, k.scopes, k.company_id, w.sandbox from api_key k join workspace w on w.id = k.workspace_id where k.key_hash = ? and k.revoked_at is null',
    [hash],
  );
  if (rows.length === 0) throw new DomainError('unauthenticated', 'The API key is not valid or has been revoked.');
  // A test key works on its sandbox only and a live key never on a sandbox (keys are issued so; this holds it).
  if (key.startsWith(TEST_KEY_PREFIX) !== rows[0].sandbox) throw new DomainError('unauthenticated', 'The API key is not valid or has been revoked.');
  const principal: Principal = {
    kind: 'workspace',
    workspaceId: rows[0].workspace_id,
    keyId: rows[0].id,
    scopes: rows[0].scopes as Scope[],
    companyId: rows[0].company_id,
  };
  if (cacheMs > 0) rememberKey(hash, principal, now + cacheMs);
  return principal;
}

const MAX_CACHED_KEYS = 10_000;
/**
 * Valid keys seen in the last `TIMEGATE_KEY_CACHE_MS` (hash → principal), so that an API request
 * costs no key lookup. Only valid keys are kept (an unknown key is looked up every time), a
 * revocation forgets the key in this process at once, and another process stops accepting it
 * within the cache time. Bounded: when full, the least recently used go first.
 */
const validKeys = boundedCache<string, { principal: Principal; until: number }>(MAX_CACHED_KEYS);

function rememberKey(hash: string, principal: Principal, until: number): void {
  validKeys.set(hash, { principal, until });
}

function forgetKey(keyId: number): void {
  const hashes = [...validKeys.entries()].filter(([, entry]) => entry.principal.kind === 'workspace' && entry.principal.keyId === keyId).map(([hash]) => hash);
  for (const hash of hashes) validKeys.delete(hash);
}

/** Operators act on any workspace they name; a workspace admin only on its own. */
function targetWorkspace(ctx: RequestContext, workspaceId: number | undefined): number {
  if (ctx.principal.kind === 'operator') {
    if (workspaceId === undefined) throw DomainError.field('workspaceId', 'required', 'workspaceId is required for the operator key.');
    return workspaceId;
  }
  const own = workspaceOf(ctx);
  if (workspaceId !== undefined && workspaceId !== own) throw DomainError.notFound('Workspace', workspaceId);
  return own;
}

export async function createApiKey(
  ctx: RequestContext,
  input: { workspaceId?: number; name?: string | null; scopes: string[]; companyId?: number | null },
): Promise<IssuedApiKey> {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.apiKeyName });
  if (input.scopes.length === 0) check.add('scopes', 'required', 'Give the key at least one scope.');
  for (const scope of input.scopes) {
    if (!SCOPES.includes(scope as Scope)) check.add('scopes', 'invalid_scope', `Unknown scope "${scope}"; scopes are ${SCOPES.join(', ')}.`);
  }
  // A SCIM token serves one company's directory and nothing else (docs/identity.md).
  const scim = input.scopes.includes('scim');
  if (scim && input.scopes.some((s) => s !== 'scim')) check.add('scopes', 'invalid_scope', 'A "scim" key has no other scope: it reaches /scim/v2 only.');
  if (scim && input.companyId == null) check.add('companyId', 'required', 'A "scim" key is bound to one company: give companyId.');
  if (!scim && input.companyId != null) check.add('companyId', 'not_allowed', 'Only a "scim" key is bound to a company.');
  check.done();
  const workspaceId = targetWorkspace(ctx, input.workspaceId);
  if (!(await ctx.em.findOne(Workspace, workspaceId))) throw DomainError.notFound('Workspace', workspaceId);
  if (scim && !(await ctx.em.findOne(Company, { id: input.companyId!, workspaceId }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
  }
  return issueKey(ctx.em, workspaceId, input.scopes as Scope[], input.name ?? '', scim ? input.companyId! : null);
}

export async function revokeApiKey(ctx: RequestContext, id: number): Promise<ApiKey> {
  const apiKey = await ctx.em.findOne(ApiKey, { id });
  if (!apiKey || (ctx.principal.kind === 'workspace' && apiKey.workspaceId !== ctx.principal.workspaceId)) {
    throw DomainError.notFound('API key', id);
  }
  if (!apiKey.revokedAt) {
    apiKey.revokedAt = ctx.now();
    await ctx.em.flush();
  }
  forgetKey(apiKey.id);
  return apiKey;
}

/** The key of the request itself (the operator key is not an API key: forbidden). */
export async function currentApiKey(ctx: RequestContext): Promise<ApiKey> {
  if (ctx.principal.kind !== 'workspace') throw new DomainError('forbidden', 'The operator key is not an API key of a workspace.');
  if (ctx.principal.keyId === null) throw new DomainError('forbidden', 'A console session is not an API key.');
  return ctx.em.findOneOrFail(ApiKey, { id: ctx.principal.keyId, workspaceId: ctx.principal.workspaceId });
}

export async function listApiKeys(ctx: RequestContext, workspaceId?: number): Promise<ApiKey[]> {
  const target = targetWorkspace(ctx, workspaceId);
  // The operator names a workspace: one that does not exist is an error, not an empty list.
  if (ctx.principal.kind === 'operator' && !(await ctx.em.findOne(Workspace, target))) throw DomainError.notFound('Workspace', target);
  return ctx.em.find(ApiKey, { workspaceId: target }, { orderBy: { id: 'asc' } });
}
