// Stored attendance days: computing them from the database's punches, shifts, assignments, holidays
// and pay periods (the pure rules are compute-days.ts), writing what changed, and announcing it
// (`attendance.day.updated`). Every writer holds the attendance lock (ATTENDANCE_LOCK) for its
// transaction, so two computations of one day never race and an older result never overwrites a
// newer one: the worker (attendance-worker.ts), a timesheet read that finds days never computed,
// and a pay period being locked.
import { LOCK_KEYS } from '../../kernel/lock-keys';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ATTENDANCE_CHANNEL, recordEvents, type NewEvent } from '../../events/outbox';
import { withEm, type RequestContext } from '../../context/request-context';
import { afterCommit } from '../../db/after-commit';
import { executeBound } from '../../db/prepared-statement';
import { intArray, textArray } from '../common/sql-arrays';
import { addDays, datesFrom } from '../../kernel/calendar-date';
import { CpuSlice } from '../../kernel/cpu-slice';
import { type AttendanceDay, computeDays, type DayPunch, type Pairing, settleDays, type ShiftRules } from './compute-days';
import { scheduledShift, type ScheduleAssignment, type ScheduleRoster } from './schedule';
import { heldByPrevious } from './shift-boundary';
import { loadApprovedAbsences } from './day-absences';
import { loadOvertimeApprovals } from './overtime-approval-days';
import type { RecordedBreakRule, RoundingMode } from './minute-rules';
import { applyOvertimeApproval, effectivePolicy, payItemList, weekOf, type PayItem, type PayPolicy } from './pay-rules';

/** pg_advisory_xact_lock key of the attendance writers (src/kernel/lock-keys.ts). */
export const ATTENDANCE_LOCK = LOCK_KEYS.attendanceWritersHex;
export const DAY_UPDATED_EVENT = 'attendance.day.updated';

/** employee id -> the local dates to compute. */
export type WantedDays = Map<number, Set<string>>;

export function want(wanted: WantedDays, employeeId: number, from: string, to: string): void {
  let dates = wanted.get(employeeId);
  if (!dates) wanted.set(employeeId, (dates = new Set()));
  for (const date of datesFrom(from, to)) dates.add(date);
}

/** A stored day as the APIs and events show it (snake_case, ISO 8601 UTC times). */
export interface DayRecord {
  employee_id: number;
  company_id: number;
  date: string;
  shift_id: number | null;
  status: string;
  first_in: string | null;
  last_out: string | null;
  scheduled_minutes: number;
  worked_minutes: number;
  break_minutes: number;
  late_minutes: number;
  early_leave_minutes: number;
  overtime_minutes: number;
  /** Overtime waiting for approval (a company whose policy requires it): not in pay_items until approved. */
  pending_overtime_minutes: number;
  pay_items: PayItem[];
  exceptions: string[];
  punch_ids: number[];
  absence_type_id: number | null;
  absence_code: string | null;
  leave_minutes: number;
}

/**
 * The SQL select list that reads an attendance_day row as a DayRecord. Punch ids are 64-bit, which
 * node-pg returns as strings; as float8 they arrive as numbers, exact below 2^53 (every punch id).
 */
export const DAY_RECORD_COLUMNS = `d.employee_id, d.company_id, d.date::text as date, d.shift_id, d.status, d.first_in, d.last_out,
  d.scheduled_minutes, d.worked_minutes, d.break_minutes, d.late_minutes, d.early_leave_minutes, d.overtime_minutes, d.pending_overtime_minutes,
  d.pay_items, d.exceptions, d.punch_ids::float8[] as punch_ids, d.absence_type_id, d.absence_code, d.leave_minutes`;

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** A row selected with DAY_RECORD_COLUMNS (times come back as Dates) as a DayRecord. */
export function dayRecordOf<T extends Omit<DayRecord, 'first_in' | 'last_out'> & { first_in: Date | string | null; last_out: Date | string | null }>(
  row: T,
): DayRecord & Omit<T, keyof DayRecord> {
  return { ...row, first_in: iso(row.first_in), last_out: iso(row.last_out) };
}

