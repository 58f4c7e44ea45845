// Every attendance day of a company in a date range, with the company's people for their names
// (every page of them, read while the days are: a company of any size is named).
// The API returns at most 1,000 days a page, by employee then date, so a month of 1,000 people is
// 31 pages. Read one after the other, each waits for the last and each reads further into the
// range (the server skips more rows every page); so after the first page the rest of the range is
// read in slices of days sized to about one page each, several at a time.
import { useEffect, useState } from 'preact/hooks';
import { useClient, type Client, type OperationResult } from '@urql/preact';
import { CompanyPeoplePageDocument, TimesheetDocument, type CompanyPeoplePageQuery, type TimesheetQuery } from './gql';

export type AttendanceDayRow = TimesheetQuery['timesheet']['nodes'][number];
export type CompanyEmployee = CompanyPeoplePageQuery['employees']['nodes'][number];

const PAGE = 1000;
/** Requests in flight at once: the browser's own limit per origin over HTTP/1.1. */
const IN_FLIGHT = 6;
const DAY_MS = 86_400_000;
/** Times one page is asked for again while the service computes its days (each time it keeps what it did). */
const MAX_RETRIES = 30;

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;

type Policy = 'network-only' | 'cache-first';

/** The pages of one date range, one after the other: every page, or only the first (`complete` says whether that was all). */
async function readPages(
  client: Client,
  range: { companyId: number; startDate: string; endDate: string },
  policy: Policy,
  firstOnly: boolean,
  isCancelled: () => boolean,
): Promise<{ days: AttendanceDayRow[]; totalCount: number; complete: boolean }> {
  const days: AttendanceDayRow[] = [];
  let after: string | null = null;
  let retries = 0;
  for (;;) {
    const page: OperationResult<TimesheetQuery> = await client.query(TimesheetDocument, { ...range, after }, { requestPolicy: policy }).toPromise();
    if (isCancelled()) return { days, totalCount: 0, complete: true };
    // A range whose days take longer to compute than one request may: the service keeps what it
    // computed and says when to ask again; asking again continues (a large company's first read).
    const busy = page.error?.graphQLErrors[0]?.extensions;
    if (busy?.code === 'computation_budget_exceeded' && retries < MAX_RETRIES) {
      retries += 1;
      await new Promise((resolve) => setTimeout(resolve, Number(busy.retryAfter ?? 1) * 1000));
      continue;
    }
    if (page.error || !page.data) throw new Error(page.error?.graphQLErrors[0]?.message ?? page.error?.message ?? 'no answer');
    const { nodes, totalCount, pageInfo } = page.data.timesheet;
    days.push(...nodes);
    if (!pageInfo.hasNextPage || firstOnly) return { days, totalCount, complete: !pageInfo.hasNextPage };
    after = pageInfo.endCursor ?? null;
  }
}

/**
 * The range's days: its first page, then (when there is more) the whole range again in slices of
 * days that hold about a page each, IN_FLIGHT at a time; a day the first page already had is kept once.
 */
export async function readAttendanceDays(
  client: Client,
  companyId: number,
  startDate: string,
  endDate: string,
  policy: Policy,
  isCancelled: () => boolean = () => false,
): Promise<AttendanceDayRow[]> {
  const first = await readPages(client, { companyId, startDate, endDate }, policy, true, isCancelled);
  if (first.complete) return first.days;
  const length = daysBetween(startDate, endDate);
  const perSlice = Math.max(1, Math.floor((PAGE * length) / first.totalCount));
  const slices: Array<{ companyId: number; startDate: string; endDate: string }> = [];
  for (let offset = 0; offset < length; offset += perSlice) {
    slices.push({ companyId, startDate: addDays(startDate, offset), endDate: addDays(startDate, Math.min(length, offset + perSlice) - 1) });
  }
  const read: AttendanceDayRow[][] = [];
  let next = 0;
  const worker = async () => {
    while (next < slices.length && !isCancelled()) {
      const index = next++;
      read[index] = (await readPages(client, slices[index]!, policy, false, isCancelled)).days;
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, slices.length) }, worker));
  const seen = new Set<string>();
  const days: AttendanceDayRow[] = [];
  for (const day of [...first.days, ...read.flat()]) {
    const key = `${day.employeeId}:${day.date}`;
    if (!seen.has(key)) {
      seen.add(key);
      days.push(day);
    }
  }
  return days;
}

/** Every employee of a company, page after page of 1,000. */
export async function readCompanyPeople(client: Client, companyId: number, isCancelled: () => boolean = () => false): Promise<CompanyEmployee[]> {
  const people: CompanyEmployee[] = [];
  let after: string | null = null;
  for (;;) {
    const page: OperationResult<CompanyPeoplePageQuery> = await client.query(CompanyPeoplePageDocument, { companyId, after }).toPromise();
    if (page.error || !page.data) throw new Error(page.error?.message ?? 'no answer');
    people.push(...page.data.employees.nodes);
    if (!page.data.employees.pageInfo.hasNextPage || isCancelled()) return people;
    after = page.data.employees.pageInfo.endCursor ?? null;
  }
}

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
      const people = readCompanyPeople(client, companyId, () => cancelled);
      const days = await readAttendanceDays(client, companyId, startDate, endDate, version ? 'network-only' : 'cache-first', () => cancelled);
      const employees = await people;
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
