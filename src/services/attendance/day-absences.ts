// The approved absences an attendance computation needs, as one map per employee from local date to
// absence (compute-days.ts `DayAbsence`). Read in one query by the day store; the per-day rules
// (which days count, how many minutes are paid) are the engine's.
import type { EntityManager } from '@mikro-orm/postgresql';
import { datesFrom } from '../../kernel/calendar-date';
import { intArray } from '../common/sql-arrays';
import type { DayAbsence } from './compute-days';

export interface ApprovedAbsenceRow {
  employee_id: number;
  absence_type_id: number;
  code: string;
  paid: boolean;
  start_date: string;
  end_date: string;
  half_day: string | null;
  start_time: string | null;
  end_time: string | null;
}

/** Minutes from `HH:MM` to `HH:MM` of one day. */
export function minutesBetween(start: string, end: string): number {
  const at = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  return at(end) - at(start);
}

/** What one approved request means on each of its dates. */
export function dayAbsenceOf(row: Omit<ApprovedAbsenceRow, 'employee_id' | 'start_date' | 'end_date'>): DayAbsence {
  const hourly = row.start_time != null && row.end_time != null;
  return {
    absenceTypeId: row.absence_type_id,
    code: row.code,
    paid: row.paid,
    fraction: hourly ? null : row.half_day ? 0.5 : 1,
    minutes: hourly ? minutesBetween(row.start_time!, row.end_time!) : 0,
    halfDay: row.half_day === 'am' || row.half_day === 'pm' ? row.half_day : null,
    startTime: hourly ? row.start_time : null,
    endTime: hourly ? row.end_time : null,
  };
}

/** Approved absences of some employees touching `from`..`to`, by employee and date. */
export async function loadApprovedAbsences(em: EntityManager, employeeIds: number[], from: string, to: string): Promise<Map<number, Map<string, DayAbsence>>> {
  const rows = await em.execute<ApprovedAbsenceRow[]>(
    `select r.employee_id, r.absence_type_id, t.code, t.paid, r.start_date::text, r.end_date::text, r.half_day, r.start_time, r.end_time
     from absence_request r join absence_type t on t.id = r.absence_type_id
     where r.employee_id = any(?::int[]) and r.state = 'approved' and r.start_date <= ?::date and r.end_date >= ?::date`,
    [intArray(employeeIds), to, from],
  );
  const byEmployee = new Map<number, Map<string, DayAbsence>>();
  for (const row of rows) {
    let dates = byEmployee.get(row.employee_id);
    if (!dates) byEmployee.set(row.employee_id, (dates = new Map()));
    const absence = dayAbsenceOf(row);
    for (const date of datesFrom(row.start_date < from ? from : row.start_date, row.end_date > to ? to : row.end_date)) dates.set(date, absence);
  }
  return byEmployee;
}
