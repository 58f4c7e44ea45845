// The per-terminal command queue: the one owner of `device_command`. It makes command ids, inserts
// commands (one or many), orders them (lanes, below), applies deadlines, renders delivery-time
// payloads, hands commands to a polling terminal and records their results. What a command is FOR
// (a door action, a device action, a person's desired state, a face enrolment, an access table) is
// the business of the engine that queued it: each engine registers an outcome handler for its
// command kinds (devices/command-engines.ts, at start-up), and the queue calls it, in the transaction that
// changed the commands, whenever commands of those kinds change status. The queue imports no engine.
//
// Delivery: a few commands per poll, marked `sent` in the transaction that picks them (`for update
// skip locked`), so two processes never deliver one command twice. Results are matched by
// (device, command id), never by position (ATT-DOC on command results; src/protocol/PROTOCOL.md).
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { notifyCommandsQueued } from './command-queue-changes';
import { type RequestContext, withEm } from '../../context/request-context';
import { intArray, textArray } from '../common/sql-arrays';

/**
 * Which commands go first at a poll (docs/decisions.md, "Command lanes"):
 * * `interactive`: what a person is waiting for — door actions (priority 0: someone stands at the
 *   door), then device actions such as a clock set or a reboot (priority 1);
 * * `revocation`: a person's removal (their authorisations, templates and user record deleted) and
 *   other deletes of what a person may use (priority 2) — always ahead of additions;
 * * `bulk`: people, templates, photos, access tables (priority 3).
 * Inside a priority, commands keep the order they were queued in.
 */
export type CommandLane = 'interactive' | 'revocation' | 'bulk';

/** The stored `priority` of a lane; a door action is the most urgent interactive command. */
export function priorityOf(lane: CommandLane, door = false): number {
  if (lane === 'interactive') return door ? 0 : 1;
  return lane === 'revocation' ? 2 : 3;
}

/** Priorities below this are interactive (see `takeCommandsForDelivery`'s fair share). */
const FIRST_NON_INTERACTIVE_PRIORITY = 2;

export interface NewCommand {
  workspaceId: number;
  deviceId: number;
  /** What it does: `door_unlock`, `user_sync`, `action_reboot`, ... (outcome handlers are registered by kind). */
  kind: string;
  /** Command text without the `C:<id>:` prefix (built with src/protocol), or a renderer's template. */
  command: string;
  /** Default `bulk`. */
  lane?: CommandLane;
  /** Interactive commands of a door action go before other interactive ones. */
  door?: boolean;
  /** What the command is for (`door_action:da_...`, `assignment:12`, ...). */
  reference?: string | null;
  /** Not delivered by then: never sent, `expired`. Default: kept until delivered. */
  deadline?: Date | null;
  /** Sync commands: the desired-state row, its version and the command's step in its sequence. */
  deviceUserId?: number | null;
  deviceUserVersion?: string | Date | null;
  step?: number | null;
}

export interface QueuedCommand {
  /** The row id (`device_command.id`). */
  id: number;
  /** The id on the wire (`C:<commandId>:`). */
  commandId: string;
}

export interface CommandLine {
  id: string;
  command: string;
}

export interface CommandPolicy {
  /** A sent command without a result after this long is queued again. */
  timeoutSeconds: number;
  /** Deliveries before a command that keeps timing out (or returns a transient code) fails. */
  maxAttempts: number;
}

/** Return codes meaning "try again later": -1003 timeout, -1005 busy (ATT-CN appendix 1). */
const TRANSIENT_CODES = new Set([-1003, -1005]);
/** -5000: accepted by the master controller, a second result follows from the sub-controller. */
const PENDING_CODE = -5000;
/** Rows per insert statement (PostgreSQL takes at most 65,535 parameters in one). */
const INSERT_CHUNK = 2000;

export type CommandEvent = 'queued' | 'sent' | 'succeeded' | 'failed' | 'expired';

/** Counts command transitions once their transaction committed (a rolled-back one counts nothing). */
export function countCommands(ctx: Pick<RequestContext, 'metrics'>, event: CommandEvent, count: number): void {
  if (count > 0) ctx.metrics?.commands.inc({ event }, count);
}

/** A new command id: 12 random letters/digits (the wire allows ≤ 16); unique per device by constraint. */
export function newCommandId(): string {
  return randomBytes(6).toString('hex');
}

// ---------------------------------------------------------------------------------------------
// Engines: outcome handlers and delivery-time renderers, registered by kind.

