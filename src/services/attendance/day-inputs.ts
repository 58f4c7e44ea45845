// What computing some employees' days reads from the database (punches, shifts, assignments,
// rosters, overrides, holidays, locked pay periods, the days stored before, approved leave and
// overtime), in a fixed number of queries: the load step of refreshDays (day-store.ts), whose plan
// (day-plan.ts) is pure.
import type { EntityManager } from '@mikro-orm/postgresql';
import { intArray, textArray } from '../common/sql-arrays';
import { addDays, datesFrom } from '../../kernel/calendar-date';
import type { DayAbsence, Pairing } from './compute-days';
import { loadApprovedAbsences } from './day-absences';
import { loadOvertimeApprovals } from './overtime-approval-days';
import { DAY_RECORD_COLUMNS, type DayRecord } from './day-record';
import type { RecordedBreakRule, RoundingMode } from './minute-rules';
import { weekOf, type DayOvertimeApproval, type PayPolicy } from './pay-rules';

/** employee id -> the local dates to compute. */
export type WantedDays = Map<number, Set<string>>;

export function want(wanted: WantedDays, employeeId: number, from: string, to: string): void {
  let dates = wanted.get(employeeId);
  if (!dates) wanted.set(employeeId, (dates = new Set()));
  for (const date of datesFrom(from, to)) dates.add(date);
}

export interface ShiftRow {
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

export interface AssignmentRow {
  shift_id: number | null;
  roster_id: number | null;
  employee_id: number | null;
  area_id: number | null;
  start_date: string;
  end_date: string | null;
}

export interface EmployeeRow {
  id: number;
  company_id: number;
  workspace_id: number;
  time_zone: string;
  pay_policy: Partial<PayPolicy>;
  employment_start_date: string | null;
  employment_end_date: string | null;
}

export interface PunchRow {
  id: number;
  employee_id: number;
  punch_time: Date;
  punch_state: string;
  manual: boolean;
  voided: boolean;
  received_at: Date;
}

/** A day stored before the computation, with its flags. */
export type StoredDayRow = Omit<DayRecord, 'first_in' | 'last_out'> & {
  first_in: Date | null;
  last_out: Date | null;
  stale: boolean;
  settles_at: string | null;
};

export interface DayInputs {
  employees: EmployeeRow[];
  shifts: ShiftRow[];
  memberships: { area_id: number; employee_id: number }[];
  assignments: AssignmentRow[];
  rosters: { id: number; start_date: string; days: (number | null)[] }[];
  overrides: { employee_id: number; date: string; shift_id: number | null }[];
  holidays: { company_id: number; date: string }[];
  locks: { company_id: number; start_date: string; end_date: string; locked_at: Date }[];
  punches: PunchRow[];
  stored: StoredDayRow[];
  /** employee id -> local date -> approved leave. */
  absences: Map<number, Map<string, DayAbsence>>;
  /** employee id -> local date -> overtime approval. */
  overtimeApprovals: Map<number, Map<string, DayOvertimeApproval>>;
}

/** Everything the computation of some employees' days needs, read in a fixed number of queries. */
export async function loadDayInputs(em: EntityManager, wanted: WantedDays): Promise<DayInputs> {
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
  const employees = await em.execute<EmployeeRow[]>(
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
  const punches = await em.execute<PunchRow[]>(
    `select p.id::float8 as id, p.employee_id, p.punch_time, p.punch_state, p.record_type = 'manual' as manual, p.voided_at is not null as voided, p.received_at
     from ${ranges} join punch p on p.employee_id = r.employee_id and p.punch_time >= r.first_date - 2 and p.punch_time < r.last_date + 3`,
    rangeParams,
  );
  const stored = await em.execute<StoredDayRow[]>(
    `select ${DAY_RECORD_COLUMNS}, d.stale, d.settles_at
     from ${ranges} join attendance_day d on d.employee_id = r.employee_id and d.date between r.first_date and r.last_date`,
    rangeParams,
  );
  const absences = await loadApprovedAbsences(em, employeeIds, from, to);
  const overtimeApprovals = await loadOvertimeApprovals(em, employeeIds, from, to);
  return { employees, shifts, memberships, assignments, rosters, overrides, holidays, locks, punches, stored, absences, overtimeApprovals };
}

/**
 * Weekly overtime moves minutes between the days of a week, so an employee whose company has a
 * weekly threshold is computed in whole pay weeks: a punch on Monday can change Friday's pay items.
 */
export async function wholeWeeks(em: EntityManager, wanted: WantedDays): Promise<void> {
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