function recordOf(employeeId: number, companyId: number, day: AttendanceDay): DayRecord {
  return {
    employee_id: employeeId,
    company_id: companyId,
    date: day.date,
    shift_id: day.shiftId,
    status: day.status,
    first_in: iso(day.firstIn),
    last_out: iso(day.lastOut),
    scheduled_minutes: day.scheduledMinutes,
    worked_minutes: day.workedMinutes,
    break_minutes: day.breakMinutes,
    late_minutes: day.lateMinutes,
    early_leave_minutes: day.earlyLeaveMinutes,
    overtime_minutes: day.overtimeMinutes,
    pending_overtime_minutes: day.pendingOvertimeMinutes,
    // Paid leave is a pay item of its own, under the absence type's code.
    pay_items: [...payItemList(day.pay), ...(day.absenceCode !== null && day.leaveMinutes > 0 ? [{ code: day.absenceCode, minutes: day.leaveMinutes }] : [])],
    exceptions: day.exceptions,
    punch_ids: day.punchIds,
    absence_type_id: day.absenceTypeId,
    absence_code: day.absenceCode,
    leave_minutes: day.leaveMinutes,
  };
}

const sameRecord = (a: DayRecord, b: DayRecord) => JSON.stringify(a) === JSON.stringify(b);

interface ShiftRow {
  id: number;
  company_id: number;
  start_time: string;
  end_time: string;
  time_zone: string;
  workdays: number[];
  break_minutes: number;
  break_after_minutes: number;
  grace_in_minutes: number;
  grace_out_minutes: number;
  check_in_before_minutes: number;
  check_out_after_minutes: number;
  pairing: Pairing;
  rounding_minutes: number | null;
  rounding_mode: RoundingMode;
  recorded_break: RecordedBreakRule;
  pay_policy: Partial<PayPolicy>;
  flexible: boolean;
  core_start: string | null;
  core_end: string | null;
  required_minutes: number | null;
  is_default: boolean;
}

interface AssignmentRow {
  shift_id: number | null;
  roster_id: number | null;
  employee_id: number | null;
  area_id: number | null;
  start_date: string;
  end_date: string | null;
}

const scheduleAssignmentOf = (a: AssignmentRow): ScheduleAssignment => ({
  shiftId: a.shift_id,
  rosterId: a.roster_id,
  employeeId: a.employee_id,
  areaId: a.area_id,
  startDate: a.start_date,
  endDate: a.end_date,
});

function rulesOf(row: ShiftRow): ShiftRules {
  return {
    id: row.id,
    startTime: row.start_time,
    endTime: row.end_time,
    timeZone: row.time_zone,
    workdays: row.workdays,
    breakMinutes: row.break_minutes,
    breakAfterMinutes: row.break_after_minutes,
    graceInMinutes: row.grace_in_minutes,
    graceOutMinutes: row.grace_out_minutes,
    checkInBeforeMinutes: row.check_in_before_minutes,
    checkOutAfterMinutes: row.check_out_after_minutes,
    pairing: row.pairing,
    roundingMinutes: row.rounding_minutes,
    roundingMode: row.rounding_mode,
    recordedBreak: row.recorded_break,
    payPolicy: row.pay_policy,
    flexible: row.flexible,
    coreStart: row.core_start,
    coreEnd: row.core_end,
    requiredMinutes: row.required_minutes,
  };
}