/** A changed command as its handler sees it. */
export interface ChangedCommand {
  id: number;
  kind: string;
}

export interface CommandOutcomeHandler {
  /** Its command kinds: exact names, or prefixes ending in `*` (`door_*`). */
  kinds: readonly string[];
  /**
   * Commands of its kinds changed status (sent, answered, put back for a retry, failed, expired).
   * Runs in the transaction that changed them, which it may write in; it must not throw for a
   * command it does not know.
   */
  onChange(ctx: RequestContext, commandIds: number[]): Promise<void>;
  /**
   * Called first in a transaction that concludes commands (a terminal's results, the sweep of
   * timeouts and deadlines), before anything is written, with the commands it may conclude (device
   * and command id; any kind): a handler that counts across terminals takes its advisory locks here.
   * The transaction id (and so the outbox order of the events it writes) is drawn at the first
   * write, so a lock taken before it makes the events' order the order in which the counts were made.
   */
  lockFirst?(em: EntityManager, commands: readonly TerminalCommandRef[]): Promise<void>;
}

/** A command as a terminal names it: its device and its `ID`. */
export interface TerminalCommandRef {
  deviceId: number;
  commandId: string;
}

/** Every handler's lockFirst, before the calling transaction's first write. */
async function lockBeforeConcluding(em: EntityManager, commands: readonly TerminalCommandRef[]): Promise<void> {
  if (commands.length === 0) return;
  for (const handler of handlers.values()) if (handler.lockFirst) await handler.lockFirst(em, commands);
}

/** What a renderer knows when the terminal fetches the command. */
export interface DeliveryContext {
  /** The moment of delivery (the service clock). */
  now: Date;
  /** The terminal's IANA time zone. */
  timeZone: string;
}

/** Turns a stored template into the command text sent now; must be pure and fast (it runs inside the poll). */
export type CommandRenderer = (template: string, delivery: DeliveryContext) => string;

const handlers = new Map<string, CommandOutcomeHandler>();
const renderers = new Map<string, CommandRenderer>();

/** Registers (or replaces) the outcome handler called `name`. */
export function registerCommandHandler(name: string, handler: CommandOutcomeHandler): void {
  handlers.set(name, handler);
}

/** Registers the renderer of one command kind: its stored text is a template completed at delivery. */
export function registerCommandRenderer(kind: string, renderer: CommandRenderer): void {
  renderers.set(kind, renderer);
}

/** The registered handlers' names (start-up checks and tests). */
export function registeredCommandHandlers(): string[] {
  return [...handlers.keys()];
}

const matchesKind = (patterns: readonly string[], kind: string) => patterns.some((p) => (p.endsWith('*') ? kind.startsWith(p.slice(0, -1)) : p === kind));

/** Calls each handler with the changed commands of its kinds, in the caller's transaction. */
async function commandsChanged(ctx: RequestContext, changed: readonly ChangedCommand[]): Promise<void> {
  if (changed.length === 0) return;
  for (const handler of handlers.values()) {
    const ids = changed.filter((c) => matchesKind(handler.kinds, c.kind)).map((c) => c.id);
    if (ids.length > 0)
      await handler.onChange(
        ctx,
        [...new Set(ids)].sort((a, b) => a - b),
      );
  }
}

// ---------------------------------------------------------------------------------------------
// Insertion.

/**
 * Queues commands (in the caller's transaction, if any), in the given order: within a lane they go
 * out in that order. Returns their ids, in the same order. The devices are told once committed.
 */
export async function enqueueCommands(em: EntityManager, commands: readonly NewCommand[], now: Date): Promise<QueuedCommand[]> {
  const queued: QueuedCommand[] = [];
  for (let start = 0; start < commands.length; start += INSERT_CHUNK) {
    const chunk = commands.slice(start, start + INSERT_CHUNK);
    const withIds = chunk.map((c) => ({ ...c, commandId: newCommandId() }));
    const rows = await em.execute<{ id: number; command_id: string; device_id: number }[]>(
      `insert into device_command (workspace_id, device_id, command_id, command, kind, priority, reference, expires_at,
         device_user_id, device_user_version, step, created_at)
       values ${withIds.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, ?, ?)').join(', ')}
       returning id, command_id, device_id`,
      withIds.flatMap((c) => [
        c.workspaceId,
        c.deviceId,
        c.commandId,
        c.command,
        c.kind,
        priorityOf(c.lane ?? 'bulk', c.door),
        c.reference ?? null,
        c.deadline ?? null,
        c.deviceUserId ?? null,
        c.deviceUserVersion ?? null,
        c.step ?? null,
        now,
      ]),
    );
    const idOf = new Map(rows.map((r) => [`${r.device_id}:${r.command_id}`, r.id]));
    for (const c of withIds) queued.push({ id: idOf.get(`${c.deviceId}:${c.commandId}`)!, commandId: c.commandId });
  }
  notifyCommandsQueued(
    em,
    commands.map((c) => c.deviceId),
  );
  return queued;
}

