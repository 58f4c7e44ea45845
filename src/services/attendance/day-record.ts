// A stored attendance day in its two shapes: the row of attendance_day (DayRecord, snake_case: the
// column names, and the `attendance.day.updated` payload field for field) that the day engine reads
// and writes, and the view the service returns (DayView, camelCase, docs/architecture.md "One
// shape"). The conversions between them are here and nowhere else.
import type { PayItem } from './pay-rules';

/**
 * A stored day as a row of attendance_day (snake_case column names, ISO 8601 UTC times): what the
 * day engine (day-inputs, day-plan, day-store) works on. The `attendance.day.updated` payload has the
 * same fields (dayPayloadOf).
 */
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

export const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** A row selected with DAY_RECORD_COLUMNS (times come back as Dates) as a DayRecord. */
export function dayRecordOf<T extends Omit<DayRecord, 'first_in' | 'last_out'> & { first_in: Date | string | null; last_out: Date | string | null }>(
  row: T,
): DayRecord & Omit<T, keyof DayRecord> {
  return { ...row, first_in: iso(row.first_in), last_out: iso(row.last_out) };
}

/** A stored day as the service returns it (camelCase, ISO 8601 UTC times): the timesheet's rows. */
export interface DayView {
  employeeId: number;
  companyId: number;
  date: string;
  shiftId: number | null;
  status: string;
  firstIn: string | null;
  lastOut: string | null;
  scheduledMinutes: number;
  workedMinutes: number;
  breakMinutes: number;
  lateMinutes: number;
  earlyLeaveMinutes: number;
  overtimeMinutes: number;
  /** Overtime waiting for approval (a company whose policy requires it): not in payItems until approved. */
  pendingOvertimeMinutes: number;
  payItems: PayItem[];
  exceptions: string[];
  punchIds: number[];
  absenceTypeId: number | null;
  absenceCode: string | null;
  leaveMinutes: number;
}

/** A row (or an `attendance.day.updated` payload) as the view. */
export function dayViewOf(row: DayRecord): DayView {
  return {
    employeeId: row.employee_id,
    companyId: row.company_id,
    date: row.date,
    shiftId: row.shift_id,
    status: row.status,
    firstIn: row.first_in,
    lastOut: row.last_out,
    scheduledMinutes: row.scheduled_minutes,
    workedMinutes: row.worked_minutes,
    breakMinutes: row.break_minutes,
    lateMinutes: row.late_minutes,
    earlyLeaveMinutes: row.early_leave_minutes,
    overtimeMinutes: row.overtime_minutes,
    pendingOvertimeMinutes: row.pending_overtime_minutes,
    payItems: row.pay_items,
    exceptions: row.exceptions,
    punchIds: row.punch_ids,
    absenceTypeId: row.absence_type_id,
    absenceCode: row.absence_code,
    leaveMinutes: row.leave_minutes,
  };
}

/** The view as the `data` of an `attendance.day.updated` event (docs/events.md): the event edge's one conversion. */
export function dayPayloadOf(view: DayView): DayRecord {
  return {
    employee_id: view.employeeId,
    company_id: view.companyId,
    date: view.date,
    shift_id: view.shiftId,
    status: view.status,
    first_in: view.firstIn,
    last_out: view.lastOut,
    scheduled_minutes: view.scheduledMinutes,
    worked_minutes: view.workedMinutes,
    break_minutes: view.breakMinutes,
    late_minutes: view.lateMinutes,
    early_leave_minutes: view.earlyLeaveMinutes,
    overtime_minutes: view.overtimeMinutes,
    pending_overtime_minutes: view.pendingOvertimeMinutes,
    pay_items: view.payItems,
    exceptions: view.exceptions,
    punch_ids: view.punchIds,
    absence_type_id: view.absenceTypeId,
    absence_code: view.absenceCode,
    leave_minutes: view.leaveMinutes,
  };
}
