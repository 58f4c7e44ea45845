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
  @Query(() => ScheduleOverrideType, { description: 'The schedule override with this id; one of another workspace, or none, answers `not_found`.' })
  scheduleOverride(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The schedule override's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return overrides.getScheduleOverride(ctx, id);
  }

  @Authorized('read')
  @Query(() => ScheduleOverrideConnection, { description: "The workspace's schedule overrides, a page at a time (`first`, `after`)." })
  async scheduleOverrides(@Ctx() ctx: RequestContext, @Args() args: ScheduleOverrideListArgs) {
    return toConnection(
      await overrides.listScheduleOverrides(ctx, { employeeId: args.employeeId, startDate: args.startDate, endDate: args.endDate }, pageRequest(args)),
    );
  }

  @Authorized('write')
  @Mutation(() => ScheduleOverrideType, {
    description:
      'Creates a schedule override and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createScheduleOverride(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateScheduleOverrideInput,
  ) {
    return overrides.createScheduleOverride(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => ScheduleOverrideType, {
    description:
      'Changes a schedule override and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateScheduleOverride(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The schedule override's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateScheduleOverrideInput,
  ) {
    return overrides.updateScheduleOverride(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => ScheduleOverrideType, {
    description:
      'Deletes a schedule override and returns it as it was last stored (the day is computed again from the schedule); in a locked pay period it is refused with `period_locked`.',
  })
  deleteScheduleOverride(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The schedule override's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return overrides.deleteScheduleOverride(ctx, id);
  }
}
