// Device time handling that is the terminal's own: the plausible years of a record, the handshake
// `TimeZone` and rtdata `ServerTZ` values, and ZK "encoded seconds". Wall-clock parsing and zone
// maths live in the kernel (`src/kernel/local-time.ts`) and are re-exported here, because every
// protocol record carries a wall-clock time.
import { pad, utcOffsetMinutes, type LocalDateTime } from '../kernel/local-time';

export {
  createLocalTimeConverter,
  formatLocalDateTime,
  formatLocalTime,
  instantToLocal,
  KNOWN_CONVERSIONS,
  localTimeToInstant,
  parseLocalTime,
  timeZoneSupportProblem,
  utcOffsetMinutes,
  type LocalDateTime,
  type LocalTimeResult,
} from '../kernel/local-time';

/**
 * Years a terminal's record time may carry as a record (the API's date range); others are corrupt
 * lines. A record dated before 2000 or ahead of the clocks is still no punch: the service
 * quarantines it (docs/punches.md, "Quarantine").
 */
export const PLAUSIBLE_YEARS = { from: 1900, to: 2199 } as const;

/** Why a record time cannot be a real event's time, or null when it can. */
export function implausibleTime(t: LocalDateTime): string | null {
  if (t.year < PLAUSIBLE_YEARS.from || t.year > PLAUSIBLE_YEARS.to)
    return `year ${String(t.year).padStart(4, '0')} is implausible (accepted: ${PLAUSIBLE_YEARS.from}–${PLAUSIBLE_YEARS.to})`;
  return null;
}

/**
 * The attendance handshake `TimeZone` value for `zone` at `at`: whole hours as an integer
 * (`8`, `-5`, `1` for Berlin in winter, `2` in summer), otherwise minutes (`330` Kolkata, `345`
 * Kathmandu, `-210` St John's). Devices read |value| > 60 as minutes; every real non-whole-hour
 * zone is at least ±3:30, so the two forms never collide. Recompute it at every handshake: in DST
 * zones the value changes twice a year.
 */
export function timeZoneOption(zone: string, at: Date): string {
  const minutes = utcOffsetMinutes(zone, at);
  return String(minutes % 60 === 0 ? minutes / 60 : minutes);
}

/** `+0800` / `-0330` form used by `ServerTZ=` in the rtdata time reply. */
export function offsetHhmm(zone: string, at: Date): string {
  const minutes = utcOffsetMinutes(zone, at);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

/**
 * ZK "encoded seconds" (SEC-DOC 附录5): a 31-day-month calendar counted from 2000-01-01,
 * `((Y-2000)*12*31 + (M-1)*31 + D-1)*86400 + h*3600 + m*60 + s`. NOT Unix time. Used by Security
 * PUSH `starttime/endtime`, `SET OPTIONS DateTime=` and the rtdata time reply.
 */
export function encodeZkTime(t: LocalDateTime): number {
  if (t.year < 2000) throw new RangeError(`ZK encoded time cannot represent year ${t.year}`);
  return ((t.year - 2000) * 12 * 31 + (t.month - 1) * 31 + (t.day - 1)) * 86400 + t.hour * 3600 + t.minute * 60 + t.second;
}

/** Inverse of `encodeZkTime`. Throws RangeError for negative or non-integer input. */
export function decodeZkTime(encoded: number): LocalDateTime {
  if (!Number.isSafeInteger(encoded) || encoded < 0) throw new RangeError(`invalid ZK encoded time ${encoded}`);
  let rest = encoded;
  const second = rest % 60;
  rest = Math.floor(rest / 60);
  const minute = rest % 60;
  rest = Math.floor(rest / 60);
  const hour = rest % 24;
  rest = Math.floor(rest / 24);
  const day = (rest % 31) + 1;
  rest = Math.floor(rest / 31);
  const month = (rest % 12) + 1;
  const year = Math.floor(rest / 12) + 2000;
  return { year, month, day, hour, minute, second };
}