/** Queues one command; it goes out on the device's next poll (after the commands of earlier lanes). */
export async function enqueueCommand(ctx: RequestContext, input: NewCommand): Promise<QueuedCommand> {
  const [queued] = await enqueueCommands(ctx.em, [input], ctx.now());
  // Inside a caller's transaction this counts before its commit: a rollback there is an error path.
  countCommands(ctx, 'queued', 1);
  return queued!;
}

/**
 * Expires the still-queued commands of desired-state rows built from another version than the
 * row's current one (superseded: the row changed again before they went out), in one statement.
 * Returns how many.
 */
export async function expireSupersededVersions(em: EntityManager, rows: ReadonlyArray<{ deviceUserId: number; version: string }>, now: Date): Promise<number> {
  if (rows.length === 0) return 0;
  const expired = await em.execute<{ id: number }[]>(
    `update device_command c set status = 'expired', completed_at = ?
     from unnest(?::int[], ?::text[]) as r(id, version)
     where c.device_user_id = r.id and c.status = 'queued' and c.device_user_version <> r.version::timestamptz returning c.id`,
    [now, intArray(rows.map((r) => r.deviceUserId)), textArray(rows.map((r) => r.version))],
  );
  return expired.length;
}

// ---------------------------------------------------------------------------------------------
// Delivery.

/**
 * How a poll's `limit` slots are shared (docs/decisions.md, "Command lanes"): interactive commands
 * first, but when commands of the other lanes wait, at least one slot in five (at least one when
 * `limit` ≥ 2) is theirs, so bulk work cannot starve; slots a lane does not use go to the other.
 */
export function shareOfPoll(limit: number, interactiveWaiting: number, otherWaiting: number): { interactive: number; other: number } {
  const reserved = limit >= 2 && otherWaiting > 0 ? Math.max(1, Math.floor(limit / 5)) : 0;
  const interactive = Math.min(interactiveWaiting, limit - Math.min(reserved, otherWaiting));
  const other = Math.min(otherWaiting, limit - interactive);
  return { interactive, other };
}

interface TakenRow {
  id: number;
  command_id: string;
  command: string;
  kind: string;
  priority: number;
  attempts: number;
  /** Queued, or its terminal's return online when later (WAITING_SINCE; now when it has just come back). */
  waiting_since: Date;
}

/**
 * When a command (alias `c`) began to wait for its terminal: queued, or the terminal's return online
 * when later; null while the terminal is not online in the database (a terminal that has just come
 * back is written online in batches, after the poll that takes its commands).
 */
const WAITING_SINCE = `(select greatest(c.created_at, max(s.at)) from device d
  join device_status_change s on s.device_id = d.id and s.status = 'online'
  where d.id = c.device_id and d.status = 'online' having count(*) > 0)`;

/** A command that expired, with what the delivery histogram needs. */
interface ExpiredRow extends ChangedCommand {
  priority: number;
  attempts: number;
  waiting_since: Date | null;
}

/** The lane of a stored priority (the `lane` label of the delivery histogram). */
function laneOf(priority: number): CommandLane {
  return priority < FIRST_NON_INTERACTIVE_PRIORITY ? 'interactive' : priority === 2 ? 'revocation' : 'bulk';
}

/**
 * Times each command at its first delivery, from queued or from its terminal's return online
 * (when later: a terminal that was away is not the queue's delay), by lane (docs/operations.md).
 * An interactive command that expired undelivered while its terminal was online is timed at its
 * expiry: it was late (a door unlock expires after a minute), and a stuck queue must not look
 * like an empty one.
 */
function observeDeliveries(ctx: RequestContext, delivered: readonly TakenRow[], expired: readonly ExpiredRow[], now: Date): void {
  const histogram = ctx.metrics?.commandDelivery;
  if (!histogram) return;
  const observe = (priority: number, since: Date) =>
    histogram.observe({ lane: laneOf(priority) }, Math.max(0, now.getTime() - new Date(since).getTime()) / 1000);
  for (const row of delivered) if (row.attempts === 1) observe(row.priority, row.waiting_since);
  for (const row of expired)
    if (row.attempts === 0 && row.priority < FIRST_NON_INTERACTIVE_PRIORITY && row.waiting_since !== null) observe(row.priority, row.waiting_since);
}

