// Live events for this process's subscribers, from the outbox. One reader per workspace with
// subscribers ("hub") reads `id > cursor` in id order, only the event types its subscribers want
// (a backfill's 100,000 `attendance.created` events are not read for a subscriber of day updates),
// and fans the rows out; it is woken by
// NOTIFY (a dedicated pg client LISTENing, reconnected when it drops) and by a fallback poll, so a
// lost wake-up only delays delivery. Only ids below the oldest running transaction are delivered
// (DELIVERABLE_BELOW; see outbox.ts for how ids are drawn): an event that will still commit can
// only have a higher id, so reading `id > cursor` never skips one that commits late. Rows read above
// that bound are left for the next read, which comes when the older transaction ends (its NOTIFY,
// or HELD_RETRY_MS when it wrote no event).
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from 'pino';
import { DomainError } from '../errors/domain-error';
import { EventStream } from './event-stream';
import { eventsAfter, firstRowAfter, type EventRow } from './event-batch';
import type { RequestContext } from '../context/request-context';
import type { StoredEvent } from './event-types';
import { ATTENDANCE_CHANNEL, COMMAND_CHANNEL, COMMAND_SENDER, EVENT_CHANNEL, EVENT_ID_SHIFT, WEBHOOK_CHANNEL } from './outbox';

const PAGE = 500;
/** A replay reads its next page when the client has fewer than this many events of it left to take. */
const REPLAY_REFILL_BELOW = 50;
/** A subscriber this far behind is cut off (it can resume with `after`) rather than grow memory without bound. */
const MAX_BACKLOG = 10_000;
/** Events were read that an older, still running transaction holds back: read again this soon. */
const HELD_RETRY_MS = 5;
/**
 * The first event id that may still be written by a running transaction: the oldest transaction id
 * of the statement's snapshot, shifted as outbox ids are. Everything below it has committed (and is
 * visible in that snapshot) or rolled back.
 */
export const DELIVERABLE_BELOW = `pg_snapshot_xmin(pg_current_snapshot())::text::bigint * ${2 ** EVENT_ID_SHIFT}`;

/** What a GraphQL subscription's resolvers get: the request context and the live event feed. */
export type SubscriptionContext = RequestContext & { events: EventFeed };

export interface FeedSubscription {
  workspaceId: number;
  types: readonly string[];
  /** Further filtering on the event's data (company, device, employee). */
  matches(event: StoredEvent): boolean;
  /** Replay everything after this event id first; null: live events only. */
  after: string | null;
}

interface EventPage {
  /** Deliverable events after the cursor, in id order. */
  events: StoredEvent[];
  /** Read stopped at an event an older running transaction still holds back. */
  held: boolean;
  /** When that held-back event was created (for the outbox-lag gauge). */
  heldSince?: Date;
  /** A full page was read: there may be more deliverable events. */
  more: boolean;
  /** The statement's DELIVERABLE_BELOW: every event below it had committed. */
  below: bigint;
  /** Where a caught-up reader may move its cursor (safePosition of the statement's bound). */
  safe: bigint;
}

/** The last event id of the workspace's newest row (a row holds a batch of events, event-batch.ts); `?` is the workspace. */
const NEWEST_EVENT = `(select (id + span - 1)::text from event where workspace_id = ? order by id desc limit 1)`;

/**
 * How far a reader that has seen everything below `below` may move its cursor: to `below - 1`,
 * but never past the newest event that exists. Transaction ids a server handed out but never
 * made durable (a transaction that rolled back, or was cut off, just before a crash or a failover
 * to a standby) are handed out again by the server that comes next, so a bound computed before
 * the failover can lie above ids that commit after it; an event that exists has committed and is
 * on the standby (synchronous replication), so every id handed out later is above it.
 */
function safePosition(below: bigint, newest: string | null): bigint {
  const bound = below - 1n;
  if (newest === null) return 0n;
  const last = BigInt(newest);
  return last < bound ? last : bound;
}

interface Subscriber {
  spec: FeedSubscription;
  stream: EventStream;
  /** Highest id handled; anything at or below is a duplicate. */
  last: bigint;
  /** Live events held back while the replay runs. */
  held: StoredEvent[] | null;
}

class WorkspaceHub {
  readonly subscribers = new Set<Subscriber>();
  cursor = 0n;
  readonly ready: Promise<void>;
  private running: Promise<void> | null = null;
  private again = false;
  /** When the last read started: reads are at least `batchMs` apart (see wake). */
  private lastRead = 0;
  private heldTimer: NodeJS.Timeout | null = null;
  /** Creation time of the oldest event read but held back (not fanned out yet), or null when caught up. */
  pendingSince: Date | null = null;
  /** The event types the read in progress asks for; null while none is. */
  private readingTypes: ReadonlySet<string> | null = null;

