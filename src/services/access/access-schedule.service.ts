// Access schedules: when the doors of an access level open. Up to 3 intervals per ISO weekday and
// per holiday type (1–3, the company's holidays), `HH:MM` local to the terminal, end inclusive (a
// terminal's time-zone interval is inclusive at the minute). Every company has a built-in
// "Always" schedule. A change re-sends the schedule's time-zone row to the terminals that hold it.
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { AccessLevel, AccessSchedule, Company } from '../../entities';
import type { HolidayInterval, WeekdayInterval } from '../../entities/access-schedule.entity';
import { DomainError } from '../../errors/domain-error';
import { markScheduleChanged } from '../sync/access-sync.service';
import { openingRulesUsing } from './door-opening-rules.service';
import { requireScopeFor, workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker, limits } from '../common/validation';

export interface AccessScheduleInput {
  companyId?: number | null;
  name?: string | null;
  intervals?: WeekdayInterval[] | null;
  holidayIntervals?: HolidayInterval[] | null;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Intervals per weekday or holiday type: the terminal's table has three. */
export const MAX_INTERVALS_PER_DAY = 3;

const ALWAYS_WEEK: WeekdayInterval[] = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startTime: '00:00', endTime: '23:59' }));
const ALWAYS_HOLIDAYS: HolidayInterval[] = [1, 2, 3].map((holidayType) => ({ holidayType, startTime: '00:00', endTime: '23:59' }));

/** The company's built-in "Always" schedule (created with the company). */
export function createAlwaysSchedule(em: EntityManager, company: { id: number; workspaceId: number }): AccessSchedule {
  const schedule = em.create(AccessSchedule, {
    workspaceId: company.workspaceId,
    companyId: company.id,
    name: 'Always',
    intervals: ALWAYS_WEEK,
    holidayIntervals: ALWAYS_HOLIDAYS,
    builtIn: true,
  } as AccessSchedule);
  em.persist(schedule);
  return schedule;
}

/** Checks one group of intervals (a weekday's, or a holiday type's): count, times, order, overlaps. */
function checkGroup(check: FieldChecker, field: string, entries: { index: number; startTime: string; endTime: string }[], label: string): void {
  if (entries.length > MAX_INTERVALS_PER_DAY) {
    check.add(
      `${field}.${entries[MAX_INTERVALS_PER_DAY]!.index}`,
      'too_many_intervals',
      `${label} has ${entries.length} intervals; terminals hold at most ${MAX_INTERVALS_PER_DAY}.`,
    );
  }
  const valid = entries.filter((e) => {
    let ok = true;
    for (const key of ['startTime', 'endTime'] as const) {
      if (typeof e[key] !== 'string' || !TIME.test(e[key])) {
        check.add(`${field}.${e.index}.${key}`, 'invalid_time', `${key} must be a time of day "HH:MM" from 00:00 to 23:59 (got ${JSON.stringify(e[key])}).`);
        ok = false;
      }
    }
    if (ok && e.endTime <= e.startTime) {
      check.add(
        `${field}.${e.index}.endTime`,
        'reversed_interval',
        `endTime ${e.endTime} must be after startTime ${e.startTime} (an interval cannot cross midnight: split it over two days).`,
      );
      ok = false;
    }
    return ok;
  });
  valid.sort((a, b) => a.startTime.localeCompare(b.startTime));
  for (let i = 1; i < valid.length; i++) {
    if (valid[i]!.startTime <= valid[i - 1]!.endTime) {
      check.add(
        `${field}.${valid[i]!.index}`,
        'overlapping',
        `${label}: ${valid[i]!.startTime}–${valid[i]!.endTime} overlaps ${valid[i - 1]!.startTime}–${valid[i - 1]!.endTime}.`,
      );
    }
  }
}

function checkSchedule(input: AccessScheduleInput, creating: boolean): void {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.accessName, required: creating || input.name !== undefined });
  if (creating && input.companyId == null) check.add('companyId', 'required', 'companyId is required.');
  // At most 3 a day and 3 per holiday type: a longer list is refused before it is looked at.
  if (input.intervals != null && input.intervals.length > 7 * MAX_INTERVALS_PER_DAY) {
    check.add('intervals', 'too_many_intervals', `intervals holds at most ${7 * MAX_INTERVALS_PER_DAY} intervals (3 per weekday).`);
    check.done();
  }
  if (input.holidayIntervals != null && input.holidayIntervals.length > 3 * MAX_INTERVALS_PER_DAY) {
    check.add('holidayIntervals', 'too_many_intervals', `holidayIntervals holds at most ${3 * MAX_INTERVALS_PER_DAY} intervals (3 per holiday type).`);
    check.done();
  }
  if (input.intervals != null) {
    input.intervals.forEach((interval, index) => {
      if (!Number.isInteger(interval.weekday) || interval.weekday < 1 || interval.weekday > 7) {
        check.add(`intervals.${index}.weekday`, 'out_of_range', 'weekday must be an ISO weekday from 1 (Monday) to 7 (Sunday).');
      }
    });
    for (let weekday = 1; weekday <= 7; weekday++) {
      const entries = input.intervals.map((interval, index) => ({ ...interval, index })).filter((e) => e.weekday === weekday);
      checkGroup(check, 'intervals', entries, `weekday ${weekday}`);
    }
  }
  if (input.holidayIntervals != null) {
    input.holidayIntervals.forEach((interval, index) => {
      if (!Number.isInteger(interval.holidayType) || interval.holidayType < 1 || interval.holidayType > 3) {
        check.add(`holidayIntervals.${index}.holidayType`, 'out_of_range', 'holidayType must be 1, 2 or 3.');
      }
    });
    for (let type = 1; type <= 3; type++) {
      const entries = input.holidayIntervals.map((interval, index) => ({ ...interval, index })).filter((e) => e.holidayType === type);
      checkGroup(check, 'holidayIntervals', entries, `holiday type ${type}`);
    }
  }
  check.done();
}

