// Access levels on the terminals. What a person may open on a terminal (their grants: per schedule,
// the doors it opens, and a validity window) is part of the terminal's desired state (`device_user`
// `access`, `valid_from`, `valid_until`, kept by recomputeDeviceUsers with levelAccess below); the
// sync engine writes it as the terminal's own tables: one `timezone` row per schedule the terminal
// needs, under a time-zone id allocated per terminal (`device_access_schedule`, reused), and one
// `userauthorize` row per person and schedule (sync-commands.ts). Attendance terminals get the PUSH
// 2.x equivalent: a schedule is one to three `AccTimeZone` rows (one interval per weekday each) under
// a block of three ids allocated per terminal, and a person's `TZ` lists the ids of their schedules.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  accTimeZoneSlots,
  deleteAccTimeZoneCommand,
  deleteHolidayCommand,
  deleteTimezoneCommand,
  MAX_ACC_TIMEZONE_ID,
  updateAccTimeZoneCommand,
  updateHolidayCommand,
  updateTimezoneCommand,
} from '../../protocol';
import type { HolidayInterval, WeekdayInterval } from '../../entities/access-schedule.entity';
import type { AccessGrant } from '../../entities/device-user.entity';
import { notifyCommandsQueued } from '../commands/command-queue-changes';
import { DEFAULT_COMMANDS_PER_POLL, queueRecords, recordTarget } from '../commands/record-batches';
import { intArray } from '../common/sql-arrays';

/** Time-zone id 1: the built-in "Always" schedule, and what a person without levels is authorised under. */
export const ALWAYS_TIMEZONE_ID = 1;
/** Ids a terminal's timezone table takes (ZKAccess: 256 time zones). */
const MAX_TIMEZONE_ID = 255;
export const ACCESS_SCHEDULE_COMMAND_KIND = 'access_schedule';

/** A person's access on one terminal, from their levels. */
export interface LevelAccess {
  grants: AccessGrant[];
  validFrom: string | null;
  validUntil: string | null;
}

const pairKey = (deviceId: number, employeeId: number) => `${deviceId}:${employeeId}`;

/**
 * The access levels' grants for the (device, employee) pairs in scope: the employee is a member of
 * the level (directly, with dates, or through an area) and the level has doors on the device that
 * the terminal has now (an absent door, past a lower LockCount, is left out until it is back).
 * Grants of one schedule are merged (the union of the doors); the validity window is the hull of the
 * memberships' windows (open when any membership is). Pairs without a level are absent.
 */
export async function levelAccess(em: EntityManager, scope: { deviceIds: number[]; employeeIds: number[] }): Promise<Map<string, LevelAccess>> {
  const rows = await em.execute<
    { device_id: number; employee_id: number; schedule_id: number; door_number: number; start_date: string | null; end_date: string | null }[]
  >(
    `with members as (
       select m.access_level_id, m.employee_id, m.start_date::text as start_date, m.end_date::text as end_date from access_level_employee m
       union all
       select a.access_level_id, ae.employee_id, null, null from access_level_area a join area_employee ae on ae.area_id = a.area_id)
     select d.device_id, m.employee_id, l.schedule_id, d.number as door_number, m.start_date, m.end_date
     from members m
     join access_level l on l.id = m.access_level_id
     join access_level_door ld on ld.access_level_id = l.id
     join door d on d.id = ld.door_id and d.present
     where d.device_id = any(?::int[]) or m.employee_id = any(?::int[])
     order by d.device_id, m.employee_id, l.schedule_id`,
    [intArray(scope.deviceIds), intArray(scope.employeeIds)],
  );
  const result = new Map<string, LevelAccess & { open: { from: boolean; until: boolean } }>();
  for (const row of rows) {
    const key = pairKey(row.device_id, row.employee_id);
    let access = result.get(key);
    if (!access) result.set(key, (access = { grants: [], validFrom: null, validUntil: null, open: { from: false, until: false } }));
    const grant = access.grants.find((g) => g.scheduleId === row.schedule_id);
    if (grant) grant.doorMask |= 1 << (row.door_number - 1);
    else access.grants.push({ scheduleId: row.schedule_id, doorMask: 1 << (row.door_number - 1) });
    if (row.start_date === null) access.open.from = true;
    else if (access.validFrom === null || row.start_date < access.validFrom) access.validFrom = row.start_date;
    if (row.end_date === null) access.open.until = true;
    else if (access.validUntil === null || row.end_date > access.validUntil) access.validUntil = row.end_date;
  }
  const plain = new Map<string, LevelAccess>();
  for (const [key, access] of result) {
    plain.set(key, {
      grants: access.grants.sort((a, b) => a.scheduleId - b.scheduleId),
      validFrom: access.open.from ? null : access.validFrom,
      validUntil: access.open.until ? null : access.validUntil,
    });
  }
  return plain;
}

