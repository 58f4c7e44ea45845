// Writing events. Every function here runs INSIDE the transaction of the change that causes the
// event, as its last statements: a rollback removes the event with the change, a commit keeps both.
//
// Ordering without a lock: an event's id is its transaction's id shifted left by 20 bits plus its
// rank in that transaction (EVENT_ID_SHIFT). Readers only deliver ids below the oldest transaction
// still running (`deliverableBelow` in event-feed.ts): everything there has committed or aborted,
// so no event can appear later below a cursor that a reader has passed. Ids therefore grow in the
// order readers deliver them, and concurrent writers never wait for one another (a per-workspace
// counter row did that before and serialised one workspace's terminal uploads; docs/decisions.md).
// NOTIFY is transactional too (sent at commit only) and is just a wake-up carrying the workspace;
// a second one, on WEBHOOK_CHANNEL, only when webhook deliveries were queued (so a workspace without
// endpoints does not make every process look for deliveries at each event).
import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../context/request-context';
import { executeBound } from '../db/prepared-statement';
import { currentTraceparent } from '../observability/tracing';
import type { EventType, TEST_EVENT_TYPE } from './event-types';

export const EVENT_CHANNEL = 'timegate_events';
/** Notified (empty payload) only by transactions that queued webhook deliveries: wakes the webhook workers. */
export const WEBHOOK_CHANNEL = 'timegate_webhooks';
/** Notified when a change marked attendance days stale: wakes the attendance worker. */
export const ATTENDANCE_CHANNEL = 'timegate_attendance';
/**
 * Notified (payload: device ids, comma-separated) once commands were queued for those devices: wakes
 * their polls in every process (each process's device cache would otherwise learn it at its next
 * refresh, TIMEGATE_DEVICE_CACHE_TTL_MS, which put a lockdown behind three processes seconds late).
 */
export const COMMAND_CHANNEL = 'timegate_commands';
/**
 * This process in a COMMAND_CHANNEL payload (`<sender>|<ids>`): a process has already noticed its own
 * commands in memory and ignores its NOTIFY's echo.
 */
export const COMMAND_SENDER = randomBytes(6).toString('hex');

/**
 * event.id = transaction id * 2^EVENT_ID_SHIFT + rank of the event in its transaction. 2^20 events
 * per transaction (the largest bulk write is 1,000 punches) and 2^43 transaction ids (centuries at
 * thousands of write transactions per second) fit in a bigint. Going past the rank range fails the
 * transaction (timegate_event_rank_overflow, created by the migration) rather than breaking the order.
 */
export const EVENT_ID_SHIFT = 20;
const RANKS = 2 ** EVENT_ID_SHIFT;

export interface NewEvent {
  workspaceId: number;
  type: EventType | typeof TEST_EVENT_TYPE;
  data: Record<string, unknown>;
}

export interface RecordOptions {
  /** Deliver to this endpoint only, whatever its event types (test events); default: every subscribed, enabled endpoint. */
  onlyEndpointId?: number;
}

/**
 * The statement tail that appends to the outbox the rows of a CTE named `new_events` (columns
 * `workspace_id int, ord bigint, type varchar, data jsonb, span int`; `ord` orders the rows; a
 * span above 1 is a batch of events, event-batch.ts), with their
 * webhook deliveries and NOTIFYs. The caller writes `with <its CTEs>, new_events as (...), ` and
 * then this text; the statement returns `select` (default: the event ids, in id order), plus a column
 * `notified` that makes the NOTIFYs run (only when it returns a row, i.e. when there are events). One
 * round trip: ids (after the transaction's earlier events, if any) -> events -> deliveries -> NOTIFY
 * (delivered at commit only). Composed into a caller's own insert (the terminal punches), the change
 * and its events are one statement: atomic even outside a transaction.
 */
export function outboxTail(
  ctx: RequestContext,
  options: RecordOptions = {},
  select = 'select e.id from e order by e.id',
): { sql: string; params: (Date | string | null)[] } {
  const now = ctx.now();
  const giveUpAt = new Date(now.getTime() + ctx.config.webhookRetryHours * 3_600_000);
  const endpointFilter = options.onlyEndpointId === undefined ? `w.enabled and e.type = any(w.event_types)` : `w.id = ${Number(options.onlyEndpointId)}`;
  // The first free rank of this transaction: its earlier statements' events are visible to this one.
  const sql = `xact as (select pg_current_xact_id()::text::bigint * ${RANKS} as first_id),
     next_rank as (
       select coalesce(max(event.id + event.span) - xact.first_id, 0) as rank
       from xact left join event on event.id >= xact.first_id and event.id < xact.first_id + ${RANKS}
       group by xact.first_id),
     ranked as (
       select n.workspace_id, n.type, n.data, n.span,
              next_rank.rank + sum(n.span) over (order by n.workspace_id, n.ord rows unbounded preceding) - n.span as rank
       from new_events n, next_rank),
     e as (
       insert into event (id, workspace_id, type, data, created_at, span, trace)
       select xact.first_id + case when ranked.rank + ranked.span <= ${RANKS} then ranked.rank else timegate_event_rank_overflow() end,
              ranked.workspace_id, ranked.type, ranked.data, ?::timestamptz, ranked.span, ?::varchar
       from ranked, xact
       order by ranked.rank
       returning id, workspace_id, type, span),
     deliveries as (
       insert into webhook_delivery (workspace_id, endpoint_id, event_id, status, attempt_count, next_attempt_at, give_up_at, created_at)
       select e.workspace_id, w.id, e.id + k.n, 'pending', 0, ?::timestamptz, ?::timestamptz, ?::timestamptz
       from e cross join lateral generate_series(0, e.span - 1) k(n)
       join webhook_endpoint w on w.workspace_id = e.workspace_id and ${endpointFilter}
       order by e.id, k.n, w.id
       returning 1),
     notified as (select pg_notify(?, workspace_id::text) from (select distinct workspace_id from e) ws
                  union all select pg_notify(?, '') where exists (select 1 from deliveries))
     ${select.replace(/^select /, 'select (select count(*) from notified) as notified, ')}`;
  // The span that causes the events (a terminal upload, a request): the workers that take them link to it.
  return { sql, params: [now, currentTraceparent(), now, giveUpAt, now, EVENT_CHANNEL, WEBHOOK_CHANNEL] };
}

/**
 * Appends events to the outbox, creates their webhook deliveries and queues the NOTIFY, all in the
 * caller's transaction (`ctx.em` must be a transactional EntityManager). Returns the event ids.
 */
export async function recordEvents(ctx: RequestContext, events: readonly NewEvent[], options: RecordOptions = {}): Promise<string[]> {
  if (events.length === 0) return [];
  if (!ctx.em.isInTransaction()) throw new Error('recordEvents must run in the transaction of the change it records');
  const rows = events.map((e, ord) => ({ workspace_id: e.workspaceId, ord, type: e.type, data: e.data }));
  const tail = outboxTail(ctx, options);
  const inserted = await executeBound<{ id: string }>(
    ctx.em,
    `with new_events as (select t.*, 1 as span from jsonb_to_recordset(?::jsonb) as t(workspace_id int, ord bigint, type varchar, data jsonb)),
     ${tail.sql}`,
    [JSON.stringify(rows), ...tail.params],
  );
  return inserted.map((r) => String(r.id));
}

/** One event; see recordEvents. */
export async function recordEvent(ctx: RequestContext, event: NewEvent): Promise<string> {
  const [id] = await recordEvents(ctx, [event]);
  return id!;
}
