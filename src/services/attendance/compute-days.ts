// The attendance engine's pure core: one employee's punches and shift in, one record per local date
// out. No database, no clock of its own (`now` is a parameter), so every rule is unit-tested on its
// own (test/unit/services/compute-days.test.ts). docs/attendance.md states every rule with an example.
import { formatLocalDateTime, instantToLocal, localTimeToInstant } from '../../protocol';
import { addDays, datesFrom } from '../../kernel/calendar-date';
import { countedAt, earlyLeaveMinutes, lateMinutes, minutesBetween, unpaidBreakMinutes, type RecordedBreakRule, type RoundingMode } from './minute-rules';
import { dayPayItems, effectivePolicy, nightMinutes, noPay, settleWeeks, type PayItems, type PayPolicy } from './pay-rules';

export type Pairing = 'first_last' | 'alternating' | 'by_state';

export interface ShiftRules {
  id: number;
  /** `HH:MM`, local to `timeZone`; `endTime <= startTime` ends the next day. */
  startTime: string;
  endTime: string;
  timeZone: string;
  /** ISO weekdays 1 (Monday) – 7 (Sunday). */
  workdays: readonly number[];
  breakMinutes: number;
  breakAfterMinutes: number;
  graceInMinutes: number;
  graceOutMinutes: number;
  checkInBeforeMinutes: number;
  checkOutAfterMinutes: number;
  pairing: Pairing;
  /** Punch rounding (minute-rules.ts): 1–60 minutes; null or absent: seconds are dropped. */
  roundingMinutes?: number | null;
  roundingMode?: RoundingMode;
  /** How a recorded break meets the unpaid break (minute-rules.ts); default `tops_up`. */
  recordedBreak?: RecordedBreakRule;
  /** The shift's overrides of the company's pay policy (pay-rules.ts). */
  payPolicy?: Partial<PayPolicy> | null;
  /**
   * A flexible shift: `startTime`–`endTime` is the span in which work counts, `requiredMinutes` the
   * day's scheduled minutes, and lateness and early leave are measured against the core hours only
   * (`coreStart`–`coreEnd`; without them, nobody is late or leaves early).
   */
  flexible?: boolean;
  coreStart?: string | null;
  coreEnd?: string | null;
  requiredMinutes?: number | null;
}

export interface DayPunch {
  id: number;
  at: Date;
  /** The terminal's state: 0 check-in, 1 check-out, 2 break-out, 3 break-in, 4 overtime-in, 5 overtime-out. */
  state: string;
  manual: boolean;
  voided: boolean;
}

export type DayStatus = 'present' | 'incomplete' | 'absent' | 'holiday' | 'off' | 'scheduled' | 'not_employed' | 'leave';

/** An approved absence on one date (src/services/attendance/day-absences.ts builds them from the requests). */
export interface DayAbsence {
  absenceTypeId: number;
  /** The type's pay item code. */
  code: string;
  paid: boolean;
  /** 1: the whole day; 0.5: a half day; null: an hourly absence of `minutes`. */
  fraction: number | null;
  minutes: number;
  /** Which half of a half day is off: `am` (the morning) or `pm` (the afternoon). */
  halfDay?: 'am' | 'pm' | null;
  /** The hours of an hourly absence (`HH:MM`, the shift's zone). */
  startTime?: string | null;
  endTime?: string | null;
}
export type DayException = 'missing_in' | 'missing_out' | 'duplicate_ignored' | 'manual_punch' | 'outside_shift' | 'after_lock';

