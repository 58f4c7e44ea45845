import { PayPeriod, type Punch } from '../entities';
import { DomainError } from '../errors/domain-error';
import type { RequestContext } from './context';
import { getPunch } from './punch.service';
import { FieldChecker, limits } from './validation';

/**
 * Marks a punch as not counting, with the reason (the mutation is audit-logged like every write).
 * The punch is never deleted: it stays listed with `voidedAt` and `voidReason`. Voiding a voided
 * punch changes nothing (the first reason stays). A punch whose local date lies in a locked pay
 * period of its company cannot be voided (409 `period_locked`).
 */
export async function voidPunch(ctx: RequestContext, id: number, reason: string): Promise<Punch> {
  const check = new FieldChecker();
  check.text('reason', reason, { max: limits.voidReason, required: true });
  check.done();
  const punch = await getPunch(ctx, id);
  if (punch.voidedAt) return punch;
  const date = punch.localTime.slice(0, 10);
  const locked = await ctx.em.findOne(PayPeriod, { companyId: punch.companyId, lockedAt: { $ne: null }, startDate: { $lte: date }, endDate: { $gte: date } });
  if (locked) throw new DomainError('period_locked', `The punch's date ${date} lies in locked pay period ${locked.id}; an admin must unlock it first.`);
  punch.voidedAt = ctx.now();
  punch.voidReason = reason;
  await ctx.em.flush();
  return punch;
}