/**
 * Whether an interactive command (a door or device action) waits for the device: one probe of the
 * (device_id, status, priority, id) index. A poll that finds one delivers at once, before any sync
 * build (devices/terminal-requests.ts; docs/decisions.md, "Command lanes").
 */
export async function interactiveWaiting(em: EntityManager, deviceId: number): Promise<boolean> {
  const [row] = await em.execute<{ waiting: boolean }[]>(
    `select exists (select 1 from device_command where device_id = ? and status = 'queued' and priority < ?) as waiting`,
    [deviceId, FIRST_NON_INTERACTIVE_PRIORITY],
  );
  return row!.waiting;
}

/**
 * Picks the commands this poll delivers and marks them sent, atomically (rows another process is
 * delivering are skipped, never delivered twice): by lane and the fair share above, each lane in
 * the order it was queued. Commands past their deadline are expired here, never sent. Commands of a
 * kind with a renderer are rendered now, and stored as sent.
 */
export async function takeCommandsForDelivery(ctx: RequestContext, deviceId: number, limit: number): Promise<CommandLine[]> {
  const now = ctx.now();
  const { delivered, expired } = await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const expired = await em.execute<ExpiredRow[]>(
      `update device_command c set status = 'expired', completed_at = ?::timestamptz
       where device_id = ? and status = 'queued' and expires_at <= ?::timestamptz
       returning id, kind, priority, attempts, ${WAITING_SINCE} as waiting_since`,
      [now, deviceId, now],
    );
    // Two index range scans of (device_id, status, priority, id): the interactive priorities, the others.
    const candidates = (range: string) =>
      em.execute<{ id: number }[]>(
        `select id from device_command where device_id = ? and status = 'queued' and ${range}
         order by priority, id limit ? for update skip locked`,
        [deviceId, FIRST_NON_INTERACTIVE_PRIORITY, limit],
      );
    const interactive = await candidates('priority < ?');
    const other = await candidates('priority >= ?');
    const share = shareOfPoll(limit, interactive.length, other.length);
    const chosen = [...interactive.slice(0, share.interactive), ...other.slice(0, share.other)].map((r) => r.id);
    const rows =
      chosen.length === 0
        ? []
        : await em.execute<TakenRow[]>(
            // waiting_since: a terminal not online in the database yet has just come back: its
            // commands waited for it, not for the queue.
            `update device_command c set status = 'sent', sent_at = ?::timestamptz, attempts = attempts + 1
             where id = any(?::int[])
             returning id, command_id, command, kind, priority, attempts, coalesce(${WAITING_SINCE}, ?::timestamptz) as waiting_since`,
            [now, `{${chosen.join(',')}}`, now],
          );
    rows.sort((a, b) => a.priority - b.priority || a.id - b.id);
    await renderAtDelivery(em, deviceId, rows, now);
    const carried = await concludeRecordBatches(
      em,
      expired.map((r) => r.id),
    );
    await commandsChanged(tx, [...expired, ...carried, ...rows]);
    return { delivered: rows, expired };
  });
  countCommands(ctx, 'expired', expired.length);
  countCommands(ctx, 'sent', delivered.length);
  observeDeliveries(ctx, delivered, expired, now);
  return delivered.map((r) => ({ id: r.command_id, command: r.command }));
}

/** Completes the taken commands whose kind has a renderer, and stores the text that went out. */
async function renderAtDelivery(em: EntityManager, deviceId: number, rows: TakenRow[], now: Date): Promise<void> {
  const rendered = rows.filter((r) => renderers.has(r.kind));
  if (rendered.length === 0) return;
  const [device] = await em.execute<{ time_zone: string }[]>('select time_zone from device where id = ?', [deviceId]);
  for (const row of rendered) {
    row.command = renderers.get(row.kind)!(row.command, { now, timeZone: device!.time_zone });
    await em.execute('update device_command set command = ? where id = ?', [row.command, row.id]);
  }
}

