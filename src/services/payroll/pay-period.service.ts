import type { FilterQuery } from '@mikro-orm/postgresql';
import { markDaysStale, refreshCompanyDays, takeAttendanceLock } from '../attendance/day-store';
import { Company, PayPeriod } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker } from '../common/validation';
import { periodRows } from './payroll-export.service';
import { storedExportRowOf } from './export-rows';

export interface PayPeriodInput {
  companyId?: number | null;
  startDate?: string | null;
  endDate?: string | null;
}

/** The period's dates as given (each checked; on an update either may be left out). */
function checkDates(startDate: string | null | undefined, endDate: string | null | undefined, creating: boolean): void {
  const check = new FieldChecker();
  for (const [field, value] of [
    ['startDate', startDate],
    ['endDate', endDate],
  ] as const) {
    if (value === null && !creating) check.add(field, 'required', `${field} cannot be removed.`);
    else check.date(field, value, { required: creating });
  }
  check.done();
}

/** The period's resulting dates: in order, and at most MAX_SPAN_DAYS (a week, a fortnight or a month fit). */
function checkOrder(startDate: string, endDate: string): void {
  const check = new FieldChecker();
  check.span({ start: 'startDate', end: 'endDate' }, startDate, endDate);
  check.done();
}

export async function getPayPeriod(ctx: RequestContext, id: number): Promise<PayPeriod> {
  const period = await ctx.em.findOne(PayPeriod, { id, workspaceId: workspaceOf(ctx) });
  if (!period) throw DomainError.notFound('PayPeriod', id);
  return period;
}

export async function listPayPeriods(ctx: RequestContext, filter: { companyId?: number }, page: PageRequest): Promise<Page<PayPeriod>> {
  const where: FilterQuery<PayPeriod> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(PayPeriod, where, { orderBy: { startDate: 'asc', id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

/** The periods of one company never overlap: a date belongs to at most one period. */
async function checkNoOverlap(ctx: RequestContext, companyId: number, startDate: string, endDate: string, exceptId?: number): Promise<void> {
  const clash = (await ctx.em.find(PayPeriod, { companyId })).find((p) => p.id !== exceptId && p.startDate <= endDate && startDate <= p.endDate);
  if (clash)
    throw DomainError.field('startDate', 'overlapping', `Pay period ${clash.id} (${clash.startDate} to ${clash.endDate}) already covers some of these dates.`);
}

function refuseLocked(period: PayPeriod): void {
  if (period.lockedAt) throw new DomainError('period_locked', `Pay period ${period.id} is locked; an admin must unlock it first.`);
}

export async function createPayPeriod(ctx: RequestContext, input: PayPeriodInput): Promise<PayPeriod> {
  checkDates(input.startDate, input.endDate, true);
  if (input.companyId == null) throw DomainError.field('companyId', 'required', 'companyId is required.');
  checkOrder(input.startDate!, input.endDate!);
  const workspaceId = workspaceOf(ctx);
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    if (!(await em.findOne(Company, { id: input.companyId!, workspaceId }))) {
      throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
    }
    await checkNoOverlap(tx, input.companyId!, input.startDate!, input.endDate!);
    const period = em.create(PayPeriod, {
      workspaceId,
      companyId: input.companyId!,
      startDate: input.startDate!,
      endDate: input.endDate!,
      lockedAt: null,
    } as PayPeriod);
    await em.persist(period).flush();
    return period;
  });
}

/** Moves an unlocked period's dates (it stays in its company). */
export async function updatePayPeriod(ctx: RequestContext, id: number, input: Omit<PayPeriodInput, 'companyId'>): Promise<PayPeriod> {
  checkDates(input.startDate, input.endDate, false);
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const period = await getPayPeriod(tx, id);
    refuseLocked(period);
    const startDate = input.startDate ?? period.startDate;
    const endDate = input.endDate ?? period.endDate;
    checkOrder(startDate, endDate);
    await checkNoOverlap(tx, period.companyId, startDate, endDate, period.id);
    period.startDate = startDate;
    period.endDate = endDate;
    await em.flush();
    return period;
  });
}

export async function deletePayPeriod(ctx: RequestContext, id: number): Promise<PayPeriod> {
  const period = await getPayPeriod(ctx, id);
  refuseLocked(period);
  const snapshot = { ...period };
  await ctx.em.remove(period).flush();
  return Object.assign(new PayPeriod(), snapshot);
}

/** Locks (`locked` true) or unlocks a period; admin keys only (the resolver's scope). Idempotent. */
export async function setPayPeriodLock(ctx: RequestContext, id: number, locked: boolean): Promise<PayPeriod> {
  const period = await getPayPeriod(ctx, id);
  if (locked === (period.lockedAt != null)) return period;
  await ctx.em.transactional(async (em) => {
    if (locked) {
      // What the lock freezes is computed now, with everything received until this moment.
      await takeAttendanceLock(em);
      await refreshCompanyDays(withEm(ctx, em), period.companyId, period.startDate, period.endDate);
      // The export is frozen with the days: the same bytes every time until the period is unlocked.
      const exportRows = (await periodRows(em, period)).map(storedExportRowOf);
      await em.nativeUpdate(PayPeriod, { id }, { lockedAt: ctx.now(), exportRows });
    } else {
      await em.nativeUpdate(PayPeriod, { id }, { lockedAt: null, exportRows: null });
      // Unlocked days catch up with what changed meanwhile (a punch flagged after_lock now counts).
      await markDaysStale(em, { companyId: period.companyId }, period.startDate, period.endDate);
    }
  });
  return (await ctx.em.refresh(period))!;
}
