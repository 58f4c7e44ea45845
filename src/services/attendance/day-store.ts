// Stored attendance days: refreshDays loads what their computation needs (day-inputs.ts), plans
// the writes (day-plan.ts, pure), writes what changed and announces it (`attendance.day.updated`).
// Every writer holds the attendance lock (ATTENDANCE_LOCK) for its transaction, so two
// computations of one day never race and an older result never overwrites a newer one: the worker
// (attendance-worker.ts), a timesheet read that finds days never computed, and a pay period being
// locked.
import { LOCK_KEYS } from '../../kernel/lock-keys';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ATTENDANCE_CHANNEL, recordEvents, type NewEvent } from '../../events/outbox';
import { withEm, type RequestContext } from '../../context/request-context';
import { afterCommit } from '../../db/after-commit';
import { executeBound } from '../../db/prepared-statement';
import { intArray } from '../common/sql-arrays';
import { CpuSlice } from '../../kernel/cpu-slice';
import { loadDayInputs, want, wholeWeeks, type DayInputs, type WantedDays } from './day-inputs';
import { indexDayInputs, planEmployeeDays, type DayWrite, type PlanOptions } from './day-plan';
import { dayPayloadOf, dayViewOf } from './day-record';

/** pg_advisory_xact_lock key of the attendance writers (src/kernel/lock-keys.ts). */
export const ATTENDANCE_LOCK = LOCK_KEYS.attendanceWritersHex;
export const DAY_UPDATED_EVENT = 'attendance.day.updated';

/**
 * Computes the wanted days, stores those that are new or changed, clears their stale marks and
 * announces the changes. Runs in the caller's transaction (ctx.em), which must hold ATTENDANCE_LOCK.
 * Days inside a locked pay period keep their values: a punch that arrives for one adds the
 * `after_lock` exception and nothing else. Returns how many days changed.
 */
export async function refreshDays(ctx: RequestContext, wanted: WantedDays, options: PlanOptions): Promise<number> {
  if (wanted.size === 0) return 0;
  const em = ctx.em;
  await wholeWeeks(em, wanted);
  const input = await loadDayInputs(em, wanted);
  const now = ctx.now();
  const index = indexDayInputs(input);
  const writes: DayWrite[] = [];
  let announced = 0;
  let written = 0;
  // A year of days for 200 employees is seconds of CPU: planned in slices, other requests go in
  // between; and written WRITE_CHUNK days at a time, so that no statement's JSON (nor the garbage it
  // leaves) grows with the batch: a century of far-dated punches is tens of thousands of days.
  const slice = new CpuSlice();
  for (const employee of input.employees) {
    if (slice.spent()) await slice.pause();
    writes.push(...planEmployeeDays(index, employee, [...wanted.get(employee.id)!].sort(), now, options));
    if (writes.length - written >= WRITE_CHUNK) {
      announced += await writeDays(ctx, writes.slice(written), now);
      written = writes.length;
    }
  }
  announced += await writeDays(ctx, writes.slice(written), now);
  observeDayDelays(ctx, em, input, writes, now);
  return announced;
}

/** Days written by one statement at most (with their events). */
const WRITE_CHUNK = 500;