// ---------------------------------------------------------------------------------------------
// Results and housekeeping.
/**
 * What a multi-record command's outcome means for the records it carried. The terminal answers one
 * Return for the whole command (Security PUSH document, section 12.1.1): a success concludes every
 * record with it; a refusal (a negative Return, an attendance enrolment code, or no answer after
 * the last attempt) cannot say which record was bad, so each record is queued again on its own,
 * under its own command id and no longer carried (`batch_id` cleared): the good ones succeed, the
 * bad one fails with its own return code, and the rows that mirror records (device_user, face_enrollment) end right. Runs in the transaction
 * that concluded the commands; returns the records concluded with them, for their outcome handlers.
 */
async function concludeRecordBatches(em: EntityManager, commandIds: readonly number[]): Promise<ChangedCommand[]> {
  if (commandIds.length === 0) return [];
  const concluded = await em.execute<ChangedCommand[]>(
    `update device_command r set status = b.status, return_code = b.return_code, attempts = b.attempts, sent_at = b.sent_at, completed_at = b.completed_at
     from device_command b
     where r.batch_id = b.id and r.status = 'batched' and b.id = any(?::int[]) and b.status in ('succeeded', 'expired')
     returning r.id, r.kind`,
    [intArray([...commandIds])],
  );
  const retried = await em.execute<{ device_id: number }[]>(
    `update device_command r set status = 'queued', attempts = 0, sent_at = null, completed_at = null, batch_id = null
     from device_command b
     where r.batch_id = b.id and r.status = 'batched' and b.id = any(?::int[]) and b.status = 'failed'
     returning r.device_id`,
    [intArray([...commandIds])],
  );
  notifyCommandsQueued(
    em,
    retried.map((r) => r.device_id),
  );
  return concluded;
}

/**
 * Applies `devicecmd` results of one device: `Return >= 0` succeeded, transient codes go back to
 * the queue while attempts remain, other negative codes fail, -5000 waits for the second result.
 * On an attendance terminal a positive Return to a `DATA UPDATE`/`DATA DELETE` is an enrolment
 * error code, not a success (only a query's positive Return is a count); access-control terminals
 * answer >= 0 for success. A result naming a command id this device does not have is logged and ignored.
 */
export async function recordCommandResults(
  ctx: RequestContext,
  deviceId: number,
  results: ReadonlyArray<{ id: string; returnCode: number; fields?: Record<string, string> }>,
  policy: CommandPolicy,
  family: 'attendance' | 'access' = 'attendance',
): Promise<void> {
  const attendance = family === 'attendance';
  const now = ctx.now();
  const concluded = await ctx.em.transactional(async (em) => {
    await lockBeforeConcluding(
      em,
      results.map((r) => ({ deviceId, commandId: r.id })),
    );
    const touched: (ChangedCommand & { status: string })[] = [];
    for (const result of results) {
      if (result.returnCode === PENDING_CODE) continue;
      const retry = TRANSIENT_CODES.has(result.returnCode);
      const rows = await em.execute<(ChangedCommand & { status: string })[]>(
        `update device_command set
           status = case
             when ? > 0 and ? and (command like 'DATA UPDATE %' or command like 'DATA DELETE %') then 'failed'
             when ? >= 0 then 'succeeded' when ? and attempts < ? then 'queued' else 'failed' end,
           return_code = ?,
           result_fields = coalesce(?::jsonb, result_fields),
           sent_at = case when ? and attempts < ? then null else sent_at end,
           completed_at = case when ? and attempts < ? then null else ?::timestamptz end
         where device_id = ? and command_id = ? and status in ('sent', 'queued')
         returning id, kind, status`,
        [
          result.returnCode,
          attendance,
          result.returnCode,
          retry,
          policy.maxAttempts,
          result.returnCode,
          result.fields && Object.keys(result.fields).length > 0 ? JSON.stringify(result.fields) : null,
          retry,
          policy.maxAttempts,
          retry,
          policy.maxAttempts,
          now,
          deviceId,
          result.id,
        ],
      );
      if (rows.length === 0)
        ctx.logger.warn({ deviceId, commandId: result.id, returnCode: result.returnCode }, 'result for an unknown or concluded command ignored');
      touched.push(...rows);
      if (rows.some((r) => r.status === 'queued')) notifyCommandsQueued(em, [deviceId]);
    }
    // Records carried by a multi-record command conclude with it (or are queued alone after a refusal).
    const carried = await concludeRecordBatches(
      em,
      touched.map((r) => r.id),
    );
    await commandsChanged(withEm(ctx, em), [...touched, ...carried]);
    return touched.map((r) => r.status);
  });
  countCommands(ctx, 'succeeded', concluded.filter((s) => s === 'succeeded').length);
  countCommands(ctx, 'failed', concluded.filter((s) => s === 'failed').length);
}

