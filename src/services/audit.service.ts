import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEvent } from '../entities/audit-event.entity';
import { workspaceOf, type RequestContext } from './context';
import type { Page, PageRequest } from './pagination';

const MAX_ARGUMENT_BYTES = 4096;

/**
 * Records one API write: who (key id), what (operation and its arguments), when, and the outcome.
 * Written on the request's own connection right after the operation, so it survives the operation's
 * failure too. Arguments are truncated: the audit log says what was asked, not a copy of the data.
 */
export async function recordWrite(ctx: RequestContext, operation: string, args: unknown, outcome: string): Promise<void> {
  const principal = ctx.principal;
  let text = JSON.stringify(args ?? {});
  if (text.length > MAX_ARGUMENT_BYTES) text = JSON.stringify({ truncated: text.slice(0, MAX_ARGUMENT_BYTES) });
  const em: EntityManager = ctx.em;
  await em.execute(
    'insert into audit_event (workspace_id, api_key_id, operation, arguments, outcome, request_id, created_at) values (?, ?, ?, ?::jsonb, ?, ?, ?)',
    [
      principal.kind === 'workspace' ? principal.workspaceId : null,
      principal.kind === 'workspace' ? principal.keyId : null,
      operation,
      text,
      outcome,
      ctx.requestId,
      ctx.now(),
    ],
  );
}

/** The workspace's audit log, newest first. */
export async function listAuditEvents(ctx: RequestContext, filter: { operation?: string }, page: PageRequest): Promise<Page<AuditEvent>> {
  const where: Record<string, unknown> = { workspaceId: workspaceOf(ctx) };
  if (filter.operation) where.operation = filter.operation;
  const [items, totalCount] = await ctx.em.findAndCount(AuditEvent, where, { orderBy: { id: 'desc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}
