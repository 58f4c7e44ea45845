// The plan step of refreshDays (day-store.ts): from what day-inputs.ts loaded, which days to write,
// with what, and which to announce. Pure: no database, no clock (`now` is given), so the rules that
// decide a stored day (its shift, locked pay periods, what counts as a change) are unit-tested
// without PostgreSQL (test/unit/services/day-plan.test.ts). The day arithmetic itself is
// compute-days.ts.
import { addDays } from '../../kernel/calendar-date';
import { type AttendanceDay, computeDays, type DayPunch, DUPLICATE_WINDOW_MS, settleDays, type ShiftRules } from './compute-days';
import type { DayInputs, EmployeeRow, ShiftRow, AssignmentRow } from './day-inputs';
import { dayRecordOf, iso, type DayRecord } from './day-record';
import { scheduledShift, type ScheduleAssignment, type ScheduleRoster } from './schedule';
import { heldByPrevious } from './shift-boundary';
import { applyOvertimeApproval, effectivePolicy, payItemList } from './pay-rules';

export interface PlanOptions {
  /**
   * Announce days stored for the first time when they hold punches (the worker: a first punch makes
   * a day). A day first computed without punches (the absent neighbour of a punch's day, a gap a
   * read fills) is nobody's news. A first day of approved leave is (the decision made it).
   */
  announceNew: boolean;
}

/** A day to store: new, changed, or with flags (stale, settles_at) to clear or move. */
export interface DayWrite {
  record: DayRecord;
  workspaceId: number;
  /** When the day's values may still change with time alone (an open shift): the worker looks again then. */
  settlesAt: Date | null;
  /** Whether an `attendance.day.updated` event tells it. */
  announce: boolean;
}

type TimedPunch = DayPunch & { receivedAt: Date };

/** The loaded inputs arranged for lookups by employee, company and date; built once per refresh. */
export interface DayIndex {
  input: DayInputs;
  shiftsById: Map<number, ShiftRow>;
  defaultShift: Map<number, ShiftRow>;
  holidays: Map<number, Set<string>>;
  stored: Map<string, DayRecord & { stale: boolean; settles_at: string | null }>;
  punches: Map<number, TimedPunch[]>;
  areasOf: Map<number, Set<number>>;
  assignments: ScheduleAssignment[];
  rosters: Map<number, ScheduleRoster>;
  overridesOf: Map<number, Map<string, number | null>>;
  /** One rules object per shift and kind, so that runs of dates under the same rules are found by identity. */
  rulesFor: (row: ShiftRow, everyDay: boolean) => ShiftRules;
}

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => (map.get(key) ?? map.set(key, []).get(key)!).push(value);

const byTime = (a: DayPunch, b: DayPunch) => a.at.getTime() - b.at.getTime() || a.id - b.id;

/**
 * How far (UTC) from a run's first and last date a punch can still count for the run: its shift
 * instances start the day before, last up to a day, open their windows up to 12 hours before and
 * after (shift.service.ts), and a zone is up to 14 hours from UTC. Four days hold all of it.
 */
const RUN_MARGIN_MS = 4 * 86_400_000;

/**
 * The punches (sorted by time) that can count for the dates `from`..`to`: a slice around them, not
 * the employee's whole history (a run per scattered date over a history of years made planning
 * quadratic). The slice starts after a gap of a minute or more, so that which punch counts as a
 * duplicate (DUPLICATE_WINDOW_MS, against the last one kept) is what it is with every punch.
 */
export function punchesAround<T extends DayPunch>(sorted: readonly T[], from: string, to: string): readonly T[] {
  const first = Date.parse(`${from}T00:00:00Z`) - RUN_MARGIN_MS;
  const last = Date.parse(`${to}T00:00:00Z`) + RUN_MARGIN_MS;
  const firstAtOrAfter = (ms: number) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]!.at.getTime() < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let start = firstAtOrAfter(first);
  while (start > 0 && start < sorted.length && sorted[start]!.at.getTime() - sorted[start - 1]!.at.getTime() < DUPLICATE_WINDOW_MS) start--;
  const end = firstAtOrAfter(last + 1);
  return start === 0 && end === sorted.length ? sorted : sorted.slice(start, end);
}

