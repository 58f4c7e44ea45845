// One batch of the attendance worker's work, also run by a timesheet read that finds punches the
// worker has not taken yet (a client that posts a punch and reads its timesheet at once sees it).
// The work: `attendance.created` events after the worker's cursor (each punch's date and its
// neighbours, whose shift windows may hold it), days marked stale by a change, and days whose
// window has ended; all recomputed by refreshDays in one transaction with the cursor's advance.
import type { EntityManager } from '@mikro-orm/postgresql';
import { DELIVERABLE_BELOW } from '../../events/event-feed';
import { withEm, type RequestContext } from '../context';
import { addDays } from './compute-days';
import { refreshDays, takeAttendanceLock, tryAttendanceLock, want, type WantedDays } from './day-store';

const CURSOR = 'attendance';
/** Outbox events read per batch, and stale or due days taken per batch. */
const EVENT_PAGE = 5000;
const DUE_PAGE = 2000;

export interface BatchResult {
  /** Days that changed (and were announced). */
  changed: number;
  /** More work is waiting: run another batch. */
  more: boolean;
}

/**
 * Runs one batch in its own transaction. `wait`: wait for the attendance lock (a read); otherwise a
 * taken lock means another writer is at work and the batch does nothing (the worker).
 */
export async function processPendingDays(ctx: RequestContext, options: { wait: boolean }): Promise<BatchResult> {
  return (ctx.em as EntityManager).fork().transactional(async (em) => {
    if (options.wait) await takeAttendanceLock(em);
    else if (!(await tryAttendanceLock(em))) return { changed: 0, more: false };
    const [cursorRow] = await em.execute<{ position: string }[]>(`select position from job_cursor where name = ? for update`, [CURSOR]);
    const cursor = BigInt(cursorRow?.position ?? 0);
    // Only events below every running transaction: none can commit later behind the cursor.
    const events = await em.execute<{ id: string; data: { employee_id?: number | null; local_time?: string } | null; below: string }[]>(
      `with bound as (select ${DELIVERABLE_BELOW} as below)
       select e.id, case when e.type = 'attendance.created' then e.data end as data, bound.below
       from event e, bound where e.id > ? order by e.id limit ${EVENT_PAGE}`,
      [cursor.toString()],
    );
    const wanted: WantedDays = new Map();
    let last = cursor;
    let held = false;
    for (const event of events) {
      if (BigInt(event.id) >= BigInt(event.below)) {
        held = true;
        break;
      }
      last = BigInt(event.id);
      const employeeId = event.data?.employee_id;
      const localDate = event.data?.local_time?.slice(0, 10);
      if (employeeId && localDate) want(wanted, employeeId, addDays(localDate, -1), addDays(localDate, 1));
    }
    const stale = await em.execute<{ employee_id: number; date: string }[]>(
      `select employee_id, date::text from attendance_day where stale order by employee_id, date limit ${DUE_PAGE}`,
    );
    const due = await em.execute<{ employee_id: number; date: string }[]>(
      `select employee_id, date::text from attendance_day where settles_at <= ?::timestamptz order by settles_at limit ${DUE_PAGE}`,
      [ctx.now()],
    );
    for (const day of [...stale, ...due]) want(wanted, day.employee_id, day.date, day.date);
    const changed = await refreshDays(withEm(ctx, em), wanted, { announceNew: true });
    if (last !== cursor) {
      await em.execute(`insert into job_cursor (name, position) values (?, ?) on conflict (name) do update set position = excluded.position`, [CURSOR, last.toString()]);
    }
    return { changed, more: (events.length === EVENT_PAGE && !held) || stale.length === DUE_PAGE || due.length === DUE_PAGE };
  });
}

/** True when punches or stale marks wait for the worker (one cheap query when it is caught up). */
export async function hasPendingDays(em: EntityManager): Promise<boolean> {
  const [row] = await em.execute<{ pending: boolean }[]>(
    `select exists (select 1 from event where id > coalesce((select position from job_cursor where name = ?), 0) and type = 'attendance.created')
         or exists (select 1 from attendance_day where stale) as pending`,
    [CURSOR],
  );
  return row!.pending;
}
