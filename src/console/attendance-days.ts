// Every attendance day of a company in a date range, page after page (the API returns at most 1000
// a page; a month of 1,000 people is about 30 pages), with the company's people for their names.
import { useEffect, useState } from 'preact/hooks';
import { useClient } from '@urql/preact';
import { CompanyEmployeesDocument, TimesheetDocument, type TimesheetQuery, type CompanyEmployeesQuery } from './gql';

export type AttendanceDayRow = TimesheetQuery['timesheet']['nodes'][number];
export type CompanyEmployee = CompanyEmployeesQuery['employees']['nodes'][number];

export function useAttendanceDays(
  companyId: number,
  startDate: string,
  endDate: string,
  version = 0,
): {
  days: AttendanceDayRow[] | null;
  employees: CompanyEmployee[];
  error: string | null;
} {
  const client = useClient();
  const [state, setState] = useState<{ days: AttendanceDayRow[] | null; employees: CompanyEmployee[]; error: string | null }>({
    days: null,
    employees: [],
    error: null,
  });
  useEffect(() => setState((s) => ({ ...s, days: null })), [companyId, startDate, endDate]);
  useEffect(() => {
    if (!companyId || !startDate || !endDate) return;
    let cancelled = false;
    (async () => {
      const people = client.query(CompanyEmployeesDocument, { companyId }).toPromise();
      const days: AttendanceDayRow[] = [];
      let after: string | null = null;
      for (;;) {
        const page = await client
          .query(TimesheetDocument, { companyId, startDate, endDate, after }, { requestPolicy: version ? 'network-only' : 'cache-first' })
          .toPromise();
        if (cancelled) return;
        if (page.error || !page.data) throw new Error(page.error?.graphQLErrors[0]?.message ?? page.error?.message ?? 'no answer');
        days.push(...page.data.timesheet.nodes);
        if (!page.data.timesheet.pageInfo.hasNextPage) break;
        after = page.data.timesheet.pageInfo.endCursor ?? null;
      }
      const employees = (await people).data?.employees.nodes ?? [];
      if (!cancelled) setState({ days, employees, error: null });
    })().catch((error: Error) => !cancelled && setState({ days: [], employees: [], error: error.message }));
    return () => {
      cancelled = true;
    };
  }, [companyId, startDate, endDate, version]);
  return state;
}

/** Minutes as hours and minutes: 95 → "1 h 35". */
export function hours(minutes: number): string {
  if (minutes === 0) return '0';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${String(m).padStart(2, '0')}`;
}

/** What an exception code means, for people. */
export const EXCEPTION_LABELS: Record<string, string> = {
  missing_in: 'no punch in',
  missing_out: 'no punch out',
  duplicate_ignored: 'duplicate punch ignored',
  manual_punch: 'manual punch',
  outside_shift: 'punch outside the shift',
  after_lock: 'punch after the pay period was locked',
};

export const exceptionLabel = (code: string): string => EXCEPTION_LABELS[code] ?? code.replaceAll('_', ' ');
