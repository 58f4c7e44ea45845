// Overtime and premium policy (docs/attendance.md, "Pay items"): a company's policy, a shift's
// overrides, and how one day's worked minutes split into pay codes, and how a week settles weekly
// overtime. Pure; unit-tested in test/unit/services/pay-rules.test.ts.
import { formatLocalDateTime, instantToLocal, localTimeToInstant } from '../../devices/protocol';
import { addDays, datesFrom, dayNumber } from '../../kernel/calendar-date';

export const PAY_CODES = ['regular', 'overtime', 'double_time', 'night', 'holiday', 'rest_day'] as const;
export type PayCode = (typeof PAY_CODES)[number];
export type PayItems = Record<PayCode, number>;
export interface PayItem {
  /** A work pay code, or (paid leave) the absence type's code. */
  code: PayCode | (string & {});
  minutes: number;
}

export interface PayPolicy {
  /** Work before the shift start is paid (as overtime beyond the threshold); false: paid from the start. */
  earlyOvertime: boolean;
  /** Overtime (and double time) of a day below this many minutes is not paid. */
  overtimeMinMinutes: number;
  /** Worked minutes of a workday beyond this are overtime; null: beyond the day's scheduled minutes. */
  dailyOvertimeAfterMinutes: number | null;
  /** Regular minutes of a week beyond this become overtime; null: no weekly overtime. */
  weeklyOvertimeAfterMinutes: number | null;
  /** ISO weekday the pay week starts on (1 Monday … 7 Sunday). */
  weekStart: number;
  /** Worked minutes of a workday beyond this are double time instead of overtime; null: none. */
  doubleTimeAfterMinutes: number | null;
  /** The night window (`HH:MM`, local to the shift's zone; an end at or before the start is the next day); null: none. */
  nightStart: string | null;
  nightEnd: string | null;
  /** Work on a holiday: all `holiday` minutes, or all overtime. */
  holidayWork: 'holiday' | 'overtime';
  /** Work on a rest day (no shift instance): all `rest_day` minutes, or all overtime. */
  restDayWork: 'rest_day' | 'overtime';
}

export const DEFAULT_PAY_POLICY: PayPolicy = Object.freeze({
  earlyOvertime: false,
  overtimeMinMinutes: 0,
  dailyOvertimeAfterMinutes: null,
  weeklyOvertimeAfterMinutes: null,
  weekStart: 1,
  doubleTimeAfterMinutes: null,
  nightStart: null,
  nightEnd: null,
  holidayWork: 'holiday',
  restDayWork: 'rest_day',
});

/**
 * The policy a day follows: the defaults, then the company's settings, then the shift's overrides.
 * Each level holds only the keys it sets; weekly overtime and the week start are the company's
 * (a week spans shifts), a shift's values for them are ignored.
 */
export function effectivePolicy(company: Partial<PayPolicy> | null | undefined, shift: Partial<PayPolicy> | null | undefined): PayPolicy {
  const merged = { ...DEFAULT_PAY_POLICY, ...defined(company), ...defined(shift) };
  merged.weeklyOvertimeAfterMinutes = company?.weeklyOvertimeAfterMinutes ?? null;
  merged.weekStart = company?.weekStart ?? DEFAULT_PAY_POLICY.weekStart;
  return merged;
}

