import type { FilterQuery } from '@mikro-orm/postgresql';
import { flushWithStaleMarks, markDaysStale, type StaleScope } from './day-store';
import { scheduledShift } from './schedule';
import { Area, AreaEmployee, Employee, Roster, ScheduleOverride, Shift, ShiftAssignment } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker } from '../common/validation';

export interface ShiftAssignmentInput {
  /** Exactly one of shiftId and rosterId. */
  shiftId?: number | null;
  rosterId?: number | null;
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
  filter: { shiftId?: number; rosterId?: number; employeeId?: number; areaId?: number },
  page: PageRequest,
): Promise<Page<ShiftAssignment>> {
  const where: FilterQuery<ShiftAssignment> = { workspaceId: workspaceOf(ctx) };
  if (filter.shiftId != null) where.shiftId = filter.shiftId;
  if (filter.rosterId != null) where.rosterId = filter.rosterId;
  if (filter.employeeId != null) where.employeeId = filter.employeeId;
  if (filter.areaId != null) where.areaId = filter.areaId;
  const [items, totalCount] = await ctx.em.findAndCount(ShiftAssignment, where, {
    orderBy: { startDate: 'asc', id: 'asc' },
    offset: page.offset,
    limit: page.limit,
  });
  return { items, totalCount, offset: page.offset };
}

/** The shift (or roster), and the employee or area of the same company, all in the caller's workspace. */
async function checkTargets(
  ctx: RequestContext,
  plan: { shiftId?: number | null; rosterId?: number | null },
  target: { employeeId?: number | null; areaId?: number | null },
): Promise<void> {
  const workspaceId = workspaceOf(ctx);
  const shift =
    plan.shiftId != null ? await ctx.em.findOne(Shift, { id: plan.shiftId, workspaceId }) : await ctx.em.findOne(Roster, { id: plan.rosterId!, workspaceId });
  if (!shift) {
    throw plan.shiftId != null
      ? DomainError.field('shiftId', 'not_found', `Shift ${plan.shiftId} does not exist in this workspace.`)
      : DomainError.field('rosterId', 'not_found', `Roster ${plan.rosterId} does not exist in this workspace.`);
  }
  const [field, holder] =
    target.employeeId != null
      ? (['employeeId', await ctx.em.findOne(Employee, { id: target.employeeId, workspaceId })] as const)
      : (['areaId', await ctx.em.findOne(Area, { id: target.areaId!, workspaceId })] as const);
  if (!holder)
    throw DomainError.field(
      field,
      'not_found',
      `${field === 'employeeId' ? 'Employee' : 'Area'} ${target.employeeId ?? target.areaId} does not exist in this workspace.`,
    );
  if (holder.companyId !== shift.companyId)
    throw DomainError.field(
      field,
      'company_mismatch',
      `The ${plan.shiftId != null ? 'shift' : 'roster'} belongs to company ${shift.companyId}; the ${field === 'employeeId' ? 'employee' : 'area'} to company ${holder.companyId}.`,
    );
}

/** One employee (or area) has one shift on any date: assignments of one holder never overlap. */
async function checkNoOverlap(
  ctx: RequestContext,
  holder: { employeeId?: number | null; areaId?: number | null },
  startDate: string,
  endDate: string | null,
  exceptId?: number,
): Promise<void> {
  const where: FilterQuery<ShiftAssignment> = holder.employeeId != null ? { employeeId: holder.employeeId } : { areaId: holder.areaId! };
  const others = await ctx.em.find(ShiftAssignment, where);
  const clash = others.find((o) => o.id !== exceptId && o.startDate <= (endDate ?? OPEN_END) && startDate <= (o.endDate ?? OPEN_END));
  if (clash) {
    throw DomainError.field(
      'startDate',
      'overlapping',
      `This ${holder.employeeId != null ? 'employee' : 'area'} already has shift assignment ${clash.id} from ${clash.startDate} to ${clash.endDate ?? 'open end'}; end it first.`,
    );
  }
}

/** The employees whose days an assignment decides: its employee, or its area's current members. */
const holderScope = (a: ShiftAssignment): StaleScope => (a.employeeId != null ? { employeeIds: [a.employeeId] } : { areaId: a.areaId! });

export async function createShiftAssignment(ctx: RequestContext, input: ShiftAssignmentInput): Promise<ShiftAssignment> {
  const check = new FieldChecker();
  if ((input.shiftId == null) === (input.rosterId == null)) check.add('shiftId', 'shift_or_roster', 'Give exactly one of shiftId and rosterId.');
  if ((input.employeeId == null) === (input.areaId == null)) check.add('employeeId', 'employee_or_area', 'Give exactly one of employeeId and areaId.');
  checkDates(check, input.startDate, input.endDate, true);
  check.done();
  if (input.endDate != null && input.endDate < input.startDate!)
    throw DomainError.field('endDate', 'before_start_date', 'endDate must not be before startDate.');
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    await checkTargets(tx, input, input);
    await checkNoOverlap(tx, input, input.startDate!, input.endDate ?? null);
    const assignment = em.create(ShiftAssignment, {
      workspaceId: workspaceOf(ctx),
      shiftId: input.shiftId ?? null,
      rosterId: input.rosterId ?? null,
      employeeId: input.employeeId ?? null,
      areaId: input.areaId ?? null,
      startDate: input.startDate!,
      endDate: input.endDate ?? null,
    } as ShiftAssignment);
    await em.persist(assignment).flush();
    await markDaysStale(em, holderScope(assignment), assignment.startDate, assignment.endDate ?? null);
    return assignment;
  });
}

