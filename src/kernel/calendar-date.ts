// Calendar dates (`YYYY-MM-DD`) as day numbers. Date arithmetic goes through the day number, never
// through `Date#toISOString`, which writes the day after 9999-12-31 as "+010000-01-01": a string
// that sorts before "9999-12-31", so a loop `date <= to` stepping past that year never ends. Loops
// over days iterate a count (`datesFrom`, `daysBetween`), and a result outside the four-digit years
// is a RangeError rather than an unsortable string. The APIs accept far fewer years
// (DATE_RANGE, below).

const DAY_MS = 86_400_000;
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a `YYYY-MM-DD` (assumed a real date; check with isCalendarDate first). */
export function dayNumber(date: string): number {
  const m = SHAPE.exec(date);
  if (!m) throw new RangeError(`not a calendar date: ${JSON.stringify(date)}`);
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Math.floor(d.getTime() / DAY_MS);
}

/** Day numbers of 0001-01-01 and 9999-12-31: every date a `YYYY-MM-DD` string can hold and sort. */
const FIRST_DAY = dayNumber('0001-01-01');
const LAST_DAY = dayNumber('9999-12-31');

/** The `YYYY-MM-DD` of a day number; years outside 0001–9999 are a RangeError. */
export function dateOfDay(day: number): string {
  if (!Number.isInteger(day) || day < FIRST_DAY || day > LAST_DAY) throw new RangeError(`day ${day} is outside the years 0001-9999`);
  const d = new Date(day * DAY_MS);
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` plus `days` (negative: minus). */
export function addDays(date: string, days: number): string {
  return dateOfDay(dayNumber(date) + days);
}

/** Whole days from `from` to `to` (0 for the same date, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The dates from `from` to `to`, inclusive, in order (none when `to` is before `from`): a counted loop. */
export function datesFrom(from: string, to: string): string[] {
  const first = dayNumber(from);
  const count = dayNumber(to) - first + 1;
  const dates: string[] = [];
  for (let i = 0; i < count; i++) dates.push(dateOfDay(first + i));
  return dates;
}

/**
 * The dates the APIs accept, inclusive: wide enough for any working life and pay history, narrow
 * enough that every date the engine derives from one (a day before, a day after, a span of
 * MAX_SPAN_DAYS) is a four-digit year PostgreSQL and string order agree on. Date-times (punch
 * times and filters) take the same years.
 */
export const DATE_RANGE = { first: '1900-01-01', last: '2199-12-31', firstYear: 1900, lastYear: 2199 } as const;
/** The most days (both ends included) a timesheet, a summary, a pay period or a device action's range covers. */
export const MAX_SPAN_DAYS = 366;

/** A real calendar date `YYYY-MM-DD` (2026-02-30 is not one); check the range with FieldChecker.date. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === text;
}