export interface AttendanceDay {
  date: string;
  shiftId: number | null;
  status: DayStatus;
  firstIn: Date | null;
  lastOut: Date | null;
  scheduledMinutes: number;
  workedMinutes: number;
  breakMinutes: number;
  lateMinutes: number;
  earlyLeaveMinutes: number;
  /** Overtime and double time (pay-rules.ts), after weekly settlement and overtime approval. */
  overtimeMinutes: number;
  /** Overtime and double time waiting for approval (pay-rules.ts applyOvertimeApproval; the day store applies it); 0 here. */
  pendingOvertimeMinutes: number;
  /** Paid minutes by pay code (pay-rules.ts). */
  pay: PayItems;
  exceptions: DayException[];
  punchIds: number[];
  /** The approved absence of a workday that is not a holiday; null otherwise (a holiday or rest day is not charged). */
  absenceTypeId: number | null;
  absenceCode: string | null;
  /** Paid leave: the scheduled minutes of a paid whole day, half of them for a half day, an hourly absence's minutes; 0 when unpaid. */
  leaveMinutes: number;
  /** When time alone changes this record (a workday's window ends: `scheduled` becomes final); null once it cannot. */
  settlesAt: Date | null;
}

/** Punches of one employee closer than this count once (a finger held twice on the reader). */
export const DUPLICATE_WINDOW_MS = 60_000;
const MINUTE = 60_000;

interface Instance {
  date: string;
  start: Date;
  end: Date;
  windowStart: Date;
  windowEnd: Date;
}

/** ISO weekday (1 Monday … 7 Sunday) of a `YYYY-MM-DD`. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

function instanceOn(shift: ShiftRules, date: string): Instance {
  const start = localTimeToInstant(`${date} ${shift.startTime}:00`, shift.timeZone);
  const endDate = shift.endTime <= shift.startTime ? addDays(date, 1) : date;
  const end = localTimeToInstant(`${endDate} ${shift.endTime}:00`, shift.timeZone);
  return {
    date,
    start,
    end,
    windowStart: new Date(start.getTime() - shift.checkInBeforeMinutes * MINUTE),
    windowEnd: new Date(end.getTime() + shift.checkOutAfterMinutes * MINUTE),
  };
}

const minutes = (ms: number) => Math.max(0, Math.round(ms / MINUTE));

/** The terminal states that are a real check-in and a real check-out of the day (by_state pairing). */
const DAY_IN_STATES = new Set(['0', '4']);
const DAY_OUT_STATES = new Set(['1', '5']);

interface Paired {
  /** Work intervals, from counted in to counted out. */
  intervals: [Date, Date][];
  /** Recorded break (ms): gaps between intervals (alternating) or break-out to break-in (by_state). */
  recordedBreak: number;
  complete: boolean;
  missing: DayException[];
  /** The punch that is the day's first real in, and its counted instant; null without one. */
  firstIn: { punch: DayPunch; at: Date } | null;
  lastOut: { punch: DayPunch; at: Date } | null;
}

/**
 * What the punches of one record say: work intervals, recorded breaks, the real first in and last
 * out, and what is missing. `counted` gives the instant a punch counts at as an in or an out.
 */
