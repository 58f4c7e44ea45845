import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../services/common/context';
import * as periods from '../services/attendance/pay-period.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreatePayPeriodInput, PayPeriodConnection, PayPeriodListArgs, PayPeriodType, UpdatePayPeriodInput } from '../schema/pay-period.type';

@Resolver(() => PayPeriodType)
export class PayPeriodResolver {
  @Authorized('read')
  @Query(() => PayPeriodType)
  payPeriod(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return periods.getPayPeriod(ctx, id);
  }

  @Authorized('read')
  @Query(() => PayPeriodConnection)
  async payPeriods(@Ctx() ctx: RequestContext, @Args() args: PayPeriodListArgs) {
    return toConnection(await periods.listPayPeriods(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => PayPeriodType)
  createPayPeriod(@Ctx() ctx: RequestContext, @Arg('input') input: CreatePayPeriodInput) {
    return periods.createPayPeriod(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => PayPeriodType)
  updatePayPeriod(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdatePayPeriodInput) {
    return periods.updatePayPeriod(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => PayPeriodType)
  deletePayPeriod(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return periods.deletePayPeriod(ctx, id);
  }

  @Authorized('admin')
  @Mutation(() => PayPeriodType, { description: 'Locks the period (admin keys): its attendance days no longer change.' })
  lockPayPeriod(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return periods.setPayPeriodLock(ctx, id, true);
  }

  @Authorized('admin')
  @Mutation(() => PayPeriodType, { description: 'Unlocks the period (admin keys).' })
  unlockPayPeriod(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return periods.setPayPeriodLock(ctx, id, false);
  }
}
