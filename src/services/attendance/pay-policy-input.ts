// A pay policy as the APIs change it (a company's policy, a shift's overrides): which values are
// allowed, and how a change merges into what is stored. The rules themselves are pay-rules.ts.
import { FieldChecker } from '../common/validation';
import type { PayPolicy } from './pay-rules';

/** A change: a key left out keeps its value; null resets it (a company: to the default; a shift: to the company's). */
export type PayPolicyInput = { [K in Exclude<keyof PayPolicy, 'holidayWork' | 'restDayWork'>]?: PayPolicy[K] | null } & {
  holidayWork?: string | null;
  restDayWork?: string | null;
};

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const MINUTE_LIMITS: Partial<Record<keyof PayPolicy, number>> = {
  overtimeMinMinutes: 1440,
  dailyOvertimeAfterMinutes: 1440,
  weeklyOvertimeAfterMinutes: 10_080,
  doubleTimeAfterMinutes: 1440,
};
/** Rates in percent of the base rate: 0 to 1000, at most two decimals (a 12.5 % night premium). */
const PERCENT_KEYS = ['overtimeRatePercent', 'doubleTimeRatePercent', 'nightPremiumPercent', 'holidayRatePercent', 'restDayRatePercent'] as const;
const MAX_PERCENT = 1000;
const isPercent = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_PERCENT && Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

/** Field problems of a policy change, reported under `prefix` (e.g. `payPolicy.weekStart`). */
export function checkPayPolicy(check: FieldChecker, prefix: string, input: PayPolicyInput | null | undefined): void {
  if (!input) return;
  for (const [key, max] of Object.entries(MINUTE_LIMITS) as [keyof PayPolicy, number][]) {
    const value = input[key];
    if (value != null && (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)) {
      check.add(`${prefix}.${key}`, 'out_of_range', `${key} must be a whole number of minutes from 0 to ${max}.`);
    }
  }
  for (const key of PERCENT_KEYS) {
    const value = input[key];
    if (value != null && !isPercent(value)) {
      check.add(`${prefix}.${key}`, 'out_of_range', `${key} must be a percentage from 0 to ${MAX_PERCENT} with at most two decimals.`);
    }
  }
  if (input.weekStart != null && (!Number.isInteger(input.weekStart) || input.weekStart < 1 || input.weekStart > 7)) {
    check.add(`${prefix}.weekStart`, 'out_of_range', 'weekStart must be an ISO weekday from 1 (Monday) to 7 (Sunday).');
  }
  for (const key of ['nightStart', 'nightEnd'] as const) {
    const value = input[key];
    if (value != null && !TIME.test(value)) check.add(`${prefix}.${key}`, 'invalid_time', `${key} must be a time of day "HH:MM" (got "${value}").`);
  }
  if (input.holidayWork != null && !['holiday', 'overtime'].includes(input.holidayWork)) {
    check.add(`${prefix}.holidayWork`, 'invalid_value', 'holidayWork must be `holiday` or `overtime`.');
  }
  if (input.restDayWork != null && !['rest_day', 'overtime'].includes(input.restDayWork)) {
    check.add(`${prefix}.restDayWork`, 'invalid_value', 'restDayWork must be `rest_day` or `overtime`.');
  }
}

/** The stored policy after a change; afterwards a night window must be whole (both ends or neither). */
export function mergePayPolicy(check: FieldChecker, prefix: string, stored: Partial<PayPolicy>, input: PayPolicyInput | null | undefined): Partial<PayPolicy> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(input ?? {})) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  const result = merged as Partial<PayPolicy>;
  if ((result.nightStart == null) !== (result.nightEnd == null)) {
    check.add(`${prefix}.nightEnd`, 'required', 'A night window needs both nightStart and nightEnd.');
  }
  return result;
}
