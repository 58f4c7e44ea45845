// Remote door opening. The call queues the terminal command and returns at once; the action then
// follows its command (queued -> sent -> succeeded/failed, or expired when the terminal does not
// poll within the expiry) — see services/commands/command-queue.ts, which calls `mirrorDoorActions`
// (registered in devices/command-engines.ts) when the command changes.
import { randomBytes } from 'node:crypto';
import { Device, DoorAction } from '../../entities';
import { DeviceMode, type DeviceStatus } from '../../entities/device.entity';
import { DomainError } from '../../errors/domain-error';
import { acUnalarmCommand, acUnlockCommand, cancelAlarmCommand, closeDoorCommand, holdDoorOpenCommand, openDoorCommand } from '../../protocol';
import { doorActionData, doorOpenedData, type DoorActionRow } from '../../events/event-payloads';
import { recordEvent, recordEvents, type NewEvent } from '../../events/outbox';
import { workspaceOf, type RequestContext, withEm } from '../../context/request-context';
import { enqueueCommand } from '../commands/command-queue';
import { FieldChecker, limits } from '../common/validation';
import { requireRoomForAction } from '../commands/pending-action-bound';
import { COMMAND_DETAIL_SQL, shownDetail, waitingDetail } from '../commands/action-status-detail';
import { assertDoorCommandAllowed } from './lockdown.service';

export interface UnlockDoorInput {
  deviceSerial?: string | null;
  /** Seconds the lock stays released, 1–254 (one byte on the wire; 255 would mean "normally open"). */
  duration?: number | null;
  /** Door number on the controller, default 1. Attendance terminals have one lock output: door 1 only. */
  door?: number | null;
  /** Undo an active lockdown of the door (an `admin` key only). */
  override?: boolean | null;
}

/** A door action with the device facts clients need alongside it. */
export interface DoorActionView extends DoorAction {
  deviceSerial: string;
  deviceStatus: DeviceStatus;
  /** When it was requested (the REST reply's name for createdAt). */
  timestamp: Date;
}

function checkUnlock(input: UnlockDoorInput): void {
  const check = new FieldChecker();
  check.text('deviceSerial', input.deviceSerial, { max: limits.serialNumber, required: true });
  if (input.duration === undefined || input.duration === null) check.add('duration', 'required', 'duration is required.');
  else if (!Number.isInteger(input.duration) || input.duration < 1 || input.duration > 254) {
    check.add('duration', 'out_of_range', 'duration must be an integer from 1 to 254 seconds (the terminal takes one byte; 255 would hold the door open).');
  }
  if (input.door != null && (!Number.isInteger(input.door) || input.door < 1 || input.door > 255)) {
    check.add('door', 'out_of_range', 'door must be an integer from 1 to 255.');
  }
  check.done();
}

async function findDevice(ctx: RequestContext, serialNumber: string): Promise<Device> {
  const device = await ctx.em.findOne(Device, {
    workspaceId: workspaceOf(ctx),
    serialNumber: { $ilike: serialNumber.replace(/[\\%_]/g, (c) => `\\${c}`) },
  });
  if (!device) throw DomainError.field('deviceSerial', 'not_found', `No device with serial number "${serialNumber}" in this workspace.`);
  return device;
}

function view(action: DoorAction, device: Device): DoorActionView {
  return Object.assign(Object.create(DoorAction.prototype) as DoorAction, action, {
    deviceSerial: device.serialNumber,
    deviceStatus: device.status,
    timestamp: action.createdAt,
    statusDetail: shownDetail(action.statusDetail, action.status, device.status),
  });
}

import type { DoorActionKind } from '../commands/action-kinds';
export { DOOR_ACTION_KINDS, type DoorActionKind } from '../commands/action-kinds';

/**
 * The terminal command of an action. Access control: `CONTROL DEVICE` (01 output with the seconds,
 * FF normally open, 00 close; 02 cancel alarm). Attendance terminals with a lock output know only
 * `AC_UNLOCK` (their own lock-release time) and `AC_UNALARM`: null for the rest.
 */
function doorCommand(device: Device, door: number, action: DoorActionKind, duration: number): string | null {
  if (device.modeType === DeviceMode.acc) {
    if (action === 'unlock') return openDoorCommand(door, duration);
    if (action === 'hold_open') return holdDoorOpenCommand(door);
    if (action === 'close') return closeDoorCommand(door);
    return cancelAlarmCommand(door);
  }
  if (action === 'unlock') return acUnlockCommand();
  if (action === 'cancel_alarm') return acUnalarmCommand();
  return null;
}

/**
 * Queues the action's terminal command and records the door action with its first
 * `door.action.updated` (`queued`), in one transaction. An offline terminal's action stays queued
 * until it expires. `duration` is the unlock's seconds (0 for the other actions). A command that
 * would undo an active lockdown of the door is refused (409 `lockdown_active`) unless `override`
 * is asked by an `admin` key.
 */
