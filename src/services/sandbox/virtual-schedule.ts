// When a virtual terminal punches (docs/sandbox.md, "Virtual terminals"): a schedule of steps on a
// simulated clock. The simulated clock starts at the real time when the schedule is set and runs
// `speed` times as fast; a step is due when the simulated clock reaches it, which is at real time
// `startedAt + (step - startedAt) / speed`. Pure: no clock, no database.
import { addDays } from '../../kernel/calendar-date';
import { instantToLocal, localTimeToInstant, pad } from '../../kernel/local-time';
import { FieldChecker } from '../common/validation';

/** One time of a daily pattern: every employee punches at it (employee n, counted from 0, n simulated minutes later). */
export interface PatternTime {
  /** `HH:MM`, local to the terminal. */
  time: string;
  /** The attendance state punched: 0 check-in, 1 check-out, 2 break-out, 3 break-in, 4 overtime-in, 5 overtime-out. */
  punchState: number;
}

export interface VirtualSchedule {
  /** Punches per simulated hour (one employee each, in turn); null when the daily pattern is the schedule. */
  punchesPerHour: number | null;
  dailyPattern: PatternTime[] | null;
  /** Simulated seconds per real second. */
  speed: number;
  /** Real time (ms) the schedule was set: the simulated clock shows it then. */
  startedAt: number;
  /** IANA zone of the terminal (the pattern's times are local to it). */
  timeZone: string;
}

export interface ScheduleStep {
  /** The simulated instant (ms) of the step. */
  at: number;
  /** Which of the terminal's people punches: the step's number (punches per hour) or the employee's (pattern), taken modulo their count. */
  slot: number;
  /** The state to punch (pattern); null: each person alternates check-in and check-out. */
  punchState: number | null;
}

export const SCHEDULE_LIMITS = {
  maxPunchesPerHour: 3600,
  minSpeed: 1,
  maxSpeed: 3600,
  maxPatternTimes: 12,
  maxPunchState: 5,
  /** A terminal punches at most once a real second (two punches of one pin in one second are one punch). */
  minRealGapMs: 1000,
} as const;

/** The schedule of a new virtual terminal: a clock punches once a minute, a controller takes a badge every five. */
export function defaultSchedule(family: 'att' | 'acc'): Pick<VirtualSchedule, 'punchesPerHour' | 'dailyPattern' | 'speed'> {
  return { punchesPerHour: family === 'acc' ? 12 : 60, dailyPattern: null, speed: 1 };
}

export function simulatedAt(schedule: Pick<VirtualSchedule, 'startedAt' | 'speed'>, realMs: number): number {
  return schedule.startedAt + (realMs - schedule.startedAt) * schedule.speed;
}

