// Schedule overrides: one employee's shift on one date (a swap, an extra shift, a day off), winning
// over assignments, rosters and the default shift (schedule.ts). A change recomputes the days it
// touches in its own transaction, under the attendance lock, and announces the date
// (`attendance.day.updated`): the answer to the request is already what timesheets show.
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { Employee, PayPeriod, ScheduleOverride, Shift } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { uniqueViolationToDomainError } from '../common/unique-violation';
import { FieldChecker } from '../common/validation';
import { addDays } from '../../kernel/calendar-date';
import { refreshDays, takeAttendanceLock } from './day-store';
import { want, type WantedDays } from './day-inputs';

export interface ScheduleOverrideInput {
  employeeId?: number | null;
  date?: string | null;
  /** null: a day off. */
  shiftId?: number | null;
}

const DATE_TAKEN = 'This employee already has a schedule override on this date; change that one.';
const uniqueFields = { schedule_override_employee_date_unique: { field: 'date', message: DATE_TAKEN } };

export async function getScheduleOverride(ctx: RequestContext, id: number): Promise<ScheduleOverride> {
  const override = await ctx.em.findOne(ScheduleOverride, { id, workspaceId: workspaceOf(ctx) });
  if (!override) throw DomainError.notFound('ScheduleOverride', id);
  return override;
}

export async function listScheduleOverrides(
  ctx: RequestContext,
  filter: { employeeId?: number; startDate?: string; endDate?: string },
  page: PageRequest,
): Promise<Page<ScheduleOverride>> {
  const check = new FieldChecker();
  check.date('startDate', filter.startDate);
  check.date('endDate', filter.endDate);
  check.done();
  const where: FilterQuery<ScheduleOverride> = { workspaceId: workspaceOf(ctx) };
  if (filter.employeeId != null) where.employeeId = filter.employeeId;
  if (filter.startDate != null || filter.endDate != null) {
    where.date = { ...(filter.startDate != null ? { $gte: filter.startDate } : {}), ...(filter.endDate != null ? { $lte: filter.endDate } : {}) };
  }
  const [items, totalCount] = await ctx.em.findAndCount(ScheduleOverride, where, {
    orderBy: { date: 'asc', id: 'asc' },
    offset: page.offset,
    limit: page.limit,
  });
  return { items, totalCount, offset: page.offset };
}

/** The shift (when one is named) is a shift of the employee's company in this workspace. */
async function checkShift(ctx: RequestContext, companyId: number, shiftId: number | null): Promise<void> {
  if (shiftId === null) return;
  const shift = await ctx.em.findOne(Shift, { id: shiftId, workspaceId: workspaceOf(ctx) });
  if (!shift) throw DomainError.field('shiftId', 'not_found', `Shift ${shiftId} does not exist in this workspace.`);
  if (shift.companyId !== companyId)
    throw DomainError.field('shiftId', 'company_mismatch', `Shift ${shiftId} belongs to company ${shift.companyId}; the employee to company ${companyId}.`);
}

/** A date inside a locked pay period keeps its day: its schedule cannot change either. */
async function checkUnlocked(em: EntityManager, companyId: number, date: string): Promise<void> {
  const locked = await em.findOne(PayPeriod, { companyId, lockedAt: { $ne: null }, startDate: { $lte: date }, endDate: { $gte: date } });
  if (locked) throw new DomainError('period_locked', `${date} lies in locked pay period ${locked.id}; an admin must unlock it first.`);
}

/**
 * Runs `change` in a transaction holding the attendance lock, then recomputes the employee's days
 * around `dates` (the date itself, and its neighbours, whose punches a night shift may take or give
 * back) and announces those that changed. The dates themselves are stored before the change when
 * they never were, so that what the override changes is announced even on a day without punches.
 */
async function withRecompute<T>(ctx: RequestContext, employeeId: number, dates: string[], change: (em: EntityManager) => Promise<T>): Promise<T> {
  return ctx.em.transactional(async (em) => {
    await takeAttendanceLock(em);
    const tx = withEm(ctx, em);
    const own: WantedDays = new Map();
    for (const date of dates) want(own, employeeId, date, date);
    await refreshDays(tx, own, { announceNew: false });
    const result = await change(em);
    await em.flush();
    const around: WantedDays = new Map();
    for (const date of dates) want(around, employeeId, addDays(date, -1), addDays(date, 1));
    await refreshDays(tx, around, { announceNew: true });
    return result;
  });
}

export async function createScheduleOverride(ctx: RequestContext, input: ScheduleOverrideInput): Promise<ScheduleOverride> {
  const check = new FieldChecker();
  if (input.employeeId == null) check.add('employeeId', 'required', 'employeeId is required.');
  check.date('date', input.date, { required: true });
  check.done();
  const workspaceId = workspaceOf(ctx);
  const employee = await ctx.em.findOne(Employee, { id: input.employeeId!, workspaceId });
  if (!employee) throw DomainError.field('employeeId', 'not_found', `Employee ${input.employeeId} does not exist in this workspace.`);
  const shiftId = input.shiftId ?? null;
  await checkShift(ctx, employee.companyId, shiftId);
  try {
    return await withRecompute(ctx, employee.id, [input.date!], async (em) => {
      await checkUnlocked(em, employee.companyId, input.date!);
      if (await em.findOne(ScheduleOverride, { employeeId: employee.id, date: input.date! })) throw DomainError.field('date', 'already_taken', DATE_TAKEN);
      const override = em.create(ScheduleOverride, { workspaceId, employeeId: employee.id, date: input.date!, shiftId } as ScheduleOverride);
      em.persist(override);
      return override;
    });
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
}

/** Changes an override's date or shift (`shiftId: null` makes it a day off); its employee stays. */
export async function updateScheduleOverride(ctx: RequestContext, id: number, input: Omit<ScheduleOverrideInput, 'employeeId'>): Promise<ScheduleOverride> {
  const check = new FieldChecker();
  check.date('date', input.date, { required: input.date !== undefined });
  check.done();
  const found = await getScheduleOverride(ctx, id);
  const employee = await ctx.em.findOneOrFail(Employee, { id: found.employeeId });
  if (input.shiftId !== undefined) await checkShift(ctx, employee.companyId, input.shiftId);
  const dates = [...new Set([found.date, input.date ?? found.date])];
  try {
    return await withRecompute(ctx, employee.id, dates, async (em) => {
      const override = await em.findOneOrFail(ScheduleOverride, { id });
      for (const date of dates) await checkUnlocked(em, employee.companyId, date);
      if (input.date != null && input.date !== override.date && (await em.findOne(ScheduleOverride, { employeeId: employee.id, date: input.date }))) {
        throw DomainError.field('date', 'already_taken', DATE_TAKEN);
      }
      if (input.date != null) override.date = input.date;
      if (input.shiftId !== undefined) override.shiftId = input.shiftId;
      return override;
    });
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
}

/** Deletes an override: the date returns to the employee's usual shift. */
export async function deleteScheduleOverride(ctx: RequestContext, id: number): Promise<ScheduleOverride> {
  const found = await getScheduleOverride(ctx, id);
  const employee = await ctx.em.findOneOrFail(Employee, { id: found.employeeId });
  return withRecompute(ctx, employee.id, [found.date], async (em) => {
    await checkUnlocked(em, employee.companyId, found.date);
    const override = await em.findOneOrFail(ScheduleOverride, { id });
    const snapshot = { ...override };
    em.remove(override);
    return Object.assign(new ScheduleOverride(), snapshot);
  });
}