  constructor(
    private readonly workspaceId: number,
    private readonly read: (workspaceId: number, after: bigint, types: readonly string[] | null) => Promise<EventPage>,
    private readonly query: <T>(sql: string, params: unknown[]) => Promise<T[]>,
    private readonly logger: Logger,
    private readonly batchMs: number,
  ) {
    // Live from here: everything below has committed; whatever commits later has a higher id.
    // Not past the workspace's newest event, though (see safePosition).
    this.ready = this.query<{ below: string; newest: string | null }>(`select ${DELIVERABLE_BELOW} as below, ${NEWEST_EVENT} as newest`, [
      this.workspaceId,
    ]).then(([row]) => {
      this.cursor = safePosition(BigInt(row!.below), row!.newest);
    });
  }

  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      await this.ready;
      do {
        this.again = false;
        // Under a steady flow, wait out the batch window: the events meanwhile committed go out
        // together (one socket write per subscriber for all of them, one outbox read). After a
        // quiet period the window has long passed and the read starts at once.
        const wait = this.lastRead + this.batchMs - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        this.lastRead = performance.now();
        await this.pull();
      } while (this.again);
    })()
      .catch((err) => this.logger.error({ err, workspaceId: this.workspaceId }, 'event feed read failed'))
      .finally(() => {
        this.running = null;
      });
  }

  /**
   * A live subscriber joining now gets every event of its types after the cursor from this hub's
   * reads: true unless a read in progress leaves one of its types out (then it reads from the
   * cursor itself first, as a replay, so an event committed meanwhile is not skipped).
   */
  covers(types: readonly string[]): boolean {
    const reading = this.readingTypes;
    return reading === null || types.every((type) => reading.has(type));
  }

  private async pull(): Promise<void> {
    for (;;) {
      const wanted = new Set<string>();
      for (const subscriber of this.subscribers) for (const type of subscriber.spec.types) wanted.add(type);
      if (wanted.size === 0) return;
      this.readingTypes = wanted;
      let page: EventPage;
      try {
        page = await this.read(this.workspaceId, this.cursor, [...wanted]);
      } finally {
        this.readingTypes = null;
      }
      for (const event of page.events) {
        this.cursor = BigInt(event.id);
        for (const subscriber of this.subscribers) deliver(subscriber, event);
      }
      // Caught up: every wanted event below the bound was read, so the cursor moves up to it, past
      // rows of types nobody here wants (a subscriber joining later starts from there, as it would
      // had they been read), but not past the newest event (see safePosition).
      if (!page.held && !page.more && page.safe > this.cursor) this.cursor = page.safe;
      this.pendingSince = page.heldSince ?? null;
      if (page.held) this.retryHeld();
      if (page.held || !page.more) return;
    }
  }

  /** The older transaction may write no event (so no NOTIFY): look again shortly. */
  private retryHeld(): void {
    if (this.heldTimer) return;
    this.heldTimer = setTimeout(() => {
      this.heldTimer = null;
      if (this.subscribers.size > 0) this.wake();
    }, HELD_RETRY_MS);
    this.heldTimer.unref();
  }
}

/** The replay is over: the live events held meanwhile go out, and later ones directly. */
function goLive(subscriber: Subscriber): void {
  const held = subscriber.held;
  subscriber.held = null;
  if (!held || subscriber.stream.isClosed) return;
  for (const event of held) deliver(subscriber, event);
}

function deliver(subscriber: Subscriber, event: StoredEvent): void {
  if (subscriber.held) {
    // Live events arriving during a long replay wait here; a replay so slow that they pile up is
    // cut off like a live subscriber that falls behind.
    if (subscriber.held.length >= MAX_BACKLOG) {
      subscriber.held = [];
      subscriber.stream.fail(tooSlow(subscriber.last));
      return;
    }
    subscriber.held.push(event);
    return;
  }
  const id = BigInt(event.id);
  if (id <= subscriber.last) return;
  subscriber.last = id;
  if (!subscriber.spec.types.includes(event.type) || !subscriber.spec.matches(event)) return;
  if (subscriber.stream.backlog >= MAX_BACKLOG) {
    subscriber.stream.fail(tooSlow(subscriber.last - 1n));
    return;
  }
  subscriber.stream.push(event);
}

/** The error a subscriber too far behind ends with: it can resume from where it was with `after`. */
function tooSlow(resumeAfter: bigint): Error {
  return new DomainError(
    'subscriber_too_slow',
    `The subscriber fell ${MAX_BACKLOG} events behind and was closed; subscribe again with after: "${resumeAfter}".`,
  );
}

