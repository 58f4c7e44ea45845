// Terminal punches whose date cannot be true (docs/punches.md, "Quarantine"): dated before 2000, or
// more than a day ahead of the terminal's clock (its skew as measured on its real-time records,
// device-clock.service.ts, counted only when the terminal runs ahead of us) or, that clock being
// unknown, of the server's time. They are kept in `quarantined_punch`, shown by the API, and
// acknowledged to the terminal like stored punches (it would otherwise send them again for ever);
// they never become punches, timesheet days, events or partitions of the punch table. Inspection
// only: a time the terminal got wrong is not made right by releasing it as it is; the operator
// records the real one as a manual punch.
import type { FilterQuery } from '@mikro-orm/core';
import { QuarantinedPunch, QuarantineReason } from '../../entities';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import type { DevicePunch } from '../attendance/punch.service';
import type { Page, PageRequest } from '../common/pagination';
import { executeBound } from '../../db/prepared-statement';

/** Records dated before this local time are quarantined. */
const EARLIEST_LOCAL_TIME = '2000-01-01 00:00:00';
/** How far ahead of the terminal's clock (or ours) a record may be. */
export const AHEAD_LIMIT_MS = 86_400_000;

export interface QuarantineCandidate {
  punch: DevicePunch;
  reason: QuarantineReason;
  clockSkewSeconds: number | null;
}

export interface QuarantineResult {
  /** New rows in the quarantine. */
  stored: number;
  /** Already there (a re-sent record). */
  duplicates: number;
  /** Beyond TIMEGATE_QUARANTINE_MAX_PER_DEVICE: acknowledged and not kept. */
  dropped: number;
}

/**
 * Splits an upload's punches into those to store and those to quarantine. One query (the
 * terminal's measured clock skew) only when a record is more than a day ahead of the server.
 */
export async function splitImpossiblePunches(
  ctx: RequestContext,
  device: { id: number },
  punches: readonly DevicePunch[],
): Promise<{ kept: DevicePunch[]; quarantined: QuarantineCandidate[] }> {
  const now = ctx.now().getTime();
  const early = (p: DevicePunch) => p.localTime < EARLIEST_LOCAL_TIME;
  const aheadOfServer = (p: DevicePunch) => p.punchTime.getTime() > now + AHEAD_LIMIT_MS;
  if (!punches.some((p) => early(p) || aheadOfServer(p))) return { kept: [...punches], quarantined: [] };
  let skew: number | null = null;
  if (punches.some(aheadOfServer)) {
    const [row] = await ctx.em.execute<{ clock_skew_seconds: number | null }[]>('select clock_skew_seconds from device where id = ?', [device.id]);
    skew = row?.clock_skew_seconds ?? null;
  }
  // A terminal whose clock runs ahead of ours punches ahead of us; one behind us gains nothing (its clock may have been set since).
  const limit = now + Math.max(skew ?? 0, 0) * 1000 + AHEAD_LIMIT_MS;
  const kept: DevicePunch[] = [];
  const quarantined: QuarantineCandidate[] = [];
  for (const punch of punches) {
    if (early(punch)) quarantined.push({ punch, reason: QuarantineReason.before_2000, clockSkewSeconds: skew });
    else if (punch.punchTime.getTime() > limit)
      quarantined.push({
        punch,
        reason: skew === null ? QuarantineReason.ahead_of_server_time : QuarantineReason.ahead_of_terminal_clock,
        clockSkewSeconds: skew,
      });
    else kept.push(punch);
  }
  return { kept, quarantined };
}

/**
 * Keeps quarantined records, once each per (workspace, serial, pin, raw time), up to
 * TIMEGATE_QUARANTINE_MAX_PER_DEVICE per terminal. One statement: the count, the bound and the insert.
 */