/** Moves an assignment's dates or changes its shift or roster (one replaces the other); its employee or area stays. */
export async function updateShiftAssignment(
  ctx: RequestContext,
  id: number,
  input: Pick<ShiftAssignmentInput, 'shiftId' | 'rosterId' | 'startDate' | 'endDate'>,
): Promise<ShiftAssignment> {
  const check = new FieldChecker();
  if (input.shiftId != null && input.rosterId != null) check.add('shiftId', 'shift_or_roster', 'Give at most one of shiftId and rosterId.');
  checkDates(check, input.startDate, input.endDate, false);
  check.done();
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const assignment = await getShiftAssignment(tx, id);
    const startDate = input.startDate ?? assignment.startDate;
    const endDate = input.endDate === undefined ? (assignment.endDate ?? null) : input.endDate;
    if (endDate != null && endDate < startDate) throw DomainError.field('endDate', 'before_start_date', 'endDate must not be before startDate.');
    if (input.shiftId != null || input.rosterId != null) await checkTargets(tx, input, assignment);
    await checkNoOverlap(tx, assignment, startDate, endDate, assignment.id);
    // From the earlier start to the later end of the old and the new dates: only those days can change.
    const from = startDate < assignment.startDate ? startDate : assignment.startDate;
    const to = endDate === null || assignment.endDate == null ? null : endDate > assignment.endDate ? endDate : assignment.endDate;
    if (input.shiftId != null || input.rosterId != null) {
      assignment.shiftId = input.shiftId ?? null;
      assignment.rosterId = input.rosterId ?? null;
    }
    assignment.startDate = startDate;
    assignment.endDate = endDate;
    await em.flush();
    await markDaysStale(em, holderScope(assignment), from, to);
    return assignment;
  });
}

export async function deleteShiftAssignment(ctx: RequestContext, id: number): Promise<ShiftAssignment> {
  const assignment = await getShiftAssignment(ctx, id);
  const snapshot = { ...assignment };
  ctx.em.remove(assignment);
  await flushWithStaleMarks(ctx.em, [{ scope: holderScope(assignment), from: assignment.startDate, to: assignment.endDate ?? null }]);
  return Object.assign(new ShiftAssignment(), snapshot);
}

/**
 * The shift that applies to an employee on a local date (schedule.ts): an override of the date, else
 * the employee's own assignment, else one of an area the employee belongs to (the lowest area id
 * when several do), a roster's entry when the assignment names a roster, else the company's default
 * shift, else none (also on a day off).
 */
export async function effectiveShift(ctx: RequestContext, employeeId: number, date: string): Promise<Shift | null> {
  const check = new FieldChecker();
  check.date('date', date, { required: true });
  check.done();
  const workspaceId = workspaceOf(ctx);
  const employee = await ctx.em.findOne(Employee, { id: employeeId, workspaceId });
  if (!employee) throw DomainError.notFound('Employee', employeeId);
  const areaIds = (await ctx.em.find(AreaEmployee, { employeeId })).map((m) => m.areaId);
  const assignments = await ctx.em.find(ShiftAssignment, { $or: [{ employeeId }, ...(areaIds.length > 0 ? [{ areaId: { $in: areaIds } }] : [])] });
  const rosterIds = [...new Set(assignments.flatMap((a) => (a.rosterId != null ? [a.rosterId] : [])))];
  const rosters = rosterIds.length > 0 ? await ctx.em.find(Roster, { id: { $in: rosterIds } }) : [];
  const override = await ctx.em.findOne(ScheduleOverride, { employeeId, date });
  const defaultShift = await ctx.em.findOne(Shift, { companyId: employee.companyId, isDefault: true });
  const { shiftId } = scheduledShift(
    {
      employeeId,
      areaIds: new Set(areaIds),
      overrides: new Map(override ? [[date, override.shiftId ?? null]] : []),
      assignments: assignments.map((a) => ({
        shiftId: a.shiftId ?? null,
        rosterId: a.rosterId ?? null,
        employeeId: a.employeeId ?? null,
        areaId: a.areaId ?? null,
        startDate: a.startDate,
        endDate: a.endDate ?? null,
      })),
      rosters: new Map(rosters.map((r) => [r.id, { id: r.id, startDate: r.startDate, days: r.days }])),
      defaultShiftId: defaultShift?.id ?? null,
    },
    date,
  );
  if (shiftId === null) return null;
  return shiftId === defaultShift?.id ? defaultShift : ctx.em.findOneOrFail(Shift, { id: shiftId });
}