function pair(pairing: Pairing, punches: DayPunch[], counted: (punch: DayPunch, as: 'in' | 'out') => Date): Paired {
  const none: Paired = { intervals: [], recordedBreak: 0, complete: false, missing: [], firstIn: null, lastOut: null };
  if (punches.length === 0) return none;
  const inOf = (punch: DayPunch) => ({ punch, at: counted(punch, 'in') });
  const outOf = (punch: DayPunch) => ({ punch, at: counted(punch, 'out') });
  if (pairing === 'first_last') {
    const firstIn = inOf(punches[0]!);
    if (punches.length === 1) return { ...none, missing: ['missing_out'], firstIn };
    const lastOut = outOf(punches.at(-1)!);
    return { intervals: [[firstIn.at, lastOut.at]], recordedBreak: 0, complete: true, missing: [], firstIn, lastOut };
  }
  if (pairing === 'alternating') {
    const firstIn = inOf(punches[0]!);
    // An odd count ends with an in that has no out: there is no last out (and no early leave).
    if (punches.length % 2 === 1) return { ...none, missing: ['missing_out'], firstIn };
    const intervals: [Date, Date][] = [];
    let recordedBreak = 0;
    for (let i = 0; i < punches.length; i += 2) {
      intervals.push([counted(punches[i]!, 'in'), counted(punches[i + 1]!, 'out')]);
      if (i > 0) recordedBreak += intervals.at(-1)![0].getTime() - intervals.at(-2)![1].getTime();
    }
    return { intervals, recordedBreak, complete: true, missing: [], firstIn, lastOut: outOf(punches.at(-1)!) };
  }
  // by_state: work runs from an in (0 check-in, 3 break-in, 4 overtime-in) to the next out (1, 2, 5);
  // a break from a break-out (2) to the next break-in (3). The day's first in is its first check-in
  // (0) or overtime-in (4), its last out the last check-out (1) or overtime-out (5): a break punch
  // is neither, so a lone break-in is never a last out and a lone check-out never a first in.
  const firstInPunch = punches.find((p) => DAY_IN_STATES.has(p.state));
  const lastOutPunch = punches.findLast((p) => DAY_OUT_STATES.has(p.state));
  const firstIn = firstInPunch ? inOf(firstInPunch) : null;
  const lastOut = lastOutPunch ? outOf(lastOutPunch) : null;
  const missing: DayException[] = [];
  if (!firstIn) missing.push('missing_in');
  if (!lastOut) missing.push('missing_out');
  const IN = new Set(['0', '3', '4']);
  const OUT = new Set(['1', '2', '5']);
  const intervals: [Date, Date][] = [];
  let recordedBreak = 0;
  let openSince: Date | null = null;
  let breakSince: Date | null = null;
  let matched = true;
  for (const punch of punches) {
    if (IN.has(punch.state)) {
      if (openSince !== null) {
        if (!missing.includes('missing_out')) missing.push('missing_out');
        matched = false;
        break;
      }
      const at = counted(punch, 'in');
      if (punch.state === '3' && breakSince !== null) recordedBreak += at.getTime() - breakSince.getTime();
      breakSince = null;
      openSince = at;
    } else if (OUT.has(punch.state)) {
      if (openSince === null) {
        if (!missing.includes('missing_in')) missing.push('missing_in');
        matched = false;
        break;
      }
      const at = counted(punch, 'out');
      intervals.push([openSince, at]);
      openSince = null;
      if (punch.state === '2') breakSince = at;
    }
  }
  if (matched && (openSince !== null || breakSince !== null) && !missing.includes('missing_out')) missing.push('missing_out');
  const complete = missing.length === 0;
  return { intervals: complete ? intervals : [], recordedBreak: complete ? recordedBreak : 0, complete, missing: missing.sort(), firstIn, lastOut };
}

/** An employee's employment dates (inclusive; null: open). */
export interface Employment {
  startDate: string | null;
  endDate: string | null;
}

export const employedOn = (employment: Employment | null | undefined, date: string): boolean =>
  !employment || ((employment.startDate === null || employment.startDate <= date) && (employment.endDate === null || employment.endDate >= date));

/**
 * The attendance days of one employee from `from` to `to` (local dates, inclusive) under `shift`
 * (null: no shift applies, every date is a rest day). `punches` must cover the dates' windows (a
 * night shift reaches into the next day; the caller loads a day more on each side). `policy` is the
 * company's pay policy (the shift's overrides apply on top); weekly overtime is settled by the caller
 * over whole weeks (settleDays). Dates outside `employment` are `not_employed` and count nowhere.
 */
