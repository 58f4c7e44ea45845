// The rows of a payroll export (docs/payroll-export.md): one per employee and pay code with paid
// minutes, in a fixed order, formatted the same way every time. Pure; unit-tested in
// test/unit/services/payroll-export.test.ts.
import { PAY_CODES } from '../attendance/pay-rules';

/** One row of the export, as the JSON answer shows it and the CSV columns name it. */
export interface ExportRow {
  employee_id: number;
  employee_code: string;
  employee_name: string;
  company_code: string;
  company_name: string;
  start_date: string;
  end_date: string;
  pay_code: string;
  minutes: number;
  /** Decimal hours with two places (`7.50`): what most payroll imports take. */
  hours: string;
  /** `H:MM` (`7:30`). */
  hours_minutes: string;
  /**
   * The code's rate in percent of the base rate, from the company's pay policy (`regular` 100,
   * `overtime` 150...); for `night` the premium paid on top. Absent from the rows of a period frozen
   * before rates were exported (its CSV cell is empty).
   */
  rate_percent?: number | null;
}

export const EXPORT_COLUMNS: readonly (keyof ExportRow)[] = [
  'employee_id',
  'employee_code',
  'employee_name',
  'company_code',
  'company_name',
  'start_date',
  'end_date',
  'pay_code',
  'minutes',
  'hours',
  'hours_minutes',
  'rate_percent',
];

/** Decimal hours rounded half up to two places, computed in whole hundredths (no binary-float drift). */
export function decimalHours(minutes: number): string {
  const hundredths = Math.floor((minutes * 100 + 30) / 60);
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}

export const hoursMinutes = (minutes: number): string => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

export interface ExportEmployee {
  id: number;
  code: string;
  name: string;
  lastname: string;
}

/**
 * The rows: employees by id, then the work codes in code order (`regular`, `overtime`, `double_time`,
 * `night`, `holiday`, `rest_day`), then paid leave by its absence type's code (alphabetical, as the
 * timesheet summary lists it); codes with no minutes are left out. Each row states its code's rate.
 */
export function exportRows(input: {
  company: { code: string; name: string };
  startDate: string;
  endDate: string;
  employees: readonly ExportEmployee[];
  /** employee id -> pay code -> minutes over the period. */
  minutes: ReadonlyMap<number, ReadonlyMap<string, number>>;
  /** A pay code's rate in percent (pay-rules.ts payRatePercent under the company's policy; paid leave 100). */
  rateOf: (code: string) => number | null;
}): ExportRow[] {
  const rows: ExportRow[] = [];
  for (const employee of [...input.employees].sort((a, b) => a.id - b.id)) {
    const mine = input.minutes.get(employee.id);
    const leave = [...(mine?.keys() ?? [])].filter((code) => !(PAY_CODES as readonly string[]).includes(code)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const code of [...PAY_CODES, ...leave]) {
      const minutes = mine?.get(code) ?? 0;
      if (minutes <= 0) continue;
      rows.push({
        employee_id: employee.id,
        employee_code: employee.code,
        employee_name: `${employee.name} ${employee.lastname}`.trim(),
        company_code: input.company.code,
        company_name: input.company.name,
        start_date: input.startDate,
        end_date: input.endDate,
        pay_code: code,
        minutes,
        hours: decimalHours(minutes),
        hours_minutes: hoursMinutes(minutes),
        rate_percent: input.rateOf(code),
      });
    }
  }
  return rows;
}
