import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { Metrics } from '../observability/metrics';
import type { ReadReplica } from '../db/read-replica';
import { DomainError } from '../errors/domain-error';

import { hasScope as hasScopeOf, type Scope } from '../kernel/scopes';

export { SCOPES, hasScope, type Scope } from '../kernel/scopes';

/** The person behind a console session (single sign-on): who the audit log names. */
export interface SessionPerson {
  sessionId: number;
  subject: string;
  email: string | null;
}

/**
 * An employee acting for themself (docs/self-service.md): through an employee token (`tg_emp_…`,
 * `tokenId`) or a session of the self-service app (`sessionId`, after an invitation link or single
 * sign-on). Never a workspace caller: every workspace operation refuses it (`workspaceOf`), and the
 * self-service operations scope everything to `employeeId` (`employeeOf`).
 */
export interface EmployeePrincipal {
  kind: 'employee';
  workspaceId: number;
  employeeId: number;
  companyId: number;
  tokenId: number | null;
  sessionId: number | null;
}

/**
 * Who is calling: a key of one workspace or a person signed in to the console (a session: no key,
 * the scopes of their roles), an employee acting for themself, the operator (TIMEGATE_MASTER_KEY, no
 * workspace), or a terminal on `/iclock/*` (identified by its serial only; terminal services scope
 * by its device row).
 */
export type Principal =
  | { kind: 'workspace'; workspaceId: number; keyId: number | null; scopes: readonly Scope[]; person?: SessionPerson; companyId?: number | null }
  | EmployeePrincipal
  | { kind: 'operator' }
  | { kind: 'terminal'; serialNumber: string };

/** Passed first to every service method: who calls, on which EntityManager fork, at what time. */
export interface RequestContext {
  principal: Principal;
  em: EntityManager;
  requestId: string;
  logger: Logger;
  now(): Date;
  /** The service's settings (timeouts and limits that business rules apply). */
  config: Config;
  /** The app's Prometheus counters; absent in scripts and hand-made contexts, which count nothing. */
  metrics?: Metrics;
  /**
   * The read replica (DATABASE_REPLICA_URL) the heavy reads may go to (services/common/replica-read.ts);
   * absent without one, and in scripts and hand-made contexts, which read the primary.
   */
  replica?: ReadReplica;
  /** Per-request batch loaders (DataLoader), so a field of every node of a list costs one query. */
  loaders?: Map<string, unknown>;
  /**
   * The address the request reached the service at (`https://host:port`), for links the service
   * hands out (an invitation link) when TIMEGATE_PUBLIC_URL is unset; absent outside HTTP.
   */
  origin?: string;
}

/**
 * The same caller on another EntityManager (a transaction's). Fields are copied one by one rather
 * than spread, so a context whose fields are getters on its class (the terminal adapter's, which
 * makes its EntityManager, request id and logger on first use) keeps them.
 */
export function withEm(ctx: RequestContext, em: EntityManager): RequestContext {
  return {
    principal: ctx.principal,
    em,
    requestId: ctx.requestId,
    logger: ctx.logger,
    now: ctx.now,
    config: ctx.config,
    metrics: ctx.metrics,
    replica: ctx.replica,
    origin: ctx.origin,
  };
}

/**
 * The caller's workspace; the operator has none and must name one where an operation allows it. An
 * employee principal is refused here: it belongs to a workspace but acts only as its employee, so
 * every workspace operation (every service that asks for the workspace this way) refuses it, and a
 * new one does too without a word about employees.
 */
export function workspaceOf(ctx: RequestContext): number {
  if (ctx.principal.kind === 'employee') {
    throw new DomainError('forbidden', 'An employee token or self-service session acts only as its employee, through /public/v2/me and GraphQL `me`.');
  }
  if (ctx.principal.kind !== 'workspace') {
    throw new DomainError('forbidden', 'This operation acts on a workspace: call it with a key of that workspace.');
  }
  return ctx.principal.workspaceId;
}

/**
 * The employee an employee principal acts as (with its workspace and company): what every
 * self-service operation scopes itself to. Any other caller is refused: a workspace key acts on
 * employees through the workspace operations, never as one.
 */
export function employeeOf(ctx: RequestContext): EmployeePrincipal {
  if (ctx.principal.kind !== 'employee') {
    throw new DomainError('forbidden', 'This operation acts as an employee: call it with an employee token or a self-service session.');
  }
  return ctx.principal;
}

/**
 * Refuses (403 `insufficient_scope`) a caller that may run the operation but not with this effect:
 * `effect` says what the request would do to a door, which needs `scope` (docs/security.md,
 * "Scopes"). `forbidden` stays the answer of an operation the key may not run at all. Only workspace
 * callers (keys, console sessions) are checked: terminals and the operator never cause such effects.
 */
export function requireScopeFor(ctx: RequestContext, scope: Scope, effect: string): void {
  const principal = ctx.principal;
  if (principal.kind !== 'workspace' || hasScopeOf(principal.scopes, scope)) return;
  throw new DomainError('insufficient_scope', `${effect}: that needs the "${scope}" scope.`);
}

/** A SCIM token: a workspace key with the `scim` scope, bound to one company. */
export function isScimPrincipal(principal: Principal): principal is Extract<Principal, { kind: 'workspace' }> & { companyId: number } {
  return principal.kind === 'workspace' && principal.scopes.includes('scim') && typeof principal.companyId === 'number';
}
