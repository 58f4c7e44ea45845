// Which shift applies to one employee on one local date: the pure rule, shared by the stored days
// (day-store.ts) and the `effectiveShift` query. No database: the caller hands in the employee's
// overrides, assignments (own and of their areas), the rosters those name and the company default.
// docs/attendance.md ("Which shift applies on a date") states the order with examples.
import { daysBetween } from '../../kernel/calendar-date';

export interface ScheduleRoster {
  id: number;
  /** `YYYY-MM-DD` of `days[0]`. */
  startDate: string;
  /** Shift ids, null for a day off; the list repeats. */
  days: readonly (number | null)[];
}

export interface ScheduleAssignment {
  /** Exactly one of shiftId and rosterId. */
  shiftId: number | null;
  rosterId: number | null;
  employeeId: number | null;
  areaId: number | null;
  startDate: string;
  /** Inclusive; null: open-ended. */
  endDate: string | null;
}

export interface EmployeeSchedule {
  employeeId: number;
  /** The areas the employee belongs to. */
  areaIds: ReadonlySet<number>;
  /** date -> the override's shift id (null: a day off). */
  overrides: ReadonlyMap<string, number | null>;
  /** The employee's own assignments and those of areas; other holders' are ignored. */
  assignments: readonly ScheduleAssignment[];
  rosters: ReadonlyMap<number, ScheduleRoster>;
  defaultShiftId: number | null;
}

/**
 * What decided the date. An `override` or a `roster` names the date itself: its shift runs that day
 * whatever the shift's own workdays say. An `assignment` or the `default` shift runs on the shift's
 * workdays only.
 */
export type ScheduleSource = 'override' | 'roster' | 'assignment' | 'default' | 'none';

export interface ScheduledShift {
  /** null: no shift (a day off, or nothing applies). */
  shiftId: number | null;
  source: ScheduleSource;
}

/** The roster's entry on a date: the cycle is anchored at startDate and repeats both ways. */
export function rosterShiftOn(roster: ScheduleRoster, date: string): number | null {
  const length = roster.days.length;
  if (length === 0) return null;
  const index = ((daysBetween(roster.startDate, date) % length) + length) % length;
  return roster.days[index] ?? null;
}

const covers = (a: ScheduleAssignment, date: string) => a.startDate <= date && (a.endDate === null || date <= a.endDate);

/**
 * The shift on `date`: an override of that date, else the employee's own assignment, else an
 * assignment of one of their areas (the lowest area id when several cover the date), else the
 * company's default shift, else none. An assignment with a roster gives the roster's entry for the
 * date (null: a day off, which the default shift does not fill).
 */
export function scheduledShift(schedule: EmployeeSchedule, date: string): ScheduledShift {
  if (schedule.overrides.has(date)) return { shiftId: schedule.overrides.get(date) ?? null, source: 'override' };
  const own = schedule.assignments.find((a) => a.employeeId === schedule.employeeId && covers(a, date));
  let chosen = own;
  if (!chosen) {
    for (const a of schedule.assignments) {
      if (a.areaId === null || !schedule.areaIds.has(a.areaId) || !covers(a, date)) continue;
      if (!chosen || a.areaId < chosen.areaId!) chosen = a;
    }
  }
  if (chosen) {
    if (chosen.rosterId === null) return { shiftId: chosen.shiftId, source: 'assignment' };
    const roster = schedule.rosters.get(chosen.rosterId);
    return { shiftId: roster ? rosterShiftOn(roster, date) : null, source: 'roster' };
  }
  return schedule.defaultShiftId === null ? { shiftId: null, source: 'none' } : { shiftId: schedule.defaultShiftId, source: 'default' };
}
