import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as levels from '../services/access/access-level.service';
import * as schedules from '../services/access/access-schedule.service';
import { ConnectionArgs, pageRequest, toConnection } from '../schema/connection';
import { EmployeeRefInput } from '../schema/area.type';
import {
  AccessLevelAreaConnection,
  AccessLevelAreaType,
  AccessLevelConnection,
  AccessLevelEmployeeConnection,
  AccessLevelEmployeeInput,
  AccessLevelEmployeeType,
  AccessLevelType,
  AccessScheduleConnection,
  AccessScheduleType,
  AreaRefInput,
  CompanyFilterArgs,
  CreateAccessLevelInput,
  CreateAccessScheduleInput,
  UpdateAccessLevelInput,
  UpdateAccessScheduleInput,
} from '../schema/access.type';

@Resolver()
export class AccessResolver {
  @Authorized('read')
  @Query(() => AccessScheduleType)
  accessSchedule(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return schedules.getAccessSchedule(ctx, id);
  }

  @Authorized('read')
  @Query(() => AccessScheduleConnection)
  async accessSchedules(@Ctx() ctx: RequestContext, @Args() args: CompanyFilterArgs) {
    return toConnection(await schedules.listAccessSchedules(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessScheduleType)
  createAccessSchedule(@Ctx() ctx: RequestContext, @Arg('input') input: CreateAccessScheduleInput) {
    return schedules.createAccessSchedule(ctx, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessScheduleType, { description: 'Changes a schedule; terminals holding it get its time-zone row again.' })
  updateAccessSchedule(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateAccessScheduleInput) {
    return schedules.updateAccessSchedule(ctx, id, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessScheduleType)
  deleteAccessSchedule(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return schedules.deleteAccessSchedule(ctx, id);
  }

  @Authorized('read')
  @Query(() => AccessLevelType)
  accessLevel(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return levels.getAccessLevel(ctx, id);
  }

  @Authorized('read')
  @Query(() => AccessLevelConnection)
  async accessLevels(@Ctx() ctx: RequestContext, @Args() args: CompanyFilterArgs) {
    return toConnection(await levels.listAccessLevels(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessLevelType)
  createAccessLevel(@Ctx() ctx: RequestContext, @Arg('input') input: CreateAccessLevelInput) {
    return levels.createAccessLevel(ctx, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessLevelType, { description: "Changes name, schedule or doors; the members' terminals follow." })
  updateAccessLevel(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateAccessLevelInput) {
    return levels.updateAccessLevel(ctx, id, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessLevelType)
  deleteAccessLevel(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return levels.deleteAccessLevel(ctx, id);
  }

  @Authorized('read')
  @Query(() => AccessLevelEmployeeConnection)
  async accessLevelEmployees(@Ctx() ctx: RequestContext, @Arg('accessLevelId', () => Int) accessLevelId: number, @Args() args: ConnectionArgs) {
    return toConnection(await levels.listAccessLevelEmployees(ctx, accessLevelId, pageRequest(args)));
  }

  @Authorized('read')
  @Query(() => AccessLevelAreaConnection)
  async accessLevelAreas(@Ctx() ctx: RequestContext, @Arg('accessLevelId', () => Int) accessLevelId: number, @Args() args: ConnectionArgs) {
    return toConnection(await levels.listAccessLevelAreas(ctx, accessLevelId, pageRequest(args)));
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelEmployeeType], { description: 'Adds employees to a level (or changes their validity window); returns all its employees.' })
  addAccessLevelEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int) id: number,
    @Arg('items', () => [AccessLevelEmployeeInput]) items: AccessLevelEmployeeInput[],
  ) {
    return levels.changeAccessLevelEmployees(ctx, id, 'add', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelEmployeeType], { description: 'Removes employees from a level; returns the rest.' })
  removeAccessLevelEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int) id: number,
    @Arg('items', () => [EmployeeRefInput]) items: EmployeeRefInput[],
  ) {
    return levels.changeAccessLevelEmployees(ctx, id, 'remove', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelEmployeeType], { description: "Sets the level's employees to exactly these." })
  syncAccessLevelEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int) id: number,
    @Arg('items', () => [AccessLevelEmployeeInput]) items: AccessLevelEmployeeInput[],
  ) {
    return levels.changeAccessLevelEmployees(ctx, id, 'sync', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelAreaType], { description: 'Adds areas to a level (their employees become members); returns all its areas.' })
  addAccessLevelAreas(@Ctx() ctx: RequestContext, @Arg('accessLevelId', () => Int) id: number, @Arg('items', () => [AreaRefInput]) items: AreaRefInput[]) {
    return levels.changeAccessLevelAreas(ctx, id, 'add', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelAreaType])
  removeAccessLevelAreas(@Ctx() ctx: RequestContext, @Arg('accessLevelId', () => Int) id: number, @Arg('items', () => [AreaRefInput]) items: AreaRefInput[]) {
    return levels.changeAccessLevelAreas(ctx, id, 'remove', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelAreaType])
  syncAccessLevelAreas(@Ctx() ctx: RequestContext, @Arg('accessLevelId', () => Int) id: number, @Arg('items', () => [AreaRefInput]) items: AreaRefInput[]) {
    return levels.changeAccessLevelAreas(ctx, id, 'sync', items);
  }
}
