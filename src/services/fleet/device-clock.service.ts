// Terminal clocks. A terminal stamps its records with its own wall clock; a record made just now
// tells how far that clock is from ours: skew = the record's instant − when it arrived. Every device
// shows it (`clock_skew_seconds`); a skew beyond TIMEGATE_CLOCK_SKEW_ALERT_SECONDS raises one
// `device.clock_skew` event, re-armed only once the skew is back under the limit. Nothing here ever
// corrects a clock by itself (a terminal in the wrong zone would be "corrected" forever): that is the
// operator's `clock.sync` action (device-action.service.ts).
//
// A lone record is no proof it was made just now: a terminal draining a backlog one record per
// upload sends yesterday's punches exactly like live ones, and one of them read as a clock is "a day
// slow". So a record is only a candidate, and it reads the clock when something confirms it was made
// in real time (docs/device-operations.md, "Clocks"): the clock read as it did before, or a later
// candidate of the same terminal, at least CONFIRM_AFTER_MS later, whose time advanced with ours. A
// backlog's records arrive faster than they were made, so two of them never agree.
import { boundedCache } from '../../kernel/cache';
import { recordEvents } from '../../events/outbox';
import { withEm, type RequestContext } from '../../context/request-context';

/** A record older than this is history re-sent one at a time, not a clock reading. */
const MAX_READING_SECONDS = 7 * 86_400;
/** Two candidates agree when their skews differ by at most this. */
const AGREE_SECONDS = 30;
/** A candidate confirms another only when it arrived at least this much later (a backlog arrives back to back). */
export const CONFIRM_AFTER_MS = 10_000;
/** Readings within this of the stored one, and younger than REWRITE_MS, are not written again. */
const SAME_SKEW_SECONDS = 30;
const REWRITE_MS = 10 * 60_000;
const MAX_REMEMBERED = 100_000;

/** This process's last written reading per device: a terminal punching all day costs a write per 10 minutes. */
const lastWritten = boundedCache<number, { skew: number; at: number }>(MAX_REMEMBERED);
/** This process's last unconfirmed candidate per device (a terminal's uploads reaching other processes only confirm less). */
const candidates = boundedCache<number, { skew: number; at: number }>(MAX_REMEMBERED);

/**
 * A skew that is a whole number of quarter hours (within a minute) and at least half an hour is
 * most likely a terminal set to the wrong time zone, not a drifting clock.
 */
export function looksLikeWrongZone(skewSeconds: number): boolean {
  const abs = Math.abs(skewSeconds);
  const quarter = 900;
  return abs >= 1800 && Math.abs(abs - Math.round(abs / quarter) * quarter) <= 60;
}

export interface ClockDevice {
  id: number;
  workspaceId: number;
  companyId: number;
  serialNumber: string;
}

/**
 * Notes the one new record of an upload (`recordAt`, the instant its time reads as) received at
 * `receivedAt`: a candidate reading of the terminal's clock, stored only once confirmed (above).
 * True when a reading was stored (an unconfirmed candidate, a reading close to the last one, or a
 * skipped one is not).
 */
export async function noteClockReading(ctx: RequestContext, device: ClockDevice, recordAt: Date, receivedAt: Date): Promise<boolean> {
  try {
    const skew = Math.round((recordAt.getTime() - receivedAt.getTime()) / 1000);
    if (Math.abs(skew) > MAX_READING_SECONDS) return false;
    if (!(await confirmed(ctx, device.id, skew, receivedAt.getTime()))) return false;
    return await writeClockReading(ctx, device, skew, receivedAt);
  } catch (error) {
    // A measurement must never fail the upload that carried it (its punches are stored already).
    ctx.logger.warn({ err: error, deviceId: device.id }, 'clock reading not stored');
    return false;
  }
}

/**
 * Whether a record's skew is confirmed as a reading of the clock: it agrees with the clock's last
 * reading (this process's, else the stored one), or with this process's previous candidate of the
 * terminal that arrived at least CONFIRM_AFTER_MS before it. Otherwise it becomes the candidate
 * (unless the one kept is younger than CONFIRM_AFTER_MS: a burst of uploads keeps its first).
 */
async function confirmed(ctx: RequestContext, deviceId: number, skew: number, at: number): Promise<boolean> {
  let last = lastWritten.get(deviceId)?.skew;
  if (last === undefined) {
    const [row] = await ctx.em.execute<{ skew: number | null }[]>('select clock_skew_seconds as skew from device where id = ?', [deviceId]);
    last = row?.skew ?? undefined;
  }
  if (last !== undefined && Math.abs(last - skew) <= AGREE_SECONDS) return true;
  const candidate = candidates.get(deviceId);
  if (candidate && at - candidate.at < CONFIRM_AFTER_MS) return false;
  if (candidate && Math.abs(candidate.skew - skew) <= AGREE_SECONDS) {
    candidates.delete(deviceId);
    return true;
  }
  candidates.set(deviceId, { skew, at });
  return false;
}

async function writeClockReading(ctx: RequestContext, device: ClockDevice, skew: number, receivedAt: Date): Promise<boolean> {
  const limit = ctx.config.clockSkewAlertSeconds;
  const last = lastWritten.get(device.id);
  const crosses = last !== undefined && Math.abs(last.skew) > limit !== Math.abs(skew) > limit;
  if (last && !crosses && Math.abs(last.skew - skew) < SAME_SKEW_SECONDS && receivedAt.getTime() - last.at < REWRITE_MS) return false;
  return ctx.em.transactional(async (em) => {
    // A reading never waits: when another transaction holds the device row, this one is skipped
    // (the terminal's next real-time record reads its clock again).
    const [row] = await em.execute<{ was_alerted: boolean; alerted: boolean }[]>(
      `with old as (select clock_skew_alerted from device where id = ? for no key update skip locked)
       update device set clock_skew_seconds = ?, clock_checked_at = ?, clock_skew_alerted = ? from old where id = ?
       returning old.clock_skew_alerted as was_alerted, device.clock_skew_alerted as alerted`,
      [device.id, skew, receivedAt, Math.abs(skew) > limit, device.id],
    );
    if (!row) return false;
    lastWritten.set(device.id, { skew, at: receivedAt.getTime() });
    if (row.was_alerted || !row.alerted) return true;
    await recordEvents(withEm(ctx, em), [
      {
        workspaceId: device.workspaceId,
        type: 'device.clock_skew',
        data: {
          device_id: device.id,
          company_id: device.companyId,
          serial_number: device.serialNumber,
          clock_skew_seconds: skew,
          limit_seconds: limit,
          likely_wrong_time_zone: looksLikeWrongZone(skew),
          at: receivedAt.toISOString(),
        },
      },
    ]);
    return true;
  });
}

/** Forgets this process's last reading of a device (its clock was just set: the next reading is written). */
export function forgetClockReading(deviceId: number): void {
  lastWritten.delete(deviceId);
  candidates.delete(deviceId);
}
