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
  @Query(() => AccessScheduleType, { description: 'The access schedule with this id; one of another workspace, or none, answers `not_found`.' })
  accessSchedule(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The access schedule's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return schedules.getAccessSchedule(ctx, id);
  }

  @Authorized('read')
  @Query(() => AccessScheduleConnection, { description: "The workspace's access schedules, a page at a time (`first`, `after`)." })
  async accessSchedules(@Ctx() ctx: RequestContext, @Args() args: CompanyFilterArgs) {
    return toConnection(await schedules.listAccessSchedules(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessScheduleType, {
    description:
      'Creates an access schedule and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createAccessSchedule(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateAccessScheduleInput,
  ) {
    return schedules.createAccessSchedule(ctx, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessScheduleType, { description: 'Changes a schedule; terminals holding it get its time-zone row again.' })
  updateAccessSchedule(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The access schedule's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateAccessScheduleInput,
  ) {
    return schedules.updateAccessSchedule(ctx, id, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessScheduleType, {
    description:
      "Deletes an access schedule and returns it as it was last stored; one that is still the schedule of an access level or of a door's first-person-in is refused with `resource_in_use`.",
  })
  deleteAccessSchedule(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The access schedule's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return schedules.deleteAccessSchedule(ctx, id);
  }

  @Authorized('read')
  @Query(() => AccessLevelType, { description: 'The access level with this id; one of another workspace, or none, answers `not_found`.' })
  accessLevel(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The access level's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return levels.getAccessLevel(ctx, id);
  }

  @Authorized('read')
  @Query(() => AccessLevelConnection, { description: "The workspace's access levels, a page at a time (`first`, `after`)." })
  async accessLevels(@Ctx() ctx: RequestContext, @Args() args: CompanyFilterArgs) {
    return toConnection(await levels.listAccessLevels(ctx, { companyId: args.companyId }, pageRequest(args)));
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessLevelType, {
    description:
      'Creates an access level and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createAccessLevel(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateAccessLevelInput,
  ) {
    return levels.createAccessLevel(ctx, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessLevelType, { description: "Changes name, schedule or doors; the members' terminals follow." })
  updateAccessLevel(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The access level's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateAccessLevelInput,
  ) {
    return levels.updateAccessLevel(ctx, id, input);
  }

  @Authorized('doors:manage')
  @Mutation(() => AccessLevelType, {
    description: "Deletes an access level and returns it as it was last stored; one that starts a door's first-person-in is refused with `resource_in_use`.",
  })
  deleteAccessLevel(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The access level's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return levels.deleteAccessLevel(ctx, id);
  }

  @Authorized('read')
  @Query(() => AccessLevelEmployeeConnection, { description: "The workspace's access level employees, a page at a time (`first`, `after`)." })
  async accessLevelEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int, { description: "The access level's id; one of another workspace, or none, answers `not_found`." }) accessLevelId: number,
    @Args() args: ConnectionArgs,
  ) {
    return toConnection(await levels.listAccessLevelEmployees(ctx, accessLevelId, pageRequest(args)));
  }

  @Authorized('read')
  @Query(() => AccessLevelAreaConnection, { description: "The workspace's access level areas, a page at a time (`first`, `after`)." })
  async accessLevelAreas(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int, { description: "The access level's id; one of another workspace, or none, answers `not_found`." }) accessLevelId: number,
    @Args() args: ConnectionArgs,
  ) {
    return toConnection(await levels.listAccessLevelAreas(ctx, accessLevelId, pageRequest(args)));
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelEmployeeType], { description: 'Adds employees to a level (or changes their validity window); returns all its employees.' })
  addAccessLevelEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int, { description: "The access level's id; one of another workspace, or none, answers `not_found`." }) id: number,
    @Arg('items', () => [AccessLevelEmployeeInput], {
      description: 'The employees to add (each by id, with an optional first and last day); one already there gets the new days.',
    })
    items: AccessLevelEmployeeInput[],
  ) {
    return levels.changeAccessLevelEmployees(ctx, id, 'add', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelEmployeeType], { description: 'Removes employees from a level; returns the rest.' })
  removeAccessLevelEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int, { description: "The access level's id; one of another workspace, or none, answers `not_found`." }) id: number,
    @Arg('items', () => [EmployeeRefInput], { description: 'The employees to remove, each by id; ones not there are ignored.' }) items: EmployeeRefInput[],
  ) {
    return levels.changeAccessLevelEmployees(ctx, id, 'remove', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelEmployeeType], { description: "Sets the level's employees to exactly these." })
  syncAccessLevelEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int, { description: "The access level's id; one of another workspace, or none, answers `not_found`." }) id: number,
    @Arg('items', () => [AccessLevelEmployeeInput], {
      description: 'The complete new list of employees (each by id, with optional days): those not in it lose the level.',
    })
    items: AccessLevelEmployeeInput[],
  ) {
    return levels.changeAccessLevelEmployees(ctx, id, 'sync', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelAreaType], { description: 'Adds areas to a level (their employees become members); returns all its areas.' })
  addAccessLevelAreas(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int, { description: "The access level's id; one of another workspace, or none, answers `not_found`." }) id: number,
    @Arg('items', () => [AreaRefInput], { description: "The areas to add, each by id; ones already there are kept. The areas' employees get the level." })
    items: AreaRefInput[],
  ) {
    return levels.changeAccessLevelAreas(ctx, id, 'add', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelAreaType], {
    description: "Removes areas from a level (their employees lose it unless they hold it otherwise); returns the level's areas.",
  })
  removeAccessLevelAreas(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int, { description: "The access level's id; one of another workspace, or none, answers `not_found`." }) id: number,
    @Arg('items', () => [AreaRefInput], { description: 'The areas to remove, each by id; ones not there are ignored.' }) items: AreaRefInput[],
  ) {
    return levels.changeAccessLevelAreas(ctx, id, 'remove', items);
  }

  @Authorized('doors:manage')
  @Mutation(() => [AccessLevelAreaType], { description: "Sets the level's areas to exactly these; returns them." })
  syncAccessLevelAreas(
    @Ctx() ctx: RequestContext,
    @Arg('accessLevelId', () => Int, { description: "The access level's id; one of another workspace, or none, answers `not_found`." }) id: number,
    @Arg('items', () => [AreaRefInput], { description: 'The complete new list of areas, each by id: those not in it are removed, the others added.' })
    items: AreaRefInput[],
  ) {
    return levels.changeAccessLevelAreas(ctx, id, 'sync', items);
  }
}
