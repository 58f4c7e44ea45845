// Where the shift changes from one date to the next (a roster's night shift followed by a day off,
// an override, a new assignment), the days are computed in separate runs (day-store.ts), and a run
// does not know the shift of the date before it. A night shift's punches after midnight lie on the
// next date: this says which punches the previous date's own shift instance holds, so that the run
// of the next date leaves them to it instead of counting them twice.
import { localTimeToInstant } from '../../protocol';
import { addDays } from '../../kernel/calendar-date';
import { isoWeekday, type DayPunch, type ShiftRules } from './compute-days';

const MINUTE = 60_000;

interface Window {
  start: number;
  from: number;
  to: number;
}

/** The instance of `shift` on `date` with its punch window, or null when the shift does not run that day. */
function windowOn(shift: ShiftRules | null, date: string): Window | null {
  if (!shift || !shift.workdays.includes(isoWeekday(date))) return null;
  const start = localTimeToInstant(`${date} ${shift.startTime}:00`, shift.timeZone).getTime();
  const endDate = shift.endTime <= shift.startTime ? addDays(date, 1) : date;
  const end = localTimeToInstant(`${endDate} ${shift.endTime}:00`, shift.timeZone).getTime();
  return { start, from: start - shift.checkInBeforeMinutes * MINUTE, to: end + shift.checkOutAfterMinutes * MINUTE };
}

/**
 * The punches that `previous`'s instance on `previousDate` holds, by the engine's rule: inside its
 * window, and nearer its start than the start of `next`'s instance on the following date when that
 * window holds them too (a night shift's check-out at 06:00 stays with the night; a 08:55 check-in
 * for the next morning's shift goes to the morning).
 */
export function heldByPrevious<T extends DayPunch>(previous: ShiftRules | null, previousDate: string, next: ShiftRules | null, punches: readonly T[]): Set<T> {
  const held = new Set<T>();
  const mine = windowOn(previous, previousDate);
  if (!mine) return held;
  const theirs = windowOn(next, addDays(previousDate, 1));
  for (const punch of punches) {
    const at = punch.at.getTime();
    if (at < mine.from || at > mine.to) continue;
    if (theirs && at >= theirs.from && at <= theirs.to && Math.abs(at - theirs.start) < Math.abs(at - mine.start)) continue;
    held.add(punch);
  }
  return held;
}