/**
 * Values a terminal posted for one of its commands before the command's result (the options a
 * Security PUSH `GET OPTIONS` asks for arrive at `/iclock/querydata`): kept with the command as its
 * result fields, as the extra lines of an `INFO` result are. Only a command of this device that is
 * still waiting for its result; returns whether one was.
 */
export async function attachCommandResultFields(ctx: RequestContext, deviceId: number, commandId: string, fields: Record<string, string>): Promise<boolean> {
  if (Object.keys(fields).length === 0) return false;
  const rows = await ctx.em.execute<{ id: number }[]>(
    `update device_command set result_fields = coalesce(result_fields, '{}'::jsonb) || ?::jsonb
     where device_id = ? and command_id = ? and status in ('sent', 'queued') returning id`,
    [JSON.stringify(fields), deviceId, commandId],
  );
  return rows.length > 0;
}

/**
 * Periodic housekeeping (every process may run it; each statement is idempotent): sent commands
 * without a result after the timeout are queued again, or failed after the last attempt (no
 * answer: `return_code` stays null); queued commands past their deadline are expired.
 */
export async function sweepCommands(ctx: RequestContext, policy: CommandPolicy): Promise<void> {
  const now = ctx.now();
  const swept = await ctx.em.transactional(async (em) => {
    // The commands the two updates below will take, read first (reading draws no transaction id).
    const due = await em.execute<{ device_id: number; command_id: string }[]>(
      `select device_id, command_id from device_command
       where (status = 'sent' and sent_at < ?::timestamptz - make_interval(secs => ?)) or (status = 'queued' and expires_at <= ?::timestamptz)`,
      [now, policy.timeoutSeconds, now],
    );
    await lockBeforeConcluding(
      em,
      due.map((r) => ({ deviceId: r.device_id, commandId: r.command_id })),
    );
    const retried = await em.execute<(ChangedCommand & { device_id: number; status: string })[]>(
      `update device_command set
         status = case when attempts < ? then 'queued' else 'failed' end,
         sent_at = case when attempts < ? then null else sent_at end,
         completed_at = case when attempts < ? then null else ?::timestamptz end
       where status = 'sent' and sent_at < ?::timestamptz - make_interval(secs => ?)
       returning id, kind, device_id, status`,
      [policy.maxAttempts, policy.maxAttempts, policy.maxAttempts, now, now, policy.timeoutSeconds],
    );
    const expired = await em.execute<ExpiredRow[]>(
      `update device_command c set status = 'expired', completed_at = ?::timestamptz where status = 'queued' and expires_at <= ?::timestamptz
       returning id, kind, priority, attempts, ${WAITING_SINCE} as waiting_since`,
      [now, now],
    );
    notifyCommandsQueued(
      em,
      retried.filter((r) => r.status === 'queued').map((r) => r.device_id),
    );
    const carried = await concludeRecordBatches(
      em,
      [...retried, ...expired].map((r) => r.id),
    );
    await commandsChanged(withEm(ctx, em), [...retried, ...expired, ...carried]);
    return { failed: retried.filter((r) => r.status === 'failed').length, expired };
  });
  countCommands(ctx, 'failed', swept.failed);
  countCommands(ctx, 'expired', swept.expired.length);
  observeDeliveries(ctx, [], swept.expired, now);
}

/**
 * How long the oldest queued interactive command (a door or device action) of an online terminal
 * has waited, in seconds: from queued, or from the terminal's return online when later; 0 when none
 * waits. A terminal that polls takes these first (a few per poll), so a wait beyond a few polls
 * means delivery is stuck (the operations gauge timegate_device_command_wait_seconds). One index
 * probe per online terminal, a second one only for those with such a command.
 */
export async function oldestInteractiveWait(em: EntityManager, now: Date): Promise<number> {
  const [row] = await em.execute<{ seconds: number | null }[]>(
    `with waiting as materialized (
       select d.id, q.created_at from device d
       cross join lateral (
         select min(c.created_at) as created_at from device_command c
         where c.device_id = d.id and c.status = 'queued' and c.priority < ?) q
       where d.status = 'online' and q.created_at is not null)
     select extract(epoch from (?::timestamptz - min(greatest(w.created_at,
              (select max(s.at) from device_status_change s where s.device_id = w.id and s.status = 'online')))))::float8 as seconds
     from waiting w`,
    [FIRST_NON_INTERACTIVE_PRIORITY, now],
  );
  return Math.max(0, row?.seconds ?? 0);
}
