// The per-device command queue. Commands are delivered a few per poll and marked `sent` in the
// same statement that picks them (`for update skip locked`), so two processes never deliver one
// command twice. Results are matched by (device, command id), never by position (ATT-DOC on command results; src/devices/PROTOCOL.md).
// Door actions mirror the command they wait for (`mirrorDoorActions`); desired-state rows the
// outcome of the command sequence built for their current version (`mirrorDeviceUsers`); face
// enrolments the command carrying the face (`mirrorFaceEnrollments`).
import { mirrorDeviceActions } from './device-action.service';
import { mirrorFaceEnrollments } from './face-enrollment.service';
import { noteRefusedAccessTables } from './access-sync.service';
import { concludeRecordBatches } from './record-batch-outcomes';
import { randomBytes } from 'node:crypto';
import { DeviceCommand } from '../entities';
import { doorActionData, doorOpenedData, type DoorActionRow } from '../events/event-payloads';
import { recordEvents, type NewEvent } from '../events/outbox';
import { notifyCommandsQueued } from './command-queue-changes';
import { type RequestContext, withEm } from './context';

export interface EnqueueCommandInput {
  workspaceId: number;
  deviceId: number;
  /** What it does: `door_unlock`, `user_sync`, ... */
  kind: string;
  /** Command text without the `C:<id>:` prefix (built with src/devices/protocol commands). */
  command: string;
  /** What the command is for (`door_action:da_...`, `assignment:12`, ...). */
  reference?: string | null;
  /** Not delivered by then: expired. Default: kept until delivered. */
  expiresAt?: Date | null;
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

export type CommandEvent = 'queued' | 'sent' | 'succeeded' | 'failed' | 'expired';

/** Counts command transitions once their transaction committed (a rolled-back one counts nothing). */
export function countCommands(ctx: RequestContext, event: CommandEvent, count: number): void {
  if (count > 0) ctx.metrics?.commands.inc({ event }, count);
}

/** A new command id: 12 random letters/digits (the wire allows ≤ 16); unique per device by constraint. */
export function newCommandId(): string {
  return randomBytes(6).toString('hex');
}

/** Queues a command for a device; it goes out on the device's next poll. */
export async function enqueueCommand(ctx: RequestContext, input: EnqueueCommandInput): Promise<DeviceCommand> {
  const command = ctx.em.create(DeviceCommand, {
    workspaceId: input.workspaceId,
    deviceId: input.deviceId,
    commandId: newCommandId(),
    command: input.command,
    kind: input.kind,
    reference: input.reference ?? null,
    expiresAt: input.expiresAt ?? null,
    createdAt: ctx.now(),
  } as DeviceCommand);
  ctx.em.persist(command);
  await ctx.em.flush();
  // Inside a caller's transaction this counts before its commit: a rollback there is an error path.
  countCommands(ctx, 'queued', 1);
  notifyCommandsQueued(ctx.em, [input.deviceId]);
  return command;
}

/**
 * Picks up to `limit` queued, unexpired commands of the device (oldest first) and marks them sent,
 * atomically: rows another process is delivering are skipped, never delivered twice.
 */
export async function takeCommandsForDelivery(ctx: RequestContext, deviceId: number, limit: number): Promise<CommandLine[]> {
  const now = ctx.now();
  const delivered = await ctx.em.transactional(async (em) => {
    const rows = await em.execute<{ id: number; command_id: string; command: string }[]>(
      `update device_command set status = 'sent', sent_at = ?::timestamptz, attempts = attempts + 1
       where id in (
         select id from device_command
         where device_id = ? and status = 'queued' and (expires_at is null or expires_at > ?::timestamptz)
         order by id limit ? for update skip locked)
       returning id, command_id, command`,
      [now, deviceId, now, limit],
    );
    rows.sort((a, b) => a.id - b.id);
    await mirrorDoorActions(withEm(ctx, em), rows.map((r) => r.id));
    await mirrorDeviceActions(withEm(ctx, em), rows.map((r) => r.id));
    return rows.map((r) => ({ id: r.command_id, command: r.command }));
  });
  countCommands(ctx, 'sent', delivered.length);
  return delivered;
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
    const touched: number[] = [];
    const statuses: string[] = [];
    for (const result of results) {
      if (result.returnCode === PENDING_CODE) continue;
      const retry = TRANSIENT_CODES.has(result.returnCode);
      const rows = await em.execute<{ id: number; status: string }[]>(
        `update device_command set
           status = case
             when ? > 0 and ? and (command like 'DATA UPDATE %' or command like 'DATA DELETE %') then 'failed'
             when ? >= 0 then 'succeeded' when ? and attempts < ? then 'queued' else 'failed' end,
           return_code = ?,
           result_fields = coalesce(?::jsonb, result_fields),
           sent_at = case when ? and attempts < ? then null else sent_at end,
           completed_at = case when ? and attempts < ? then null else ?::timestamptz end
         where device_id = ? and command_id = ? and status in ('sent', 'queued')
         returning id, status`,
        [
          result.returnCode, attendance, result.returnCode, retry, policy.maxAttempts, result.returnCode,
          result.fields && Object.keys(result.fields).length > 0 ? JSON.stringify(result.fields) : null,
          retry, policy.maxAttempts, retry, policy.maxAttempts, now, deviceId, result.id,
        ],
      );
      if (rows.length === 0) ctx.logger.warn({ deviceId, commandId: result.id, returnCode: result.returnCode }, 'result for an unknown or concluded command ignored');
      touched.push(...rows.map((r) => r.id));
      statuses.push(...rows.map((r) => r.status));
      if (rows.some((r) => r.status === 'queued')) notifyCommandsQueued(em, [deviceId]);
    }
    // Records carried by a multi-record command conclude with it (or are queued alone after a refusal).
    touched.push(...(await concludeRecordBatches(em, touched)));
    await mirrorDoorActions(withEm(ctx, em), touched);
    await mirrorDeviceUsers(withEm(ctx, em), touched);
    await mirrorDeviceActions(withEm(ctx, em), touched);
    await mirrorFaceEnrollments(withEm(ctx, em), touched);
    if (attendance) await noteRefusedAccessTables(em, deviceId, touched);
    return statuses;
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
 * without a result after the timeout are queued again, or failed after the last attempt; queued
 * commands past their expiry are expired.
 */
export async function sweepCommands(ctx: RequestContext, policy: CommandPolicy): Promise<void> {
  const now = ctx.now();
  const swept = await ctx.em.transactional(async (em) => {
    const retried = await em.execute<{ id: number; device_id: number; status: string }[]>(
      `update device_command set
         status = case when attempts < ? then 'queued' else 'failed' end,
         sent_at = case when attempts < ? then null else sent_at end,
         completed_at = case when attempts < ? then null else ?::timestamptz end
       where status = 'sent' and sent_at < ?::timestamptz - make_interval(secs => ?)
       returning id, device_id, status`,
      [policy.maxAttempts, policy.maxAttempts, policy.maxAttempts, now, now, policy.timeoutSeconds],
    );
    const expired = await em.execute<{ id: number }[]>(
      `update device_command set status = 'expired', completed_at = ?::timestamptz where status = 'queued' and expires_at <= ?::timestamptz returning id`,
      [now, now],
    );
    notifyCommandsQueued(em, retried.filter((r) => r.status === 'queued').map((r) => r.device_id));
    const carried = await concludeRecordBatches(em, [...retried, ...expired].map((r) => r.id));
    await mirrorDoorActions(withEm(ctx, em), [...retried, ...expired].map((r) => r.id));
    await mirrorDeviceUsers(withEm(ctx, em), [...retried.map((r) => r.id), ...carried]);
    await mirrorDeviceActions(withEm(ctx, em), [...retried, ...expired].map((r) => r.id));
    await mirrorFaceEnrollments(withEm(ctx, em), [...retried.map((r) => r.id), ...carried]);
    return { failed: retried.filter((r) => r.status === 'failed').length, expired: expired.length };
  });
  countCommands(ctx, 'failed', swept.failed);
  countCommands(ctx, 'expired', swept.expired);
}

type MirroredRow = DoorActionRow & { id: number; workspace_id: number; previous: string };

/**
 * Copies status, return code and times of these commands to the door actions waiting on them, and
 * records `door.action.updated` for each status that changed, plus `door.opened` for a success
 * (in the caller's transaction). The self-join `old` reads each row as it was before the update.
 */
async function mirrorDoorActions(ctx: RequestContext, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  const rows = await ctx.em.execute<MirroredRow[]>(
    `update door_action a set status = c.status, return_code = c.return_code, sent_at = c.sent_at, completed_at = c.completed_at
     from device_command c, door_action old, device d
     where a.command_id = c.id and old.id = a.id and d.id = a.device_id and c.id in (${commandIds.map(() => '?').join(', ')})
     returning a.id, a.workspace_id, a.action_id, a.action, a.status, a.device_id, d.company_id, d.serial_number, d.status as device_status,
       a.door, a.duration, a.return_code, a.created_at, a.sent_at, a.completed_at, a.expires_at, old.status as previous`,
    commandIds,
  );
  const events: NewEvent[] = [];
  for (const row of rows.sort((a, b) => a.id - b.id)) {
    if (row.status === row.previous) continue;
    events.push({ workspaceId: row.workspace_id, type: 'door.action.updated', data: doorActionData(row) });
    // Unlocking and holding open open the door; closing and cancelling an alarm do not.
    if (row.status === 'succeeded' && (row.action === 'unlock' || row.action === 'hold_open')) {
      events.push({
        workspaceId: row.workspace_id,
        type: 'door.opened',
        data: doorOpenedData({
          workspaceId: row.workspace_id,
          deviceId: row.device_id,
          companyId: row.company_id,
          deviceSerial: row.serial_number,
          door: row.door,
          openedAt: new Date(row.completed_at!),
          source: 'remote_unlock',
          actionId: row.action_id,
        }),
      });
    }
  }
  await recordEvents(ctx, events);
}

/**
 * Concludes the `device_user` rows whose commands these are, but only for the version the commands
 * were built from (a row changed since stays `pending`): any failed step makes the row `failed`
 * with the first failing step's return code; all steps succeeded makes it `synced` (and forgets a
 * previous pin, which the sequence deleted). Anything still queued or sent leaves it alone. A
 * refused face photo does not fail the user: the photo's own status reports it.
 */
async function mirrorDeviceUsers(ctx: RequestContext, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  // Inside the caller's transaction: it must see the command statuses it just wrote.
  await ctx.em.execute(
    `with touched as (
       select distinct device_user_id, device_user_version from device_command
       where id in (${commandIds.map(() => '?').join(', ')}) and device_user_id is not null),
     outcome as (
       select c.device_user_id, c.device_user_version,
              bool_or(c.status = 'failed' and c.kind <> 'face_photo') as failed,
              bool_and(c.status = 'succeeded' or (c.status = 'failed' and c.kind = 'face_photo')) as succeeded,
              (array_agg(c.return_code order by c.step) filter (where c.status = 'failed' and c.kind <> 'face_photo'))[1] as return_code
       from device_command c join touched t using (device_user_id, device_user_version)
       group by c.device_user_id, c.device_user_version)
     update device_user du set
       sync_status = case when o.failed then 'failed' else 'synced' end,
       return_code = case when o.failed then o.return_code else null end,
       synced_at = case when o.failed then du.synced_at else ?::timestamptz end,
       previous_pin = case when o.failed then du.previous_pin else null end
     from outcome o
     where du.id = o.device_user_id and du.changed_at = o.device_user_version and (o.failed or o.succeeded)`,
    [...commandIds, ctx.now()],
  );
}