interface ScheduleRow {
  id: number;
  built_in: boolean;
  intervals: WeekdayInterval[];
  holiday_intervals: HolidayInterval[];
}

function timezoneRow(schedule: ScheduleRow, timezoneId: number): string {
  return updateTimezoneCommand({ timezoneId, intervals: schedule.intervals, holidayIntervals: schedule.holiday_intervals });
}

/** Queues table rows for one terminal, many records per command where its family allows (commands/record-batches.ts). */
async function queueCommands(
  em: EntityManager,
  _workspaceId: number,
  deviceId: number,
  commands: { command: string; reference: string }[],
  now: Date,
): Promise<void> {
  if (commands.length === 0) return;
  const target = await recordTarget(em, deviceId, DEFAULT_COMMANDS_PER_POLL);
  if (!target) return;
  await queueRecords(
    em,
    target,
    commands.map((c) => [{ command: c.command, kind: ACCESS_SCHEDULE_COMMAND_KIND, reference: c.reference }]),
    now,
  );
}

/**
 * The terminal's time-zone ids of these schedules, allocating (and queueing the `timezone` row of)
 * each schedule the terminal does not hold yet: the built-in "Always" schedule is id 1, the others
 * take the smallest free id from 2. Runs in the sync build's transaction, before the user commands
 * that refer to the ids, so the terminal receives each time zone before its authorisations.
 */
export async function timezoneIdsFor(
  em: EntityManager,
  device: { id: number; workspaceId: number },
  scheduleIds: number[],
  now: Date,
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  if (scheduleIds.length === 0) return ids;
  const held = await em.execute<{ schedule_id: number; timezone_id: number }[]>(
    'select schedule_id, timezone_id from device_access_schedule where device_id = ?',
    [device.id],
  );
  for (const row of held) ids.set(row.schedule_id, row.timezone_id);
  const missing = [...new Set(scheduleIds)].filter((id) => !ids.has(id));
  if (missing.length === 0) return ids;
  // The terminal's first schedule: its holiday intervals need the company's holidays there too.
  const holidays =
    held.length === 0
      ? await em.execute<{ date: string; holiday_type: number }[]>(
          'select h.date::text as date, h.holiday_type from holiday h join device d on d.company_id = h.company_id where d.id = ? order by h.date',
          [device.id],
        )
      : [];
  const schedules = await em.execute<ScheduleRow[]>(
    'select id, built_in, intervals, holiday_intervals from access_schedule where id = any(?::int[]) order by id',
    [intArray(missing)],
  );
  const taken = new Set(held.map((r) => r.timezone_id));
  const commands: { command: string; reference: string }[] = [];
  for (const schedule of schedules) {
    let timezoneId = ALWAYS_TIMEZONE_ID;
    if (!schedule.built_in) {
      timezoneId = 2;
      while (taken.has(timezoneId)) timezoneId += 1;
      if (timezoneId > MAX_TIMEZONE_ID) throw new Error(`device ${device.id} has no free time-zone id for schedule ${schedule.id}`);
    }
    taken.add(timezoneId);
    ids.set(schedule.id, timezoneId);
    await em.execute('insert into device_access_schedule (workspace_id, device_id, schedule_id, timezone_id) values (?, ?, ?, ?)', [
      device.workspaceId,
      device.id,
      schedule.id,
      timezoneId,
    ]);
    commands.push({ command: timezoneRow(schedule, timezoneId), reference: `access_schedule:${schedule.id}` });
  }
  for (const h of holidays) commands.push({ command: updateHolidayCommand({ date: h.date, holidayType: h.holiday_type }), reference: `holiday:${h.date}` });
  await queueCommands(em, device.workspaceId, device.id, commands, now);
  return ids;
}

