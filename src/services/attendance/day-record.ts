// A stored attendance day in the one shape the APIs and events show it (snake_case, ISO 8601 UTC
// times), and how a row of attendance_day is read as one.
import type { PayItem } from './pay-rules';

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

export const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** A row selected with DAY_RECORD_COLUMNS (times come back as Dates) as a DayRecord. */
export function dayRecordOf<T extends Omit<DayRecord, 'first_in' | 'last_out'> & { first_in: Date | string | null; last_out: Date | string | null }>(
  row: T,
): DayRecord & Omit<T, keyof DayRecord> {
  return { ...row, first_in: iso(row.first_in), last_out: iso(row.last_out) };
}