export function computeDays(input: {
  shift: ShiftRules | null;
  from: string;
  to: string;
  punches: readonly DayPunch[];
  holidays: ReadonlySet<string>;
  now: Date;
  zone: string;
  policy?: Partial<PayPolicy> | null;
  employment?: Employment | null;
  /** Approved absences by local date (src/services/attendance/day-absences.ts). */
  absences?: ReadonlyMap<string, DayAbsence>;
}): AttendanceDay[] {
  const { shift, from, to, holidays, now } = input;
  const zone = shift?.timeZone ?? input.zone;
  const localDate = (at: Date) => formatLocalDateTime(instantToLocal(at, zone)).slice(0, 10);
  const policy = effectivePolicy(input.policy, shift?.payPolicy);
  const rounding = shift?.roundingMinutes ? { minutes: shift.roundingMinutes, mode: shift.roundingMode ?? 'nearest' } : null;

  // Voided punches never count; punches closer than a minute to the last kept one count once.
  const sorted = input.punches.filter((p) => !p.voided).sort((a, b) => a.at.getTime() - b.at.getTime() || a.id - b.id);
  const kept: DayPunch[] = [];
  const duplicates: DayPunch[] = [];
  for (const punch of sorted) {
    const last = kept.at(-1);
    if (last && punch.at.getTime() - last.at.getTime() < DUPLICATE_WINDOW_MS) duplicates.push(punch);
    else kept.push(punch);
  }

  // Shift instances of the range, and of the day before (its night shift ends on `from`).
  const instances = new Map<string, Instance>();
  if (shift) {
    for (const date of datesFrom(addDays(from, -1), to)) {
      if (shift.workdays.includes(isoWeekday(date))) instances.set(date, instanceOn(shift, date));
    }
  }
  const byDate = new Map<string, { punches: DayPunch[]; outside: DayPunch[]; duplicates: DayPunch[] }>();
  const bucket = (date: string) => {
    let entry = byDate.get(date);
    if (!entry) byDate.set(date, (entry = { punches: [], outside: [], duplicates: [] }));
    return entry;
  };
  const owner = (punch: DayPunch): { date: string; inShift: boolean } => {
    let best: Instance | null = null;
    for (const instance of instances.values()) {
      if (punch.at < instance.windowStart || punch.at > instance.windowEnd) continue;
      if (!best || Math.abs(punch.at.getTime() - instance.start.getTime()) < Math.abs(punch.at.getTime() - best.start.getTime())) best = instance;
    }
    return best ? { date: best.date, inShift: true } : { date: localDate(punch.at), inShift: false };
  };
  for (const punch of kept) {
    const { date, inShift } = owner(punch);
    // A punch outside every shift window on a workday's date is listed, but not paired with the shift's.
    if (!inShift && instances.has(date)) bucket(date).outside.push(punch);
    else bucket(date).punches.push(punch);
  }
  for (const punch of duplicates) bucket(owner(punch).date).duplicates.push(punch);

  const days: AttendanceDay[] = [];
  for (const date of datesFrom(from, to)) {
    const entry = byDate.get(date) ?? { punches: [], outside: [], duplicates: [] };
    const instance = instances.get(date);
    const holiday = holidays.has(date);
    const all = [...entry.punches, ...entry.outside, ...entry.duplicates];
    const punchIds = all.map((p) => p.id).sort((a, b) => a - b);
    if (!employedOn(input.employment, date)) {
      days.push(notEmployed(date, punchIds));
      continue;
    }
    const exceptions = new Set<DayException>();
    if (entry.duplicates.length > 0) exceptions.add('duplicate_ignored');
    if (entry.outside.length > 0) exceptions.add('outside_shift');
    if (all.some((p) => p.manual)) exceptions.add('manual_punch');
    const counted = (punch: DayPunch) => countedAt(punch.at, rounding, instance?.start ?? null);
    const paired = pair(shift?.pairing ?? 'first_last', entry.punches, counted);
    for (const missing of paired.missing) exceptions.add(missing);

    const scheduledDay = instance !== undefined && !holiday;
    const shiftBreak = (worked: number) =>
      shift
        ? unpaidBreakMinutes({
            workedMinutes: worked,
            recordedBreakMinutes: 0,
            breakMinutes: shift.breakMinutes,
            breakAfterMinutes: shift.breakAfterMinutes,
            rule: 'tops_up',
          })
        : 0;
    const shiftLength = instance ? minutesBetween(instance.start, instance.end) : 0;
    const flexible = shift?.flexible === true;
    const scheduledMinutes = !scheduledDay ? 0 : flexible && shift?.requiredMinutes != null ? shift.requiredMinutes : shiftLength - shiftBreak(shiftLength);
    // Work before the shift start is paid only with early overtime.
    const intervals =
      instance && !policy.earlyOvertime
        ? paired.intervals.map(([a, b]): [Date, Date] => [a < instance.start ? instance.start : a, b]).filter(([a, b]) => b > a)
        : paired.intervals;
    const gross = intervals.reduce((sum, [a, b]) => sum + minutesBetween(a, b), 0);
    const recordedBreak = minutes(paired.recordedBreak);
    // The shift's unpaid break is owed on its own instances only: on a rest day no shift runs, so
    // worked time is paid in full (recorded breaks still come off), as for an employee without a shift.
    const unpaid =
      shift && instance
        ? unpaidBreakMinutes({
            workedMinutes: gross,
            recordedBreakMinutes: recordedBreak,
            breakMinutes: shift.breakMinutes,
            breakAfterMinutes: shift.breakAfterMinutes,
            rule: shift.recordedBreak ?? 'tops_up',
          })
        : 0;
    const worked = paired.complete ? gross - unpaid : 0;
    const firstIn = paired.firstIn?.punch.at ?? null;
    const lastOut = paired.lastOut?.punch.at ?? null;
    // Leave counts on a scheduled workday only.
    const absence = scheduledDay ? input.absences?.get(date) : undefined;
    // A flexible shift measures lateness and early leave against its core hours only; approved leave
    // moves the bounds over the part of the day it covers.
    const bounds = absenceBounds(
      absence,
      !instance || !shift ? null : flexible ? coreInstant(shift, date, shift.coreStart) : instance.start,
      !instance || !shift ? null : flexible ? coreInstant(shift, date, shift.coreEnd) : instance.end,
      shift,
      date,
    );
    const late = scheduledDay && shift && paired.firstIn && bounds.lateFrom ? lateMinutes(paired.firstIn.at, bounds.lateFrom, shift.graceInMinutes) : 0;
    const early =
      scheduledDay && shift && paired.lastOut && bounds.earlyFrom ? earlyLeaveMinutes(paired.lastOut.at, bounds.earlyFrom, shift.graceOutMinutes) : 0;

    let status: DayStatus;
    const endsAt = instance ? instance.windowEnd : localTimeToInstant(`${addDays(date, 1)} 00:00:00`, zone);
    const over = instance ? now > endsAt : now.getTime() >= endsAt.getTime();
    if (entry.punches.length === 0) status = !over && instance ? 'scheduled' : holiday ? 'holiday' : instance ? 'absent' : 'off';
    else if (!paired.complete) status = over ? 'incomplete' : 'scheduled';
    else status = 'present';
    // A whole day of leave is `leave` whatever was punched; a part (a half day, some hours) is `leave`
    // when nothing was punched, else the punches decide.
    if (absence && (absence.fraction === 1 || entry.punches.length === 0)) status = 'leave';
    const leaveMinutes = absence?.paid ? (absence.fraction === null ? absence.minutes : Math.round(scheduledMinutes * absence.fraction)) : 0;

    const pay = paired.complete
      ? dayPayItems({
          kind: holiday ? 'holiday' : instance ? 'workday' : 'rest_day',
          paidMinutes: worked,
          scheduledMinutes,
          nightMinutes: nightMinutes(intervals, policy.nightStart, policy.nightEnd, zone),
          policy,
        })
      : noPay();

    days.push({
      date,
      shiftId: instance && shift ? shift.id : null,
      status,
      firstIn,
      lastOut,
      scheduledMinutes,
      workedMinutes: worked,
      breakMinutes: paired.complete ? recordedBreak + unpaid : 0,
      lateMinutes: late,
      earlyLeaveMinutes: early,
      overtimeMinutes: pay.overtime + pay.double_time,
      pendingOvertimeMinutes: 0,
      pay,
      exceptions: [...exceptions].sort(),
      punchIds,
      absenceTypeId: absence?.absenceTypeId ?? null,
      absenceCode: absence?.code ?? null,
      leaveMinutes,
      settlesAt: over ? null : instance ? new Date(endsAt.getTime() + 1) : endsAt,
    });
  }
  return days;
}

