import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as holidays from '../services/attendance/holiday.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateHolidayInput, HolidayConnection, HolidayListArgs, HolidayType, UpdateHolidayInput } from '../schema/holiday.type';

@Resolver(() => HolidayType)
export class HolidayResolver {
  @Authorized('read')
  @Query(() => HolidayType, { description: 'The holiday with this id; one of another workspace, or none, answers `not_found`.' })
  holiday(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The holiday's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return holidays.getHoliday(ctx, id);
  }

  @Authorized('read')
  @Query(() => HolidayConnection, { description: "The workspace's holidays, a page at a time (`first`, `after`)." })
  async holidays(@Ctx() ctx: RequestContext, @Args() args: HolidayListArgs) {
    return toConnection(await holidays.listHolidays(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('write')
  @Mutation(() => HolidayType, {
    description:
      'Creates a holiday and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createHoliday(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateHolidayInput,
  ) {
    return holidays.createHoliday(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => HolidayType, {
    description:
      'Changes a holiday and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateHoliday(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The holiday's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateHolidayInput,
  ) {
    return holidays.updateHoliday(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => HolidayType, { description: 'Deletes a holiday and returns it as it was last stored.' })
  deleteHoliday(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The holiday's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return holidays.deleteHoliday(ctx, id);
  }
}