/** Everything the computation of some employees' days needs, read in a fixed number of queries. */
async function loadInputs(em: EntityManager, wanted: WantedDays) {
  const employeeIds = [...wanted.keys()];
  // Each employee's own date range: one employee's punch re-sent from last year must not make
  // every other employee of the batch load a year of punches.
  const firsts: string[] = [];
  const lasts: string[] = [];
  let from = '9999-12-31';
  let to = '0000-01-01';
  for (const dates of wanted.values()) {
    const sorted = [...dates].sort();
    firsts.push(sorted[0]!);
    lasts.push(sorted.at(-1)!);
    if (sorted[0]! < from) from = sorted[0]!;
    if (sorted.at(-1)! > to) to = sorted.at(-1)!;
  }
  const ranges = `unnest(?::int[], ?::date[], ?::date[]) as r(employee_id, first_date, last_date)`;
  const rangeParams = [intArray(employeeIds), textArray(firsts), textArray(lasts)];
  const employees = await em.execute<
    {
      id: number;
      company_id: number;
      workspace_id: number;
      time_zone: string;
      pay_policy: Partial<PayPolicy>;
      employment_start_date: string | null;
      employment_end_date: string | null;
    }[]
  >(
    `select e.id, e.company_id, e.workspace_id, w.time_zone, c.pay_policy, e.employment_start_date::text, e.employment_end_date::text
     from employee e join workspace w on w.id = e.workspace_id join company c on c.id = e.company_id where e.id = any(?::int[])`,
    [intArray(employeeIds)],
  );
  const companyIds = [...new Set(employees.map((e) => e.company_id))];
  // One query after another: they share the transaction's connection.
  const shifts = await em.execute<ShiftRow[]>(`select * from shift where company_id = any(?::int[])`, [intArray(companyIds)]);
  const memberships = await em.execute<{ area_id: number; employee_id: number }[]>(
    `select area_id, employee_id from area_employee where employee_id = any(?::int[]) order by area_id`,
    [intArray(employeeIds)],
  );
  const assignments = await em.execute<AssignmentRow[]>(
    `select shift_id, roster_id, employee_id, area_id, start_date::text, end_date::text from shift_assignment
     where (employee_id = any(?::int[]) or area_id in (select area_id from area_employee where employee_id = any(?::int[])))
       and start_date <= ?::date and (end_date is null or end_date >= ?::date - 1)
     order by area_id nulls first, start_date`,
    [intArray(employeeIds), intArray(employeeIds), to, from],
  );
  const rosters = await em.execute<{ id: number; start_date: string; days: (number | null)[] }[]>(
    `select id, start_date::text, days from roster where id = any(?::int[])`,
    [intArray([...new Set(assignments.flatMap((a) => (a.roster_id === null ? [] : [a.roster_id])))])],
  );
  // A day's override decides its shift, and that shift's window may reach the neighbouring dates.
  const overrides = await em.execute<{ employee_id: number; date: string; shift_id: number | null }[]>(
    `select o.employee_id, o.date::text, o.shift_id from ${ranges} join schedule_override o on o.employee_id = r.employee_id and o.date between r.first_date - 1 and r.last_date + 1`,
    rangeParams,
  );
  const holidays = await em.execute<{ company_id: number; date: string }[]>(
    `select company_id, date::text from holiday where company_id = any(?::int[]) and date between ?::date - 1 and ?::date + 1`,
    [intArray(companyIds), from, to],
  );
  const locks = await em.execute<{ company_id: number; start_date: string; end_date: string; locked_at: Date }[]>(
    `select company_id, start_date::text, end_date::text, locked_at from pay_period
     where company_id = any(?::int[]) and locked_at is not null and start_date <= ?::date and end_date >= ?::date`,
    [intArray(companyIds), to, from],
  );
  // Two days either side: a night shift's window reaches into the next date, and zones lie up to 14 h from UTC.
  const punches = await em.execute<
    { id: number; employee_id: number; punch_time: Date; punch_state: string; manual: boolean; voided: boolean; received_at: Date }[]
  >(
    `select p.id::float8 as id, p.employee_id, p.punch_time, p.punch_state, p.record_type = 'manual' as manual, p.voided_at is not null as voided, p.received_at
     from ${ranges} join punch p on p.employee_id = r.employee_id and p.punch_time >= r.first_date - 2 and p.punch_time < r.last_date + 3`,
    rangeParams,
  );
  const stored = await em.execute<
    (Omit<DayRecord, 'first_in' | 'last_out'> & { first_in: Date | null; last_out: Date | null; stale: boolean; settles_at: string | null })[]
  >(
    `select ${DAY_RECORD_COLUMNS}, d.stale, d.settles_at
     from ${ranges} join attendance_day d on d.employee_id = r.employee_id and d.date between r.first_date and r.last_date`,
    rangeParams,
  );
  const absences = await loadApprovedAbsences(em, employeeIds, from, to);
  const overtimeApprovals = await loadOvertimeApprovals(em, employeeIds, from, to);
  return { employees, shifts, memberships, assignments, rosters, overrides, holidays, locks, punches, stored, absences, overtimeApprovals };
}