/**
 * The instants lateness is measured from and early leave against, once approved leave is taken into
 * account: a whole day of leave has neither; a morning off (`am`) moves the start to the middle of the
 * span (start to end, or the core hours of a flexible shift), an afternoon off (`pm`) the end; hours
 * off that cover the start move it to their end, hours that cover the end move it to their start.
 * Hours inside the span change neither (the punches and worked minutes show the gap).
 */
function absenceBounds(
  absence: DayAbsence | undefined,
  lateFrom: Date | null,
  earlyFrom: Date | null,
  shift: ShiftRules | null,
  date: string,
): { lateFrom: Date | null; earlyFrom: Date | null } {
  if (!absence || !shift || !lateFrom || !earlyFrom) return { lateFrom, earlyFrom };
  if (absence.fraction === 1) return { lateFrom: null, earlyFrom: null };
  if (absence.fraction === 0.5 && absence.halfDay) {
    const middle = new Date(Math.floor((lateFrom.getTime() + earlyFrom.getTime()) / 2 / 60_000) * 60_000);
    return absence.halfDay === 'am' ? { lateFrom: middle, earlyFrom } : { lateFrom, earlyFrom: middle };
  }
  if (absence.fraction === null && absence.startTime && absence.endTime) {
    const from = localTimeToInstant(`${absence.startTime < shift.startTime ? addDays(date, 1) : date} ${absence.startTime}:00`, shift.timeZone);
    let to = localTimeToInstant(`${absence.endTime < shift.startTime ? addDays(date, 1) : date} ${absence.endTime}:00`, shift.timeZone);
    if (to <= from) to = new Date(to.getTime() + 86_400_000);
    return {
      lateFrom: from <= lateFrom && to > lateFrom ? to : lateFrom,
      earlyFrom: to >= earlyFrom && from < earlyFrom ? from : earlyFrom,
    };
  }
  return { lateFrom, earlyFrom };
}

