import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { DomainError } from '../errors/domain-error';

export const SCOPES = ['read', 'write', 'admin', 'doors:unlock'] as const;
export type Scope = (typeof SCOPES)[number];

/** Who is calling: a key of one workspace, or the operator (TIMEGATE_MASTER_KEY, no workspace). */
export type Principal =
  | { kind: 'workspace'; workspaceId: number; keyId: number; scopes: readonly Scope[] }
  | { kind: 'operator' };

/** Passed first to every service method: who calls, on which EntityManager fork, at what time. */
export interface RequestContext {
  principal: Principal;
  em: EntityManager;
  requestId: string;
  logger: Logger;
  now(): Date;
}

/**
 * `admin` grants everything in its workspace; `write` includes `read`. `doors:unlock` is separate so
 * that a key can open doors without being able to change people (and the reverse).
 */
export function hasScope(granted: readonly Scope[], needed: Scope): boolean {
  if (granted.includes('admin') || granted.includes(needed)) return true;
  return needed === 'read' && granted.includes('write');
}

/** The caller's workspace; the operator has none and must name one where an operation allows it. */
export function workspaceOf(ctx: RequestContext): number {
  if (ctx.principal.kind !== 'workspace') {
    throw new DomainError('forbidden', 'This operation acts on a workspace: call it with a key of that workspace.');
  }
  return ctx.principal.workspaceId;
}