export function indexDayInputs(input: DayInputs): DayIndex {
  const holidays = new Map<number, Set<string>>();
  for (const h of input.holidays) (holidays.get(h.company_id) ?? holidays.set(h.company_id, new Set()).get(h.company_id)!).add(h.date);
  const punches = new Map<number, TimedPunch[]>();
  for (const p of input.punches) {
    push(punches, p.employee_id, {
      id: p.id,
      at: new Date(p.punch_time),
      state: p.punch_state,
      manual: p.manual,
      voided: p.voided,
      receivedAt: new Date(p.received_at),
    });
  }
  // In time order: a run of dates takes the slice of them around it (punchesAround).
  for (const list of punches.values()) list.sort(byTime);
  const areasOf = new Map<number, Set<number>>();
  for (const m of input.memberships) (areasOf.get(m.employee_id) ?? areasOf.set(m.employee_id, new Set()).get(m.employee_id)!).add(m.area_id);
  const overridesOf = new Map<number, Map<string, number | null>>();
  for (const o of input.overrides) (overridesOf.get(o.employee_id) ?? overridesOf.set(o.employee_id, new Map()).get(o.employee_id)!).set(o.date, o.shift_id);
  // A shift named for the date itself (an override, a roster's entry) runs that day whatever its workdays.
  const rulesCache = new Map<string, ShiftRules>();
  const rulesFor = (row: ShiftRow, everyDay: boolean): ShiftRules => {
    const key = `${row.id}:${everyDay}`;
    let rules = rulesCache.get(key);
    if (!rules) rulesCache.set(key, (rules = everyDay ? { ...rulesOf(row), workdays: [1, 2, 3, 4, 5, 6, 7] } : rulesOf(row)));
    return rules;
  };
  return {
    input,
    shiftsById: new Map(input.shifts.map((s) => [s.id, s])),
    defaultShift: new Map(input.shifts.filter((s) => s.is_default).map((s) => [s.company_id, s])),
    holidays,
    stored: new Map(input.stored.map((row) => [`${row.employee_id}:${row.date}`, dayRecordOf(row)])),
    punches,
    areasOf,
    assignments: input.assignments.map(scheduleAssignmentOf),
    rosters: new Map<number, ScheduleRoster>(input.rosters.map((r) => [r.id, { id: r.id, startDate: r.start_date, days: r.days }])),
    overridesOf,
    rulesFor,
  };
}

/**
 * The writes of one employee's wanted `dates` (sorted): each day computed under the shift that
 * applies to it, weekly overtime settled over them, overtime approvals applied; a day inside a
 * locked pay period keeps its values (or, stored for the first time, what it was at the lock) and
 * only gains `after_lock` when a punch it did not count arrived. Unchanged days are left out.
 */
export function planEmployeeDays(index: DayIndex, employee: EmployeeRow, dates: readonly string[], now: Date, options: PlanOptions): DayWrite[] {
  const { input } = index;
  // Which shift applies on a date (schedule.ts): an override, the own or an area's assignment (a
  // shift or a roster's entry), else the company default.
  const schedule = {
    employeeId: employee.id,
    areaIds: index.areasOf.get(employee.id) ?? new Set<number>(),
    overrides: index.overridesOf.get(employee.id) ?? new Map<string, number | null>(),
    assignments: index.assignments,
    rosters: index.rosters,
    defaultShiftId: index.defaultShift.get(employee.company_id)?.id ?? null,
  };
  const shiftOn = (date: string): ShiftRules | null => {
    const { shiftId, source } = scheduledShift(schedule, date);
    const row = shiftId === null ? undefined : index.shiftsById.get(shiftId);
    return row ? index.rulesFor(row, source === 'override' || source === 'roster') : null;
  };
  const lockOf = (date: string) => input.locks.find((l) => l.company_id === employee.company_id && l.start_date <= date && l.end_date >= date);
  const employment = { startDate: employee.employment_start_date, endDate: employee.employment_end_date };
  const computeRun = (shift: ShiftRules | null, from: string, to: string, dayPunches: readonly DayPunch[]) =>
    computeDays({
      shift,
      from,
      to,
      punches: dayPunches,
      holidays: index.holidays.get(employee.company_id) ?? new Set(),
      now,
      zone: employee.time_zone,
      policy: employee.pay_policy,
      employment,
      absences: input.absences.get(employee.id),
    });
  // Runs of consecutive dates under one shift are computed together; weekly overtime is then
  // settled over all of them (the wanted dates hold whole weeks when the company has it: wholeWeeks).
  const computed: { day: AttendanceDay; shift: ShiftRules | null; runPunches: readonly TimedPunch[] }[] = [];
  let i = 0;
  while (i < dates.length) {
    const shift = shiftOn(dates[i]!);
    let j = i;
    while (j + 1 < dates.length && dates[j + 1] === addDays(dates[j]!, 1) && shiftOn(dates[j + 1]!) === shift) j += 1;
    // The date before runs another shift: the punches its instance holds (a night shift's end) are its own.
    const dayBefore = addDays(dates[i]!, -1);
    const previous = shiftOn(dayBefore);
    const around = punchesAround(index.punches.get(employee.id) ?? [], dates[i]!, dates[j]!);
    const held = previous !== shift ? heldByPrevious(previous, dayBefore, shift, around) : new Set<DayPunch>();
    const runPunches = held.size === 0 ? around : around.filter((p) => !held.has(p));
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
  const writes: DayWrite[] = [];
  for (const { day, shift, runPunches } of computed) {
    const before = index.stored.get(`${employee.id}:${day.date}`);
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
      before !== undefined && (before.stale || (before.settles_at === null ? null : new Date(before.settles_at).getTime()) !== (settlesAt?.getTime() ?? null));
    if (changed || flagsChanged)
      writes.push({
        record,
        workspaceId: employee.workspace_id,
        settlesAt,
        announce: changed && (before !== undefined || (options.announceNew && (record.punch_ids.length > 0 || record.absence_type_id !== null))),
      });
  }
  return writes;
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
