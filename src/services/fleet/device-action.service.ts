// Device operations: what an operator asks of a terminal beyond users and doors (read its info,
// restart it, count its records, recover records it holds and Timegate lacks). An action queues
// one or more terminal commands (reference `device_action:<actionId>`); its status follows them:
// `queued` until the first is sent, `sent` until all concluded, then `succeeded` (with a result
// computed from the answers), `failed` (the first failing return code) or `expired`. Each change
// is a `device.action.updated` event.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ACCESS_INFO_OPTION_KEYS,
  checkCommand,
  clearLogCommand,
  getOptionsCommand,
  queryAccessUsersCommand,
  queryUsersCommand,
  encodeZkTime,
  formatLocalTime,
  infoCommand,
  instantToLocal,
  queryAttlogCommand,
  rebootCommand,
  setClockCommand,
  verifySumAttlogCommand,
} from '../../protocol';
import { forgetClockReading } from './device-clock.service';
import { finishReconciles } from './user-reconcile.service';
import { Device, DeviceAction } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { DomainError } from '../../errors/domain-error';
import { recordEvents, type NewEvent } from '../../events/outbox';
import { deviceActionEvent } from './device-action-event';
import { addDays, daysBetween } from '../../kernel/calendar-date';
import { renameTopKeys, snakeToCamel } from '../../kernel/case';
import { withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import { enqueueCommand } from '../commands/command-queue';
import type { Page, PageRequest } from '../common/pagination';
import { commandDetail, shownDetail, waitingDetail } from '../commands/action-status-detail';
import { FieldChecker, MAX_SPAN_DAYS } from '../common/validation';
import { requireRoomForAction } from '../commands/pending-action-bound';

import { DEVICE_ACTION_TYPES } from '../commands/action-kinds';
export { DEVICE_ACTION_TYPES };
/** How recent the terminal's record count (`info.refresh` or `attendance.count`) must be for `logs.clear`. */
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

export const CLOCK_SYNC_COMMAND_KIND = 'action_clock.sync';
/** The stored form of an access terminal's clock set: the value is rendered at delivery. */
const CLOCK_AT_DELIVERY = 'SET OPTIONS DateTime={delivery time}';

/**
 * The command queue's renderer of `clock.sync` commands: the time of delivery in the terminal's
 * zone, so the clock is set to when the terminal fetched the command, not when it was queued.
 */
export function renderClockSync(template: string, delivery: { now: Date; timeZone: string }): string {
  return template === CLOCK_AT_DELIVERY ? setClockCommand(encodeZkTime(instantToLocal(delivery.now, delivery.timeZone))) : template;
}

/** The terminal-local date of an instant (`YYYY-MM-DD`). */
function localDate(at: Date, zone: string): string {
  return formatLocalTime(at, zone).slice(0, 10);
}

/** Checks the type and its options, and refuses what the terminal's family cannot do; returns the commands. */
function plan(
  device: Device,
  type: string | null | undefined,
  options: Record<string, unknown>,
  now: Date,
): { type: DeviceActionType; options: Record<string, unknown>; commands: string[] } {
  const check = new FieldChecker();
  if (type == null) check.add('type', 'required', 'type is required.');
  else if (!(DEVICE_ACTION_TYPES as readonly string[]).includes(type))
    check.add('type', 'invalid_value', `type must be one of ${DEVICE_ACTION_TYPES.join(', ')}.`);
  check.done();
  const kind = type as DeviceActionType;
  const access = device.modeType === DeviceMode.acc;
  const known = kind === 'attendance.count' || kind === 'attendance.backfill' ? ['startDate', 'endDate'] : kind === 'users.reconcile' ? ['fix'] : [];
  for (const [key, value] of Object.entries(options))
    if (value != null && !known.includes(key)) check.add(`options.${key}`, 'not_allowed', `${kind} takes no option ${key}.`);
  if (kind === 'users.reconcile' && options.fix != null && typeof options.fix !== 'boolean')
    check.add('options.fix', 'invalid_type', 'options.fix must be true or false.');
  if ((kind === 'attendance.count' || kind === 'attendance.backfill' || kind === 'logs.clear') && access) {
    check.add('type', 'unsupported_by_device', `${kind} needs an attendance terminal (ATTLOG queries); access-control terminals keep their events in rtlog.`);
  }
  let range = checkRange(check, options, kind === 'attendance.backfill');
  check.done();
  switch (kind) {
    case 'info.refresh':
      // Access controllers have no INFO verb: their document reads parameters with GET OPTIONS.
      return { type: kind, options: {}, commands: [access ? getOptionsCommand(ACCESS_INFO_OPTION_KEYS) : infoCommand()] };
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
      // Access control: the time is written when the terminal fetches the command (renderClockSync),
      // not now. Attendance: CHECK, the terminal takes the time from its next handshake's reply.
      return { type: kind, options: {}, commands: [access ? CLOCK_AT_DELIVERY : checkCommand()] };
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
  /** src/services/commands/action-status-detail.ts */
  statusDetail: string | null;
  result: Record<string, unknown> | null;
  createdAt: Date;
  completedAt: Date | null;
  expiresAt: Date;
}

function view(action: DeviceAction, deviceStatus: string): DeviceActionView {
  return {
    actionId: action.actionId,
    deviceId: action.deviceId,
    type: action.type,
    options: action.options,
    status: action.status,
    statusDetail: shownDetail(action.statusDetail, action.status, deviceStatus),
    result: action.result ?? null,
    createdAt: action.createdAt,
    completedAt: action.completedAt ?? null,
    expiresAt: action.expiresAt,
  };
}

async function findDevice(ctx: RequestContext, deviceId: number): Promise<Device> {
  const device = await ctx.em.findOne(Device, { id: deviceId, workspaceId: workspaceOf(ctx) });
  if (!device) throw DomainError.notFound('Device', deviceId);
  return device;
}

/** The terminal's attendance-record count in an `info.refresh` result (the `TransactionCount` line of its INFO answer). */
function infoRecordCount(result: { info?: Array<{ key: string; value: string }> } | null): number | null {
  const line = result?.info?.find((f) => f.key.replace(/^~/, '').toLowerCase() === 'transactioncount');
  return line && /^\d{1,9}$/.test(line.value.trim()) ? Number(line.value.trim()) : null;
}

/**
 * `logs.clear` deletes the terminal's records for good, so it needs the terminal's own count, from
 * the newest of its `info.refresh` (every record it holds) and `attendance.count` (the records of a
 * range) that succeeded within the hour. Allowed when Timegate had received at least as many of
 * the terminal's records (of that range, made since its last clear by Timegate) by the time of the
 * count: Timegate holds only records this terminal sent, so as many means all of them. Holding MORE
 * (the terminal was cleared from its menu, or overwrote old records) is no reason to refuse. A count of a range must also cover the
 * terminal's total (its last reported record count). A refusal says how many records would be lost,
 * since when, and what to run.
 */
async function requireSafeClear(ctx: RequestContext, device: Device, now: Date): Promise<void> {
  const em = ctx.em;
  const [latest] = await em.execute<
    { type: string; completed_at: Date; options: { startDate?: string; endDate?: string }; result: Record<string, unknown> | null }[]
  >(
    `select type, completed_at, options, result from device_action
     where device_id = ? and type in ('info.refresh', 'attendance.count') and status = 'succeeded' and completed_at > ?
     order by completed_at desc, id desc limit 1`,
    [device.id, new Date(now.getTime() - CLEAR_NEEDS_COUNT_WITHIN_MS)],
  );
  const counted =
    latest?.type === 'info.refresh'
      ? infoRecordCount(latest.result as { info?: Array<{ key: string; value: string }> })
      : latest
        ? Number(latest.result?.deviceRecords)
        : null;
  if (!latest || counted === null || !Number.isInteger(counted)) {
    throw DomainError.field(
      'type',
      'count_required',
      latest
        ? "logs.clear needs the terminal's record count: its last info.refresh did not report one (TransactionCount). Run attendance.count over every day it may hold records, then clear within the hour."
        : "logs.clear needs the terminal's record count from within the last hour: run info.refresh (or attendance.count over every day it may hold records), then clear.",
    );
  }
  const at = new Date(latest.completed_at);
  const range = latest.type === 'attendance.count' ? { from: latest.options.startDate!, to: latest.options.endDate! } : null;
  // What Timegate holds of the records the terminal counted: received by the time of the count (a
  // later one was made after it) and made after the terminal's last clear (it holds none older).
  const [cleared] = await em.execute<{ at: Date | null }[]>(
    "select max(completed_at) as at from device_action where device_id = ? and type = 'logs.clear' and status = 'succeeded'",
    [device.id],
  );
  const [held] = await em.execute<{ n: number; first: string | null }[]>(
    `select count(*)::int as n, min(local_time) as first from punch
     where device_id = ? and received_at <= ? and punch_time > ?${range ? ' and local_time >= ? and local_time <= ?' : ''}`,
    [device.id, at, cleared?.at ?? new Date(0), ...(range ? [`${range.from} 00:00:00`, `${range.to} 23:59:59`] : [])],
  );
  const countedWhen = `${latest.type} at ${at.toISOString()}`;
  if (held!.n < counted) {
    const first = held!.first?.slice(0, 10) ?? null;
    const since = range
      ? `of ${range.from} to ${range.to}`
      : first
        ? `of any day the terminal holds (Timegate's oldest record from it is of ${first})`
        : 'of any day the terminal holds (Timegate holds none from it)';
    const backfillFrom = range ? range.from : (first ?? localDate(device.createdAt, device.timeZone));
    throw DomainError.field(
      'type',
      'count_not_matched',
      `Clearing would delete ${counted - held!.n} record(s) Timegate does not hold: the terminal counted ${counted} ${range ? `between ${range.from} and ${range.to}` : 'in all'} (${countedWhen}) and Timegate had received ${held!.n} of them. ` +
        `The missing records are ${since}. Run attendance.backfill from ${backfillFrom}${range ? '' : ' (or earlier, if the terminal holds older records)'} to ${range ? range.to : localDate(now, device.timeZone)}, then ${latest.type} again, and clear.`,
    );
  }
  // A count of a range says nothing of the records outside it: the terminal's total must be no more.
  if (range) {
    const [row] = await em.execute<{ attlog_count: number | null }[]>('select attlog_count from device where id = ?', [device.id]);
    const total = row?.attlog_count ?? null;
    if (total !== null && total > counted) {
      throw DomainError.field(
        'type',
        'count_not_matched',
        `Clearing would delete ${total - counted} record(s) outside the counted range ${range.from} to ${range.to}: the terminal holds ${total} in all, the count (${countedWhen}) covered ${counted}. ` +
          'Run info.refresh (it counts every record), or attendance.count over every day the terminal may hold records, then clear.',
      );
    }
  }
}

/** Queues the action's commands and records it (`queued`, with its first event), in one transaction. */
export async function createDeviceAction(ctx: RequestContext, deviceId: number, input: DeviceActionInput): Promise<DeviceActionView> {
  const options = input.options ?? {};
  if (typeof options !== 'object' || Array.isArray(options)) throw DomainError.field('options', 'invalid_type', 'options must be an object.');
  const device = await findDevice(ctx, deviceId);
  const now = ctx.now();
  const planned = plan(device, input.type, options, now);
  if (planned.type === 'logs.clear') await requireSafeClear(ctx, device, now);
  const expiresAt = new Date(now.getTime() + ctx.config.deviceActionExpirySeconds * 1000);
  const actionId = `dact_${randomBytes(12).toString('hex')}`;
  const action = await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    await requireRoomForAction(tx, device, 'device_action');
    for (const command of planned.commands) {
      await enqueueCommand(tx, {
        workspaceId: device.workspaceId,
        deviceId: device.id,
        kind: `action_${planned.type}`,
        command,
        lane: 'interactive',
        reference: `device_action:${actionId}`,
        deadline: expiresAt,
      });
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
    const event = {
      ...row,
      workspace_id: row.workspaceId,
      action_id: actionId,
      device_id: device.id,
      company_id: device.companyId,
      status_detail: waitingDetail(row.status, device.status),
    };
    await recordEvents(tx, [deviceActionEvent({ ...event, created_at: now, completed_at: null, expires_at: expiresAt, result: null })]);
    return row;
  });
  return view(action, device.status);
}

/**
 * A backfill's `punches_new`: punches of the device in its range stored since the action began,
 * counted when read (the terminal uploads the records it found after, or around, its answer).
 */
async function withNewPunches(em: EntityManager, views: DeviceActionView[]): Promise<DeviceActionView[]> {
  for (const v of views) {
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
  const device = await findDevice(ctx, deviceId);
  const action = await ctx.em.findOne(DeviceAction, { actionId, deviceId, workspaceId: workspaceOf(ctx) }, { disableIdentityMap: true });
  if (!action) throw DomainError.notFound('Device action', actionId);
  return (await withNewPunches(ctx.em, [view(action, device.status)]))[0]!;
}

export async function listDeviceActions(ctx: RequestContext, deviceId: number, page: PageRequest): Promise<Page<DeviceActionView>> {
  const device = await findDevice(ctx, deviceId);
  const [items, totalCount] = await ctx.em.findAndCount(
    DeviceAction,
    { deviceId, workspaceId: workspaceOf(ctx) },
    { orderBy: { id: 'desc' }, offset: page.offset, limit: page.limit, disableIdentityMap: true },
  );
  return {
    items: await withNewPunches(
      ctx.em,
      items.map((item) => view(item, device.status)),
    ),
    totalCount,
    offset: page.offset,
  };
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
  status_detail: string | null;
  device_status: string;
  result: Record<string, unknown> | null;
  created_at: Date;
  expires_at: Date;
}

interface CommandRow {
  status: string;
  return_code: number | null;
  attempts: number;
  result_fields: Record<string, string> | null;
}

/** What a succeeded action found out. */
async function resultOf(em: EntityManager, action: ActionRow, commands: CommandRow[]): Promise<Record<string, unknown>> {
  switch (action.type) {
    case 'info.refresh': {
      const info = commands.flatMap((c) => Object.entries(c.result_fields ?? {}).map(([key, value]) => ({ key, value })));
      // The record count the terminal just reported is the device's (logs.clear compares with it).
      const records = infoRecordCount({ info });
      if (records !== null) await em.execute('update device set attlog_count = ? where id = ?', [records, action.device_id]);
      return { info };
    }
    case 'reboot':
      return {};
    case 'attendance.count': {
      const reported = Number(commands[0]?.result_fields?.AttlogSum ?? commands[0]?.return_code ?? 0);
      const [stored] = await em.execute<{ n: number }[]>('select count(*)::int as n from punch where device_id = ? and local_time >= ? and local_time <= ?', [
        action.device_id,
        `${action.options.startDate} 00:00:00`,
        `${action.options.endDate} 23:59:59`,
      ]);
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

/** The largest clock skew (seconds, either way) a `clock.sync` may leave and still succeed. */
export const CLOCK_SYNC_TOLERANCE_SECONDS = 2;

/**
 * Brings the actions of these commands in line with their commands (in the caller's transaction,
 * after the commands changed; the command queue's outcome handler of `action_*` commands): each
 * action whose status or detail changes is updated, with its result once every command succeeded,
 * and announced. A `clock.sync` whose command succeeded is not done yet: it stays `sent`
 * (`awaiting_clock_reading`) until a reading of the terminal's clock concludes it (concludeClockSyncs).
 */
export async function mirrorDeviceActions(ctx: RequestContext, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  const em = ctx.em;
  const actions = await em.execute<ActionRow[]>(
    `select a.id, a.workspace_id, a.action_id, a.device_id, d.company_id, d.time_zone, d.status as device_status, a.type, a.options, a.status, a.status_detail,
       a.result, a.created_at, a.expires_at
     from device_action a join device d on d.id = a.device_id
     where a.status in ('queued', 'sent') and 'device_action:' || a.action_id in (select reference from device_command where id = any(?::int[]))
     for update of a`,
    [`{${commandIds.join(',')}}`],
  );
  const events: NewEvent[] = [];
  const reconciled = new Set<number>();
  for (const action of actions) {
    const commands = await em.execute<CommandRow[]>('select status, return_code, attempts, result_fields from device_command where reference = ? order by id', [
      `device_action:${action.action_id}`,
    ]);
    const statuses = commands.map((c) => c.status);
    let status = 'queued';
    if (statuses.includes('failed')) status = 'failed';
    else if (statuses.includes('expired')) status = 'expired';
    else if (statuses.every((s) => s === 'succeeded')) status = 'succeeded';
    else if (statuses.some((s) => s !== 'queued')) status = 'sent';
    const failedCommand = commands.find((c) => c.status === 'failed');
    let detail = failedCommand
      ? commandDetail(failedCommand)
      : status === 'expired'
        ? 'deadline_passed'
        : (commands.map(commandDetail).find((d) => d !== null) ?? null);
    const verifyClock = action.type === 'clock.sync' && status === 'succeeded';
    if (verifyClock) {
      status = 'sent';
      detail = 'awaiting_clock_reading';
    }
    if (status === action.status && detail === action.status_detail) continue;
    const done = status === 'succeeded' || status === 'failed' || status === 'expired';
    const result =
      status === 'succeeded' || verifyClock ? await resultOf(em, action, commands) : status === 'failed' ? { returnCode: failedCommand!.return_code } : null;
    const completedAt = done ? ctx.now() : null;
    await em.execute('update device_action set status = ?, status_detail = ?, result = ?::jsonb, completed_at = ? where id = ?', [
      status,
      detail,
      result === null ? null : JSON.stringify(result),
      completedAt,
      action.id,
    ]);
    events.push(deviceActionEvent({ ...action, status, status_detail: shownDetail(detail, status, action.device_status), result, completed_at: completedAt }));
    // The users may all have arrived before the answer.
    if (action.type === 'users.reconcile' && status === 'succeeded') reconciled.add(action.device_id);
  }
  await recordEvents(ctx, events);
  for (const deviceId of reconciled) await finishReconciles(ctx, deviceId);
}

/**
 * Concludes the `clock.sync` actions waiting for a reading of their terminal's clock (of one device,
 * or all): a reading taken after the clock was set succeeds within CLOCK_SYNC_TOLERANCE_SECONDS and
 * fails beyond (`clock_skew_after_sync`), with the skew in `result.skewAfter`; no reading by the
 * action's expiry fails it (`clock_not_read`). Run after a clock reading is stored, and by the sweep.
 */
export async function concludeClockSyncs(ctx: RequestContext, deviceId: number | null = null): Promise<void> {
  const now = ctx.now();
  await ctx.em.transactional(async (em) => {
    const waiting = await em.execute<(ActionRow & { skew: number | null; checked_at: Date | null; set_at: Date | null })[]>(
      `select a.id, a.workspace_id, a.action_id, a.device_id, d.company_id, d.status as device_status, a.type, a.options, a.status, a.status_detail, a.result,
         a.created_at, a.expires_at, d.clock_skew_seconds as skew, d.clock_checked_at as checked_at,
         (select max(c.completed_at) from device_command c where c.reference = 'device_action:' || a.action_id) as set_at
       from device_action a join device d on d.id = a.device_id
       where a.type = 'clock.sync' and a.status = 'sent' and a.status_detail = 'awaiting_clock_reading' and (?::int is null or a.device_id = ?)
       for update of a skip locked`,
      [deviceId, deviceId],
    );
    const events: NewEvent[] = [];
    for (const action of waiting) {
      const read = action.checked_at !== null && action.set_at !== null && new Date(action.checked_at) > new Date(action.set_at) && action.skew !== null;
      if (!read && now < new Date(action.expires_at)) continue;
      const within = read && Math.abs(action.skew!) <= CLOCK_SYNC_TOLERANCE_SECONDS;
      const status = within ? 'succeeded' : 'failed';
      const detail = within ? null : read ? 'clock_skew_after_sync' : 'clock_not_read';
      const result = { ...(action.result ?? {}), skewAfter: read ? action.skew : null };
      await em.execute('update device_action set status = ?, status_detail = ?, result = ?::jsonb, completed_at = ? where id = ?', [
        status,
        detail,
        JSON.stringify(result),
        now,
        action.id,
      ]);
      events.push(deviceActionEvent({ ...action, status, status_detail: detail, result, completed_at: now }));
    }
    await recordEvents(withEm(ctx, em), events);
  });
}

/** A `device.action.updated` payload (REST spelling) as the action the APIs show. */
export function deviceActionFromEvent(data: Record<string, unknown>): DeviceActionView {
  const camel = (value: unknown) => renameTopKeys(value, snakeToCamel);
  const date = (value: unknown) => (typeof value === 'string' ? new Date(value) : null);
  return {
    actionId: data.action_id as string,
    deviceId: data.device_id as number,
    type: data.type as string,
    options: camel(data.options) as Record<string, unknown>,
    status: data.status as string,
    statusDetail: (data.status_detail as string | null | undefined) ?? null,
    result: camel(data.result) as Record<string, unknown> | null,
    createdAt: date(data.created_at)!,
    completedAt: date(data.completed_at),
    expiresAt: date(data.expires_at)!,
  };
}