const byStart =
  <T extends { startTime: string }>(key: (t: T) => number) =>
  (a: T, b: T) =>
    key(a) - key(b) || a.startTime.localeCompare(b.startTime);
const sortedWeek = (intervals: WeekdayInterval[]) =>
  intervals.map(({ weekday, startTime, endTime }) => ({ weekday, startTime, endTime })).sort(byStart((i) => i.weekday));
const sortedHolidays = (intervals: HolidayInterval[]) =>
  intervals.map(({ holidayType, startTime, endTime }) => ({ holidayType, startTime, endTime })).sort(byStart((i) => i.holidayType));

export async function getAccessSchedule(ctx: RequestContext, id: number): Promise<AccessSchedule> {
  const schedule = await ctx.em.findOne(AccessSchedule, { id, workspaceId: workspaceOf(ctx) });
  if (!schedule) throw DomainError.notFound('Access schedule', id);
  return schedule;
}

export async function listAccessSchedules(ctx: RequestContext, filter: { companyId?: number }, page: PageRequest): Promise<Page<AccessSchedule>> {
  const where: FilterQuery<AccessSchedule> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(AccessSchedule, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

export async function createAccessSchedule(ctx: RequestContext, input: AccessScheduleInput): Promise<AccessSchedule> {
  checkSchedule(input, true);
  const workspaceId = workspaceOf(ctx);
  if (!(await ctx.em.findOne(Company, { id: input.companyId!, workspaceId }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
  }
  const schedule = ctx.em.create(AccessSchedule, {
    workspaceId,
    companyId: input.companyId!,
    name: input.name!,
    intervals: sortedWeek(input.intervals ?? []),
    holidayIntervals: sortedHolidays(input.holidayIntervals ?? []),
    builtIn: false,
  } as AccessSchedule);
  ctx.em.persist(schedule);
  await ctx.em.flush();
  return schedule;
}

function refuseBuiltIn(schedule: AccessSchedule): void {
  if (schedule.builtIn)
    throw DomainError.field('id', 'built_in', `Schedule ${schedule.id} is the company's built-in "Always" schedule; it cannot be changed or deleted.`);
}

/** Changes a schedule; the terminals holding it get its time-zone rows again (see markScheduleChanged). */
export async function updateAccessSchedule(ctx: RequestContext, id: number, input: Omit<AccessScheduleInput, 'companyId'>): Promise<AccessSchedule> {
  checkSchedule(input, false);
  const schedule = await getAccessSchedule(ctx, id);
  refuseBuiltIn(schedule);
  // The hours of a first-person-in schedule are the hours its doors are held open.
  const heldOpen = await openingRulesUsing(ctx.em, { scheduleId: id });
  if (heldOpen > 0 && (input.intervals != null || input.holidayIntervals != null)) {
    requireScopeFor(
      ctx,
      'doors:unlock',
      `Schedule ${id} is the first-person-in schedule of ${heldOpen} door${heldOpen === 1 ? '' : 's'}: its hours hold them open`,
    );
  }
  const previous = { intervals: schedule.intervals };
  if (input.name != null) schedule.name = input.name;
  if (input.intervals != null) schedule.intervals = sortedWeek(input.intervals);
  if (input.holidayIntervals != null) schedule.holidayIntervals = sortedHolidays(input.holidayIntervals);
  await ctx.em.transactional(async (em) => {
    await em.flush();
    await markScheduleChanged(em, schedule.id, ctx.now(), previous);
  });
  return schedule;
}

export async function deleteAccessSchedule(ctx: RequestContext, id: number): Promise<AccessSchedule> {
  const schedule = await getAccessSchedule(ctx, id);
  refuseBuiltIn(schedule);
  const users = await ctx.em.count(AccessLevel, { scheduleId: id });
  if (users > 0)
    throw new DomainError(
      'resource_in_use',
      `Schedule ${id} is the schedule of ${users} access level${users === 1 ? '' : 's'}; give them another schedule first.`,
    );
  const doors = await openingRulesUsing(ctx.em, { scheduleId: id });
  if (doors > 0)
    throw new DomainError(
      'resource_in_use',
      `Schedule ${id} is the first-person-in schedule of ${doors} door${doors === 1 ? '' : 's'}; change their opening rules first.`,
    );
  const snapshot = { ...schedule };
  ctx.em.remove(schedule);
  await ctx.em.flush();
  return Object.assign(new AccessSchedule(), snapshot);
}
