// Device operations: what an operator asks of a terminal beyond users and doors (read its info,
// restart it, count its records, recover records it holds and Timegate lacks). An action queues
// one or more terminal commands (reference `device_action:<actionId>`); its status follows them:
// `queued` until the first is sent, `sent` until all concluded, then `succeeded` (with a result
// computed from the answers), `failed` (the first failing return code) or `expired`. Each change
// is a `device.action.updated` event.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { checkCommand, clearLogCommand, queryAccessUsersCommand, queryUsersCommand, encodeZkTime, formatLocalTime, infoCommand, instantToLocal, queryAttlogCommand, rebootCommand, setClockCommand, verifySumAttlogCommand } from '../devices/protocol';
import { forgetClockReading } from './device-clock.service';
import { finishReconciles } from './user-reconcile.service';
import { Device, DeviceAction } from '../entities';
import { DeviceMode } from '../entities/device.entity';
import { DomainError } from '../errors/domain-error';
import { recordEvents, type NewEvent } from '../events/outbox';
import { addDays, daysBetween } from './calendar-date';
import { withEm, workspaceOf, type RequestContext } from './context';
import { enqueueCommand } from './device-command.service';
import type { Page, PageRequest } from './pagination';
import { FieldChecker, MAX_SPAN_DAYS } from './validation';

export const DEVICE_ACTION_TYPES = ['info.refresh', 'reboot', 'attendance.count', 'attendance.backfill', 'logs.clear', 'clock.sync', 'users.reconcile'] as const;
/** How recent a matching `attendance.count` must be for `logs.clear`: no punch may be lost to a clear. */
export const CLEAR_NEEDS_COUNT_WITHIN_MS = 60 * 60_000;
export type DeviceActionType = (typeof DEVICE_ACTION_TYPES)[number];
/** Days one `DATA QUERY ATTLOG` may span: firmware refuses longer ranges, so a backfill is cut into windows. */
export const BACKFILL_WINDOW_DAYS = 31;
/** The longest backfill or count one action may ask for. */
export const MAX_RANGE_DAYS = MAX_SPAN_DAYS;

export interface DeviceActionInput {
  type?: string | null;
  options?: Record<string, unknown> | null;
}

type Range = { startDate: string; endDate: string };

/** `options.startDate`/`endDate` (REST: `start_date`, `end_date`): both or neither (unless required). */
function checkRange(check: FieldChecker, options: Record<string, unknown>, required: boolean): Range | null {
  const start = options.startDate ?? undefined;
  const end = options.endDate ?? undefined;
  if (start === undefined && end === undefined && !required) return null;
  const startOk = check.date('options.startDate', start, { required: true });
  const endOk = check.date('options.endDate', end, { required: true });
  if (!startOk || !endOk) return null;
  check.span({ start: 'options.startDate', end: 'options.endDate' }, start, end, MAX_RANGE_DAYS);
  return { startDate: start, endDate: end };
}

/** The terminal-local date of an instant (`YYYY-MM-DD`). */
function localDate(at: Date, zone: string): string {
  return formatLocalTime(at, zone).slice(0, 10);
}

/** Checks the type and its options, and refuses what the terminal's family cannot do; returns the commands. */
function plan(device: Device, type: string | null | undefined, options: Record<string, unknown>, now: Date): { type: DeviceActionType; options: Record<string, unknown>; commands: string[] } {
  const check = new FieldChecker();
  if (type == null) check.add('type', 'required', 'type is required.');
  else if (!(DEVICE_ACTION_TYPES as readonly string[]).includes(type)) check.add('type', 'invalid_value', `type must be one of ${DEVICE_ACTION_TYPES.join(', ')}.`);
  check.done();
  const kind = type as DeviceActionType;
  const access = device.modeType === DeviceMode.acc;
  const known = kind === 'attendance.count' || kind === 'attendance.backfill' ? ['startDate', 'endDate'] : kind === 'users.reconcile' ? ['fix'] : [];
  for (const [key, value] of Object.entries(options)) if (value != null && !known.includes(key)) check.add(`options.${key}`, 'not_allowed', `${kind} takes no option ${key}.`);
  if (kind === 'users.reconcile' && options.fix != null && typeof options.fix !== 'boolean') check.add('options.fix', 'invalid_type', 'options.fix must be true or false.');
  if ((kind === 'attendance.count' || kind === 'attendance.backfill' || kind === 'logs.clear') && access) {
    check.add('type', 'unsupported_by_device', `${kind} needs an attendance terminal (ATTLOG queries); access-control terminals keep their events in rtlog.`);
  }
  let range = checkRange(check, options, kind === 'attendance.backfill');
  check.done();
  switch (kind) {
    case 'info.refresh':
      return { type: kind, options: {}, commands: [infoCommand()] };
    case 'reboot':
      return { type: kind, options: {}, commands: [rebootCommand(access ? 'access' : 'attendance')] };
    case 'attendance.count': {
      // Default: the last 31 days up to today on the terminal's calendar.
      const today = localDate(now, device.timeZone);
      range ??= { startDate: addDays(today, -(BACKFILL_WINDOW_DAYS - 1)), endDate: today };
      return { type: kind, options: { ...range }, commands: [verifySumAttlogCommand(range.startDate, range.endDate)] };
    }
    case 'logs.clear':
      return { type: kind, options: {}, commands: [clearLogCommand()] };
    case 'users.reconcile':
      return { type: kind, options: { fix: options.fix === true }, commands: [access ? queryAccessUsersCommand() : queryUsersCommand()] };
    case 'clock.sync':
      // The skew before, to compare with the one measured after (the result).
      return {
        type: kind,
        options: {},
        commands: [access ? setClockCommand(encodeZkTime(instantToLocal(now, device.timeZone))) : checkCommand()],
      };
    case 'attendance.backfill': {
      const commands: string[] = [];
      const days = daysBetween(range!.startDate, range!.endDate) + 1;
      for (let offset = 0; offset < days; offset += BACKFILL_WINDOW_DAYS) {
        commands.push(queryAttlogCommand(addDays(range!.startDate, offset), addDays(range!.startDate, Math.min(offset + BACKFILL_WINDOW_DAYS, days) - 1)));
      }
      return { type: kind, options: { ...range! }, commands };
    }
  }
}

