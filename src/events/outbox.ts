// Writing events. Every function here runs INSIDE the transaction of the change that causes the
// event, as its last statements: a rollback removes the event with the change, a commit keeps both.
//
// Ordering: the per-workspace counter row (event_sequence) is incremented first, which locks it
// until the transaction ends. A second transaction of the same workspace waits there before it can
// insert its events, so inside one workspace both `sequence` (gapless) and the global `id` grow in
// commit order: an event never commits later with a lower id than one a reader has already seen.
// Taking this lock last keeps lock order simple (a holder waits for nothing but its commit).
// NOTIFY is transactional too (sent at commit only) and is just a wake-up carrying the workspace;
// a second one, on WEBHOOK_CHANNEL, only when webhook deliveries were queued (so a workspace without
// endpoints does not make every process look for deliveries at each event).
import type { RequestContext } from '../services/context';
import { doorOpenedData, type DoorOpening } from './event-payloads';
import type { EventType, TEST_EVENT_TYPE } from './event-types';

export const EVENT_CHANNEL = 'timegate_events';
/** Notified (empty payload) only by transactions that queued webhook deliveries: wakes the webhook workers. */
export const WEBHOOK_CHANNEL = 'timegate_webhooks';

export interface NewEvent {
  workspaceId: number;
  type: EventType | typeof TEST_EVENT_TYPE;
  data: Record<string, unknown>;
}

export interface RecordOptions {
  /** Deliver to this endpoint only, whatever its event types (test events); default: every subscribed, enabled endpoint. */
  onlyEndpointId?: number;
}

const pgArray = (values: readonly (number | string)[]) => `{${values.join(',')}}`;

/**
 * Appends events to the outbox, creates their webhook deliveries and queues the NOTIFY, all in the
 * caller's transaction (`ctx.em` must be a transactional EntityManager). Returns the event ids.
 */
export async function recordEvents(ctx: RequestContext, events: readonly NewEvent[], options: RecordOptions = {}): Promise<string[]> {
  if (events.length === 0) return [];
  const em = ctx.em;
  if (!em.isInTransaction()) throw new Error('recordEvents must run in the transaction of the change it records');
  const now = ctx.now();
  const counts = new Map<number, number>();
  for (const e of events) counts.set(e.workspaceId, (counts.get(e.workspaceId) ?? 0) + 1);
  // Ascending workspace order: two transactions locking several counters cannot deadlock.
  const workspaces = [...counts.keys()].sort((a, b) => a - b);
  const offsets = new Map<number, number>();
  const rows = events.map((e) => {
    const offset = (offsets.get(e.workspaceId) ?? 0) + 1;
    offsets.set(e.workspaceId, offset);
    // `back`: how far below the counter's new value this event's sequence is.
    return { workspace_id: e.workspaceId, back: counts.get(e.workspaceId)! - offset, type: e.type, data: e.data };
  });
  const giveUpAt = new Date(now.getTime() + ctx.config.webhookRetryHours * 3_600_000);
  const endpointFilter = options.onlyEndpointId === undefined ? `w.enabled and e.type = any(w.event_types)` : `w.id = ${Number(options.onlyEndpointId)}`;
  // One round trip: counters (locked, in workspace order) -> events (ids drawn after the lock, in
  // sequence order) -> webhook deliveries -> NOTIFY (delivered at commit only).
  const inserted = await em.execute<{ id: string }[]>(
    `with counter as (
       insert into event_sequence (workspace_id, last_sequence)
       select w, n from unnest(?::int[], ?::bigint[]) as t(w, n) order by w
       on conflict (workspace_id) do update set last_sequence = event_sequence.last_sequence + excluded.last_sequence
       returning workspace_id, last_sequence),
     input as (select * from jsonb_to_recordset(?::jsonb) as t(workspace_id int, back int, type varchar, data jsonb)),
     e as (
       insert into event (workspace_id, sequence, type, data, created_at)
       select i.workspace_id, c.last_sequence - i.back, i.type, i.data, ?::timestamptz
       from input i join counter c on c.workspace_id = i.workspace_id
       order by i.workspace_id, c.last_sequence - i.back
       returning id, workspace_id, type),
     deliveries as (
       insert into webhook_delivery (workspace_id, endpoint_id, event_id, status, attempt_count, next_attempt_at, give_up_at, created_at)
       select e.workspace_id, w.id, e.id, 'pending', 0, ?::timestamptz, ?::timestamptz, ?::timestamptz
       from e join webhook_endpoint w on w.workspace_id = e.workspace_id and ${endpointFilter}
       order by e.id, w.id
       returning 1),
     notified as (select pg_notify(?, workspace_id::text) from counter
                  union all select pg_notify(?, '') where exists (select 1 from deliveries))
     select e.id, (select count(*) from notified) as notified from e order by e.id`,
    [pgArray(workspaces), pgArray(workspaces.map((w) => counts.get(w)!)), JSON.stringify(rows), now, now, giveUpAt, now, EVENT_CHANNEL, WEBHOOK_CHANNEL],
  );
  const ids = inserted.map((r) => String(r.id));
  return ids;
}

/** One event; see recordEvents. */
export async function recordEvent(ctx: RequestContext, event: NewEvent): Promise<string> {
  const [id] = await recordEvents(ctx, [event]);
  return id!;
}

/**
 * `door.opened`, for whoever learns that a door opened: the unlock flow (a succeeded door action)
 * and the terminal door-event ingestion. Call it inside the transaction that stores the opening.
 */
export async function recordDoorOpened(ctx: RequestContext, opening: DoorOpening): Promise<string> {
  return recordEvent(ctx, { workspaceId: opening.workspaceId, type: 'door.opened', data: doorOpenedData(opening) });
}

/** Deletes events (and with them their deliveries) older than the retention. Returns how many. */
export async function purgeEvents(ctx: RequestContext, retentionDays: number): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - retentionDays * 86_400_000);
  const rows = await ctx.em.execute<{ id: string }[]>(`delete from event where created_at < ?::timestamptz returning id`, [cutoff]);
  return rows.length;
}
