// Rosters: a company's repeating cycle of shifts and days off (`days`), anchored at `startDate`,
// which a shift assignment names instead of a shift. Which entry applies on a date is schedule.ts.
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { Company, Roster, Shift, ShiftAssignment } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker, limits } from '../common/validation';
import { flushWithStaleMarks, type StaleMark } from './day-store';

export interface RosterInput {
  companyId?: number | null;
  name?: string | null;
  startDate?: string | null;
  days?: (number | null)[] | null;
}

function checkRoster(input: RosterInput, creating: boolean): void {
  const check = new FieldChecker();
  if (creating && input.companyId == null) check.add('companyId', 'required', 'companyId is required.');
  check.text('name', input.name, { max: limits.rosterName, required: creating || input.name !== undefined });
  check.date('startDate', input.startDate, { required: creating || input.startDate !== undefined });
  if (input.days === null || (creating && input.days === undefined))
    check.add('days', 'required', 'days is required: a list of shift ids, null for a day off.');
  else if (input.days !== undefined) {
    if (input.days.length === 0) check.add('days', 'empty', 'days needs at least one entry.');
    else if (input.days.length > limits.rosterDays) check.add('days', 'too_many_items', `A roster cycle has at most ${limits.rosterDays} days.`);
  }
  check.done();
}

/** Every shift id of `days` is a shift of the roster's company in this workspace. */
async function checkDays(ctx: RequestContext, companyId: number, days: (number | null)[]): Promise<void> {
  const ids = [...new Set(days.filter((d): d is number => d !== null))];
  if (ids.length === 0) return;
  const shifts = await ctx.em.find(Shift, { id: { $in: ids }, workspaceId: workspaceOf(ctx) });
  for (const [index, id] of days.entries()) {
    if (id === null) continue;
    const shift = shifts.find((s) => s.id === id);
    if (!shift) throw DomainError.field(`days[${index}]`, 'not_found', `Shift ${id} does not exist in this workspace.`);
    if (shift.companyId !== companyId)
      throw DomainError.field(`days[${index}]`, 'company_mismatch', `Shift ${id} belongs to company ${shift.companyId}; the roster to company ${companyId}.`);
  }
}

/** The days a roster decides: those of every assignment that names it. */
async function assignmentMarks(em: EntityManager, rosterId: number): Promise<StaleMark[]> {
  const assignments = await em.find(ShiftAssignment, { rosterId });
  return assignments.map((a) => ({
    scope: a.employeeId != null ? { employeeIds: [a.employeeId] } : { areaId: a.areaId! },
    from: a.startDate,
    to: a.endDate ?? null,
  }));
}

export async function getRoster(ctx: RequestContext, id: number): Promise<Roster> {
  const roster = await ctx.em.findOne(Roster, { id, workspaceId: workspaceOf(ctx) });
  if (!roster) throw DomainError.notFound('Roster', id);
  return roster;
}

export async function listRosters(ctx: RequestContext, filter: { companyId?: number }, page: PageRequest): Promise<Page<Roster>> {
  const where: FilterQuery<Roster> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(Roster, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

export async function createRoster(ctx: RequestContext, input: RosterInput): Promise<Roster> {
  checkRoster(input, true);
  const workspaceId = workspaceOf(ctx);
  if (!(await ctx.em.findOne(Company, { id: input.companyId!, workspaceId }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
  }
  await checkDays(ctx, input.companyId!, input.days!);
  const roster = ctx.em.create(Roster, {
    workspaceId,
    companyId: input.companyId!,
    name: input.name!,
    startDate: input.startDate!,
    days: input.days!,
  } as Roster);
  await ctx.em.persist(roster).flush();
  return roster;
}

/** Changes a roster (it stays in its company) and recomputes the days of the assignments naming it. */
export async function updateRoster(ctx: RequestContext, id: number, input: Omit<RosterInput, 'companyId'>): Promise<Roster> {
  checkRoster(input, false);
  const roster = await getRoster(ctx, id);
  if (input.days != null) await checkDays(ctx, roster.companyId, input.days);
  if (input.name != null) roster.name = input.name;
  if (input.startDate != null) roster.startDate = input.startDate;
  if (input.days != null) roster.days = input.days;
  await flushWithStaleMarks(ctx.em, await assignmentMarks(ctx.em, roster.id));
  return roster;
}

/** A roster that is still assigned is not deleted (its days would silently fall back to the default shift). */
export async function deleteRoster(ctx: RequestContext, id: number): Promise<Roster> {
  const roster = await getRoster(ctx, id);
  const assigned = await ctx.em.count(ShiftAssignment, { rosterId: roster.id });
  if (assigned > 0) throw new DomainError('resource_in_use', `Roster ${id} has ${assigned} assignment${assigned === 1 ? '' : 's'}; delete or move them first.`);
  const snapshot = { ...roster };
  ctx.em.remove(roster);
  await ctx.em.flush();
  return Object.assign(new Roster(), snapshot);
}