/** Stores planned days and records the events of those to announce; returns how many were announced. */
async function writeDays(ctx: RequestContext, writes: readonly DayWrite[], now: Date): Promise<number> {
  if (writes.length === 0) return 0;
  const em = ctx.em;
  await executeBound(
    em,
    `insert into attendance_day (workspace_id, company_id, employee_id, date, shift_id, status, first_in, last_out, scheduled_minutes,
       worked_minutes, break_minutes, late_minutes, early_leave_minutes, overtime_minutes, pending_overtime_minutes, pay_items, exceptions, punch_ids, absence_type_id, absence_code, leave_minutes, stale, settles_at, updated_at)
     select r.workspace_id, r.company_id, r.employee_id, r.date, r.shift_id, r.status, r.first_in, r.last_out, r.scheduled_minutes,
       r.worked_minutes, r.break_minutes, r.late_minutes, r.early_leave_minutes, r.overtime_minutes, r.pending_overtime_minutes, r.pay_items,
       array(select jsonb_array_elements_text(r.exceptions)), array(select jsonb_array_elements_text(r.punch_ids)::bigint), r.absence_type_id, r.absence_code, r.leave_minutes, false, r.settles_at, ?::timestamptz
     from jsonb_to_recordset(?::jsonb) as r(workspace_id int, company_id int, employee_id int, date date, shift_id int, status varchar,
       first_in timestamptz, last_out timestamptz, scheduled_minutes int, worked_minutes int, break_minutes int, late_minutes int,
       early_leave_minutes int, overtime_minutes int, pending_overtime_minutes int, pay_items jsonb, exceptions jsonb, punch_ids jsonb, absence_type_id int, absence_code varchar, leave_minutes int, settles_at timestamptz)
     on conflict (employee_id, date) do update set company_id = excluded.company_id, shift_id = excluded.shift_id, status = excluded.status,
       first_in = excluded.first_in, last_out = excluded.last_out, scheduled_minutes = excluded.scheduled_minutes,
       worked_minutes = excluded.worked_minutes, break_minutes = excluded.break_minutes, late_minutes = excluded.late_minutes,
       early_leave_minutes = excluded.early_leave_minutes, overtime_minutes = excluded.overtime_minutes,
       pending_overtime_minutes = excluded.pending_overtime_minutes, pay_items = excluded.pay_items, exceptions = excluded.exceptions,
       punch_ids = excluded.punch_ids, absence_type_id = excluded.absence_type_id, absence_code = excluded.absence_code,
       leave_minutes = excluded.leave_minutes, stale = false, settles_at = excluded.settles_at, updated_at = excluded.updated_at`,
    [now, JSON.stringify(writes.map((w) => ({ ...w.record, workspace_id: w.workspaceId, settles_at: w.settlesAt })))],
  );
  const events: NewEvent[] = writes
    .filter((w) => w.announce)
    .map((w) => ({ workspaceId: w.workspaceId, type: DAY_UPDATED_EVENT, data: { ...dayPayloadOf(dayViewOf(w.record)) } }));
  await recordEvents(withEm(ctx, em), events);
  return events.length;
}

/**
 * Punches that a stored day counts for the first time (listed by none of the days read before):
 * each one's delay from stored to its day stored is observed once the transaction commits (the
 * punch → day SLI of docs/operations.md), whichever path computed the day (worker, live lane, read).
 */
function observeDayDelays(ctx: RequestContext, em: EntityManager, input: DayInputs, writes: readonly DayWrite[], now: Date): void {
  const histogram = ctx.metrics?.attendanceDayDelay;
  if (!histogram) return;
  const listed = new Set<number>();
  for (const day of input.stored) for (const id of day.punch_ids) listed.add(id);
  const counted = new Set<number>();
  for (const { record } of writes) for (const id of record.punch_ids) if (!listed.has(id)) counted.add(id);
  if (counted.size === 0) return;
  const delays = input.punches.filter((p) => counted.has(p.id)).map((p) => Math.max(0, now.getTime() - new Date(p.received_at).getTime()) / 1000);
  if (delays.length > 0) afterCommit(em, () => delays.forEach((seconds) => histogram.observe(seconds)));
}