export function realAt(schedule: Pick<VirtualSchedule, 'startedAt' | 'speed'>, simulatedMs: number): number {
  return schedule.startedAt + (simulatedMs - schedule.startedAt) / schedule.speed;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * The first step strictly after simulated instant `after` (`-Infinity`: the schedule's first), for a
 * terminal with `people` people (a pattern has a step per person and time).
 */
export function nextStep(schedule: VirtualSchedule, after: number, people: number): ScheduleStep {
  // Before any step: the first one at or after the schedule's start.
  if (!Number.isFinite(after) || after < schedule.startedAt) after = schedule.startedAt - 1;
  if (schedule.dailyPattern && schedule.dailyPattern.length > 0) return nextPatternStep(schedule, schedule.dailyPattern, after, Math.max(1, people));
  const interval = 3_600_000 / (schedule.punchesPerHour ?? 60);
  const k = Math.floor((after - schedule.startedAt) / interval) + 1;
  return { at: schedule.startedAt + k * interval, slot: k, punchState: null };
}

function nextPatternStep(schedule: VirtualSchedule, pattern: PatternTime[], after: number, people: number): ScheduleStep {
  // From the day before `after` (a late person of yesterday's last time) to two days on (a pattern with one time).
  const local = instantToLocal(new Date(after), schedule.timeZone);
  const today = `${local.year}-${pad(local.month)}-${pad(local.day)}`;
  let best: ScheduleStep | null = null;
  for (let d = -1; d <= 2; d++) {
    const date = addDays(today, d);
    for (const entry of pattern) {
      const base = localTimeToInstant(`${date} ${entry.time}:00`, schedule.timeZone).getTime();
      for (let person = 0; person < people; person++) {
        const at = base + person * 60_000;
        if (at > after && (best === null || at < best.at)) best = { at, slot: person, punchState: entry.punchState };
      }
    }
  }
  return best!;
}

/**
 * Checks a schedule's settings as a whole (GraphQL field names; REST's snake_case map onto them).
 * A schedule must never make a terminal punch more than once a real second.
 */
export function checkSchedule(check: FieldChecker, schedule: Pick<VirtualSchedule, 'punchesPerHour' | 'dailyPattern' | 'speed'>): void {
  const { punchesPerHour, dailyPattern, speed } = schedule;
  if (!Number.isFinite(speed) || speed < SCHEDULE_LIMITS.minSpeed || speed > SCHEDULE_LIMITS.maxSpeed) {
    check.add('speed', 'out_of_range', `speed must be from ${SCHEDULE_LIMITS.minSpeed} to ${SCHEDULE_LIMITS.maxSpeed} (simulated seconds per real second).`);
    return;
  }
  if (punchesPerHour !== null) {
    if (!Number.isInteger(punchesPerHour) || punchesPerHour < 1 || punchesPerHour > SCHEDULE_LIMITS.maxPunchesPerHour) {
      check.add('punchesPerHour', 'out_of_range', `punchesPerHour must be a whole number from 1 to ${SCHEDULE_LIMITS.maxPunchesPerHour}.`);
    } else if (punchesPerHour * speed > SCHEDULE_LIMITS.maxPunchesPerHour) {
      check.add(
        'speed',
        'out_of_range',
        `punchesPerHour × speed may be at most ${SCHEDULE_LIMITS.maxPunchesPerHour}: a terminal punches at most once a second.`,
      );
    }
    return;
  }
  const pattern = dailyPattern ?? [];
  if (pattern.length === 0) check.add('dailyPattern', 'empty', 'dailyPattern needs at least one time of day.');
  if (pattern.length > SCHEDULE_LIMITS.maxPatternTimes) {
    check.add('dailyPattern', 'too_many_items', `dailyPattern may hold at most ${SCHEDULE_LIMITS.maxPatternTimes} times of day.`);
    return;
  }
  const seen = new Set<string>();
  pattern.forEach((entry, i) => {
    if (!TIME.test(entry.time))
      check.add(`dailyPattern.${i}.time`, 'invalid_time', `time must be a time of day "HH:MM" from 00:00 to 23:59 (got "${String(entry.time).slice(0, 16)}").`);
    else if (seen.has(entry.time)) check.add(`dailyPattern.${i}.time`, 'duplicate', `${entry.time} is in the pattern twice.`);
    seen.add(entry.time);
    if (!Number.isInteger(entry.punchState) || entry.punchState < 0 || entry.punchState > SCHEDULE_LIMITS.maxPunchState) {
      check.add(
        `dailyPattern.${i}.punchState`,
        'out_of_range',
        `punchState must be from 0 to ${SCHEDULE_LIMITS.maxPunchState} (0 check-in, 1 check-out, 2 break-out, 3 break-in, 4 overtime-in, 5 overtime-out).`,
      );
    }
  });
  const minutes = [...seen]
    .filter((t) => TIME.test(t))
    .map(minutesOf)
    .sort((a, b) => a - b);
  if (minutes.length > 0) {
    // The closest two times of the pattern, around midnight too: one person punches at both.
    const gaps = minutes.map((m, i) => (i + 1 < minutes.length ? minutes[i + 1]! - m : minutes[0]! + 1440 - m));
    const closest = Math.min(...gaps);
    if ((closest * 60_000) / speed < SCHEDULE_LIMITS.minRealGapMs) {
      check.add(
        'speed',
        'out_of_range',
        `At speed ${speed} the pattern's closest times (${closest} minutes apart) would be less than a real second apart; use a speed of at most ${closest * 60}.`,
      );
    }
  }
}