/** The `AccTimeZone` rows of a schedule whose block starts at `base`: its slots, the rest of the block closed. */
function accTimeZoneRows(schedule: ScheduleRow, base: number): string[] {
  const size = schedule.built_in ? 1 : 3;
  return Array.from({ length: size }, (_, slot) => updateAccTimeZoneCommand({ id: base + slot, slot, intervals: schedule.intervals }));
}

/** The ids a schedule's slots take on an attendance terminal. */
const slotIds = (schedule: Pick<ScheduleRow, 'built_in' | 'intervals'>, base: number) =>
  schedule.built_in ? [base] : Array.from({ length: accTimeZoneSlots(schedule.intervals) }, (_, slot) => base + slot);

/**
 * Attendance terminals: the `AccTimeZone` ids of these schedules' slots, allocating a block of
 * three ids (and queueing its rows) for each schedule the terminal does not hold yet. The built-in
 * "Always" is id 1 (the time zone attendance firmware ships open all day); other schedules take the
 * lowest free block from 2 (2-4, 5-7, …, up to id 50). The block's base is kept like an access
 * terminal's time-zone id (`device_access_schedule`).
 */
export async function accTimeZoneIdsFor(
  em: EntityManager,
  device: { id: number; workspaceId: number },
  scheduleIds: number[],
  now: Date,
): Promise<Map<number, number[]>> {
  const ids = new Map<number, number[]>();
  if (scheduleIds.length === 0) return ids;
  const wanted = [...new Set(scheduleIds)];
  const schedules = await em.execute<(ScheduleRow & { base: number | null })[]>(
    `select s.id, s.built_in, s.intervals, s.holiday_intervals, das.timezone_id as base
     from access_schedule s left join device_access_schedule das on das.schedule_id = s.id and das.device_id = ?
     where s.id = any(?::int[]) order by s.id`,
    [device.id, intArray(wanted)],
  );
  const held = await em.execute<{ timezone_id: number }[]>('select timezone_id from device_access_schedule where device_id = ?', [device.id]);
  const taken = new Set(held.flatMap((r) => (r.timezone_id === ALWAYS_TIMEZONE_ID ? [1] : [r.timezone_id, r.timezone_id + 1, r.timezone_id + 2])));
  const commands: { command: string; reference: string }[] = [];
  for (const schedule of schedules) {
    let base = schedule.base;
    if (base === null) {
      base = ALWAYS_TIMEZONE_ID;
      if (!schedule.built_in) {
        base = 2;
        while ([base, base + 1, base + 2].some((id) => taken.has(id))) base += 1;
        if (base + 2 > MAX_ACC_TIMEZONE_ID) throw new Error(`device ${device.id} has no free AccTimeZone ids for schedule ${schedule.id}`);
      }
      for (const id of schedule.built_in ? [base] : [base, base + 1, base + 2]) taken.add(id);
      await em.execute('insert into device_access_schedule (workspace_id, device_id, schedule_id, timezone_id) values (?, ?, ?, ?)', [
        device.workspaceId,
        device.id,
        schedule.id,
        base,
      ]);
      commands.push(...accTimeZoneRows(schedule, base).map((command) => ({ command, reference: `access_schedule:${schedule.id}` })));
    }
    ids.set(schedule.id, slotIds(schedule, base));
  }
  await queueCommands(em, device.workspaceId, device.id, commands, now);
  return ids;
}

/**
 * Schedules the terminal holds that no person on it uses any more, and no first-person-in of its
 * doors (door_opening_rules): their time-zone rows are deleted and their ids freed for reuse. Id 1 stays (people without levels are authorised under it).
 */
export async function releaseUnusedSchedules(
  em: EntityManager,
  device: { id: number; workspaceId: number },
  now: Date,
  family: 'access' | 'attendance' = 'access',
): Promise<void> {
  const unused = await em.execute<{ schedule_id: number; timezone_id: number }[]>(
    `delete from device_access_schedule s
     where s.device_id = ? and s.timezone_id <> ${ALWAYS_TIMEZONE_ID}
       and not exists (select 1 from device_user du, jsonb_array_elements(coalesce(du.access, '[]'::jsonb)) g
                       where du.device_id = s.device_id and du.present and (g->>'scheduleId')::int = s.schedule_id)
       and not exists (select 1 from door_opening_rules r where r.device_id = s.device_id and (r.first_person_in->>'scheduleId')::int = s.schedule_id)
     returning s.schedule_id, s.timezone_id`,
    [device.id],
  );
  const deletes = unused.flatMap((r) =>
    (family === 'access' ? [deleteTimezoneCommand(r.timezone_id)] : [0, 1, 2].map((slot) => deleteAccTimeZoneCommand(r.timezone_id + slot))).map((command) => ({
      command,
      reference: `access_schedule:${r.schedule_id}`,
    })),
  );
  await queueCommands(em, device.workspaceId, device.id, deletes, now);
}