/** An action as the APIs show it. */
export interface DeviceActionView {
  actionId: string;
  deviceId: number;
  type: string;
  options: Record<string, unknown>;
  status: string;
  result: Record<string, unknown> | null;
  createdAt: Date;
  completedAt: Date | null;
  expiresAt: Date;
}

function view(action: DeviceAction): DeviceActionView {
  return {
    actionId: action.actionId,
    deviceId: action.deviceId,
    type: action.type,
    options: action.options,
    status: action.status,
    result: action.result ?? null,
    createdAt: action.createdAt,
    completedAt: action.completedAt ?? null,
    expiresAt: action.expiresAt,
  };
}

/** Top-level keys in REST spelling (`startDate` -> `start_date`), as event payloads use. */
function snakeKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
}

function eventOf(action: { workspace_id: number; action_id: string; device_id: number; company_id: number; type: string; options: unknown; status: string; result: unknown; created_at: Date | string; completed_at: Date | string | null; expires_at: Date | string }): NewEvent {
  const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());
  return {
    workspaceId: action.workspace_id,
    type: 'device.action.updated',
    data: {
      action_id: action.action_id, device_id: action.device_id, company_id: action.company_id, type: action.type, options: snakeKeys(action.options),
      status: action.status, result: snakeKeys(action.result), created_at: iso(action.created_at), completed_at: iso(action.completed_at), expires_at: iso(action.expires_at),
    },
  };
}

async function findDevice(ctx: RequestContext, deviceId: number): Promise<Device> {
  const device = await ctx.em.findOne(Device, { id: deviceId, workspaceId: workspaceOf(ctx) });
  if (!device) throw DomainError.notFound('Device', deviceId);
  return device;
}

/**
 * `logs.clear` deletes the terminal's records for good: refused unless an `attendance.count` of
 * this terminal succeeded within the hour and matched (and no punch of the terminal arrived since
 * that count: a record Timegate got after the count could still be missing from it).
 */
async function requireMatchingCount(ctx: RequestContext, deviceId: number, now: Date): Promise<void> {
  const [count] = await (ctx.em as EntityManager).execute<{ completed_at: Date; matched: boolean | null; device_records: number | null }[]>(
    `select completed_at, (result->>'matched')::boolean as matched, (result->>'deviceRecords')::int as device_records from device_action
     where device_id = ? and type = 'attendance.count' and status = 'succeeded' and completed_at > ?
     order by completed_at desc limit 1`,
    [deviceId, new Date(now.getTime() - CLEAR_NEEDS_COUNT_WITHIN_MS)],
  );
  if (!count || !count.matched) {
    throw DomainError.field('type', 'count_not_matched', 'logs.clear needs an attendance.count of this terminal that matched within the last hour: run one (and a backfill if it does not match) first.');
  }
  // The count must have covered every record the terminal holds (its INFO total), not just a range of them.
  const [device] = await (ctx.em as EntityManager).execute<{ attlog_count: number | null }[]>('select attlog_count from device where id = ?', [deviceId]);
  if (device?.attlog_count != null && device.attlog_count !== count.device_records) {
    throw DomainError.field(
      'type',
      'count_not_matched',
      `The last attendance.count covered ${count.device_records} of the terminal's ${device.attlog_count} records: count a range that holds them all before clearing.`,
    );
  }
  const [later] = await (ctx.em as EntityManager).execute<{ n: number }[]>('select count(*)::int as n from punch where device_id = ? and received_at > ?', [deviceId, count.completed_at]);
  if (later!.n > 0) throw DomainError.field('type', 'count_not_matched', 'Punches of this terminal arrived after the last attendance.count: count again before clearing.');
}