export class EventFeed {
  private readonly hubs = new Map<number, WorkspaceHub>();
  private listener: pg.Client | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly wakeListeners: Array<() => void> = [];
  private readonly activityListeners: Array<() => void> = [];
  private readonly commandListeners: Array<(deviceIds: number[]) => void> = [];

  constructor(private readonly deps: { orm: MikroORM; databaseUrl: string; pollMs: number; batchMs: number; logger: Logger }) {}

  async start(): Promise<void> {
    await this.listen();
    this.pollTimer = setInterval(() => this.wakeAll(), this.deps.pollMs);
    this.pollTimer.unref();
  }

  /** Called when webhook deliveries may be due (their NOTIFY, or the poll): the webhook worker looks for them. */
  onWake(listener: () => void): void {
    this.wakeListeners.push(listener);
  }

  /**
   * Called at every event NOTIFY and ATTENDANCE_CHANNEL NOTIFY (and after reconnecting): the
   * attendance worker looks for new punches and stale days.
   */
  onActivity(listener: () => void): void {
    this.activityListeners.push(listener);
  }

  /** Called with the device ids of a COMMAND_CHANNEL NOTIFY: another process queued commands for them. */
  onCommandsQueued(listener: (deviceIds: number[]) => void): void {
    this.commandListeners.push(listener);
  }

  /** Replays what the subscription missed (`after`), then follows live events, in id order, each once. */
  async subscribe(spec: FeedSubscription): Promise<EventStream> {
    let hub = this.hubs.get(spec.workspaceId);
    if (!hub) {
      hub = new WorkspaceHub(
        spec.workspaceId,
        (w, after, types) => this.read(w, after, types),
        (sql, params) => this.query(sql, params),
        this.deps.logger,
        this.deps.batchMs,
      );
      this.hubs.set(spec.workspaceId, hub);
    }
    const owner = hub;
    const subscriber: Subscriber = { spec, stream: null!, last: 0n, held: [] };
    subscriber.stream = new EventStream(() => {
      owner.subscribers.delete(subscriber);
      if (owner.subscribers.size === 0 && this.hubs.get(spec.workspaceId) === owner) this.hubs.delete(spec.workspaceId);
    });
    try {
      await hub.ready;
    } catch (error) {
      // The hub could not find its starting point (database down): forget it, so that the next
      // subscriber of this workspace starts a new one instead of inheriting the failure for good.
      if (hub.subscribers.size === 0 && this.hubs.get(spec.workspaceId) === hub) this.hubs.delete(spec.workspaceId);
      throw error;
    }
    // Joined before the replay reads: an event is either read by the replay or arrives from the hub
    // afterwards (held until the replay ends); ids at or below `last` are dropped as duplicates.
    hub.subscribers.add(subscriber);
    subscriber.last = spec.after === null ? hub.cursor : BigInt(spec.after);
    if (spec.after === null && hub.covers(spec.types)) {
      goLive(subscriber);
      return subscriber.stream;
    }
    // The replay runs while the client reads: it needs the stream to take events from to go on.
    this.replay(subscriber).then(
      () => {
        goLive(subscriber);
        // A replay that stopped at events an older transaction still held back leaves them to the
        // hub, whose NOTIFY for them may have come before it existed: it reads now (and retries).
        owner.wake();
      },
      (error: unknown) => {
        this.deps.logger.error({ err: error, workspaceId: spec.workspaceId }, 'event replay failed');
        subscriber.stream.fail(
          error instanceof DomainError ? error : new DomainError('internal_error', 'Reading the event history failed; subscribe again with after.'),
        );
      },
    );
    return subscriber.stream;
  }

  /**
   * Pages of history after the subscriber's cursor, one page in memory at a time: the next page is
   * read only when the client has taken all but a few events of the previous one (back-pressure),
   * and the replay stops when the client goes away.
   */
  private async replay(subscriber: Subscriber): Promise<void> {
    const { spec, stream } = subscriber;
    for (;;) {
      const page = await this.read(spec.workspaceId, subscriber.last, spec.types);
      for (const event of page.events) {
        subscriber.last = BigInt(event.id);
        if (spec.matches(event)) stream.push(event);
      }
      // Whatever is held back (and anything after it) comes from the hub, which reads past `last` too.
      if (page.held || !page.more || stream.isClosed) return;
      await stream.drained(REPLAY_REFILL_BELOW);
      if (stream.isClosed) return;
    }
  }

  /** Live subscribers of a workspace in this process (registered, replay done or not): for metrics and tests. */
  subscriberCount(workspaceId: number): number {
    return this.hubs.get(workspaceId)?.subscribers.size ?? 0;
  }

