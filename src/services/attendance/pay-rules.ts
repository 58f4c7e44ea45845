// Overtime and premium policy (docs/attendance.md, "Pay items"): a company's policy, a shift's
// overrides, and how one day's worked minutes split into pay codes, and how a week settles weekly
// overtime. Pure; unit-tested in test/unit/services/pay-rules.test.ts.
import { formatLocalDateTime, instantToLocal, localTimeToInstant } from '../../protocol';
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
  /**
   * Overtime and double time count only once approved (an overtime approval of the employee and
   * day); until then they are the day's pending overtime. Company only: approval is its workflow.
   */
  overtimeRequiresApproval: boolean;
  /**
   * The rates payroll applies, in percent of the base hourly rate (`regular` is 100): what the
   * export states beside each code's minutes. `night` is a premium added on top of the minutes'
   * own code; the others are the whole rate. Company only (the export has one row per code).
   */
  overtimeRatePercent: number;
  doubleTimeRatePercent: number;
  nightPremiumPercent: number;
  holidayRatePercent: number;
  restDayRatePercent: number;
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
  overtimeRequiresApproval: false,
  overtimeRatePercent: 150,
  doubleTimeRatePercent: 200,
  nightPremiumPercent: 25,
  holidayRatePercent: 200,
  restDayRatePercent: 150,
});

/** The policy keys that are the company's alone: a week spans shifts, approval is the company's workflow, the export has one rate per code. */
export const COMPANY_ONLY_KEYS = [
  'weeklyOvertimeAfterMinutes',
  'weekStart',
  'overtimeRequiresApproval',
  'overtimeRatePercent',
  'doubleTimeRatePercent',
  'nightPremiumPercent',
  'holidayRatePercent',
  'restDayRatePercent',
] as const satisfies readonly (keyof PayPolicy)[];

/** The policy key holding each pay code's rate (`regular` is always 100). */
const RATE_KEYS: Record<Exclude<PayCode, 'regular'>, keyof PayPolicy> = {
  overtime: 'overtimeRatePercent',
  double_time: 'doubleTimeRatePercent',
  night: 'nightPremiumPercent',
  holiday: 'holidayRatePercent',
  rest_day: 'restDayRatePercent',
};

/** A pay code's rate in percent under the policy (`night`: the premium on top); null for a code that is not a work code. */
export function payRatePercent(policy: PayPolicy, code: string): number | null {
  if (code === 'regular') return 100;
  const key = RATE_KEYS[code as keyof typeof RATE_KEYS];
  return key === undefined ? null : (policy[key] as number);
}

/**
 * The policy a day follows: the defaults, then the company's settings, then the shift's overrides.
 * Each level holds only the keys it sets; the company-only keys (COMPANY_ONLY_KEYS) are the
 * company's, a shift's values for them are ignored.
 */
export function effectivePolicy(company: Partial<PayPolicy> | null | undefined, shift: Partial<PayPolicy> | null | undefined): PayPolicy {
  const fromCompany = { ...DEFAULT_PAY_POLICY, ...defined(company) };
  const merged: Record<string, unknown> = { ...fromCompany, ...defined(shift) };
  for (const key of COMPANY_ONLY_KEYS) merged[key] = fromCompany[key];
  return merged as unknown as PayPolicy;
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

/** A day's overtime approval as the computation reads it (src/services/attendance/overtime-approval-days.ts). */
export interface DayOvertimeApproval {
  state: 'pending' | 'approved' | 'rejected';
  /** Approved: the most minutes that count (null: all of the day's overtime). */
  minutes: number | null;
}

/**
 * Overtime approval (`overtimeRequiresApproval`), applied to a day's pay items after weekly
 * settlement, in place; returns the day's pending overtime minutes. Approved: overtime and double
 * time count, up to the approval's minutes (overtime first: the day's earlier extra minutes), the
 * rest is not paid. Rejected: neither is paid (regular stays). Pending or no approval: neither is
 * paid yet, both are pending. `night`, a premium on time worked in the window, is not gated.
 */
export function applyOvertimeApproval(pay: PayItems, approval: DayOvertimeApproval | undefined): number {
  const extra = pay.overtime + pay.double_time;
  if (extra === 0) return 0;
  if (approval?.state === 'approved') {
    if (approval.minutes !== null && approval.minutes < extra) {
      pay.overtime = Math.min(pay.overtime, approval.minutes);
      pay.double_time = Math.min(pay.double_time, approval.minutes - pay.overtime);
    }
    return 0;
  }
  pay.overtime = 0;
  pay.double_time = 0;
  return approval?.state === 'rejected' ? 0 : extra;
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
