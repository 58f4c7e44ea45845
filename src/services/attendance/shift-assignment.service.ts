import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { flushWithStaleMarks, markDaysStale, type StaleScope } from './day-store';
import { Area, AreaEmployee, Employee, Shift, ShiftAssignment } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { withEm, workspaceOf, type RequestContext } from '../common/context';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker } from '../common/validation';

export interface ShiftAssignmentInput {
  shiftId?: number | null;
  employeeId?: number | null;
  areaId?: number | null;
  startDate?: string | null;
  endDate?: string | null;
}

/** The last day an open-ended assignment covers, for comparisons. */
const OPEN_END = '9999-12-31';

function checkDates(check: FieldChecker, startDate: string | null | undefined, endDate: string | null | undefined, creating: boolean): void {
  check.date('startDate', startDate, { required: creating || startDate !== undefined });
  check.date('endDate', endDate);
}

export async function getShiftAssignment(ctx: RequestContext, id: number): Promise<ShiftAssignment> {
  const assignment = await ctx.em.findOne(ShiftAssignment, { id, workspaceId: workspaceOf(ctx) });
  if (!assignment) throw DomainError.notFound('ShiftAssignment', id);
  return assignment;
}

export async function listShiftAssignments(
  ctx: RequestContext,
  filter: { shiftId?: number; employeeId?: number; areaId?: number },
  page: PageRequest,
): Promise<Page<ShiftAssignment>> {
  const where: FilterQuery<ShiftAssignment> = { workspaceId: workspaceOf(ctx) };
  if (filter.shiftId != null) where.shiftId = filter.shiftId;
  if (filter.employeeId != null) where.employeeId = filter.employeeId;
  if (filter.areaId != null) where.areaId = filter.areaId;
  const [items, totalCount] = await ctx.em.findAndCount(ShiftAssignment, where, { orderBy: { startDate: 'asc', id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

/** The shift, and the employee or area of the same company, all in the caller's workspace. */
async function checkTargets(ctx: RequestContext, shiftId: number, target: { employeeId?: number | null; areaId?: number | null }): Promise<void> {
  const workspaceId = workspaceOf(ctx);
  const shift = await ctx.em.findOne(Shift, { id: shiftId, workspaceId });
  if (!shift) throw DomainError.field('shiftId', 'not_found', `Shift ${shiftId} does not exist in this workspace.`);
  const [field, holder] =
    target.employeeId != null
      ? (['employeeId', await ctx.em.findOne(Employee, { id: target.employeeId, workspaceId })] as const)
      : (['areaId', await ctx.em.findOne(Area, { id: target.areaId!, workspaceId })] as const);
  if (!holder) throw DomainError.field(field, 'not_found', `${field === 'employeeId' ? 'Employee' : 'Area'} ${target.employeeId ?? target.areaId} does not exist in this workspace.`);
  if (holder.companyId !== shift.companyId) throw DomainError.field(field, 'company_mismatch', `The shift belongs to company ${shift.companyId}; the ${field === 'employeeId' ? 'employee' : 'area'} to company ${holder.companyId}.`);
}

/** One employee (or area) has one shift on any date: assignments of one holder never overlap. */
async function checkNoOverlap(ctx: RequestContext, holder: { employeeId?: number | null; areaId?: number | null }, startDate: string, endDate: string | null, exceptId?: number): Promise<void> {
  const where: FilterQuery<ShiftAssignment> = holder.employeeId != null ? { employeeId: holder.employeeId } : { areaId: holder.areaId! };
  const others = await ctx.em.find(ShiftAssignment, where);
  const clash = others.find((o) => o.id !== exceptId && o.startDate <= (endDate ?? OPEN_END) && startDate <= (o.endDate ?? OPEN_END));
  if (clash) {
    throw DomainError.field('startDate', 'overlapping', `This ${holder.employeeId != null ? 'employee' : 'area'} already has shift assignment ${clash.id} from ${clash.startDate} to ${clash.endDate ?? 'open end'}; end it first.`);
  }
}

/** The employees whose days an assignment decides: its employee, or its area's current members. */
const holderScope = (a: ShiftAssignment): StaleScope => (a.employeeId != null ? { employeeIds: [a.employeeId] } : { areaId: a.areaId! });

export async function createShiftAssignment(ctx: RequestContext, input: ShiftAssignmentInput): Promise<ShiftAssignment> {
  const check = new FieldChecker();
  if (input.shiftId == null) check.add('shiftId', 'required', 'shiftId is required.');
  if ((input.employeeId == null) === (input.areaId == null)) check.add('employeeId', 'employee_or_area', 'Give exactly one of employeeId and areaId.');
  checkDates(check, input.startDate, input.endDate, true);
  check.done();
  if (input.endDate != null && input.endDate < input.startDate!) throw DomainError.field('endDate', 'before_start_date', 'endDate must not be before startDate.');
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    await checkTargets(tx, input.shiftId!, input);
    await checkNoOverlap(tx, input, input.startDate!, input.endDate ?? null);
    const assignment = em.create(ShiftAssignment, {
      workspaceId: workspaceOf(ctx),
      shiftId: input.shiftId!,
      employeeId: input.employeeId ?? null,
      areaId: input.areaId ?? null,
      startDate: input.startDate!,
      endDate: input.endDate ?? null,
    } as ShiftAssignment);
    await em.persist(assignment).flush();
    await markDaysStale(em as EntityManager, holderScope(assignment), assignment.startDate, assignment.endDate ?? null);
    return assignment;
  });
}

/** Moves an assignment's dates or shift; its employee or area stays. */
export async function updateShiftAssignment(ctx: RequestContext, id: number, input: Pick<ShiftAssignmentInput, 'shiftId' | 'startDate' | 'endDate'>): Promise<ShiftAssignment> {
  const check = new FieldChecker();
  checkDates(check, input.startDate, input.endDate, false);
  check.done();
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const assignment = await getShiftAssignment(tx, id);
    const startDate = input.startDate ?? assignment.startDate;
    const endDate = input.endDate === undefined ? assignment.endDate ?? null : input.endDate;
    if (endDate != null && endDate < startDate) throw DomainError.field('endDate', 'before_start_date', 'endDate must not be before startDate.');
    if (input.shiftId != null) await checkTargets(tx, input.shiftId, assignment);
    await checkNoOverlap(tx, assignment, startDate, endDate, assignment.id);
    // From the earlier start to the later end of the old and the new dates: only those days can change.
    const from = startDate < assignment.startDate ? startDate : assignment.startDate;
    const to = endDate === null || assignment.endDate == null ? null : endDate > assignment.endDate ? endDate : assignment.endDate;
    if (input.shiftId != null) assignment.shiftId = input.shiftId;
    assignment.startDate = startDate;
    assignment.endDate = endDate;
    await em.flush();
    await markDaysStale(em as EntityManager, holderScope(assignment), from, to);
    return assignment;
  });
}

