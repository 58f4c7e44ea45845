// The attendance engine's pure core: one employee's punches and shift in, one record per local date
// out. No database, no clock of its own (`now` is a parameter), so every rule is unit-tested on its
// own (test/unit/services/compute-days.test.ts). docs/attendance.md states every rule with an example.
import { formatLocalDateTime, instantToLocal, localTimeToInstant } from '../../devices/protocol';
import { addDays, datesFrom } from '../calendar-date';

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
}

export interface DayPunch {
  id: number;
  at: Date;
  /** The terminal's state: 0 check-in, 1 check-out, 2 break-out, 3 break-in, 4 overtime-in, 5 overtime-out. */
  state: string;
  manual: boolean;
  voided: boolean;
}

export type DayStatus = 'present' | 'incomplete' | 'absent' | 'holiday' | 'off' | 'scheduled' | 'leave';

/** An approved absence on one date (src/services/leave/day-absences.ts builds them from the requests). */
export interface DayAbsence {
  absenceTypeId: number;
  /** The type's pay item code. */
  code: string;
  paid: boolean;
  /** 1: the whole day; 0.5: a half day; null: an hourly absence of `minutes`. */
  fraction: number | null;
  minutes: number;
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
  overtimeMinutes: number;
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

/** What the punches of one record say: worked time, recorded breaks, and what is missing. */
function pair(pairing: Pairing, punches: DayPunch[]): { worked: number; recordedBreak: number; complete: boolean; missing: DayException | null } {
  if (punches.length === 0) return { worked: 0, recordedBreak: 0, complete: false, missing: null };
  if (pairing === 'first_last') {
    if (punches.length === 1) return { worked: 0, recordedBreak: 0, complete: false, missing: 'missing_out' };
    return { worked: punches.at(-1)!.at.getTime() - punches[0]!.at.getTime(), recordedBreak: 0, complete: true, missing: null };
  }
  if (pairing === 'alternating') {
    if (punches.length % 2 === 1) return { worked: 0, recordedBreak: 0, complete: false, missing: 'missing_out' };
    let worked = 0;
    let recordedBreak = 0;
    for (let i = 0; i < punches.length; i += 2) {
      worked += punches[i + 1]!.at.getTime() - punches[i]!.at.getTime();
      if (i > 0) recordedBreak += punches[i]!.at.getTime() - punches[i - 1]!.at.getTime();
    }
    return { worked, recordedBreak, complete: true, missing: null };
  }
  // by_state: work runs from an in (0 check-in, 3 break-in, 4 overtime-in) to the next out (1, 2, 5);
  // a break from a break-out (2) to the next break-in (3).
  const IN = new Set(['0', '3', '4']);
  const OUT = new Set(['1', '2', '5']);
  let worked = 0;
  let recordedBreak = 0;
  let openSince: number | null = null;
  let breakSince: number | null = null;
  for (const punch of punches) {
    const at = punch.at.getTime();
    if (IN.has(punch.state)) {
      if (openSince !== null) return { worked: 0, recordedBreak: 0, complete: false, missing: 'missing_out' };
      if (punch.state === '3' && breakSince !== null) recordedBreak += at - breakSince;
      breakSince = null;
      openSince = at;
    } else if (OUT.has(punch.state)) {
      if (openSince === null) return { worked: 0, recordedBreak: 0, complete: false, missing: 'missing_in' };
      worked += at - openSince;
      openSince = null;
      if (punch.state === '2') breakSince = at;
    }
  }
  if (openSince !== null || breakSince !== null) return { worked: 0, recordedBreak: 0, complete: false, missing: 'missing_out' };
  return { worked, recordedBreak, complete: true, missing: null };
}

/**
 * The attendance days of one employee from `from` to `to` (local dates, inclusive) under `shift`
 * (null: no shift applies, every date is a rest day). `punches` must cover the dates' windows (a
 * night shift reaches into the next day; the caller loads a day more on each side).
 */
export function computeDays(input: { shift: ShiftRules | null; from: string; to: string; punches: readonly DayPunch[]; holidays: ReadonlySet<string>; now: Date; zone: string; absences?: ReadonlyMap<string, DayAbsence> }): AttendanceDay[] {
  const { shift, from, to, holidays, now } = input;
  const zone = shift?.timeZone ?? input.zone;
  const localDate = (at: Date) => formatLocalDateTime(instantToLocal(at, zone)).slice(0, 10);

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
    const exceptions = new Set<DayException>();
    if (entry.duplicates.length > 0) exceptions.add('duplicate_ignored');
    if (entry.outside.length > 0) exceptions.add('outside_shift');
    if (all.some((p) => p.manual)) exceptions.add('manual_punch');
    const paired = pair(shift?.pairing ?? 'first_last', entry.punches);
    if (paired.missing) exceptions.add(paired.missing);

    const scheduledDay = instance !== undefined && !holiday;
    const scheduledMinutes = scheduledDay && shift ? minutes(instance.end.getTime() - instance.start.getTime()) - shift.breakMinutes : 0;
    let worked = minutes(paired.worked);
    let breakMinutes = minutes(paired.recordedBreak);
    // The unpaid break comes off a long day only when no break was recorded.
    if (shift && paired.complete && paired.recordedBreak === 0 && worked > shift.breakAfterMinutes) {
      worked -= shift.breakMinutes;
      breakMinutes = shift.breakMinutes;
    }
    const firstIn = entry.punches[0]?.at ?? null;
    const lastOut = entry.punches.length > 1 ? entry.punches.at(-1)!.at : null;
    const late = scheduledDay && firstIn && shift ? minutes(firstIn.getTime() - instance.start.getTime()) : 0;
    const early = scheduledDay && lastOut && shift ? minutes(instance.end.getTime() - lastOut.getTime()) : 0;

    let status: DayStatus;
    const endsAt = instance ? instance.windowEnd : localTimeToInstant(`${addDays(date, 1)} 00:00:00`, zone);
    const over = instance ? now > endsAt : now.getTime() >= endsAt.getTime();
    if (entry.punches.length === 0) status = !over && instance ? 'scheduled' : holiday ? 'holiday' : instance ? 'absent' : 'off';
    else if (!paired.complete) status = over ? 'incomplete' : 'scheduled';
    else status = 'present';
    // Leave counts on a scheduled workday only. A whole day is `leave` whatever was punched; a part
    // (a half day, some hours) is `leave` when nothing was punched, else the punches decide.
    const absence = scheduledDay ? input.absences?.get(date) : undefined;
    if (absence && (absence.fraction === 1 || entry.punches.length === 0)) status = 'leave';
    const leaveMinutes = absence?.paid ? (absence.fraction === null ? absence.minutes : Math.round(scheduledMinutes * absence.fraction)) : 0;

    days.push({
      date,
      shiftId: instance && shift ? shift.id : null,
      status,
      firstIn,
      lastOut,
      scheduledMinutes,
      workedMinutes: paired.complete ? worked : 0,
      breakMinutes: paired.complete ? breakMinutes : 0,
      lateMinutes: shift && late > shift.graceInMinutes ? late : 0,
      earlyLeaveMinutes: shift && early > shift.graceOutMinutes ? early : 0,
      overtimeMinutes: paired.complete ? (scheduledDay ? Math.max(0, worked - scheduledMinutes) : worked) : 0,
      exceptions: [...exceptions].sort(),
      punchIds: all.map((p) => p.id).sort((a, b) => a - b),
      absenceTypeId: absence?.absenceTypeId ?? null,
      absenceCode: absence?.code ?? null,
      leaveMinutes,
      settlesAt: over ? null : instance ? new Date(endsAt.getTime() + 1) : endsAt,
    });
  }
  return days;
}
