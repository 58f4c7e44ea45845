import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEvent } from '../../entities/audit-event.entity';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from './pagination';
import { noteWorkspaceWrite } from './replica-read';

const MAX_ARGUMENT_BYTES = 4096;
const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with each unpaired surrogate replaced by U+FFFD (String.prototype.toWellFormed). */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATES, '\ufffd');
}

/**
 * Records one API write before it runs: who (key id, or the person of a console session), what (operation and its arguments), when,
 * with the outcome `pending`; `finishWrite` sets the outcome afterwards. Written first, on its own
 * statement, so that no change can ever commit without its audit row: if this insert fails, the
 * operation does not run; if the process dies mid-operation, the row says `pending`. Arguments are
 * truncated (the audit log says what was asked, not a copy of the data) and made well-formed (a
 * lone surrogate has no place in jsonb).
 */
/** Arguments whose value is a credential: the audit log says one was given, not what it is. */
const SECRET_ARGUMENTS = new Set(['pushCommKey']);
/**
 * Personal data that the audit log does not copy: where a phone punched (kept on the punch, and
 * erased after TIMEGATE_PUNCH_LOCATION_DAYS; docs/self-service.md) and the photo it sent.
 */
const PERSONAL_ARGUMENTS = new Set(['latitude', 'longitude', 'photo']);

export async function recordWrite(ctx: RequestContext, operation: string, args: unknown, outcome = 'pending'): Promise<number> {
  const principal = ctx.principal;
  let text = JSON.stringify(args ?? {}, (key, value: unknown) =>
    (SECRET_ARGUMENTS.has(key) || PERSONAL_ARGUMENTS.has(key)) && value != null && value !== ''
      ? '[redacted]'
      : typeof value === 'string'
        ? wellFormed(value)
        : value,
  );
  if (text.length > MAX_ARGUMENT_BYTES) text = JSON.stringify({ truncated: wellFormed(text.slice(0, MAX_ARGUMENT_BYTES)) });
  const em: EntityManager = ctx.em;
  const [row] = await em.execute<{ id: number }[]>(
    'insert into audit_event (workspace_id, api_key_id, actor_subject, actor_email, operation, arguments, outcome, request_id, created_at) values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?) returning id',
    [
      principal.kind === 'workspace' || principal.kind === 'employee' ? principal.workspaceId : null,
      principal.kind === 'workspace' ? principal.keyId : null,
      // A change made in a console session names the person (single sign-on) behind it; one made by
      // an employee for themself (self-service) names the employee.
      (principal.kind === 'workspace' && principal.person?.subject) || (principal.kind === 'employee' ? `employee:${principal.employeeId}` : null),
      (principal.kind === 'workspace' && principal.person?.email) || null,
      operation,
      text,
      outcome,
      ctx.requestId,
      ctx.now(),
    ],
  );
  return row!.id;
}

/** Sets the outcome of a write recorded by `recordWrite` (`ok` or the error code). */
export async function finishWrite(ctx: RequestContext, auditId: number, outcome: string): Promise<void> {
  await ctx.em.execute('update audit_event set outcome = ? where id = ?', [outcome, auditId]);
  // The write marks its workspace (read replica only, src/db/read-replica.ts): what the mutation
  // changed is committed by now (a refused one may have committed part of a batch), and the
  // caller's next heavy reads see it.
  const principal = ctx.principal;
  if (principal.kind === 'workspace' || principal.kind === 'employee') await noteWorkspaceWrite(ctx, { workspaceIds: [principal.workspaceId] });
}

/** The workspace's audit log, newest first. */
export async function listAuditEvents(ctx: RequestContext, filter: { operation?: string }, page: PageRequest): Promise<Page<AuditEvent>> {
  const where: Record<string, unknown> = { workspaceId: workspaceOf(ctx) };
  if (filter.operation) where.operation = filter.operation;
  const [items, totalCount] = await ctx.em.findAndCount(AuditEvent, where, { orderBy: { id: 'desc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}
