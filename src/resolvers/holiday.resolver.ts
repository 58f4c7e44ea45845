import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as holidays from '../services/attendance/holiday.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateHolidayInput, HolidayConnection, HolidayListArgs, HolidayType, UpdateHolidayInput } from '../schema/holiday.type';

@Resolver(() => HolidayType)
export class HolidayResolver {
  @Authorized('read')
  @Query(() => HolidayType)
  holiday(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return holidays.getHoliday(ctx, id);
  }

  @Authorized('read')
  @Query(() => HolidayConnection)
  async holidays(@Ctx() ctx: RequestContext, @Args() args: HolidayListArgs) {
    return toConnection(await holidays.listHolidays(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => HolidayType)
  createHoliday(@Ctx() ctx: RequestContext, @Arg('input') input: CreateHolidayInput) {
    return holidays.createHoliday(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => HolidayType)
  updateHoliday(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateHolidayInput) {
    return holidays.updateHoliday(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => HolidayType)
  deleteHoliday(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return holidays.deleteHoliday(ctx, id);
  }
}
