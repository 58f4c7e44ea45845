// The minute rules of one day (docs/attendance.md, "Minute rules"): how a punch becomes a minute,
// how the unpaid break comes off, when someone is late. Pure; unit-tested in
// test/unit/services/minute-rules.test.ts.

const MINUTE = 60_000;

export type RoundingMode = 'nearest' | 'down' | 'up';
export type RecordedBreakRule = 'replaces' | 'adds' | 'tops_up';

export interface PunchRounding {
  /** 1–60; null or 0: no rounding, seconds are dropped. */
  minutes: number | null;
  mode: RoundingMode;
}

/**
 * The instant a punch counts at. Without rounding the seconds are dropped (09:05:59 counts as
 * 09:05): payroll pays whole minutes and nobody is charged a minute they did not complete. With
 * rounding, each punch is rounded on its own (an in and an out separately, never the total) to the
 * grid of `minutes` counted from `origin` (the shift's start, so a 15-minute grid is the quarter
 * hours of a shift starting on the hour). `nearest` rounds a half step up.
 */
export function countedAt(at: Date, rounding: PunchRounding | null, origin: Date | null): Date {
  const floored = Math.floor(at.getTime() / MINUTE) * MINUTE;
  if (!rounding || !rounding.minutes || rounding.minutes <= 1 || origin === null) return new Date(floored);
  const step = rounding.minutes * MINUTE;
  const base = origin.getTime();
  const offset = (rounding.mode === 'nearest' ? at.getTime() : floored) - base;
  const steps = rounding.mode === 'down' ? Math.floor(offset / step) : rounding.mode === 'up' ? Math.ceil(offset / step) : Math.floor(offset / step + 0.5);
  return new Date(base + steps * step);
}

/** Whole minutes between two counted instants (never negative). */
export const minutesBetween = (from: Date | number, to: Date | number): number => Math.max(0, Math.round((Number(to) - Number(from)) / MINUTE));

/**
 * The unpaid break a worked day owes, continuous in the worked time: nothing up to
 * `breakAfterMinutes`, then a minute per minute worked beyond it, at most `breakMinutes` (a
 * 361-minute day owes 1 minute of a 30-minute break after 360, a 390-minute day all 30). So one
 * more minute worked never pays less. The recorded break (a real break-out and break-in) then:
 * `replaces` the unpaid break when there is any; `adds` to it (the unpaid break is still deducted);
 * `tops_up` (the default) counts towards it, so only the part not taken is deducted.
 */
export function unpaidBreakMinutes(input: {
  workedMinutes: number;
  recordedBreakMinutes: number;
  breakMinutes: number;
  breakAfterMinutes: number;
  rule: RecordedBreakRule;
}): number {
  const owed = Math.min(input.breakMinutes, Math.max(0, input.workedMinutes - input.breakAfterMinutes));
  if (input.rule === 'replaces') return input.recordedBreakMinutes > 0 ? 0 : owed;
  if (input.rule === 'adds') return owed;
  return Math.max(0, owed - input.recordedBreakMinutes);
}

/** Late minutes: the counted in after start + grace is late by all its minutes after the start; within the grace, 0. */
export function lateMinutes(countedIn: Date, start: Date, graceMinutes: number): number {
  const late = minutesBetween(start, countedIn);
  return late > graceMinutes ? late : 0;
}

/** Early leave: the counted out before end − grace leaves early by all its minutes before the end; within the grace, 0. */
export function earlyLeaveMinutes(countedOut: Date, end: Date, graceMinutes: number): number {
  const early = minutesBetween(countedOut, end);
  return early > graceMinutes ? early : 0;
}
