import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as areas from '../services/directory/area.service';
import { employeeViews } from '../services/directory/employee.service';
import { ConnectionArgs, pageRequest, toConnection } from '../schema/connection';
import { AreaConnection, AreasArgs, AreaType, CreateAreaInput, DeviceRefInput, EmployeeRefInput, UpdateAreaInput } from '../schema/area.type';
import { DeviceConnection, DeviceType } from '../schema/device.type';
import { EmployeeConnection, EmployeeType } from '../schema/employee.type';
import { Bounded, maxChars } from '../schema/bounds';

@Resolver(() => AreaType)
export class AreaResolver {
  @Authorized('read')
  @Query(() => AreaType, { description: 'An area by id or by name: a value of only digits is tried as an id first, then as a name.' })
  area(
    @Ctx() ctx: RequestContext,
    @Arg('idOrName', { description: `The area's id, or its code or name: ${maxChars('idOrName')}.` }) @Bounded('idOrName') idOrName: string,
  ) {
    return areas.findArea(ctx, idOrName);
  }

  @Authorized('read')
  @Query(() => AreaConnection, { description: "The workspace's areas, a page at a time (`first`, `after`)." })
  async areas(@Ctx() ctx: RequestContext, @Args() { companyId, ...page }: AreasArgs) {
    return toConnection(await areas.listAreas(ctx, { companyId: companyId ?? undefined }, pageRequest(page)));
  }

  @Authorized('read')
  @Query(() => EmployeeConnection, { description: 'The employees registered in an area.' })
  async areaEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: "The area's id; one of another workspace, or none, answers `not_found`." }) areaId: number,
    @Args() page: ConnectionArgs,
  ) {
    const members = await areas.listAreaEmployees(ctx, areaId, pageRequest(page));
    return toConnection({ ...members, items: await employeeViews(ctx, members.items) });
  }

  @Authorized('read')
  @Query(() => DeviceConnection, { description: 'The devices of an area.' })
  async areaDevices(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: "The area's id; one of another workspace, or none, answers `not_found`." }) areaId: number,
    @Args() page: ConnectionArgs,
  ) {
    return toConnection(await areas.listAreaDevices(ctx, areaId, pageRequest(page)));
  }

  @FieldResolver(() => [Int], { description: 'The ids of the terminals in the area.' })
  deviceIds(@Ctx() ctx: RequestContext, @Root() area: AreaType) {
    return areas.areaDeviceIds(ctx, area.id);
  }

  @FieldResolver(() => [Int], { description: 'The ids of the employees in the area.' })
  employeeIds(@Ctx() ctx: RequestContext, @Root() area: AreaType) {
    return areas.areaEmployeeIds(ctx, area.id);
  }

  @Authorized('write')
  @Mutation(() => AreaType, {
    description:
      'Creates an area and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createArea(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateAreaInput,
  ) {
    return areas.createArea(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => AreaType, {
    description:
      'Changes an area and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateArea(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The area's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateAreaInput,
  ) {
    return areas.updateArea(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => AreaType, { description: 'Deletes the area and its memberships (and so the assignments its devices inherited).' })
  deleteArea(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The area's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return areas.deleteArea(ctx, id);
  }

  @Authorized('write')
  @Mutation(() => [EmployeeType], { description: 'Registers employees in the area; returns all its employees.' })
  async addAreaEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: "The area's id; one of another workspace, or none, answers `not_found`." }) areaId: number,
    @Arg('items', () => [EmployeeRefInput], { description: 'The employees to add, each by id; ones already there are kept.' }) items: EmployeeRefInput[],
  ) {
    return employeeViews(ctx, await areas.changeAreaEmployees(ctx, areaId, 'add', items));
  }

  @Authorized('write')
  @Mutation(() => [EmployeeType], { description: 'Removes employees from the area (non-members are ignored); returns all its employees.' })
  async removeAreaEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: "The area's id; one of another workspace, or none, answers `not_found`." }) areaId: number,
    @Arg('items', () => [EmployeeRefInput], { description: 'The employees to remove, each by id; ones not there are ignored.' }) items: EmployeeRefInput[],
  ) {
    return employeeViews(ctx, await areas.changeAreaEmployees(ctx, areaId, 'remove', items));
  }

  @Authorized('write')
  @Mutation(() => [EmployeeType], { description: "Makes the area's employees exactly `items`; returns them." })
  async syncAreaEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: "The area's id; one of another workspace, or none, answers `not_found`." }) areaId: number,
    @Arg('items', () => [EmployeeRefInput], { description: 'The complete new list of employees, each by id: those not in it are removed, the others added.' })
    items: EmployeeRefInput[],
  ) {
    return employeeViews(ctx, await areas.changeAreaEmployees(ctx, areaId, 'sync', items));
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => [DeviceType], { description: 'Puts devices in the area (moving them out of any other area); returns all its devices.' })
  addAreaDevices(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: "The area's id; one of another workspace, or none, answers `not_found`." }) areaId: number,
    @Arg('items', () => [DeviceRefInput], { description: 'The terminals to add, each by id; ones already there are kept.' }) items: DeviceRefInput[],
  ) {
    return areas.changeAreaDevices(ctx, areaId, 'add', items);
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => [DeviceType], { description: 'Takes devices out of the area (others are ignored); returns all its devices.' })
  removeAreaDevices(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: "The area's id; one of another workspace, or none, answers `not_found`." }) areaId: number,
    @Arg('items', () => [DeviceRefInput], { description: 'The terminals to remove, each by id; ones not there are ignored.' }) items: DeviceRefInput[],
  ) {
    return areas.changeAreaDevices(ctx, areaId, 'remove', items);
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => [DeviceType], { description: "Makes the area's devices exactly `items`; returns them." })
  syncAreaDevices(
    @Ctx() ctx: RequestContext,
    @Arg('areaId', () => Int, { description: "The area's id; one of another workspace, or none, answers `not_found`." }) areaId: number,
    @Arg('items', () => [DeviceRefInput], { description: 'The complete new list of terminals, each by id: those not in it are removed, the others added.' })
    items: DeviceRefInput[],
  ) {
    return areas.changeAreaDevices(ctx, areaId, 'sync', items);
  }
}
