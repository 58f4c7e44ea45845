// The live lane of the attendance worker: the days of punches that happened in the last minutes
// (a clock-in at the terminal now), computed before the backlog the cursor works through (a
// terminal re-sending a month of history). The outbox is read in order, so a live punch uploaded
// behind 100,000 backfilled ones would wait for all of them; this lane finds it by its time instead.
//
// A punch is live when its time lies within LIVE_WINDOW_MINUTES of the server's clock (either side:
// terminal clocks drift). A backfill's punches are old, so they never are. A live punch is pending
// while no stored day lists it (refreshDays lists every punch a day counts or ignores); the lane
// recomputes its date and the neighbours (as the backlog does) and announces what changed. The
// backlog reaches the same punches later and finds the days unchanged: nothing is announced twice.
import { withEm, type RequestContext } from '../../context/request-context';
import { addDays } from '../../kernel/calendar-date';
import { noteWorkspaceWrite } from '../common/replica-read';
import { refreshDays, takeAttendanceLock } from './day-store';
import { want, type WantedDays } from './day-inputs';

export const LIVE_WINDOW_MINUTES = 10;
/** Live punches taken per run: a clock-in rush of a large site, not a backlog. */
const LIVE_PAGE = 2000;

export interface LiveResult {
  /** Live punches found pending. */
  punches: number;
  /** Days that changed (and were announced). */
  changed: number;
}

/**
 * Recomputes the days of pending live punches in one transaction. Waits for the attendance lock: a
 * backlog batch in progress finishes first (its batches are kept short for this), then this lane
 * goes before the next one.
 */
export async function processLiveDays(ctx: RequestContext): Promise<LiveResult> {
  let employeeIds: number[] = [];
  const result = await ctx.em.fork().transactional(async (em) => {
    await takeAttendanceLock(em);
    const now = ctx.now().getTime();
    const window = LIVE_WINDOW_MINUTES * 60_000;
    // One index probe per workspace (punch_workspace_time_index), in the current month's partition:
    // the backfill's rows are never read.
    const live = await em.execute<{ employee_id: number; date: string }[]>(
      `select p.employee_id, left(p.local_time, 10) as date
       from workspace w cross join lateral (
         select p.id, p.employee_id, p.local_time from punch p
         where p.workspace_id = w.id and p.punch_time >= ?::timestamptz and p.punch_time <= ?::timestamptz
           and p.employee_id is not null and p.voided_at is null) p
       where not exists (
         select 1 from attendance_day d
         where d.employee_id = p.employee_id and d.date between left(p.local_time, 10)::date - 1 and left(p.local_time, 10)::date + 1
           and p.id = any(d.punch_ids))
       limit ${LIVE_PAGE}`,
      [new Date(now - window), new Date(now + window)],
    );
    if (live.length === 0) return { punches: 0, changed: 0 };
    const wanted: WantedDays = new Map();
    for (const punch of live) want(wanted, punch.employee_id, addDays(punch.date, -1), addDays(punch.date, 1));
    const changed = await refreshDays(withEm(ctx, em), wanted, { announceNew: true });
    employeeIds = [...wanted.keys()];
    return { punches: live.length, changed };
  });
  // With a read replica, the days' workspaces are marked written after the COMMIT (src/db/read-replica.ts).
  if (result.changed > 0) await noteWorkspaceWrite(withEm(ctx, ctx.em.fork()), { employeeIds });
  return result;
}
