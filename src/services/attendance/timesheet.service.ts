// Reading attendance days: the days of a date range (at most 366 days) for the employees of a
// filter, and one summary row per employee. Days never computed yet (an employee without punches,
// dates before the service stored days) or marked stale are computed first, under the attendance
// lock, so a read always answers with what the engine says now.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../errors/domain-error';
import { withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { intArray, textArray } from '../common/sql-arrays';
import { CpuSlice } from '../../kernel/cpu-slice';
import { daysBetween } from '../../kernel/calendar-date';
import { FieldChecker, MAX_SPAN_DAYS } from '../common/validation';
import { noteWorkspaceWrite, readFromReplica } from '../common/replica-read';
import { daysOfUntakenPunches, hasPendingDays, processPendingDays } from './pending-days';
import { PAY_CODES, type PayItem } from './pay-rules';
import { refreshDays, takeAttendanceLock } from './day-store';
import type { WantedDays } from './day-inputs';
import { DAY_RECORD_COLUMNS, dayRecordOf, dayViewOf, type DayView } from './day-record';

export const MAX_TIMESHEET_DAYS = MAX_SPAN_DAYS;
/**
 * Employees computed per transaction when a read finds days to compute: a year of days for 50 is
 * one statement of about 18,000 rows, whose JSON is built in one synchronous go.
 */
const EMPLOYEES_PER_FILL = 50;

export interface TimesheetFilter {
  startDate: string;
  endDate: string;
  employeeId?: number | null;
  companyId?: number | null;
  areaId?: number | null;
}

/** One employee's totals over a range, as the service returns them (camelCase). */
export interface SummaryView {
  employeeId: number;
  daysPresent: number;
  daysAbsent: number;
  daysIncomplete: number;
  workedMinutes: number;
  overtimeMinutes: number;
  lateMinutes: number;
  daysLeave: number;
  leaveMinutes: number;
  payItems: PayItem[];
  /** Overtime waiting for approval (not in payItems). */
  pendingOvertimeMinutes: number;
}

/** A summary row as the SQL below selects it (column names). */
interface SummaryRow {
  employee_id: number;
  days_present: number;
  days_absent: number;
  days_incomplete: number;
  worked_minutes: number;
  overtime_minutes: number;
  late_minutes: number;
  days_leave: number;
  leave_minutes: number;
  pending_overtime_minutes: number;
}

/** A summary row and its pay items as the view. */
function summaryViewOf(row: SummaryRow, payItems: PayItem[]): SummaryView {
  return {
    employeeId: row.employee_id,
    daysPresent: row.days_present,
    daysAbsent: row.days_absent,
    daysIncomplete: row.days_incomplete,
    workedMinutes: row.worked_minutes,
    overtimeMinutes: row.overtime_minutes,
    lateMinutes: row.late_minutes,
    daysLeave: row.days_leave,
    leaveMinutes: row.leave_minutes,
    payItems,
    pendingOvertimeMinutes: row.pending_overtime_minutes,
  };
}

function checkRange(filter: TimesheetFilter): void {
  const check = new FieldChecker();
  const start = check.date('startDate', filter.startDate, { required: true });
  const end = check.date('endDate', filter.endDate, { required: true });
  if (start && end) check.span({ start: 'startDate', end: 'endDate' }, filter.startDate, filter.endDate, MAX_TIMESHEET_DAYS);
  check.done();
}

/**
 * An employee of a timesheet, and the last local date they existed: a deleted employee's history
 * stays readable (payroll of the periods they worked), and no day after their deletion is computed.
 */
interface SheetEmployee {
  id: number;
  lastDate: string | null;
}

/**
 * The filter's employees in id order, deleted ones included when they existed on a date of the range;
 * a filter naming what this workspace does not have is a 404.
 */
async function employeesOf(ctx: RequestContext, workspaceId: number, filter: TimesheetFilter): Promise<SheetEmployee[]> {
  const em = ctx.em;
  const exists = async (table: string, id: number, name: string) => {
    const [row] = await em.execute(`select 1 from ${table} where id = ? and workspace_id = ?`, [id, workspaceId]);
    if (!row) throw DomainError.notFound(name, id);
  };
  if (filter.employeeId != null) await exists('employee', filter.employeeId, 'Employee');
  if (filter.companyId != null) await exists('company', filter.companyId, 'Company');
  if (filter.areaId != null) await exists('area', filter.areaId, 'Area');
  const conditions = ['e.workspace_id = ?', `(e.deleted_at is null or (e.deleted_at at time zone w.time_zone)::date >= ?::date)`];
  const params: unknown[] = [workspaceId, filter.startDate];
  if (filter.employeeId != null) {
    conditions.push('e.id = ?');
    params.push(filter.employeeId);
  }
  if (filter.companyId != null) {
    conditions.push('e.company_id = ?');
    params.push(filter.companyId);
  }
  if (filter.areaId != null) {
    conditions.push('e.id in (select employee_id from area_employee where area_id = ?)');
    params.push(filter.areaId);
  }
  const rows = await em.execute<{ id: number; last_date: string | null }[]>(
    `select e.id, (e.deleted_at at time zone w.time_zone)::date::text as last_date
     from employee e join workspace w on w.id = e.workspace_id where ${conditions.join(' and ')} order by e.id`,
    params,
  );
  return rows.map((r) => ({ id: r.id, lastDate: r.last_date }));
}

/** The dates of the range each employee has (up to a deleted employee's last date), summed. */
function datesOwed(employees: SheetEmployee[], filter: TimesheetFilter): number {
  let owed = 0;
  for (const e of employees) {
    const last = e.lastDate !== null && e.lastDate < filter.endDate ? e.lastDate : filter.endDate;
    owed += Math.max(0, daysBetween(filter.startDate, last) + 1);
  }
  return owed;
}

/**
 * True when every day of the range these employees owe is stored, none stale and none due: what a
 * read finds almost always (each of a month timesheet's slices asks for the whole month). Counted on
 * the unique (employee_id, date) index in one range scan (less the days stored after a deleted
 * employee's last date) and the two partial indexes, without building the range's dates.
 */
async function daysCurrent(em: EntityManager, employees: SheetEmployee[], filter: TimesheetFilter, now: Date): Promise<boolean> {
  const ids = intArray(employees.map((e) => e.id));
  const range = [filter.startDate, filter.endDate];
  const [row] = await em.execute<{ stored: number; outdated: boolean }[]>(
    `select ((select count(*) from attendance_day d where d.employee_id = any(?::int[]) and d.date between ?::date and ?::date)
           - (select count(*) from unnest(?::int[], ?::date[]) as e(id, last_date)
              join attendance_day d on d.employee_id = e.id and d.date > e.last_date and d.date between ?::date and ?::date))::int as stored,
            exists (select 1 from attendance_day d where d.stale and d.employee_id = any(?::int[]) and d.date between ?::date and ?::date)
         or exists (select 1 from attendance_day d where d.settles_at <= ?::timestamptz and d.employee_id = any(?::int[]) and d.date between ?::date and ?::date)
            as outdated`,
    [ids, ...range, ids, textArray(employees.map((e) => e.lastDate)), ...range, ids, ...range, now, ids, ...range],
  );
  return row!.stored === datesOwed(employees, filter) && !row!.outdated;
}

/** Computes the days of the range that are missing, stale or due for these employees (nothing to do: one cheap query). */
async function ensureDays(ctx: RequestContext, employees: SheetEmployee[], filter: TimesheetFilter): Promise<void> {
  if (employees.length === 0) return;
  const em = ctx.em;
  if (await daysCurrent(em, employees, filter, ctx.now())) return;
  // One row per employee (its dates as an array): a year for 5,000 employees is 1.8 million dates,
  // which as rows would be parsed and regrouped in one synchronous go. A deleted employee's days
  // stop at the date of their deletion.
  const todo = await em.execute<{ employee_id: number; dates: string[] }[]>(
    `select e.id as employee_id, array_agg(g.date::date::text order by g.date) as dates
     from unnest(?::int[], ?::date[]) as e(id, last_date) cross join generate_series(?::date, ?::date, interval '1 day') as g(date)
     left join attendance_day d on d.employee_id = e.id and d.date = g.date::date
     where (e.last_date is null or g.date::date <= e.last_date) and (d.id is null or d.stale or d.settles_at <= ?::timestamptz)
     group by e.id order by e.id`,
    [intArray(employees.map((e) => e.id)), textArray(employees.map((e) => e.lastDate)), filter.startDate, filter.endDate, ctx.now()],
  );
  // The request's budget for this work: past it, what was computed stays stored and the client is
  // told to come back (each request computes at least one batch, so retries always progress).
  const started = performance.now();
  try {
    await fillDays(ctx, todo, started);
  } finally {
    // The batches committed are marked written, also when the budget ran out (src/db/read-replica.ts).
    if (todo.length > 0) await noteWorkspaceWrite(withEm(ctx, em.fork()), { employeeIds: todo.map((row) => row.employee_id) });
  }
}

/** Computes the days of `todo`, EMPLOYEES_PER_FILL employees per transaction, within the request's compute budget. */
async function fillDays(ctx: RequestContext, todo: { employee_id: number; dates: string[] }[], started: number): Promise<void> {
  const slice = new CpuSlice();
  for (let i = 0; i < todo.length; i += EMPLOYEES_PER_FILL) {
    const elapsed = performance.now() - started;
    if (i > 0 && elapsed > ctx.config.requestComputeBudgetMs) {
      throw new DomainError(
        'computation_budget_exceeded',
        `Computing this range's days takes longer than one request may (${i} of ${todo.length} employees done in ${Math.round(elapsed)} ms, and kept); retry to continue, or ask for a shorter range or fewer employees.`,
        [],
        1,
      );
    }
    const wanted: WantedDays = new Map();
    for (const row of todo.slice(i, i + EMPLOYEES_PER_FILL)) wanted.set(row.employee_id, new Set(row.dates));
    if (slice.spent()) await slice.pause();
    await ctx.em.fork().transactional(async (tx) => {
      await takeAttendanceLock(tx);
      await refreshDays(withEm(ctx, tx), wanted, { announceNew: false });
    });
  }
}

/**
 * Brings the filter's days up to date (punches not yet taken, days missing, stale or due) and
 * returns its employees' ids: what every read of days (timesheets, summaries, payroll exports) does first.
 */
export async function prepareTimesheet(ctx: RequestContext, filter: TimesheetFilter): Promise<number[]> {
  return prepare(ctx, workspaceOf(ctx), filter);
}

async function prepare(ctx: RequestContext, workspaceId: number, filter: TimesheetFilter): Promise<number[]> {
  checkRange(filter);
  const employees = await employeesOf(ctx, workspaceId, filter);
  // Read-your-writes: punches the worker has not taken yet are taken now (it is usually idle and this is one query).
  for (let batch = 0; batch < 20 && (await hasPendingDays(ctx.em)); batch += 1) {
    if (!(await processPendingDays(ctx, { wait: true })).more) break;
  }
  await takeUntakenPunches(ctx, employees, filter);
  await ensureDays(ctx, employees, filter);
  return employees.map((e) => e.id);
}

/**
 * Computes the days of the filter's punches that the batches above could not take: those committed
 * after a transaction that still runs (anywhere on the database) started. Announced as the worker
 * would (it finds them unchanged later).
 */
async function takeUntakenPunches(ctx: RequestContext, employees: SheetEmployee[], filter: TimesheetFilter): Promise<void> {
  const wanted = await daysOfUntakenPunches(
    ctx.em,
    employees.map((e) => e.id),
    filter,
  );
  if (wanted.size === 0) return;
  const changed = await ctx.em.fork().transactional(async (tx) => {
    await takeAttendanceLock(tx);
    return refreshDays(withEm(ctx, tx), wanted, { announceNew: true });
  });
  if (changed > 0) await noteWorkspaceWrite(withEm(ctx, ctx.em.fork()), { employeeIds: [...wanted.keys()] });
}

/** The days of the range, by employee then date. */
export async function listTimesheetDays(ctx: RequestContext, filter: TimesheetFilter, page: PageRequest): Promise<Page<DayView>> {
  return listTimesheetDaysIn(ctx, workspaceOf(ctx), filter, page);
}

/** The days in a workspace the caller has already decided on (self-service: always its employee's own). */
export async function listTimesheetDaysIn(ctx: RequestContext, workspaceId: number, filter: TimesheetFilter, page: PageRequest): Promise<Page<DayView>> {
  const employeeIds = await prepare(ctx, workspaceId, filter);
  if (employeeIds.length === 0) return { items: [], totalCount: 0, offset: page.offset };
  const where = `d.employee_id = any(?::int[]) and d.date between ?::date and ?::date`;
  const params = [intArray(employeeIds), filter.startDate, filter.endDate];
  // The days are current on the primary now; the replica serves them when it has them (read-replica.ts).
  return readFromReplica(ctx, workspaceId, 'timesheet', async ({ em }) => {
    const [items, [count]] = await Promise.all([
      em.execute<Parameters<typeof dayRecordOf>[0][]>(
        `select ${DAY_RECORD_COLUMNS} from attendance_day d where ${where} order by d.employee_id, d.date limit ? offset ?`,
        [...params, page.limit, page.offset],
      ),
      em.execute<{ n: string }[]>(`select count(*) as n from attendance_day d where ${where}`, params),
    ]);
    return { items: items.map((row) => dayViewOf(dayRecordOf(row))), totalCount: Number(count!.n), offset: page.offset };
  });
}

/** One row per employee of the filter, totals over the range. */
export async function timesheetSummary(ctx: RequestContext, filter: TimesheetFilter, page: PageRequest): Promise<Page<SummaryView>> {
  const workspaceId = workspaceOf(ctx);
  const employeeIds = await prepare(ctx, workspaceId, filter);
  const window = employeeIds.slice(page.offset, page.offset + page.limit);
  if (window.length === 0) return { items: [], totalCount: employeeIds.length, offset: page.offset };
  const { rows, totals } = await readFromReplica(ctx, workspaceId, 'timesheet_summary', ({ em }) => summaryTotals(em, window, filter));
  const items = rows.map((row) => {
    const mine = totals.filter((t) => t.employee_id === row.employee_id && t.minutes > 0);
    // The work codes in their order, then paid leave by absence code (alphabetical).
    const leave = mine.filter((t) => !(PAY_CODES as readonly string[]).includes(t.code)).sort((x, y) => (x.code < y.code ? -1 : 1));
    const payItems = [
      ...PAY_CODES.flatMap((code) => mine.filter((t) => t.code === code).map((t) => ({ code, minutes: t.minutes }))),
      ...leave.map((t) => ({ code: t.code, minutes: t.minutes })),
    ];
    return summaryViewOf(row, payItems);
  });
  return { items, totalCount: employeeIds.length, offset: page.offset };
}

/** The summary's counts and pay-code totals of `window` (employee ids) over the range. */
async function summaryTotals(em: EntityManager, window: number[], filter: TimesheetFilter) {
  const rows = await em.execute<SummaryRow[]>(
    `select e.id as employee_id,
       count(d.id) filter (where d.status = 'present')::int as days_present,
       count(d.id) filter (where d.status = 'absent')::int as days_absent,
       count(d.id) filter (where d.status = 'incomplete')::int as days_incomplete,
       coalesce(sum(d.worked_minutes), 0)::int as worked_minutes,
       coalesce(sum(d.overtime_minutes), 0)::int as overtime_minutes,
       coalesce(sum(d.late_minutes), 0)::int as late_minutes,
       count(d.id) filter (where d.status = 'leave')::int as days_leave,
       coalesce(sum(d.leave_minutes), 0)::int as leave_minutes,
       coalesce(sum(d.pending_overtime_minutes), 0)::int as pending_overtime_minutes
     from unnest(?::int[]) as e(id)
     left join attendance_day d on d.employee_id = e.id and d.date between ?::date and ?::date
     group by e.id order by e.id`,
    [intArray(window), filter.startDate, filter.endDate],
  );
  const totals = await em.execute<{ employee_id: number; code: string; minutes: number }[]>(
    `select d.employee_id, i->>'code' as code, sum((i->>'minutes')::int)::int as minutes
     from attendance_day d cross join jsonb_array_elements(d.pay_items) i
     where d.employee_id = any(?::int[]) and d.date between ?::date and ?::date group by 1, 2`,
    [intArray(window), filter.startDate, filter.endDate],
  );
  return { rows, totals };
}