export interface RefreshOptions {
  /**
   * Announce days stored for the first time when they hold punches (the worker: a first punch makes
   * a day). A day first computed without punches (the absent neighbour of a punch's day, a gap a
   * read fills) is nobody's news. A first day of approved leave is (the decision made it).
   */
  announceNew: boolean;
}

/**
 * Computes the wanted days, stores those that are new or changed, clears their stale marks and
 * announces the changes. Runs in the caller's transaction (ctx.em), which must hold ATTENDANCE_LOCK.
 * Days inside a locked pay period keep their values: a punch that arrives for one adds the
 * `after_lock` exception and nothing else. Returns how many days changed.
 */
export async function refreshDays(ctx: RequestContext, wanted: WantedDays, options: RefreshOptions): Promise<number> {
  if (wanted.size === 0) return 0;
  const em = ctx.em;
  await wholeWeeks(em, wanted);
  const input = await loadInputs(em, wanted);
  const now = ctx.now();
  const shiftsById = new Map(input.shifts.map((s) => [s.id, s]));
  const defaultShift = new Map(input.shifts.filter((s) => s.is_default).map((s) => [s.company_id, s]));
  const holidays = new Map<number, Set<string>>();
  for (const h of input.holidays) (holidays.get(h.company_id) ?? holidays.set(h.company_id, new Set()).get(h.company_id)!).add(h.date);
  const stored = new Map(input.stored.map((row) => [`${row.employee_id}:${row.date}`, dayRecordOf(row)]));
  const punches = new Map<number, (DayPunch & { receivedAt: Date })[]>();
  for (const p of input.punches) {
    (punches.get(p.employee_id) ?? punches.set(p.employee_id, []).get(p.employee_id)!).push({
      id: p.id,
      at: new Date(p.punch_time),
      state: p.punch_state,
      manual: p.manual,
      voided: p.voided,
      receivedAt: new Date(p.received_at),
    });
  }
  const areasOf = new Map<number, Set<number>>();
  for (const m of input.memberships) (areasOf.get(m.employee_id) ?? areasOf.set(m.employee_id, new Set()).get(m.employee_id)!).add(m.area_id);
  const assignments = input.assignments.map(scheduleAssignmentOf);
  const rosters = new Map<number, ScheduleRoster>(input.rosters.map((r) => [r.id, { id: r.id, startDate: r.start_date, days: r.days }]));
  const overridesOf = new Map<number, Map<string, number | null>>();
  for (const o of input.overrides) (overridesOf.get(o.employee_id) ?? overridesOf.set(o.employee_id, new Map()).get(o.employee_id)!).set(o.date, o.shift_id);
  // One rules object per shift and kind, so that runs of dates under the same rules are found by identity.
  // A shift named for the date itself (an override, a roster's entry) runs that day whatever its workdays.
  const rulesCache = new Map<string, ShiftRules>();
  const rulesFor = (row: ShiftRow, everyDay: boolean): ShiftRules => {
    const key = `${row.id}:${everyDay}`;
    let rules = rulesCache.get(key);
    if (!rules) rulesCache.set(key, (rules = everyDay ? { ...rulesOf(row), workdays: [1, 2, 3, 4, 5, 6, 7] } : rulesOf(row)));
    return rules;
  };

  const writes: { record: DayRecord; workspaceId: number; settlesAt: Date | null; announce: boolean }[] = [];
  // A year of days for 200 employees is seconds of CPU: computed in slices, other requests go in between.
  const slice = new CpuSlice();
  for (const employee of input.employees) {
    if (slice.spent()) await slice.pause();
    const dates = [...wanted.get(employee.id)!].sort();
    // Which shift applies on a date (schedule.ts): an override, the own or an area's assignment (a
    // shift or a roster's entry), else the company default.
    const schedule = {
      employeeId: employee.id,
      areaIds: areasOf.get(employee.id) ?? new Set<number>(),
      overrides: overridesOf.get(employee.id) ?? new Map<string, number | null>(),
      assignments,
      rosters,
      defaultShiftId: defaultShift.get(employee.company_id)?.id ?? null,
    };
    const shiftOn = (date: string): ShiftRules | null => {
      const { shiftId, source } = scheduledShift(schedule, date);
      const row = shiftId === null ? undefined : shiftsById.get(shiftId);
      return row ? rulesFor(row, source === 'override' || source === 'roster') : null;
    };
    const lockOf = (date: string) => input.locks.find((l) => l.company_id === employee.company_id && l.start_date <= date && l.end_date >= date);
    const employment = { startDate: employee.employment_start_date, endDate: employee.employment_end_date };
    const computeRun = (shift: ShiftRules | null, from: string, to: string, dayPunches: readonly DayPunch[]) =>
      computeDays({
        shift,
        from,
        to,
        punches: dayPunches,
        holidays: holidays.get(employee.company_id) ?? new Set(),
        now,
        zone: employee.time_zone,
        policy: employee.pay_policy,
        employment,
        absences: input.absences.get(employee.id),
      });
    // Runs of consecutive dates under one shift are computed together; weekly overtime is then
    // settled over all of them (the wanted dates hold whole weeks when the company has it: wholeWeeks).
    const computed: { day: AttendanceDay; shift: ShiftRules | null; runPunches: readonly (DayPunch & { receivedAt: Date })[] }[] = [];
    let i = 0;
    while (i < dates.length) {
      const shift = shiftOn(dates[i]!);
      let j = i;
      while (j + 1 < dates.length && dates[j + 1] === addDays(dates[j]!, 1) && shiftOn(dates[j + 1]!) === shift) j += 1;
      // The date before runs another shift: the punches its instance holds (a night shift's end) are its own.
      const dayBefore = addDays(dates[i]!, -1);
      const previous = shiftOn(dayBefore);
      const allPunches = punches.get(employee.id) ?? [];
      const held = previous !== shift ? heldByPrevious(previous, dayBefore, shift, allPunches) : new Set<DayPunch>();
      const runPunches = held.size === 0 ? allPunches : allPunches.filter((p) => !held.has(p));
      for (const day of computeRun(shift, dates[i]!, dates[j]!, runPunches)) computed.push({ day, shift, runPunches });
      i = j + 1;
    }
    settleDays(
      computed.map((c) => c.day),
      employee.pay_policy,
    );
    // Overtime approval comes after weekly settlement: the week's overtime lands on days, each approved on its own.
    const approvals = effectivePolicy(employee.pay_policy, null).overtimeRequiresApproval ? (input.overtimeApprovals.get(employee.id) ?? new Map()) : null;
    const gate = (day: AttendanceDay): AttendanceDay => {
      if (approvals) {
        day.pendingOvertimeMinutes = applyOvertimeApproval(day.pay, approvals.get(day.date));
        day.overtimeMinutes = day.pay.overtime + day.pay.double_time;
      }
      return day;
    };
    for (const { day } of computed) gate(day);
    for (const { day, shift, runPunches } of computed) {
      const before = stored.get(`${employee.id}:${day.date}`);
      let record = recordOf(employee.id, employee.company_id, day);
      let settlesAt = day.settlesAt;
      const lock = lockOf(day.date);
      if (!before && lock) {
        // A locked day stored for the first time (an employee or punches attached after the lock):
        // it is what it was at the lock, from the punches received by then; later ones are flagged.
        const atLock = gate(
          computeRun(
            shift,
            day.date,
            day.date,
            runPunches.filter((p) => p.receivedAt <= new Date(lock.locked_at)),
          )[0]!,
        );
        const late = record.punch_ids.some((id) => !atLock.punchIds.includes(id));
        record = recordOf(employee.id, employee.company_id, atLock);
        if (late) record.exceptions = [...record.exceptions, 'after_lock'].sort();
        settlesAt = null;
      }
      if (before && lock) {
        // A locked day keeps its values; a punch it did not count is flagged, nothing more.
        const arrivedLate = record.punch_ids.some((id) => !before.punch_ids.includes(id));
        const { stale: _stale, settles_at: _settles, ...kept } = before;
        record = { ...kept, exceptions: arrivedLate && !kept.exceptions.includes('after_lock') ? [...kept.exceptions, 'after_lock'].sort() : kept.exceptions };
        settlesAt = null;
      }
      const changed = !before || !sameRecord(record, { ...before, stale: undefined, settles_at: undefined } as unknown as DayRecord);
      const flagsChanged =
        before !== undefined &&
        (before.stale || (before.settles_at === null ? null : new Date(before.settles_at).getTime()) !== (settlesAt?.getTime() ?? null));
      if (changed || flagsChanged)
        writes.push({
          record,
          workspaceId: employee.workspace_id,
          settlesAt,
          announce: changed && (before !== undefined || (options.announceNew && (record.punch_ids.length > 0 || record.absence_type_id !== null))),
        });
    }
  }
  if (writes.length === 0) return 0;
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
  const events: NewEvent[] = writes.filter((w) => w.announce).map((w) => ({ workspaceId: w.workspaceId, type: DAY_UPDATED_EVENT, data: { ...w.record } }));
  await recordEvents(withEm(ctx, em), events);
  observeDayDelays(ctx, em, input, writes, now);
  return events.length;
}