/** A core-hours time of the instance dated `date` (a time before the shift's start is on the next day); null without one. */
function coreInstant(shift: ShiftRules, date: string, time: string | null | undefined): Date | null {
  if (!time) return null;
  return localTimeToInstant(`${time < shift.startTime ? addDays(date, 1) : date} ${time}:00`, shift.timeZone);
}

function notEmployed(date: string, punchIds: number[]): AttendanceDay {
  return {
    date,
    shiftId: null,
    status: 'not_employed',
    firstIn: null,
    lastOut: null,
    scheduledMinutes: 0,
    workedMinutes: 0,
    breakMinutes: 0,
    lateMinutes: 0,
    earlyLeaveMinutes: 0,
    overtimeMinutes: 0,
    pendingOvertimeMinutes: 0,
    pay: noPay(),
    exceptions: [],
    punchIds,
    absenceTypeId: null,
    absenceCode: null,
    leaveMinutes: 0,
    settlesAt: null,
  };
}

/** Weekly overtime over whole weeks of one employee's days (pay-rules.ts settleWeeks), overtime minutes kept in step. */
export function settleDays(days: readonly AttendanceDay[], policy: Partial<PayPolicy> | null | undefined): void {
  const effective = effectivePolicy(policy, null);
  if (effective.weeklyOvertimeAfterMinutes === null) return;
  settleWeeks(days, effective);
  for (const day of days) day.overtimeMinutes = day.pay.overtime + day.pay.double_time;
}
