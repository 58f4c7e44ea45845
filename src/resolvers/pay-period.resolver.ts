import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as periods from '../services/payroll/pay-period.service';
import { pageRequest, toConnection } from '../schema/connection';
import {
  CreatePayPeriodInput,
  PayPeriodConnection,
  PayPeriodListArgs,
  PayPeriodType,
  PayrollExportType,
  UpdatePayPeriodInput,
} from '../schema/pay-period.type';
import { exportPayPeriod } from '../services/payroll/payroll-export.service';
import { Bounded } from '../schema/bounds';

@Resolver(() => PayPeriodType)
export class PayPeriodResolver {
  @Authorized('read')
  @Query(() => PayrollExportType, { description: "The period's payroll export: one row per employee and pay code (docs/payroll-export.md)." })
  payPeriodExport(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The pay period's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('columns', () => String, { nullable: true, description: 'CSV columns and headers: `column[:header],...`.' })
    @Bounded('exportMapping')
    columns?: string | null,
    @Arg('codes', () => String, {
      nullable: true,
      description: 'Pay codes renamed for the payroll provider (work codes and paid leave codes): `code:provider_code,...`.',
    })
    @Bounded('exportMapping')
    codes?: string | null,
  ) {
    return exportPayPeriod(ctx, id, { columns, codes });
  }

  @Authorized('read')
  @Query(() => PayPeriodType, { description: 'The pay period with this id; one of another workspace, or none, answers `not_found`.' })
  payPeriod(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The pay period's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return periods.getPayPeriod(ctx, id);
  }

  @Authorized('read')
  @Query(() => PayPeriodConnection, { description: "The workspace's pay periods, a page at a time (`first`, `after`)." })
  async payPeriods(@Ctx() ctx: RequestContext, @Args() args: PayPeriodListArgs) {
    return toConnection(await periods.listPayPeriods(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => PayPeriodType, {
    description:
      'Creates a pay period and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createPayPeriod(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreatePayPeriodInput,
  ) {
    return periods.createPayPeriod(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => PayPeriodType, {
    description:
      'Changes a pay period and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updatePayPeriod(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The pay period's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdatePayPeriodInput,
  ) {
    return periods.updatePayPeriod(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => PayPeriodType, { description: 'Deletes a pay period and returns it as it was last stored; a locked period is refused with `period_locked`.' })
  deletePayPeriod(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The pay period's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return periods.deletePayPeriod(ctx, id);
  }

  @Authorized('admin')
  @Mutation(() => PayPeriodType, { description: 'Locks the period (admin keys): its attendance days no longer change.' })
  lockPayPeriod(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The pay period's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return periods.setPayPeriodLock(ctx, id, true);
  }

  @Authorized('admin')
  @Mutation(() => PayPeriodType, { description: 'Unlocks the period (admin keys).' })
  unlockPayPeriod(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The pay period's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return periods.setPayPeriodLock(ctx, id, false);
  }
}