/**
 * Punches that a stored day counts for the first time (listed by none of the days read before):
 * each one's delay from stored to its day stored is observed once the transaction commits (the
 * punch → day SLI of docs/operations.md), whichever path computed the day (worker, live lane, read).
 */
function observeDayDelays(
  ctx: RequestContext,
  em: EntityManager,
  input: Awaited<ReturnType<typeof loadInputs>>,
  writes: ReadonlyArray<{ record: DayRecord }>,
  now: Date,
): void {
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

/**
 * Weekly overtime moves minutes between the days of a week, so an employee whose company has a
 * weekly threshold is computed in whole pay weeks: a punch on Monday can change Friday's pay items.
 */
async function wholeWeeks(em: EntityManager, wanted: WantedDays): Promise<void> {
  const weekly = await em.execute<{ id: number; week_start: number }[]>(
    `select e.id, coalesce((c.pay_policy->>'weekStart')::int, 1) as week_start from employee e join company c on c.id = e.company_id
     where e.id = any(?::int[]) and c.pay_policy->>'weeklyOvertimeAfterMinutes' is not null`,
    [intArray([...wanted.keys()])],
  );
  for (const { id, week_start } of weekly) {
    const dates = wanted.get(id)!;
    for (const date of [...dates]) {
      const first = weekOf(date, week_start);
      if (!dates.has(first) || !dates.has(addDays(first, 6))) want(wanted, id, first, addDays(first, 6));
    }
  }
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
