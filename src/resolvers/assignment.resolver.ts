import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as assignments from '../services/directory/assignment.service';
import { DeviceRefInput, EmployeeRefInput } from '../schema/area.type';
import { AssignmentConnection, AssignmentType, DevicePermissionInput, EmployeePermissionInput } from '../schema/assignment.type';
import { ConnectionArgs, pageRequest, toConnection } from '../schema/connection';

const RESULT = 'Returns every assignment of the employee (direct and area-derived) after the change.';
const DEVICE_RESULT = 'Returns every assignment of the device (direct and area-derived) after the change.';

@Resolver(() => AssignmentType)
export class AssignmentResolver {
  @FieldResolver(() => ID, { description: '`<employeeId>:<deviceId>`: one assignment per pair.' })
  id(@Root() assignment: { employeeId: number; deviceId: number }): string {
    return `${assignment.employeeId}:${assignment.deviceId}`;
  }

  @Authorized('read')
  @Query(() => AssignmentConnection, { description: 'The devices an employee is on, directly or through areas.' })
  async employeeDevices(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
    @Args() page: ConnectionArgs,
  ) {
    return toConnection(await assignments.listEmployeeDevices(ctx, employeeId, pageRequest(page)));
  }

  @Authorized('read')
  @Query(() => AssignmentConnection, { description: 'The employees on a device, directly or through its area.' })
  async deviceEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
    @Args() page: ConnectionArgs,
  ) {
    return toConnection(await assignments.listDeviceEmployees(ctx, deviceId, pageRequest(page)));
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => [AssignmentType], { description: `Assigns devices to an employee; an assigned device gets the new permission. ${RESULT}` })
  assignDevicesToEmployee(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
    @Arg('items', () => [DevicePermissionInput], {
      description: 'The terminals to enrol the employee on, each by id with the privilege there; one already assigned gets the new privilege.',
    })
    items: DevicePermissionInput[],
  ) {
    return assignments.changeEmployeeDevices(ctx, employeeId, 'add', items);
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => [AssignmentType], { description: `Removes direct assignments (unassigned devices are ignored). ${RESULT}` })
  removeDevicesFromEmployee(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
    @Arg('items', () => [DeviceRefInput], { description: 'The terminals to take the employee off, each by id; an area-derived assignment stays.' })
    items: DeviceRefInput[],
  ) {
    return assignments.changeEmployeeDevices(ctx, employeeId, 'remove', items);
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => [AssignmentType], { description: `Makes the employee's DIRECT assignments exactly \`items\` (area-derived ones stay). ${RESULT}` })
  syncEmployeeDevices(
    @Ctx() ctx: RequestContext,
    @Arg('employeeId', () => Int, { description: "The employee's id; one of another workspace, or none, answers `not_found`." }) employeeId: number,
    @Arg('items', () => [DevicePermissionInput], { description: "The complete new list of the employee's direct terminals, each with the privilege." })
    items: DevicePermissionInput[],
  ) {
    return assignments.changeEmployeeDevices(ctx, employeeId, 'sync', items);
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => [AssignmentType], { description: `Assigns employees to a device; an assigned employee gets the new permission. ${DEVICE_RESULT}` })
  assignEmployeesToDevice(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
    @Arg('items', () => [EmployeePermissionInput], { description: 'The employees to enrol on the terminal, each by id with the privilege there.' })
    items: EmployeePermissionInput[],
  ) {
    return assignments.changeDeviceEmployees(ctx, deviceId, 'add', items);
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => [AssignmentType], { description: `Removes direct assignments (unassigned employees are ignored). ${DEVICE_RESULT}` })
  removeEmployeesFromDevice(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
    @Arg('items', () => [EmployeeRefInput], { description: 'The employees to take off the terminal, each by id; an area-derived assignment stays.' })
    items: EmployeeRefInput[],
  ) {
    return assignments.changeDeviceEmployees(ctx, deviceId, 'remove', items);
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => [AssignmentType], { description: `Makes the device's DIRECT assignments exactly \`items\` (area-derived ones stay). ${DEVICE_RESULT}` })
  syncDeviceEmployees(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
    @Arg('items', () => [EmployeePermissionInput], {
      description: "The complete new list of the terminal's directly assigned employees, each with the privilege.",
    })
    items: EmployeePermissionInput[],
  ) {
    return assignments.changeDeviceEmployees(ctx, deviceId, 'sync', items);
  }
}
