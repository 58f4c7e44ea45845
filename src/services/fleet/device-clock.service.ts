// Terminal clocks. A terminal stamps its records with its own wall clock; a record uploaded in real
// time (an upload of one record, as terminals send each punch as it happens) tells how far that
// clock is from ours: skew = the record's instant − when it arrived. Every device shows it
// (`clock_skew_seconds`); a skew beyond TIMEGATE_CLOCK_SKEW_ALERT_SECONDS raises one
// `device.clock_skew` event, re-armed only once the skew is back under the limit. Nothing here ever
// corrects a clock by itself (a terminal in the wrong zone would be "corrected" forever): that is the
// operator's `clock.sync` action (device-action.service.ts).
import { boundedCache } from '../../kernel/cache';
import { recordEvents } from '../../events/outbox';
import { withEm, type RequestContext } from '../../context/request-context';

/** A record older than this is history re-sent one at a time, not a clock reading. */
const MAX_READING_SECONDS = 7 * 86_400;
/** Readings within this of the stored one, and younger than REWRITE_MS, are not written again. */
const SAME_SKEW_SECONDS = 30;
const REWRITE_MS = 10 * 60_000;
const MAX_REMEMBERED = 100_000;

/** This process's last written reading per device: a terminal punching all day costs a write per 10 minutes. */
const lastWritten = boundedCache<number, { skew: number; at: number }>(MAX_REMEMBERED);

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
 * Notes a clock reading of a real-time record (`recordAt`, the record's instant) received at
 * `receivedAt`. True when it was stored (a reading close to the last one, or skipped, is not).
 */
export async function noteClockReading(ctx: RequestContext, device: ClockDevice, recordAt: Date, receivedAt: Date): Promise<boolean> {
  try {
    return await writeClockReading(ctx, device, recordAt, receivedAt);
  } catch (error) {
    // A measurement must never fail the upload that carried it (its punches are stored already).
    ctx.logger.warn({ err: error, deviceId: device.id }, 'clock reading not stored');
    return false;
  }
}

async function writeClockReading(ctx: RequestContext, device: ClockDevice, recordAt: Date, receivedAt: Date): Promise<boolean> {
  const skew = Math.round((recordAt.getTime() - receivedAt.getTime()) / 1000);
  if (Math.abs(skew) > MAX_READING_SECONDS) return false;
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
}
