// The payroll export of a pay period (docs/payroll-export.md): one row per employee and pay code
// with the period's paid minutes, as JSON or CSV, in the workspace's local dates. An open period is
// exported from its days brought up to date; a locked period from the rows frozen at the lock, so
// its export is the same bytes every time until it is unlocked (a renamed employee or a punch
// re-sent after the lock changes nothing).
import type { EntityManager } from '@mikro-orm/postgresql';
import { AbsenceType, Company, PayPeriod, Workspace } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import { prepareTimesheet } from '../attendance/timesheet.service';
import { readFromReplica } from '../common/replica-read';
import { PAY_CODES, effectivePolicy, payRatePercent, type PayPolicy } from '../attendance/pay-rules';
import { exportCsv, parseColumnMapping } from './column-mapping';
import { exportRowOf, exportRows, storedExportRowOf, type ExportEmployee, type ExportRow, type StoredExportRow } from './export-rows';

export interface PayrollExport {
  payPeriodId: number;
  companyId: number;
  startDate: string;
  endDate: string;
  /** The workspace's zone: the dates are local dates in it. */
  timeZone: string;
  locked: boolean;
  rows: ExportRow[];
  /** The rows as CSV under the requested column mapping. */
  csv: string;
}

/** The export rows of a period from its stored days (the caller has brought them up to date, or they are locked). */
export async function periodRows(em: EntityManager, period: Pick<PayPeriod, 'companyId' | 'startDate' | 'endDate'>): Promise<ExportRow[]> {
  const company = await em.findOneOrFail(Company, { id: period.companyId });
  const totals = await em.execute<{ employee_id: number; code: string; minutes: number }[]>(
    `select d.employee_id, i->>'code' as code, sum((i->>'minutes')::int)::int as minutes
     from attendance_day d cross join jsonb_array_elements(d.pay_items) i
     where d.company_id = ? and d.date between ?::date and ?::date group by 1, 2`,
    [period.companyId, period.startDate, period.endDate],
  );
  const minutes = new Map<number, Map<string, number>>();
  for (const t of totals) (minutes.get(t.employee_id) ?? minutes.set(t.employee_id, new Map()).get(t.employee_id)!).set(t.code, t.minutes);
  // Deleted employees included: their days in the period are still paid.
  const employees =
    minutes.size === 0
      ? []
      : await em.execute<ExportEmployee[]>(`select id, code, name, lastname from employee where id = any(?::int[])`, [`{${[...minutes.keys()].join(',')}}`]);
  const policy = effectivePolicy(company.payPolicy as Partial<PayPolicy>, null);
  return exportRows({
    company: { code: company.code, name: company.name },
    startDate: period.startDate,
    endDate: period.endDate,
    employees,
    minutes,
    // Paid leave (any code that is not a work code: the day store books it under its absence type's
    // code) is paid at the base rate.
    rateOf: (code) => ((PAY_CODES as readonly string[]).includes(code) ? payRatePercent(policy, code) : 100),
  });
}

/** The export of a pay period of the caller's workspace; `columns` and `codes` shape the CSV (column-mapping.ts). */
export async function exportPayPeriod(ctx: RequestContext, id: number, shape: { columns?: string | null; codes?: string | null } = {}): Promise<PayrollExport> {
  const em = ctx.em;
  const period = await em.findOne(PayPeriod, { id, workspaceId: workspaceOf(ctx) }, { populate: ['exportRows'] });
  if (!period) throw DomainError.notFound('PayPeriod', id);
  // Paid leave codes may be renamed too: the company's absence codes, and those of rows frozen at a lock.
  const leaveCodes = new Set((await em.find(AbsenceType, { companyId: period.companyId }, { fields: ['code'] })).map((type) => type.code));
  for (const row of (period.exportRows as StoredExportRow[] | null) ?? []) leaveCodes.add(row.pay_code);
  const mapping = parseColumnMapping(shape.columns, shape.codes, leaveCodes);
  const workspace = await em.findOneOrFail(Workspace, { id: workspaceOf(ctx) });
  let rows: ExportRow[];
  if (period.lockedAt) {
    // Locked before exports were frozen at the lock: its locked days give the rows, kept from now on.
    if (!period.exportRows) {
      period.exportRows = (await periodRows(em, period)).map(storedExportRowOf);
      await em.nativeUpdate(PayPeriod, { id: period.id, exportRows: null }, { exportRows: period.exportRows });
    }
    rows = (period.exportRows as StoredExportRow[]).map(exportRowOf);
  } else {
    // The days are brought up to date on the primary; an open period's rows may then come from the
    // read replica (src/db/read-replica.ts). A locked period's frozen rows are read above.
    await prepareTimesheet(ctx, { startDate: period.startDate, endDate: period.endDate, companyId: period.companyId });
    rows = await readFromReplica(ctx, workspaceOf(ctx), 'payroll_export', (reader) => periodRows(reader.em, period));
  }
  return {
    payPeriodId: period.id,
    companyId: period.companyId,
    startDate: period.startDate,
    endDate: period.endDate,
    timeZone: workspace.timeZone,
    locked: period.lockedAt != null,
    rows,
    csv: exportCsv(rows, mapping),
  };
}
