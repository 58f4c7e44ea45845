import { PayPeriod, Punch } from '../../entities';
import { addDays } from '../../kernel/calendar-date';
import { markDaysStale } from './day-store';
import { DomainError } from '../../errors/domain-error';
import type { RequestContext } from '../../context/request-context';
import { getPunch } from './punch.service';
import { FieldChecker, limits } from '../common/validation';

/**
 * Marks a punch as not counting, with the reason (the mutation is audit-logged like every write).
 * The punch is never deleted: it stays listed with `voidedAt` and `voidReason`. Voiding a voided
 * punch changes nothing (the first reason stays). A punch whose local date lies in a locked pay
 * period of its company cannot be voided (409 `period_locked`).
 */
export async function voidPunch(ctx: RequestContext, id: number, reason: string): Promise<Punch> {
  const check = new FieldChecker();
  check.text('reason', reason, { max: limits.reason, required: true });
  check.done();
  const punch = await getPunch(ctx, id);
  if (punch.voidedAt) return punch;
  const date = punch.localTime.slice(0, 10);
  const locked = await ctx.em.findOne(PayPeriod, { companyId: punch.companyId, lockedAt: { $ne: null }, startDate: { $lte: date }, endDate: { $gte: date } });
  if (locked) throw new DomainError('period_locked', `The punch's date ${date} lies in locked pay period ${locked.id}; an admin must unlock it first.`);
  // The void and the recomputation mark of the punch's days commit together.
  await ctx.em.transactional(async (em) => {
    await em.nativeUpdate(Punch, { id: punch.id }, { voidedAt: ctx.now(), voidReason: reason });
    if (punch.employeeId) await markDaysStale(em, { employeeIds: [punch.employeeId] }, addDays(date, -1), addDays(date, 1));
  });
  return (await ctx.em.refresh(punch))!;
}
