import { localTimeToInstant, parseLocalTime, type LocalDateTime } from '../devices/protocol/time';

/**
 * An ISO 8601 date or date-time as clients send it in filters and punch times:
 * - `date`: a bare `YYYY-MM-DD`;
 * - `local`: a date-time without offset (wall-clock time of a zone the caller chooses);
 * - `instant`: a date-time with `Z` or an offset.
 */
export type IsoDate =
  | { kind: 'date'; local: LocalDateTime }
  | { kind: 'local'; local: LocalDateTime }
  | { kind: 'instant'; at: Date };

// Seconds and fractions are optional; `T` or a space separates date and time. A space before the
// offset is read as `+`: an unencoded `+` in a query string arrives as a space.
const ISO = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:(Z)|([+\- ])(\d{2})(?::?(\d{2}))?)?)?$/i;

/** Parses `text`, or returns null when it is not a real ISO 8601 date or date-time (from 1970). */
export function parseIsoDate(text: string): IsoDate | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, date, hh, mm, ss, fraction, zulu, sign, offsetH, offsetM] = m;
  const parsed = parseLocalTime(`${date} ${hh ?? '00'}:${mm ?? '00'}:${ss ?? '00'}`);
  // Years before 1970 are refused: no terminal clock goes there, and Date.UTC maps years < 100 to 19xx.
  if (!parsed.ok || parsed.value.year < 1970) return null;
  if (hh === undefined) return { kind: 'date', local: parsed.value };
  if (!zulu && !sign) return { kind: 'local', local: parsed.value };
  const offsetMinutes = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetH) * 60 + Number(offsetM ?? 0));
  if (!zulu && (Number(offsetH) > 23 || Number(offsetM ?? 0) > 59)) return null;
  const t = parsed.value;
  const millis = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  return { kind: 'instant', at: new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, millis) - offsetMinutes * 60_000) };
}

/** The instant `date` names when wall-clock times are read in `zone`. */
export function isoToInstant(date: Exclude<IsoDate, { kind: 'date' }>, zone: string): Date {
  return date.kind === 'instant' ? date.at : localTimeToInstant(date.local, zone);
}

/** Midnight at the start of the calendar day after `local`'s day, in `zone`. */
export function startOfNextDay(local: LocalDateTime, zone: string): Date {
  const next = new Date(Date.UTC(local.year, local.month - 1, local.day + 1));
  return localTimeToInstant(
    { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0, second: 0 },
    zone,
  );
}
