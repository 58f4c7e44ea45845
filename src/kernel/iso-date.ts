import { DATE_RANGE } from './calendar-date';
import { localTimeToInstant, parseLocalTime, type LocalDateTime } from './local-time';

/**
 * An ISO 8601 date or date-time as clients send it in filters and punch times:
 * - `date`: a bare `YYYY-MM-DD`;
 * - `local`: a date-time without offset (wall-clock time of a zone the caller chooses);
 * - `instant`: a date-time with `Z` or an offset.
 */
export type IsoDate = { kind: 'date'; local: LocalDateTime } | { kind: 'local'; local: LocalDateTime } | { kind: 'instant'; at: Date };

// Seconds and fractions are optional; `T` or a space separates date and time. A space before the
// offset is read as `+`: an unencoded `+` in a query string arrives as a space.
const ISO = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:(Z)|([+\- ])(\d{2})(?::?(\d{2}))?)?)?$/i;

/**
 * Reads `text` as an ISO 8601 date or date-time: `invalid_date` when it is not a real one,
 * `out_of_range` when its year (as written) is outside DATE_RANGE, so that no instant the
 * engine works with leaves the years PostgreSQL and the attendance calendar handle alike.
 */
export function readIsoDate(text: string): { ok: true; value: IsoDate } | { ok: false; code: 'invalid_date' | 'out_of_range' } {
  const m = ISO.exec(text);
  if (!m) return { ok: false, code: 'invalid_date' };
  const [, date, hh, mm, ss, fraction, zulu, sign, offsetH, offsetM] = m;
  const parsed = parseLocalTime(`${date} ${hh ?? '00'}:${mm ?? '00'}:${ss ?? '00'}`);
  if (!parsed.ok) return { ok: false, code: 'invalid_date' };
  if (!zulu && sign && (Number(offsetH) > 23 || Number(offsetM ?? 0) > 59)) return { ok: false, code: 'invalid_date' };
  // Before Date.UTC is called: it maps years below 100 to 19xx.
  if (parsed.value.year < DATE_RANGE.firstYear || parsed.value.year > DATE_RANGE.lastYear) return { ok: false, code: 'out_of_range' };
  if (hh === undefined) return { ok: true, value: { kind: 'date', local: parsed.value } };
  if (!zulu && !sign) return { ok: true, value: { kind: 'local', local: parsed.value } };
  const offsetMinutes = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetH) * 60 + Number(offsetM ?? 0));
  const t = parsed.value;
  const millis = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  return {
    ok: true,
    value: { kind: 'instant', at: new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, millis) - offsetMinutes * 60_000) },
  };
}

/** `text` read by readIsoDate, or null when it is not a date or date-time the APIs accept. */
export function parseIsoDate(text: string): IsoDate | null {
  const read = readIsoDate(text);
  return read.ok ? read.value : null;
}

/** The message of a refused ISO date or date-time parameter; `format` says what a valid one looks like. */
export function isoDateMessage(field: string, code: 'invalid_date' | 'out_of_range', format: string): string {
  return code === 'out_of_range' ? `${field} must be in the years ${DATE_RANGE.firstYear} to ${DATE_RANGE.lastYear}.` : `${field} must be ${format}.`;
}

/** The instant `date` names when wall-clock times are read in `zone`. */
export function isoToInstant(date: Exclude<IsoDate, { kind: 'date' }>, zone: string): Date {
  return date.kind === 'instant' ? date.at : localTimeToInstant(date.local, zone);
}

/** Midnight at the start of the calendar day after `local`'s day, in `zone`. */
export function startOfNextDay(local: LocalDateTime, zone: string): Date {
  const next = new Date(Date.UTC(local.year, local.month - 1, local.day + 1));
  return localTimeToInstant({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0, second: 0 }, zone);
}