/** Queues the action's commands and records it (`queued`, with its first event), in one transaction. */
export async function createDeviceAction(ctx: RequestContext, deviceId: number, input: DeviceActionInput): Promise<DeviceActionView> {
  const options = input.options ?? {};
  if (typeof options !== 'object' || Array.isArray(options)) throw DomainError.field('options', 'invalid_type', 'options must be an object.');
  const device = await findDevice(ctx, deviceId);
  const now = ctx.now();
  const planned = plan(device, input.type, options, now);
  if (planned.type === 'logs.clear') await requireMatchingCount(ctx, device.id, now);
  const expiresAt = new Date(now.getTime() + ctx.config.deviceActionExpirySeconds * 1000);
  const actionId = `dact_${randomBytes(12).toString('hex')}`;
  const action = await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    for (const command of planned.commands) {
      await enqueueCommand(tx, { workspaceId: device.workspaceId, deviceId: device.id, kind: `action_${planned.type}`, command, reference: `device_action:${actionId}`, expiresAt });
    }
    const row = em.create(DeviceAction, {
      actionId,
      workspaceId: device.workspaceId,
      deviceId: device.id,
      type: planned.type,
      options: planned.options,
      requestedByKeyId: ctx.principal.kind === 'workspace' ? ctx.principal.keyId : null,
      createdAt: now,
      expiresAt,
    } as DeviceAction);
    em.persist(row);
    await em.flush();
    await recordEvents(tx, [eventOf({ ...row, workspace_id: row.workspaceId, action_id: actionId, device_id: device.id, company_id: device.companyId, created_at: now, completed_at: null, expires_at: expiresAt, result: null })]);
    return row;
  });
  return view(action);
}

/**
 * A backfill's `punches_new`: punches of the device in its range stored since the action began,
 * counted when read (the terminal uploads the records it found after, or around, its answer).
 */
async function withNewPunches(em: EntityManager, views: DeviceActionView[]): Promise<DeviceActionView[]> {
  for (const v of views) {
    if (v.type === 'clock.sync' && v.status === 'succeeded') {
      // The remaining skew: the first reading of the terminal's clock taken after it was set.
      const [device] = await em.execute<{ skew: number | null }[]>('select clock_skew_seconds as skew from device where id = ? and clock_checked_at > ?', [v.deviceId, v.completedAt]);
      v.result = { ...v.result, skewAfter: device?.skew ?? null };
      continue;
    }
    if (v.type !== 'attendance.backfill' || v.status !== 'succeeded') continue;
    const [row] = await em.execute<{ n: number }[]>(
      'select count(*)::int as n from punch where device_id = ? and local_time >= ? and local_time <= ? and received_at >= ?',
      [v.deviceId, `${v.options.startDate} 00:00:00`, `${v.options.endDate} 23:59:59`, v.createdAt],
    );
    v.result = { ...v.result, punchesNew: row!.n };
  }
  return views;
}

export async function getDeviceAction(ctx: RequestContext, deviceId: number, actionId: string): Promise<DeviceActionView> {
  await findDevice(ctx, deviceId);
  const action = await ctx.em.findOne(DeviceAction, { actionId, deviceId, workspaceId: workspaceOf(ctx) }, { disableIdentityMap: true });
  if (!action) throw DomainError.notFound('Device action', actionId);
  return (await withNewPunches(ctx.em as EntityManager, [view(action)]))[0]!;
}

export async function listDeviceActions(ctx: RequestContext, deviceId: number, page: PageRequest): Promise<Page<DeviceActionView>> {
  await findDevice(ctx, deviceId);
  const [items, totalCount] = await ctx.em.findAndCount(DeviceAction, { deviceId, workspaceId: workspaceOf(ctx) }, { orderBy: { id: 'desc' }, offset: page.offset, limit: page.limit, disableIdentityMap: true });
  return { items: await withNewPunches(ctx.em as EntityManager, items.map(view)), totalCount, offset: page.offset };
}

interface ActionRow {
  id: number;
  workspace_id: number;
  action_id: string;
  device_id: number;
  company_id: number;
  time_zone: string;
  type: DeviceActionType;
  options: { startDate?: string; endDate?: string };
  status: string;
  created_at: Date;
  expires_at: Date;
}

interface CommandRow {
  status: string;
  return_code: number | null;
  result_fields: Record<string, string> | null;
}