  /** Where a workspace's reader has read up to (null: no reader): for tests, which wait on it. */
  readPosition(workspaceId: number): bigint | null {
    return this.hubs.get(workspaceId)?.cursor ?? null;
  }

  /** Live subscribers of every workspace in this process (the subscriptions-open gauge). */
  totalSubscribers(): number {
    let total = 0;
    for (const hub of this.hubs.values()) total += hub.subscribers.size;
    return total;
  }

  /** Age in seconds of the oldest event read but held back, over all workspaces (the outbox-lag gauge). */
  lagSeconds(now = Date.now()): number {
    let oldest = now;
    for (const hub of this.hubs.values()) if (hub.pendingSince && hub.pendingSince.getTime() < oldest) oldest = hub.pendingSince.getTime();
    return Math.max(0, (now - oldest) / 1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    for (const hub of this.hubs.values()) for (const s of hub.subscribers) s.stream.close();
    this.hubs.clear();
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }

  private wakeAll(): void {
    for (const hub of this.hubs.values()) hub.wake();
    for (const listener of this.wakeListeners) listener();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.deps.databaseUrl });
    const retry = (err?: unknown) => {
      if (this.listener !== client) return;
      this.listener = null;
      if (err) this.deps.logger.warn({ err }, 'event LISTEN connection lost; reconnecting (the outbox poll covers the gap)');
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', retry);
    client.on('end', () => retry());
    client.on('notification', (message) => {
      if (message.channel === COMMAND_CHANNEL) {
        const [sender, list] = (message.payload ?? '').split('|');
        if (sender === COMMAND_SENDER) return;
        const ids = (list ?? '')
          .split(',')
          .map(Number)
          .filter((id) => Number.isSafeInteger(id) && id > 0);
        if (ids.length > 0) for (const listener of this.commandListeners) listener(ids);
      } else if (message.channel === WEBHOOK_CHANNEL) for (const listener of this.wakeListeners) listener();
      else if (message.channel === ATTENDANCE_CHANNEL) for (const listener of this.activityListeners) listener();
      else {
        this.hubs.get(Number(message.payload))?.wake();
        for (const listener of this.activityListeners) listener();
      }
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query(`listen ${EVENT_CHANNEL}; listen ${WEBHOOK_CHANNEL}; listen ${ATTENDANCE_CHANNEL}; listen ${COMMAND_CHANNEL}`);
    } catch (err) {
      retry(err);
      return;
    }
    // Anything committed while not listening is picked up now.
    this.wakeAll();
    for (const listener of this.activityListeners) listener();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) void this.listen();
    }, 1000);
    this.reconnectTimer.unref();
  }

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.deps.orm.em.fork().getConnection().execute<T[]>(sql, params);
  }

  /** One page after `after`, cut at the first event a running transaction still holds back. */
  private async read(workspaceId: number, after: bigint, types: readonly string[] | null): Promise<EventPage> {
    const typeFilter = types ? `and type in (${types.map(() => '?').join(', ')})` : '';
    // One statement, so the bound and the rows come from the same snapshot. Rows, not events: a row
    // may hold a batch (event-batch.ts), and the one holding `after` may hold later events too.
    // A page ends with the row that reaches PAGE events.
    // The bound comes back even when no row does (one row of nulls), for the hub's cursor.
    const found = await this.query<EventRow & { below: string; newest: string | null; before: string }>(
      `with bound as (select ${DELIVERABLE_BELOW} as below, ${NEWEST_EVENT} as newest)
       select page.*, bound.below, bound.newest from bound left join (
         select id, workspace_id, type, data, created_at, span, sum(span) over (order by id rows unbounded preceding) - span as before
         from event where workspace_id = ? and id > ? and id + span - 1 > ? ${typeFilter} order by id limit ${PAGE}) page
         on page.before < ${PAGE}
       order by page.id`,
      [workspaceId, workspaceId, firstRowAfter(after).toString(), after.toString(), ...(types ?? [])],
    );
    const below = BigInt(found[0]!.below);
    const safe = safePosition(below, found[0]!.newest);
    const rows = found.filter((row) => row.id !== null);
    const events: StoredEvent[] = [];
    for (const row of rows) {
      // A row's events are all of one transaction: all deliverable, or none.
      if (BigInt(row.id) >= below) return { events, held: true, heldSince: new Date(row.created_at), more: false, below, safe };
      events.push(...eventsAfter([row], after));
    }
    const last = rows.at(-1);
    return { events, held: false, more: rows.length === PAGE || (last !== undefined && Number(last.before) + Number(last.span) >= PAGE), below, safe };
  }
}