export async function quarantinePunches(
  ctx: RequestContext,
  device: { id: number; workspaceId: number; companyId: number; serialNumber: string; timeZone: string },
  candidates: readonly QuarantineCandidate[],
  receivedAt: Date,
): Promise<QuarantineResult> {
  if (candidates.length === 0) return { stored: 0, duplicates: 0, dropped: 0 };
  const rows = JSON.stringify(
    candidates.map((c) => [
      c.punch.pin,
      Math.floor(c.punch.punchTime.getTime() / 1000),
      c.punch.localTime,
      c.punch.punchState,
      c.punch.verifyType,
      c.punch.verifyCode,
      c.punch.workCode,
      c.punch.deviceRecordIndex,
      c.reason,
      c.clockSkewSeconds,
    ]),
  );
  // Bound, not inlined: em.execute would escape the rows' JSON character by character (executeBound).
  const [result] = await executeBound<{ stored: number; fresh: number; room: number }>(
    ctx.em,
    `with r as materialized (
       select item->>0 as pin, to_timestamp((item->>1)::bigint) as punch_time, item->>2 as local_time, item->>3 as punch_state, item->>4 as verify_type,
              (item->>5)::int as verify_code, item->>6 as work_code, (item->>7)::int as device_record_index, item->>8 as reason,
              (item->>9)::int as clock_skew_seconds, ordinality
       from jsonb_array_elements(?::jsonb) with ordinality as t(item, ordinality)),
     room as (select greatest(?::int - (select count(*) from quarantined_punch where workspace_id = ? and device_serial = ?), 0)::int as n),
     fresh as materialized (
       select distinct on (r.pin, r.local_time) r.* from r
       where not exists (select 1 from quarantined_punch q where q.workspace_id = ? and q.device_serial = ? and q.pin = r.pin and q.local_time = r.local_time)
       order by r.pin, r.local_time, r.ordinality),
     ins as (
       insert into quarantined_punch (workspace_id, company_id, device_id, device_serial, pin, local_time, time_zone, punch_time, reason,
         clock_skew_seconds, punch_state, verify_type, verify_code, work_code, device_record_index, received_at)
       select ?, ?, ?, ?, pin, local_time, ?, punch_time, reason, clock_skew_seconds, punch_state, verify_type, verify_code, work_code, device_record_index, ?
       from fresh order by pin, local_time limit (select n from room)
       on conflict do nothing returning 1)
     select (select count(*) from ins)::int as stored, (select count(*) from fresh)::int as fresh, (select n from room) as room`,
    [
      rows,
      ctx.config.quarantineMaxPerDevice,
      device.workspaceId,
      device.serialNumber,
      device.workspaceId,
      device.serialNumber,
      device.workspaceId,
      device.companyId,
      device.id,
      device.serialNumber,
      device.timeZone,
      receivedAt,
    ],
  );
  const stored = result!.stored;
  const dropped = Math.max(0, result!.fresh - result!.room);
  if (stored > 0) ctx.metrics?.punchesQuarantined.inc({ outcome: 'stored' }, stored);
  if (dropped > 0) {
    ctx.metrics?.punchesQuarantined.inc({ outcome: 'dropped' }, dropped);
    ctx.logger.warn({ serial: device.serialNumber, dropped }, 'quarantine of this terminal is full: impossible punches dropped');
  }
  return { stored, duplicates: candidates.length - stored - dropped, dropped };
}

export interface QuarantineFilter {
  deviceId?: number;
  companyId?: number;
  reason?: QuarantineReason;
}

/** The workspace's quarantined punches, newest first. */
export async function listQuarantinedPunches(ctx: RequestContext, filter: QuarantineFilter, page: PageRequest): Promise<Page<QuarantinedPunch>> {
  const where: FilterQuery<QuarantinedPunch> = { workspaceId: workspaceOf(ctx) };
  if (filter.deviceId !== undefined) where.deviceId = filter.deviceId;
  if (filter.companyId !== undefined) where.companyId = filter.companyId;
  if (filter.reason !== undefined) where.reason = filter.reason;
  const [items, totalCount] = await ctx.em.findAndCount(QuarantinedPunch, where, { orderBy: { id: 'desc' }, limit: page.limit, offset: page.offset });
  return { items, totalCount, offset: page.offset };
}
