// The overtime approvals an attendance computation needs, as one map per employee from local date to
// approval (pay-rules.ts `DayOvertimeApproval`). Read in one query by the day store; what an approval
// does to a day's pay items is pay-rules.ts `applyOvertimeApproval`.
import type { EntityManager } from '@mikro-orm/postgresql';
import { intArray } from '../common/sql-arrays';
import type { DayOvertimeApproval } from './pay-rules';

/** Overtime approvals of some employees from `from` to `to`, by employee and date. */
export async function loadOvertimeApprovals(
  em: EntityManager,
  employeeIds: number[],
  from: string,
  to: string,
): Promise<Map<number, Map<string, DayOvertimeApproval>>> {
  const rows = await em.execute<{ employee_id: number; date: string; state: DayOvertimeApproval['state']; minutes: number | null }[]>(
    `select employee_id, date::text, state, minutes from overtime_approval where employee_id = any(?::int[]) and date between ?::date and ?::date`,
    [intArray(employeeIds), from, to],
  );
  const byEmployee = new Map<number, Map<string, DayOvertimeApproval>>();
  for (const row of rows) {
    let dates = byEmployee.get(row.employee_id);
    if (!dates) byEmployee.set(row.employee_id, (dates = new Map()));
    dates.set(row.date, { state: row.state, minutes: row.minutes });
  }
  return byEmployee;
}