/** What a succeeded action found out. */
async function resultOf(em: EntityManager, action: ActionRow, commands: CommandRow[]): Promise<Record<string, unknown>> {
  switch (action.type) {
    case 'info.refresh':
      return { info: commands.flatMap((c) => Object.entries(c.result_fields ?? {}).map(([key, value]) => ({ key, value }))) };
    case 'reboot':
      return {};
    case 'attendance.count': {
      const reported = Number(commands[0]?.result_fields?.AttlogSum ?? commands[0]?.return_code ?? 0);
      const [stored] = await em.execute<{ n: number }[]>(
        'select count(*)::int as n from punch where device_id = ? and local_time >= ? and local_time <= ?',
        [action.device_id, `${action.options.startDate} 00:00:00`, `${action.options.endDate} 23:59:59`],
      );
      return { deviceRecords: reported, timegateRecords: stored!.n, matched: reported === stored!.n };
    }
    case 'logs.clear':
      return {};
    case 'users.reconcile':
      // A query's Return is how many users the terminal holds; each arrives as an OPERLOG USER record
      // (attendance) or a `user` row posted to /iclock/querydata (access control).
      return { complete: false, usersReported: Math.max(0, commands[0]?.return_code ?? 0) };
    case 'clock.sync': {
      forgetClockReading(action.device_id);
      const [device] = await em.execute<{ clock_skew_seconds: number | null }[]>('select clock_skew_seconds from device where id = ?', [action.device_id]);
      return { skewBefore: device?.clock_skew_seconds ?? null };
    }
    case 'attendance.backfill':
      // A query's Return is the number of records the terminal found (and uploads as ATTLOG).
      return { windows: commands.length, recordsReceived: commands.reduce((n, c) => n + Math.max(0, c.return_code ?? 0), 0) };
  }
}

/**
 * Brings the actions of these commands in line with their commands (in the caller's transaction,
 * after the commands changed): each action whose status changes is updated, with its result once
 * every command succeeded, and announced.
 */
export async function mirrorDeviceActions(ctx: RequestContext, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  const em = ctx.em as EntityManager;
  const actions = await em.execute<ActionRow[]>(
    `select a.id, a.workspace_id, a.action_id, a.device_id, d.company_id, d.time_zone, a.type, a.options, a.status, a.created_at, a.expires_at
     from device_action a join device d on d.id = a.device_id
     where a.status in ('queued', 'sent') and 'device_action:' || a.action_id in (select reference from device_command where id = any(?::int[]))
     for update of a`,
    [`{${commandIds.join(',')}}`],
  );
  const events: NewEvent[] = [];
  const reconciled = new Set<number>();
  for (const action of actions) {
    const commands = await em.execute<CommandRow[]>('select status, return_code, result_fields from device_command where reference = ? order by id', [`device_action:${action.action_id}`]);
    const statuses = commands.map((c) => c.status);
    let status = 'queued';
    if (statuses.includes('failed')) status = 'failed';
    else if (statuses.includes('expired')) status = 'expired';
    else if (statuses.every((s) => s === 'succeeded')) status = 'succeeded';
    else if (statuses.some((s) => s !== 'queued')) status = 'sent';
    if (status === action.status) continue;
    const done = status === 'succeeded' || status === 'failed' || status === 'expired';
    const result =
      status === 'succeeded' ? await resultOf(em, action, commands) : status === 'failed' ? { returnCode: commands.find((c) => c.status === 'failed')!.return_code } : null;
    const completedAt = done ? ctx.now() : null;
    await em.execute('update device_action set status = ?, result = ?::jsonb, completed_at = ? where id = ?', [status, result === null ? null : JSON.stringify(result), completedAt, action.id]);
    events.push(eventOf({ ...action, status, result, completed_at: completedAt }));
    // The users may all have arrived before the answer.
    if (action.type === 'users.reconcile' && status === 'succeeded') reconciled.add(action.device_id);
  }
  await recordEvents(ctx, events);
  for (const deviceId of reconciled) await finishReconciles(ctx, deviceId);
}

/** A `device.action.updated` payload (REST spelling) as the action the APIs show. */
export function deviceActionFromEvent(data: Record<string, unknown>): DeviceActionView {
  const camel = (value: unknown) =>
    value === null || typeof value !== 'object' ? value : Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));
  const date = (value: unknown) => (typeof value === 'string' ? new Date(value) : null);
  return {
    actionId: data.action_id as string,
    deviceId: data.device_id as number,
    type: data.type as string,
    options: camel(data.options) as Record<string, unknown>,
    status: data.status as string,
    result: camel(data.result) as Record<string, unknown> | null,
    createdAt: date(data.created_at)!,
    completedAt: date(data.completed_at),
    expiresAt: date(data.expires_at)!,
  };
}
