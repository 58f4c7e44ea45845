// The rows of a payroll export (docs/payroll-export.md): one per employee and pay code with paid
// minutes, in a fixed order, formatted the same way every time. Pure; unit-tested in
// test/unit/services/payroll-export.test.ts.
import { PAY_CODES } from '../attendance/pay-rules';

/** One row of the export as the service returns it (camelCase): the GraphQL rows, the REST JSON rows renamed at that edge. */
export interface ExportRow {
  employeeId: number;
  employeeCode: string;
  employeeName: string;
  companyCode: string;
  companyName: string;
  startDate: string;
  endDate: string;
  payCode: string;
  minutes: number;
  /** Decimal hours with two places (`7.50`): what most payroll imports take. */
  hours: string;
  /** `H:MM` (`7:30`). */
  hoursMinutes: string;
  /**
   * The code's rate in percent of the base rate, from the company's pay policy (`regular` 100,
   * `overtime` 150...); for `night` the premium paid on top. Absent from the rows of a period frozen
   * before rates were exported (its CSV cell is empty).
   */
  ratePercent?: number | null;
}

/**
 * The CSV columns (docs/payroll-export.md) in their default order, each with the field of the row it
 * shows: the names a column mapping uses, and the keys of a row frozen in pay_period.export_rows.
 */
export const EXPORT_FIELDS = {
  employee_id: 'employeeId',
  employee_code: 'employeeCode',
  employee_name: 'employeeName',
  company_code: 'companyCode',
  company_name: 'companyName',
  start_date: 'startDate',
  end_date: 'endDate',
  pay_code: 'payCode',
  minutes: 'minutes',
  hours: 'hours',
  hours_minutes: 'hoursMinutes',
  rate_percent: 'ratePercent',
} as const satisfies { [C in keyof StoredExportRow]-?: keyof ExportRow };

export type ExportColumn = keyof typeof EXPORT_FIELDS;

export const EXPORT_COLUMNS: readonly ExportColumn[] = Object.keys(EXPORT_FIELDS) as ExportColumn[];

/** A row as frozen in pay_period.export_rows at a lock (snake_case: the CSV column names); kept in this shape for the periods locked before. */
export interface StoredExportRow {
  employee_id: number;
  employee_code: string;
  employee_name: string;
  company_code: string;
  company_name: string;
  start_date: string;
  end_date: string;
  pay_code: string;
  minutes: number;
  hours: string;
  hours_minutes: string;
  rate_percent?: number | null;
}

/** A frozen row as the view; a row frozen before rates were exported stays without ratePercent. */
export function exportRowOf(stored: StoredExportRow): ExportRow {
  const row: ExportRow = {
    employeeId: stored.employee_id,
    employeeCode: stored.employee_code,
    employeeName: stored.employee_name,
    companyCode: stored.company_code,
    companyName: stored.company_name,
    startDate: stored.start_date,
    endDate: stored.end_date,
    payCode: stored.pay_code,
    minutes: stored.minutes,
    hours: stored.hours,
    hoursMinutes: stored.hours_minutes,
  };
  if (stored.rate_percent !== undefined) row.ratePercent = stored.rate_percent;
  return row;
}

/** The view as frozen at a lock. */
export function storedExportRowOf(row: ExportRow): StoredExportRow {
  const stored: StoredExportRow = {
    employee_id: row.employeeId,
    employee_code: row.employeeCode,
    employee_name: row.employeeName,
    company_code: row.companyCode,
    company_name: row.companyName,
    start_date: row.startDate,
    end_date: row.endDate,
    pay_code: row.payCode,
    minutes: row.minutes,
    hours: row.hours,
    hours_minutes: row.hoursMinutes,
  };
  if (row.ratePercent !== undefined) stored.rate_percent = row.ratePercent;
  return stored;
}

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
        employeeId: employee.id,
        employeeCode: employee.code,
        employeeName: `${employee.name} ${employee.lastname}`.trim(),
        companyCode: input.company.code,
        companyName: input.company.name,
        startDate: input.startDate,
        endDate: input.endDate,
        payCode: code,
        minutes,
        hours: decimalHours(minutes),
        hoursMinutes: hoursMinutes(minutes),
        ratePercent: input.rateOf(code),
      });
    }
  }
  return rows;
}
