// The per-device command queue. Commands are delivered a few per poll and marked `sent` in the
// same statement that picks them (`for update skip locked`), so two processes never deliver one
// command twice. Results are matched by (device, command id), never by position (reference §3.7).
// Door actions mirror the command they wait for (`mirrorDoorActions`).
import { randomBytes } from 'node:crypto';
import { DeviceCommand } from '../entities';
import { notifyCommandsQueued } from './command-queue-changes';
import type { RequestContext } from './context';

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

/** A new command id: 12 random letters/digits (the wire allows ≤ 16); unique per device by constraint. */
function newCommandId(): string {
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
  notifyCommandsQueued([input.deviceId]);
  return command;
}

/**
 * Picks up to `limit` queued, unexpired commands of the device (oldest first) and marks them sent,
 * atomically: rows another process is delivering are skipped, never delivered twice.
 */
export async function takeCommandsForDelivery(ctx: RequestContext, deviceId: number, limit: number): Promise<CommandLine[]> {
  const now = ctx.now();
  const rows = await ctx.em.getConnection().execute<{ id: number; command_id: string; command: string }[]>(
    `update device_command set status = 'sent', sent_at = ?::timestamptz, attempts = attempts + 1
     where id in (
       select id from device_command
       where device_id = ? and status = 'queued' and (expires_at is null or expires_at > ?::timestamptz)
       order by id limit ? for update skip locked)
     returning id, command_id, command`,
    [now, deviceId, now, limit],
  );
  rows.sort((a, b) => a.id - b.id);
  await mirrorDoorActions(ctx, rows.map((r) => r.id));
  return rows.map((r) => ({ id: r.command_id, command: r.command }));
}

/**
 * Applies `devicecmd` results of one device: `Return >= 0` succeeded, transient codes go back to
 * the queue while attempts remain, other negative codes fail, -5000 waits for the second result.
 * A result naming a command id this device does not have is logged and ignored.
 */
export async function recordCommandResults(
  ctx: RequestContext,
  deviceId: number,
  results: ReadonlyArray<{ id: string; returnCode: number }>,
  policy: CommandPolicy,
): Promise<void> {
  const now = ctx.now();
  const touched: number[] = [];
  for (const result of results) {
    if (result.returnCode === PENDING_CODE) continue;
    const retry = TRANSIENT_CODES.has(result.returnCode);
    const rows = await ctx.em.getConnection().execute<{ id: number; status: string }[]>(
      `update device_command set
         status = case when ? >= 0 then 'succeeded' when ? and attempts < ? then 'queued' else 'failed' end,
         return_code = ?,
         sent_at = case when ? and attempts < ? then null else sent_at end,
         completed_at = case when ? and attempts < ? then null else ?::timestamptz end
       where device_id = ? and command_id = ? and status in ('sent', 'queued')
       returning id, status`,
      [result.returnCode, retry, policy.maxAttempts, result.returnCode, retry, policy.maxAttempts, retry, policy.maxAttempts, now, deviceId, result.id],
    );
    if (rows.length === 0) ctx.logger.warn({ deviceId, commandId: result.id, returnCode: result.returnCode }, 'result for an unknown or concluded command ignored');
    touched.push(...rows.map((r) => r.id));
    if (rows.some((r) => r.status === 'queued')) notifyCommandsQueued([deviceId]);
  }
  await mirrorDoorActions(ctx, touched);
}

/**
 * Periodic housekeeping (every process may run it; each statement is idempotent): sent commands
 * without a result after the timeout are queued again, or failed after the last attempt; queued
 * commands past their expiry are expired.
 */
export async function sweepCommands(ctx: RequestContext, policy: CommandPolicy): Promise<void> {
  const now = ctx.now();
  const connection = ctx.em.getConnection();
  const retried = await connection.execute<{ id: number; device_id: number; status: string }[]>(
    `update device_command set
       status = case when attempts < ? then 'queued' else 'failed' end,
       sent_at = case when attempts < ? then null else sent_at end,
       completed_at = case when attempts < ? then null else ?::timestamptz end
     where status = 'sent' and sent_at < ?::timestamptz - make_interval(secs => ?)
     returning id, device_id, status`,
    [policy.maxAttempts, policy.maxAttempts, policy.maxAttempts, now, now, policy.timeoutSeconds],
  );
  const expired = await connection.execute<{ id: number }[]>(
    `update device_command set status = 'expired', completed_at = ?::timestamptz where status = 'queued' and expires_at <= ?::timestamptz returning id`,
    [now, now],
  );
  notifyCommandsQueued(retried.filter((r) => r.status === 'queued').map((r) => r.device_id));
  await mirrorDoorActions(ctx, [...retried, ...expired].map((r) => r.id));
}

/** Copies status, return code and times of these commands to the door actions waiting on them. */
async function mirrorDoorActions(ctx: RequestContext, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  await ctx.em.getConnection().execute(
    `update door_action a set status = c.status, return_code = c.return_code, sent_at = c.sent_at, completed_at = c.completed_at
     from device_command c where a.command_id = c.id and c.id in (${commandIds.map(() => '?').join(', ')})`,
    commandIds,
  );
}