export async function queueDoorAction(
  ctx: RequestContext,
  device: Device,
  door: number,
  action: DoorActionKind,
  duration: number,
  override = false,
): Promise<DoorActionView> {
  if (device.modeType === DeviceMode.att && door !== 1) {
    throw DomainError.field('door', 'out_of_range', 'Attendance terminals have a single lock output: door must be 1.');
  }
  const command = doorCommand(device, door, action, duration);
  if (command === null) {
    throw DomainError.field(
      'action',
      'unsupported_by_device',
      `Attendance terminals take only unlock and cancel_alarm (the protocol has no ${action} for them).`,
    );
  }
  await assertDoorCommandAllowed(ctx, device.id, door, action, override);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + ctx.config.doorActionExpirySeconds * 1000);
  const actionId = `da_${randomBytes(12).toString('hex')}`;
  const created = await ctx.em.transactional(async (em) => {
    const txCtx = withEm(ctx, em);
    await requireRoomForAction(txCtx, device, 'door_action');
    const queued = await enqueueCommand(txCtx, {
      workspaceId: device.workspaceId,
      deviceId: device.id,
      kind: action === 'unlock' ? 'door_unlock' : `door_${action}`,
      command,
      lane: 'interactive',
      door: true,
      reference: `door_action:${actionId}`,
      deadline: expiresAt,
    });
    const row = em.create(DoorAction, {
      actionId,
      workspaceId: device.workspaceId,
      deviceId: device.id,
      commandId: queued.id,
      door,
      action,
      duration,
      requestedByKeyId: ctx.principal.kind === 'workspace' ? ctx.principal.keyId : null,
      createdAt: now,
      expiresAt,
    } as DoorAction);
    em.persist(row);
    await em.flush();
    // The first `door.action.updated` carries `queued`; each later status change follows.
    await recordEvent(txCtx, {
      workspaceId: device.workspaceId,
      type: 'door.action.updated',
      data: doorActionData({
        action_id: actionId,
        action,
        status: row.status,
        status_detail: waitingDetail(row.status, device.status),
        device_id: device.id,
        company_id: device.companyId,
        serial_number: device.serialNumber,
        device_status: device.status,
        door,
        duration,
        return_code: null,
        created_at: now,
        sent_at: null,
        completed_at: null,
        expires_at: expiresAt,
      }),
    });
    return row;
  });
  return view(created, device);
}

/** `/v1/devices/door/unlock` and `unlockDoor`: an unlock of a door of the device with this serial. */
export async function unlockDoor(ctx: RequestContext, input: UnlockDoorInput): Promise<DoorActionView> {
  checkUnlock(input);
  const device = await findDevice(ctx, input.deviceSerial!);
  return queueDoorAction(ctx, device, input.door ?? 1, 'unlock', input.duration!, input.override ?? false);
}

export async function getDoorAction(ctx: RequestContext, actionId: string): Promise<DoorActionView> {
  const action = await ctx.em.findOne(DoorAction, { actionId, workspaceId: workspaceOf(ctx) }, { disableIdentityMap: true });
  if (!action) throw DomainError.notFound('Door action', actionId);
  const device = await ctx.em.findOneOrFail(Device, { id: action.deviceId });
  return view(action, device);
}

type MirroredRow = DoorActionRow & { id: number; workspace_id: number; previous: string; previous_detail: string | null };

/**
 * A command the terminal took and never answered (`c`: delivered at least once, no return code, and
 * queued again, expired or failed since): the door may have opened, so its action stays `sent`
 * (`no_answer`), never `expired` or `failed`, which would tell the operator it did not.
 */
const DELIVERED_UNANSWERED_SQL = `(c.attempts > 0 and c.return_code is null and c.status in ('queued', 'expired', 'failed'))`;

/**
 * Copies status, return code and times of these commands to the door actions waiting on them, and
 * records `door.action.updated` for each status or status detail that changed, plus `door.opened`
 * for a success (in the caller's transaction). The self-join `old` reads each row as it was before
 * the update. Once delivered, an action keeps its first `sent_at`; a delivery without an answer is
 * `sent` with `status_detail` `no_answer` (a retry of its command does not make it `queued` again,
 * and neither does the deadline make it `expired`): only the terminal's answer concludes it.
 */
export async function mirrorDoorActions(ctx: RequestContext, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  const rows = await ctx.em.execute<MirroredRow[]>(
    `update door_action a set
       status = case when ${DELIVERED_UNANSWERED_SQL} then 'sent' else c.status end,
       status_detail = case when ${DELIVERED_UNANSWERED_SQL} then 'no_answer' else ${COMMAND_DETAIL_SQL} end,
       return_code = c.return_code,
       sent_at = coalesce(old.sent_at, c.sent_at),
       completed_at = case when ${DELIVERED_UNANSWERED_SQL} then null else c.completed_at end
     from device_command c, door_action old, device d
     where a.command_id = c.id and old.id = a.id and d.id = a.device_id and c.id in (${commandIds.map(() => '?').join(', ')})
     returning a.id, a.workspace_id, a.action_id, a.action, a.status, a.device_id, d.company_id, d.serial_number, d.status as device_status,
       a.door, a.duration, a.return_code, a.status_detail, a.created_at, a.sent_at, a.completed_at, a.expires_at, old.status as previous,
       old.status_detail as previous_detail`,
    commandIds,
  );
  const events: NewEvent[] = [];
  for (const row of rows.sort((a, b) => a.id - b.id)) {
    if (row.status === row.previous && row.status_detail === row.previous_detail) continue;
    const data = doorActionData({ ...row, status_detail: shownDetail(row.status_detail, row.status, row.device_status) });
    events.push({ workspaceId: row.workspace_id, type: 'door.action.updated', data });
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
