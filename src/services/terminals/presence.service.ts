// Terminal presence in the database. The adapter keeps last-seen times in memory and hands them
// over in batches (never one write per poll); these statements make the batch and the offline sweep
// safe with several processes on one database: each status change is written once, by whichever
// statement changes the row, and the sweep reads the database's last_seen_at, not a process's memory.
import type { EntityManager } from '@mikro-orm/postgresql';
import { deviceStatusData, type DeviceStatusRow } from '../../events/event-payloads';
import { recordEvents } from '../../events/outbox';
import { executePrepared } from '../../db/prepared-statement';
import { intArray, textArray } from '../common/sql-arrays';
import { REPORTED_COLUMNS, type ReportedInfo } from './terminal.service';
import { type RequestContext, withEm } from '../../context/request-context';

type StatusChangeRow = DeviceStatusRow & { workspace_id: number };

/** `device.online` / `device.offline` for the status changes just written, in the same transaction. */
async function recordStatusEvents(ctx: RequestContext, rows: StatusChangeRow[]): Promise<void> {
  await recordEvents(
    ctx,
    rows.map((row) => ({ workspaceId: row.workspace_id, type: row.status === 'online' ? 'device.online' : 'device.offline', data: deviceStatusData(row) })),
  );
}

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
 * was not online before, with its `device.online` event (one transaction). Returns the ids of
 * devices that came (back) online.
 */
export async function flushPresence(ctx: RequestContext, entries: PresenceEntry[]): Promise<number[]> {
  if (entries.length === 0) return [];
  // One array parameter per column (see sql-arrays.ts), whatever the batch size.
  const params: string[] = [intArray(entries.map((e) => e.deviceId)), textArray(entries.map((e) => e.seenAt.toISOString()))];
  const casts = ['int[]', 'timestamptz[]'];
  for (const [key, column] of REPORTED) {
    const integer = INTEGER_COLUMNS.has(column);
    const values = entries.map((e) => e.reported?.[key] ?? null);
    params.push(integer ? intArray(values as Array<number | null>) : textArray(values.map((v) => (v === null ? null : String(v)))));
    casts.push(integer ? 'int[]' : 'varchar[]');
  }
  const columns = ['id', 'seen', ...REPORTED.map(([, column]) => column)];
  const sets = REPORTED.map(([, column]) => `${column} = coalesce(v.${column}, d.${column})`).join(', ');
  const changed = await ctx.em.transactional(async (em) => {
    // Bound parameters: em.execute would inline the arrays (thousands of values a second) into the SQL text.
    const written = await executePrepared<StatusChangeRow>(
      withEm(ctx, em),
      `with v as (select * from unnest(${casts.map((cast) => `?::${cast}`).join(', ')}) as u(${columns.join(', ')})),
       prev as (select d.id, d.status from device d join v on v.id = d.id order by d.id for update of d),
       upd as (
         update device d set last_seen_at = greatest(d.last_seen_at, v.seen), status = 'online', ${sets}
         from v join prev on prev.id = v.id where d.id = v.id
         returning d.id, d.workspace_id, d.company_id, d.serial_number, prev.status as previous, v.seen),
       changes as (
         insert into device_status_change (workspace_id, device_id, status, at)
         select workspace_id, id, 'online', seen from upd where previous <> 'online'
         returning workspace_id, device_id, status, at)
       select c.*, upd.company_id, upd.serial_number from changes c join upd on upd.id = c.device_id order by c.device_id`,
      params,
    );
    await recordStatusEvents(withEm(ctx, em), written);
    return written;
  });
  return changed.map((r) => r.device_id);
}

/**
 * Marks `offline` every online device silent for max(3 x its poll interval, minSeconds), by the
 * database's last_seen_at, and records one status change and one `device.offline` event each. Idempotent: a second process
 * running the same sweep finds nothing left to change. Returns the ids marked offline.
 */
export async function markSilentDevicesOffline(ctx: RequestContext, options: { minSeconds: number; defaultPollSeconds: number }): Promise<number[]> {
  const now = ctx.now();
  const changed = await ctx.em.transactional(async (em) => {
    const rows = await em.execute<StatusChangeRow[]>(
      `with silent as (
         update device set status = 'offline'
         where status = 'online'
           and last_seen_at < ?::timestamptz - make_interval(secs => greatest(3 * coalesce(poll_interval_seconds, ?), ?))
         returning id, workspace_id, company_id, serial_number),
       changes as (
         insert into device_status_change (workspace_id, device_id, status, at)
         select workspace_id, id, 'offline', ? from silent
         returning workspace_id, device_id, status, at)
       select c.*, silent.company_id, silent.serial_number from changes c join silent on silent.id = c.device_id order by c.device_id`,
      [now, options.defaultPollSeconds, options.minSeconds, now],
    );
    await recordStatusEvents(withEm(ctx, em), rows);
    return rows;
  });
  return changed.map((r) => r.device_id);
}

/** Registered terminals of every workspace by status (the operations gauge timegate_devices). */
export async function deviceStatusCounts(em: EntityManager): Promise<Record<string, number>> {
  const rows = await em.execute<{ status: string; n: number }[]>(`select status, count(*)::int as n from device group by status`);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
