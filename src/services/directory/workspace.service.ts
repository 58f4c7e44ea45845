import { LOCK_KEYS } from '../../kernel/lock-keys';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Workspace } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { issueKey, type IssuedApiKey } from '../identity/api-key.service';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import { FieldChecker, isValidTimeZone, limits } from '../common/validation';
import { seedDefaultVerificationStates } from '../attendance/verification-state.service';

export interface WorkspaceInput {
  name?: string | null;
  timeZone?: string | null;
  /** A sandbox workspace (docs/sandbox.md): its own plan, `tg_test_` keys. Only at creation. */
  sandbox?: boolean | null;
}

/** A sandbox's plan: small, like what it stands in for (docs/sandbox.md); the operator may raise it. */
export const SANDBOX_PLAN = { maxCompanies: 1, maxDevices: 5, maxEmployees: 50 } as const;

export interface PlanLimitsInput {
  maxCompanies?: number;
  maxDevices?: number;
  maxEmployees?: number;
}

function checkWorkspace(input: WorkspaceInput, creating: boolean): void {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.workspaceName, required: creating || input.name !== undefined });
  if (input.timeZone !== undefined && input.timeZone !== null && !isValidTimeZone(input.timeZone)) {
    check.add('timeZone', 'invalid_time_zone', `timeZone must be an IANA time zone name such as "Europe/Berlin" (got "${input.timeZone}").`);
  }
  check.done();
}

/**
 * Creates a workspace with its first admin key and its reference data (the default verification
 * states), in one transaction. The caller decides who may do this.
 */
export async function createWorkspaceWithAdminKey(em: EntityManager, input: WorkspaceInput): Promise<{ workspace: Workspace; issued: IssuedApiKey }> {
  checkWorkspace(input, true);
  const sandbox = input.sandbox === true;
  return em.transactional(async (tx) => {
    const workspace = tx.create(Workspace, {
      name: input.name!,
      timeZone: input.timeZone ?? 'UTC',
      sandbox,
      ...(sandbox ? SANDBOX_PLAN : {}),
    } as Workspace);
    tx.persist(workspace);
    await tx.flush();
    await seedDefaultVerificationStates(tx, workspace.id);
    const issued = await issueKey(tx, workspace.id, ['admin'], 'admin');
    return { workspace, issued };
  });
}

export function requireOperator(ctx: RequestContext): void {
  if (ctx.principal.kind !== 'operator') throw new DomainError('forbidden', 'Only the operator key (TIMEGATE_MASTER_KEY) may do this.');
}

export async function createWorkspace(ctx: RequestContext, input: WorkspaceInput) {
  requireOperator(ctx);
  return createWorkspaceWithAdminKey(ctx.em, input);
}

export async function currentWorkspace(ctx: RequestContext): Promise<Workspace> {
  return ctx.em.findOneOrFail(Workspace, workspaceOf(ctx));
}

export async function listWorkspaces(ctx: RequestContext): Promise<Workspace[]> {
  requireOperator(ctx);
  return ctx.em.find(Workspace, {}, { orderBy: { id: 'asc' } });
}

export async function updateWorkspace(ctx: RequestContext, input: WorkspaceInput): Promise<Workspace> {
  checkWorkspace(input, false);
  const workspace = await currentWorkspace(ctx);
  if (input.name != null) workspace.name = input.name;
  if (input.timeZone != null) workspace.timeZone = input.timeZone;
  await ctx.em.flush();
  return workspace;
}

export async function setWorkspacePlan(ctx: RequestContext, workspaceId: number, input: PlanLimitsInput): Promise<Workspace> {
  requireOperator(ctx);
  const check = new FieldChecker();
  check.positive('maxCompanies', input.maxCompanies);
  check.positive('maxDevices', input.maxDevices);
  check.positive('maxEmployees', input.maxEmployees);
  check.done();
  const workspace = await ctx.em.findOne(Workspace, workspaceId);
  if (!workspace) throw DomainError.notFound('Workspace', workspaceId);
  if (input.maxCompanies !== undefined) workspace.maxCompanies = input.maxCompanies;
  if (input.maxDevices !== undefined) workspace.maxDevices = input.maxDevices;
  if (input.maxEmployees !== undefined) workspace.maxEmployees = input.maxEmployees;
  await ctx.em.flush();
  return workspace;
}

/**
 * First start on an empty database: creates the default workspace and returns its admin key so
 * that the process can print it once. An advisory lock keeps two processes starting together from
 * both doing it.
 */
export async function bootstrapDefaultWorkspace(em: EntityManager, name: string): Promise<{ workspace: Workspace; key: string } | null> {
  return em.transactional(async (tx) => {
    await tx.getConnection().execute('select pg_advisory_xact_lock(?)', [LOCK_KEYS.firstWorkspace], 'all', tx.getTransactionContext());
    if ((await tx.count(Workspace, {})) > 0) return null;
    const { workspace, issued } = await createWorkspaceWithAdminKey(tx, { name });
    return { workspace, key: issued.key };
  });
}
