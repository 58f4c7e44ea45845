// One batch of the attendance worker's work, also run by a timesheet read that finds punches the
// worker has not taken yet (a client that posts a punch and reads its timesheet at once sees it).
// The work: `attendance.created` events after the worker's cursor (each punch's date and its
// neighbours, whose shift windows may hold it), days marked stale by a change, and days whose
// window has ended; all recomputed by refreshDays in one transaction with the cursor's advance.
import type { EntityManager } from '@mikro-orm/postgresql';
import { eventFieldsSql, firstRowAfter, MAX_SPAN } from '../../events/event-batch';
import { DELIVERABLE_BELOW } from '../../events/event-feed';
import { withEm, type RequestContext } from '../../context/request-context';
import { addDays } from '../../kernel/calendar-date';
import { noteWorkspaceWrite } from '../common/replica-read';
import { intArray } from '../common/sql-arrays';
import { refreshDays, takeAttendanceLock, tryAttendanceLock } from './day-store';
import { want, type WantedDays } from './day-inputs';
import { inSpan, linksTo, MAX_LINKS, tracingEnabled } from '../../observability/tracing';

const CURSOR = 'attendance';
/** Outbox events (punches) read per batch at most, and stale or due days taken per batch. */
export const MAX_EVENT_PAGE = 5000;
const DUE_PAGE = 2000;

export interface BatchResult {
  /** Days that changed (and were announced). */
  changed: number;
  /** More work is waiting: run another batch. */
  more: boolean;
  /** Outbox events (punches) the batch took. */
  events: number;
}

/**
 * Runs one batch in its own transaction. `wait`: wait for the attendance lock (a read); otherwise a
 * taken lock means another writer is at work and the batch does nothing (the worker). `eventPage`:
 * outbox events to take at most (the worker sizes its batches by time, attendance-worker.ts).
 */
export async function processPendingDays(ctx: RequestContext, options: { wait: boolean; eventPage?: number }): Promise<BatchResult> {
  const eventPage = Math.min(Math.max(1, Math.floor(options.eventPage ?? MAX_EVENT_PAGE)), MAX_EVENT_PAGE);
  let employeeIds: number[] = [];
  const result = await ctx.em.fork().transactional(async (em) => {
    if (options.wait) await takeAttendanceLock(em);
    else if (!(await tryAttendanceLock(em))) return { changed: 0, more: false, events: 0 };
    const [cursorRow] = await em.execute<{ position: string }[]>(`select position from job_cursor where name = ? for update`, [CURSOR]);
    const cursor = BigInt(cursorRow?.position ?? 0);
    // Only events below every running transaction: none can commit later behind the cursor. The page
    // is cut there, and its punches are reduced in SQL to one date range per employee. Rows of a
    // batch (event-batch.ts) are read whole: the cursor always ends at a row's last event.
    const [page] = await em.execute<
      {
        last: string | null;
        full: boolean;
        held: boolean;
        events: number;
        ranges: { employee_id: number; dates: string[] }[] | null;
        traces: string[] | null;
      }[]
    >(
      `with bound as (select ${DELIVERABLE_BELOW} as below),
       rows as (
         select e.id, e.span, e.type, e.data, e.trace, sum(e.span) over (order by e.id rows unbounded preceding) - e.span as before
         from event e where e.id > ? and e.id + e.span - 1 > ? order by e.id limit ${eventPage}),
       page as (select * from rows where before < ${eventPage}),
       ready as (select page.* from page, bound where page.id < bound.below),
       punches as (${eventFieldsSql('ready', ['employee_id', 'local_time'], "type = 'attendance.created'")})
       select (select max(id + span - 1) from ready)::text as last,
              (select coalesce(sum(span), 0) from ready)::int as events,
              (select count(*) from rows) = ${eventPage} or (select count(*) from page) < (select count(*) from rows) as full,
              (select count(*) from page) > (select count(*) from ready) as held,
              (select json_agg(r) from (
                 select employee_id::int, array_agg(distinct left(local_time, 10)) as dates
                 from punches where employee_id is not null group by 1) r) as ranges,
              ${tracingEnabled() ? `(select array_agg(t.trace) from (select distinct trace from ready where type = 'attendance.created' and trace is not null limit ${MAX_LINKS}) t)` : 'null'} as traces`,
      [firstRowAfter(cursor).toString(), cursor.toString()],
    );
    const wanted: WantedDays = new Map();
    const last = page!.last === null ? cursor : BigInt(page!.last);
    // The punch's own date, and the dates whose shift windows may hold it (a night shift, an early start).
    for (const range of page!.ranges ?? []) for (const date of range.dates) want(wanted, range.employee_id, addDays(date, -1), addDays(date, 1));
    const stale = await em.execute<{ employee_id: number; date: string }[]>(
      `select employee_id, date::text from attendance_day where stale order by employee_id, date limit ${DUE_PAGE}`,
    );
    const due = await em.execute<{ employee_id: number; date: string }[]>(
      `select employee_id, date::text from attendance_day where settles_at <= ?::timestamptz order by settles_at limit ${DUE_PAGE}`,
      [ctx.now()],
    );
    for (const day of [...stale, ...due]) want(wanted, day.employee_id, day.date, day.date);
    employeeIds = [...wanted.keys()];
    const store = async (): Promise<BatchResult> => {
      const changed = await refreshDays(withEm(ctx, em), wanted, { announceNew: true });
      if (last !== cursor) {
        await em.execute(`insert into job_cursor (name, position) values (?, ?) on conflict (name) do update set position = excluded.position`, [
          CURSOR,
          last.toString(),
        ]);
      }
      return { changed, more: (page!.full && !page!.held) || stale.length === DUE_PAGE || due.length === DUE_PAGE, events: page!.events };
    };
    // With tracing on, a batch that took punches or stale days is traced from here (the days' reads
    // and writes): a trace of its own for the worker, linked to the spans that wrote its punches (the
    // terminal uploads); a child span for a timesheet read. An idle poll is not traced.
    if (!tracingEnabled() || (page!.events === 0 && stale.length === 0)) return store();
    return inSpan(
      'attendance.batch',
      { links: linksTo(page!.traces ?? []), attributes: { 'timegate.attendance.events': page!.events, 'timegate.attendance.stale_days': stale.length } },
      async (span) => {
        const result = await store();
        span?.setAttribute('timegate.attendance.days_changed', result.changed);
        return result;
      },
    );
  });
  // With a read replica, the days' workspaces are marked written (after the COMMIT): a timesheet read
  // of theirs goes to the primary until the replica has these days (src/db/read-replica.ts).
  if (result.changed > 0) await noteWorkspaceWrite(withEm(ctx, ctx.em.fork()), { employeeIds });
  return result;
}