function defined<T extends object>(value: T | null | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const noPay = (): PayItems => ({ regular: 0, overtime: 0, double_time: 0, night: 0, holiday: 0, rest_day: 0 });

/** The non-zero items in code order: what a day and an export show. */
export const payItemList = (items: PayItems): PayItem[] => PAY_CODES.filter((code) => items[code] > 0).map((code) => ({ code, minutes: items[code] }));

export type DayKind = 'workday' | 'holiday' | 'rest_day';

/**
 * How one complete day's paid minutes split (before weekly settlement):
 * * a workday: `regular` up to the daily threshold (`dailyOvertimeAfterMinutes`, else the scheduled
 *   minutes), `overtime` beyond it, `double_time` beyond `doubleTimeAfterMinutes`; overtime and
 *   double time together below `overtimeMinMinutes` are not paid;
 * * a holiday: all `holiday` (or all `overtime`); a rest day: all `rest_day` (or all `overtime`);
 * * `night`: the minutes worked inside the night window, a premium on top of the above.
 */
export function dayPayItems(input: { kind: DayKind; paidMinutes: number; scheduledMinutes: number; nightMinutes: number; policy: PayPolicy }): PayItems {
  const { kind, paidMinutes: paid, policy } = input;
  const items = noPay();
  items.night = input.nightMinutes;
  if (kind === 'holiday') {
    items[policy.holidayWork] += paid;
    return items;
  }
  if (kind === 'rest_day') {
    items[policy.restDayWork] += paid;
    return items;
  }
  const threshold = policy.dailyOvertimeAfterMinutes ?? input.scheduledMinutes;
  const doubleFrom = policy.doubleTimeAfterMinutes === null ? Infinity : Math.max(policy.doubleTimeAfterMinutes, threshold);
  items.regular = Math.min(paid, threshold);
  items.overtime = Math.max(0, Math.min(paid, doubleFrom) - threshold);
  items.double_time = Math.max(0, paid - doubleFrom);
  if (items.overtime + items.double_time < policy.overtimeMinMinutes) {
    items.overtime = 0;
    items.double_time = 0;
  }
  return items;
}

/** The first date of the pay week holding `date`. */
export function weekOf(date: string, weekStart: number): string {
  const weekday = ((dayNumber(date) + 3) % 7) + 1; // 1970-01-01 was a Thursday (ISO 4)
  return addDays(date, -((weekday - weekStart + 7) % 7));
}

/**
 * Weekly overtime: within each pay week, in date order, the regular minutes beyond
 * `weeklyOvertimeAfterMinutes` move to overtime. Only regular minutes count towards the threshold,
 * so a day's own overtime is never counted twice. `days` must hold whole weeks; changed in place.
 */
export function settleWeeks(days: readonly { date: string; pay: PayItems }[], policy: Pick<PayPolicy, 'weeklyOvertimeAfterMinutes' | 'weekStart'>): void {
  const limit = policy.weeklyOvertimeAfterMinutes;
  if (limit === null) return;
  const sorted = [...days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let week = '';
  let regularSoFar = 0;
  for (const day of sorted) {
    const thisWeek = weekOf(day.date, policy.weekStart);
    if (thisWeek !== week) {
      week = thisWeek;
      regularSoFar = 0;
    }
    const regular = day.pay.regular;
    const beyond = Math.min(regular, Math.max(0, regularSoFar + regular - limit));
    day.pay.regular -= beyond;
    day.pay.overtime += beyond;
    regularSoFar += regular;
  }
}

const MINUTE = 60_000;

/** Minutes of the intervals inside the night window (`HH:MM` to `HH:MM` local to `zone`, an end at or before the start is the next day). */
export function nightMinutes(intervals: readonly (readonly [Date, Date])[], nightStart: string | null, nightEnd: string | null, zone: string): number {
  if (nightStart === null || nightEnd === null || intervals.length === 0) return 0;
  const localDate = (at: Date) => formatLocalDateTime(instantToLocal(at, zone)).slice(0, 10);
  let total = 0;
  for (const [from, to] of intervals) {
    if (to <= from) continue;
    for (const date of datesFrom(addDays(localDate(from), -1), localDate(to))) {
      const windowStart = localTimeToInstant(`${date} ${nightStart}:00`, zone).getTime();
      const windowEnd = localTimeToInstant(`${nightEnd <= nightStart ? addDays(date, 1) : date} ${nightEnd}:00`, zone).getTime();
      const overlap = Math.min(to.getTime(), windowEnd) - Math.max(from.getTime(), windowStart);
      if (overlap > 0) total += overlap;
    }
  }
  return Math.round(total / MINUTE);
}
