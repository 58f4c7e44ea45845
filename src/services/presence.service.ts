// Terminal presence in the database. The adapter keeps last-seen times in memory and hands them
// over in batches (never one write per poll); these statements make the batch and the offline sweep
// safe with several processes on one database: each status change is written once, by whichever
// statement changes the row, and the sweep reads the database's last_seen_at, not a process's memory.
import { REPORTED_COLUMNS, type ReportedInfo } from './terminal.service';
import type { RequestContext } from './context';

export interface PresenceEntry {
  deviceId: number;
  seenAt: Date;
  /** Reported values that changed since the cached row; null/absent keeps the stored value. */
  reported?: Partial<ReportedInfo>;
}

const REPORTED = Object.entries(REPORTED_COLUMNS) as Array<[keyof ReportedInfo, string]>;
const INTEGER_COLUMNS = new Set(['user_count', 'fingerprint_count', 'face_count', 'attlog_count']);

/**
 * One statement for a whole batch: last_seen_at moves forward only, status becomes `online`,
 * reported values are applied, and a `device_status_change` row is written for each device that
 * was not online before. Returns the ids of devices that came (back) online.
 */
export async function flushPresence(ctx: RequestContext, entries: PresenceEntry[]): Promise<number[]> {
  if (entries.length === 0) return [];
  const params: unknown[] = [];
  const rows = entries.map((e) => {
    params.push(e.deviceId, e.seenAt, ...REPORTED.map(([key]) => e.reported?.[key] ?? null));
    return `(?::int, ?::timestamptz, ${REPORTED.map(([, column]) => (INTEGER_COLUMNS.has(column) ? '?::int' : '?::varchar')).join(', ')})`;
  });
  const columns = ['id', 'seen', ...REPORTED.map(([, column]) => column)];
  const sets = REPORTED.map(([, column]) => `${column} = coalesce(v.${column}, d.${column})`).join(', ');
  const changed = await ctx.em.getConnection().execute<{ device_id: number }[]>(
    `with v(${columns.join(', ')}) as (values ${rows.join(', ')}),
     prev as (select d.id, d.status from device d join v on v.id = d.id order by d.id for update of d),
     upd as (
       update device d set last_seen_at = greatest(d.last_seen_at, v.seen), status = 'online', ${sets}
       from v join prev on prev.id = v.id where d.id = v.id
       returning d.id, d.workspace_id, prev.status as previous, v.seen)
     insert into device_status_change (workspace_id, device_id, status, at)
     select workspace_id, id, 'online', seen from upd where previous <> 'online'
     returning device_id`,
    params,
  );
  return changed.map((r) => r.device_id);
}

/**
 * Marks `offline` every online device silent for max(3 x its poll interval, minSeconds), by the
 * database's last_seen_at, and records one status change each. Idempotent: a second process
 * running the same sweep finds nothing left to change. Returns the ids marked offline.
 */
export async function markSilentDevicesOffline(ctx: RequestContext, options: { minSeconds: number; defaultPollSeconds: number }): Promise<number[]> {
  const now = ctx.now();
  const changed = await ctx.em.getConnection().execute<{ device_id: number }[]>(
    `with silent as (
       update device set status = 'offline'
       where status = 'online'
         and last_seen_at < ?::timestamptz - make_interval(secs => greatest(3 * coalesce(poll_interval_seconds, ?), ?))
       returning id, workspace_id)
     insert into device_status_change (workspace_id, device_id, status, at)
     select workspace_id, id, 'offline', ? from silent
     returning device_id`,
    [now, options.defaultPollSeconds, options.minSeconds, now],
  );
  return changed.map((r) => r.device_id);
}