/** True when punches or stale marks wait for the worker (one cheap query when it is caught up). */
export async function hasPendingDays(em: EntityManager): Promise<boolean> {
  const [row] = await em.execute<{ pending: boolean }[]>(
    `select exists (select 1 from event, (select coalesce((select position from job_cursor where name = ?), 0) as position) cursor
                   where id > cursor.position - ${MAX_SPAN} and id + span - 1 > cursor.position and type = 'attendance.created')
         or exists (select 1 from attendance_day where stale) as pending`,
    [CURSOR],
  );
  return row!.pending;
}

/**
 * Age in seconds of the oldest punch (`attendance.created` event) after the worker's cursor: how far
 * the days lag behind the punches (the operations gauge timegate_attendance_backlog_seconds); 0 when
 * the worker is caught up. Days marked stale by a change carry no time and are not measured.
 */
export async function attendanceBacklogSeconds(em: EntityManager, now: Date): Promise<number> {
  const [row] = await em.execute<{ seconds: number }[]>(
    `select extract(epoch from (?::timestamptz - e.created_at))::float8 as seconds
     from event e, (select coalesce((select position from job_cursor where name = ?), 0) as position) cursor
     where e.id > cursor.position - ${MAX_SPAN} and e.id + e.span - 1 > cursor.position and e.type = 'attendance.created'
     order by e.id limit 1`,
    [now, CURSOR],
  );
  return Math.max(0, row?.seconds ?? 0);
}

/**
 * Outbox rows a read looks through for untaken punches, the newest first: the reader's own punches
 * are recent. Behind a longer backlog (a backfill the worker is working off) days may lag as
 * docs/operations.md describes; a read's own batches above take the oldest.
 */
const UNTAKEN_ROWS = 1000;

/**
 * The days that punches after the worker's cursor touch, for `employeeIds` and punches dated within
 * the range or a day either side (their neighbours' shift windows may hold them). These are the
 * punches a batch cannot take yet: it takes the outbox only below every running transaction (so
 * that none commits behind the cursor), and one older transaction anywhere on the database holds
 * back every punch committed after it started. A read computes these days itself (read-your-writes);
 * the worker reaches the same punches later and finds the days unchanged.
 */
export async function daysOfUntakenPunches(em: EntityManager, employeeIds: number[], range: { startDate: string; endDate: string }): Promise<WantedDays> {
  const wanted: WantedDays = new Map();
  if (employeeIds.length === 0) return wanted;
  const rows = await em.execute<{ employee_id: number; dates: string[] }[]>(
    `with untaken as (
       select e.span, e.type, e.data from event e, (select coalesce((select position from job_cursor where name = ?), 0) as position) cursor
       where e.id > cursor.position - ${MAX_SPAN} and e.id + e.span - 1 > cursor.position and e.type = 'attendance.created'
       order by e.id desc limit ${UNTAKEN_ROWS}),
     punches as (${eventFieldsSql('untaken', ['employee_id', 'local_time'], 'true')})
     select employee_id::int, array_agg(distinct left(local_time, 10)) as dates
     from punches
     where employee_id::int = any(?::int[]) and left(local_time, 10) between ? and ?
     group by 1`,
    [CURSOR, intArray(employeeIds), addDays(range.startDate, -1), addDays(range.endDate, 1)],
  );
  for (const row of rows) for (const date of row.dates) want(wanted, row.employee_id, addDays(date, -1), addDays(date, 1));
  return wanted;
}