export async function deleteShiftAssignment(ctx: RequestContext, id: number): Promise<ShiftAssignment> {
  const assignment = await getShiftAssignment(ctx, id);
  const snapshot = { ...assignment };
  ctx.em.remove(assignment);
  await flushWithStaleMarks(ctx.em as EntityManager, [{ scope: holderScope(assignment), from: assignment.startDate, to: assignment.endDate ?? null }]);
  return Object.assign(new ShiftAssignment(), snapshot);
}

const covers = (a: ShiftAssignment, date: string) => a.startDate <= date && date <= (a.endDate ?? OPEN_END);

/**
 * The shift that applies to an employee on a local date: the employee's own assignment, else one of
 * an area the employee belongs to (the lowest area id when several do), else the company's default
 * shift, else none.
 */
export async function effectiveShift(ctx: RequestContext, employeeId: number, date: string): Promise<Shift | null> {
  const check = new FieldChecker();
  check.date('date', date, { required: true });
  check.done();
  const workspaceId = workspaceOf(ctx);
  const employee = await ctx.em.findOne(Employee, { id: employeeId, workspaceId });
  if (!employee) throw DomainError.notFound('Employee', employeeId);
  const own = (await ctx.em.find(ShiftAssignment, { employeeId })).find((a) => covers(a, date));
  if (own) return ctx.em.findOneOrFail(Shift, { id: own.shiftId });
  const areaIds = (await ctx.em.find(AreaEmployee, { employeeId }, { orderBy: { areaId: 'asc' } })).map((m) => m.areaId);
  if (areaIds.length > 0) {
    const byArea = (await ctx.em.find(ShiftAssignment, { areaId: { $in: areaIds } }, { orderBy: { areaId: 'asc' } })).find((a) => covers(a, date));
    if (byArea) return ctx.em.findOneOrFail(Shift, { id: byArea.shiftId });
  }
  return ctx.em.findOne(Shift, { companyId: employee.companyId, isDefault: true });
}