/** Takes the attendance lock for the caller's transaction, waiting for the holder (reads, locking a period). */
export async function takeAttendanceLock(em: EntityManager): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(x'${ATTENDANCE_LOCK}'::bigint)`);
}

/** Takes the attendance lock if free (the worker: a busy lock means another writer is at work). */
export async function tryAttendanceLock(em: EntityManager): Promise<boolean> {
  const [row] = await em.execute<{ locked: boolean }[]>(`select pg_try_advisory_xact_lock(x'${ATTENDANCE_LOCK}'::bigint) as locked`);
  return row!.locked;
}

export interface StaleScope {
  employeeIds?: number[];
  companyId?: number;
  /** The area's current members. */
  areaId?: number;
}

/**
 * Marks the stored days of a scope from `from` to `to` (inclusive; null: unbounded) for the worker
 * to recompute, outside locked pay periods, and wakes the worker at commit. Runs in the caller's
 * transaction, so a change and its mark commit together. Days never stored need no mark: they are
 * computed when first read.
 *
 * Takes the attendance lock first: a computation in progress may have read the data this change
 * replaces, and would store its result as fresh after the mark (or insert a day the mark never
 * saw). Waiting for it means the mark lands after its write, and a later computation sees the change.
 */
export async function markDaysStale(em: EntityManager, scope: StaleScope, from: string | null, to: string | null): Promise<void> {
  await takeAttendanceLock(em);
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (scope.employeeIds) {
    conditions.push('d.employee_id = any(?::int[])');
    params.push(intArray(scope.employeeIds));
  }
  if (scope.companyId !== undefined) {
    conditions.push('d.company_id = ?');
    params.push(scope.companyId);
  }
  if (scope.areaId !== undefined) {
    conditions.push('d.employee_id in (select employee_id from area_employee where area_id = ?)');
    params.push(scope.areaId);
  }
  if (conditions.length === 0) throw new Error('markDaysStale needs a scope');
  if (from !== null) {
    conditions.push('d.date >= ?::date');
    params.push(from);
  }
  if (to !== null) {
    conditions.push('d.date <= ?::date');
    params.push(to);
  }
  await em.execute(
    `with marked as (
       update attendance_day d set stale = true
       where ${conditions.join(' and ')} and not d.stale
         and not exists (select 1 from pay_period p where p.company_id = d.company_id and p.locked_at is not null and d.date between p.start_date and p.end_date)
       returning 1)
     select pg_notify('${ATTENDANCE_CHANNEL}', '') from (select 1 from marked limit 1) m`,
    params,
  );
}

export type StaleMark = { scope: StaleScope; from: string | null; to: string | null };

/**
 * Flushes the caller's pending changes and marks the days they affect stale, in one transaction on
 * the same EntityManager (a change without its mark, or a mark without its change, never commits);
 * `also` adds more work to that transaction.
 */
export async function flushWithStaleMarks(em: EntityManager, marks: StaleMark[], also?: (em: EntityManager) => Promise<void>): Promise<void> {
  await em.begin();
  try {
    await em.flush();
    for (const mark of marks) await markDaysStale(em, mark.scope, mark.from, mark.to);
    if (also) await also(em);
    await em.commit();
  } catch (error) {
    await em.rollback();
    throw error;
  }
}

/**
 * Computes and stores every day of a company's employees from `from` to `to` (a pay period being
 * locked: what it freezes must be current). In the caller's transaction, which holds the attendance
 * lock; a few hundred employees at a time so that memory stays flat.
 */
export async function refreshCompanyDays(ctx: RequestContext, companyId: number, from: string, to: string): Promise<void> {
  // A deleted employee's days are computed up to the local date of their deletion, never after it.
  const rows = await ctx.em.execute<{ id: number; last_date: string | null }[]>(
    `select e.id, (e.deleted_at at time zone w.time_zone)::date::text as last_date from employee e join workspace w on w.id = e.workspace_id
     where e.company_id = ? and (e.deleted_at is null or (e.deleted_at at time zone w.time_zone)::date >= ?::date) order by e.id`,
    [companyId, from],
  );
  for (let i = 0; i < rows.length; i += 200) {
    const wanted: WantedDays = new Map();
    for (const row of rows.slice(i, i + 200)) want(wanted, row.id, from, row.last_date !== null && row.last_date < to ? row.last_date : to);
    await refreshDays(ctx, wanted, { announceNew: false });
  }
}
