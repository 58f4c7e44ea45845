// Wall-clock times and time zones. Terminals, shifts and reports speak local time without a zone
// (`YYYY-MM-DD HH:MM:SS`); instants are stored. Zone maths uses Intl only, so every layer (the pure
// protocol code included) may import this file.

import { boundedCache } from './cache';

/** A wall-clock date-time without zone, as the device sends it. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export type LocalTimeResult = { ok: true; value: LocalDateTime } | { ok: false; reason: string };

/** Date.UTC, but years 0–99 are those years, not 1900–1999 (Date.UTC's two-digit-year rule). */
function utcMs(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0): number {
  const ms = Date.UTC(year, monthIndex, day, hour, minute, second);
  if (year >= 0 && year <= 99) {
    const date = new Date(ms);
    date.setUTCFullYear(date.getUTCFullYear() - 1900);
    return date.getTime();
  }
  return ms;
}

function daysInMonth(year: number, month: number): number {
  return new Date(utcMs(year, month, 0)).getUTCDate();
}

const ZERO = 48;

/** The decimal number in `text[from, from + width)`, or -1 when a character is not a digit 0-9. */
function digitsAt(text: string, from: number, width: number): number {
  let value = 0;
  for (let i = from; i < from + width; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (!(digit >= 0 && digit <= 9)) return -1; // NaN past the end of the text, too
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Parse and validate `YYYY-MM-DD HH:MM:SS` (a `T` separator is accepted for the SDK320 and
 * USERINFO validity forms). Rejects dates that do not exist (2024-02-30) and hours ≥ 24. Runs twice
 * per uploaded punch, so it reads the digits in place (no match array, no substrings).
 */
export function parseLocalTime(text: string): LocalTimeResult {
  const separator = text.charCodeAt(10);
  const shaped = text.length === 19 && text[4] === '-' && text[7] === '-' && (separator === 32 || separator === 84) && text[13] === ':' && text[16] === ':';
  const year = shaped ? digitsAt(text, 0, 4) : -1;
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0)
    return { ok: false, reason: `time ${JSON.stringify(text)} is not YYYY-MM-DD HH:MM:SS` };
  if (month < 1 || month > 12) return { ok: false, reason: `time ${text}: month ${month} does not exist` };
  if (day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: `time ${text}: day ${day} does not exist in ${text.slice(0, 7)}` };
  if (hour > 23) return { ok: false, reason: `time ${text}: hour ${hour} is out of range` };
  if (minute > 59) return { ok: false, reason: `time ${text}: minute ${minute} is out of range` };
  if (second > 59) return { ok: false, reason: `time ${text}: second ${second} is out of range` };
  return { ok: true, value: { year, month, day, hour, minute, second } };
}

export const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `YYYY-MM-DD HH:MM:SS` */
export function formatLocalDateTime(t: LocalDateTime): string {
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

const formatters = boundedCache<string, Intl.DateTimeFormat>(1_000);

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    // Throws RangeError for an unknown zone: a configuration error the caller must see.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock time in `zone` at instant `at`, straight from Intl (slow: a formatToParts call). */
function intlInstantToLocal(at: Date, zone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

function localAsUtcMs(t: LocalDateTime): number {
  return utcMs(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
}

/** UTC offset of `zone` at whole second `wholeMs`, in milliseconds, from Intl. */
function intlOffsetMs(zone: string, wholeMs: number): number {
  return localAsUtcMs(intlInstantToLocal(new Date(wholeMs), zone)) - wholeMs;
}

const WEEK_MS = 7 * 86_400_000;

/** A zone's offsets through one UTC year: `offsets[k]` holds from `starts[k]` (ms) to the next start. */
interface YearOffsets {
  starts: number[];
  offsets: number[];
}

/** `zone|year` -> its offsets (a few entries: most zones change twice a year, many never). */
const yearOffsets = boundedCache<string, YearOffsets>(20_000);

/**
 * The offsets of `zone` through UTC year `year`, from Intl: read once a week, and where two
 * readings differ, the transition is found to the second by bisection (about 100 Intl calls per
 * zone and year). Assumes no zone changes its offset and changes it back within one week (none has
 * since 1900: the shortest such period, Morocco's Ramadan suspension of summer time, lasted weeks).
 */
function offsetsOfYear(zone: string, year: number): YearOffsets {
  const from = utcMs(year, 0, 1);
  const to = utcMs(year + 1, 0, 1);
  const starts = [from];
  const offsets = [intlOffsetMs(zone, from)];
  let known = from;
  for (let sample = Math.min(from + WEEK_MS, to - 1000); ; sample = Math.min(sample + WEEK_MS, to - 1000)) {
    let offset = intlOffsetMs(zone, sample);
    // Each transition between the last known second and this sample (more than one in a week: one after the other).
    while (offset !== offsets.at(-1)) {
      const before = offsets.at(-1)!;
      let lo = known;
      let hi = sample;
      let atHi = offset;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        const atMid = intlOffsetMs(zone, mid);
        if (atMid === before) lo = mid;
        else [hi, atHi] = [mid, atMid];
      }
      starts.push(hi);
      offsets.push(atHi);
      known = hi;
    }
    known = sample;
    if (sample === to - 1000) return { starts, offsets };
  }
}

/**
 * UTC offset of `zone` at instant `at`, in milliseconds, from the zone's table of its year (built
 * once per zone and year). Attendance computes thousands of shift starts and punch dates per batch,
 * and a terminal may upload a century of dates: a formatToParts call for each would dominate the
 * time (and the garbage) of both.
 */
function offsetMs(zone: string, at: Date): number {
  const whole = Math.floor(at.getTime() / 1000) * 1000; // Intl drops milliseconds
  const year = new Date(whole).getUTCFullYear();
  const key = `${zone}|${year}`;
  let table = yearOffsets.get(key);
  if (!table) {
    table = offsetsOfYear(zone, year);
    yearOffsets.set(key, table);
  }
  let k = table.starts.length - 1;
  while (k > 0 && table.starts[k]! > whole) k--;
  return table.offsets[k]!;
}

/** The wall-clock time in `zone` at instant `at` (whole seconds). */
export function instantToLocal(at: Date, zone: string): LocalDateTime {
  const local = new Date(Math.floor(at.getTime() / 1000) * 1000 + offsetMs(zone, at));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** `YYYY-MM-DD HH:MM:SS` of instant `at` in `zone`. */
export function formatLocalTime(at: Date, zone: string): string {
  return formatLocalDateTime(instantToLocal(at, zone));
}

/** UTC offset of `zone` at instant `at`, in whole minutes (east positive: Asia/Kolkata → 330). */
export function utcOffsetMinutes(zone: string, at: Date): number {
  return Math.round(offsetMs(zone, at) / 60000);
}

/**
 * Convert a device wall-clock time to an instant using the device's IANA zone.
 *
 * DST behaviour (same as Temporal's `disambiguation: 'compatible'`):
 * - overlap (wall time occurs twice, autumn): the EARLIER instant (the pre-transition offset);
 * - gap (wall time does not exist, spring): shifted FORWARD by the gap length, i.e. interpreted
 *   with the pre-transition offset (Europe/Berlin 2024-03-31 02:30 → 03:30 CEST = 01:30Z).
 * Throws RangeError for an invalid time or an unknown zone.
 */
export function localTimeToInstant(local: string | LocalDateTime, zone: string): Date {
  let t: LocalDateTime;
  if (typeof local === 'string') {
    const parsed = parseLocalTime(local);
    if (!parsed.ok) throw new RangeError(parsed.reason);
    t = parsed.value;
  } else {
    t = local;
  }
  const asUtc = localAsUtcMs(t);
  const day = 86_400_000;
  const before = utcOffsetMinutes(zone, new Date(asUtc - day)) * 60000;
  const after = utcOffsetMinutes(zone, new Date(asUtc + day)) * 60000;
  const candidates = [asUtc - before, asUtc - after].filter((ms) => localAsUtcMs(instantToLocal(new Date(ms), zone)) === asUtc);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  // Gap: no instant shows this wall time; use the offset in force before the transition.
  return new Date(asUtc - before);
}

/**
 * `localTimeToInstant` memoised per zone and wall-clock minute, for bulk ingestion (a history of
 * thousands of records spans few minutes per zone; each uncached conversion costs four Intl calls).
 * Exact: zone transitions happen on whole minutes, so one minute has one offset (or is wholly in a
 * gap or an overlap) and the seconds are added to the minute's instant. The memo is bounded.
 */
export function createLocalTimeConverter(maxEntries = 10_000): (local: string, zone: string) => Date {
  // A memo for one ingest batch (created and dropped with it), not a process cache: plain maps, emptied when full.
  // zone -> wall-clock minute (minutes since 1970 as if UTC) -> the minute's instant (ms). Number
  // keys: a key string per punch would be most of what a conversion allocates.
  const zones = new Map<string, Map<number, number>>();
  let size = 0;
  return (local, zone) => {
    const parsed = parseLocalTime(local);
    if (!parsed.ok) throw new RangeError(parsed.reason);
    const t = parsed.value;
    const minute = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute) / 60_000;
    let minutes = zones.get(zone);
    let start = minutes?.get(minute);
    if (start === undefined) {
      start = localTimeToInstant({ ...t, second: 0 }, zone).getTime();
      if (size >= maxEntries) {
        zones.clear();
        size = 0;
        minutes = undefined;
      }
      if (!minutes) zones.set(zone, (minutes = new Map()));
      minutes.set(minute, start);
      size++;
    }
    return new Date(start + t.second * 1000);
  };
}

/** Conversions every runtime with IANA time-zone data gets right (DST and a half-hour zone included). */
export const KNOWN_CONVERSIONS: readonly { local: string; zone: string; instant: string }[] = [
  { local: '2024-07-01 12:00:00', zone: 'Europe/Berlin', instant: '2024-07-01T10:00:00.000Z' },
  { local: '2024-01-15 12:00:00', zone: 'America/New_York', instant: '2024-01-15T17:00:00.000Z' },
  { local: '2024-03-10 09:30:00', zone: 'Asia/Kolkata', instant: '2024-03-10T04:00:00.000Z' },
];

/**
 * Null when this runtime converts device times correctly, else why not. A Node.js built without
 * full ICU has no (or only UTC) time-zone data: every terminal time would fail or be stored wrong,
 * so the service refuses to start instead (app start-up calls this). The check also loads the ICU
 * zone data once, at start-up, rather than on the first terminal request.
 */
export function timeZoneSupportProblem(samples = KNOWN_CONVERSIONS): string | null {
  for (const { local, zone, instant } of samples) {
    let got: string;
    try {
      got = localTimeToInstant(local, zone).toISOString();
    } catch (error) {
      return `this Node.js cannot convert times in ${zone} (${(error as Error).message}); run a Node.js built with full ICU`;
    }
    if (got !== instant) return `this Node.js converts ${local} in ${zone} to ${got}, not ${instant}; its time-zone data is missing or wrong`;
  }
  return null;
}

/** An IANA zone name this runtime knows (and of a sane length). */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
}
