import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as overrides from '../services/attendance/schedule-override.service';
import { pageRequest, toConnection } from '../schema/connection';
import {
  CreateScheduleOverrideInput,
  ScheduleOverrideConnection,
  ScheduleOverrideListArgs,
  ScheduleOverrideType,
  UpdateScheduleOverrideInput,
} from '../schema/schedule-override.type';

@Resolver(() => ScheduleOverrideType)
export class ScheduleOverrideResolver {
  @Authorized('read')
  @Query(() => ScheduleOverrideType)
  scheduleOverride(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return overrides.getScheduleOverride(ctx, id);
  }

  @Authorized('read')
  @Query(() => ScheduleOverrideConnection)
  async scheduleOverrides(@Ctx() ctx: RequestContext, @Args() args: ScheduleOverrideListArgs) {
    return toConnection(
      await overrides.listScheduleOverrides(ctx, { employeeId: args.employeeId, startDate: args.startDate, endDate: args.endDate }, pageRequest(args)),
    );
  }

  @Authorized('write')
  @Mutation(() => ScheduleOverrideType)
  createScheduleOverride(@Ctx() ctx: RequestContext, @Arg('input') input: CreateScheduleOverrideInput) {
    return overrides.createScheduleOverride(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => ScheduleOverrideType)
  updateScheduleOverride(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateScheduleOverrideInput) {
    return overrides.updateScheduleOverride(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => ScheduleOverrideType)
  deleteScheduleOverride(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return overrides.deleteScheduleOverride(ctx, id);
  }
}