/**
 * A schedule changed: every terminal holding it gets its time-zone rows again, and nothing else;
 * except that on attendance terminals a change in the number of intervals a day changes which ids
 * its people hold (`TZ`), so their rows there are sent again too.
 */
export async function markScheduleChanged(em: EntityManager, scheduleId: number, now: Date, previous?: Pick<ScheduleRow, 'intervals'>): Promise<void> {
  const held = await em.execute<{ device_id: number; workspace_id: number; timezone_id: number; mode_type: string }[]>(
    'select s.device_id, s.workspace_id, s.timezone_id, d.mode_type from device_access_schedule s join device d on d.id = s.device_id where s.schedule_id = ?',
    [scheduleId],
  );
  if (held.length === 0) return;
  const [schedule] = await em.execute<ScheduleRow[]>('select id, built_in, intervals, holiday_intervals from access_schedule where id = ?', [scheduleId]);
  for (const row of held) {
    const rows = row.mode_type === 'acc' ? [timezoneRow(schedule!, row.timezone_id)] : accTimeZoneRows(schedule!, row.timezone_id);
    await queueCommands(
      em,
      row.workspace_id,
      row.device_id,
      rows.map((command) => ({ command, reference: `access_schedule:${scheduleId}` })),
      now,
    );
  }
  const attendance = held.filter((r) => r.mode_type !== 'acc').map((r) => r.device_id);
  if (previous && attendance.length > 0 && accTimeZoneSlots(previous.intervals) !== accTimeZoneSlots(schedule!.intervals)) {
    await em.execute(
      `update device_user du set sync_status = 'pending', return_code = null, changed_at = ?
       where du.device_id = any(?::int[]) and du.present
         and exists (select 1 from jsonb_array_elements(coalesce(du.access, '[]'::jsonb)) g where (g->>'scheduleId')::int = ?)`,
      [now, intArray(attendance), scheduleId],
    );
  }
  notifyCommandsQueued(
    em,
    held.map((r) => r.device_id),
  );
}

/**
 * Attendance terminals that answered an `AccTimeZone` row with "no such table" (-1004) or "not
 * supported" (-1002) do not have the PUSH 2.x access settings: remember it, so they get no more of
 * them and their capabilities say so. Runs in the results' transaction (an outcome handler of
 * `access_schedule` commands, devices/command-engines.ts).
 */
export async function noteRefusedAccessTables(em: EntityManager, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  await em.execute(
    `update device set access_tables_refused = true
     where mode_type <> 'acc' and not access_tables_refused
       and id in (select c.device_id from device_command c where c.id = any(?::int[]) and c.status = 'failed'
                  and c.command like 'DATA UPDATE AccTimeZone %' and c.return_code in (-1002, -1004))`,
    [intArray(commandIds)],
  );
}

/**
 * A company holiday was created, moved, retyped or deleted: the access-control terminals of the
 * company that hold schedules get the change (the old date deleted, the new one written). Runs in
 * the holiday change's transaction.
 */
export async function queueHolidayChange(
  em: EntityManager,
  companyId: number,
  change: { removed?: string | null; written?: { date: string; holidayType: number } | null },
  now: Date,
): Promise<void> {
  const devices = await em.execute<{ id: number; workspace_id: number }[]>(
    `select d.id, d.workspace_id from device d where d.company_id = ? and d.mode_type = 'acc'
       and exists (select 1 from device_access_schedule s where s.device_id = d.id)`,
    [companyId],
  );
  if (devices.length === 0) return;
  const commands: { command: string; reference: string }[] = [];
  if (change.removed && change.removed !== change.written?.date)
    commands.push({ command: deleteHolidayCommand(change.removed), reference: `holiday:${change.removed}` });
  if (change.written) commands.push({ command: updateHolidayCommand(change.written), reference: `holiday:${change.written.date}` });
  for (const device of devices) await queueCommands(em, device.workspace_id, device.id, commands, now);
  notifyCommandsQueued(
    em,
    devices.map((d) => d.id),
  );
}
