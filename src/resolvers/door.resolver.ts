import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Door } from '../entities';
import type { RequestContext } from '../context/request-context';
import * as doors from '../services/access/door.service';
import { DoorActionType } from '../schema/door-action.type';
import { pageRequest, toConnection } from '../schema/connection';
import { DoorActionInput, DoorConnection, DoorsArgs, DoorStateType, DoorType, UpdateDoorInput } from '../schema/door.type';

@Resolver(() => DoorType)
export class DoorResolver {
  @Authorized('read')
  @Query(() => DoorType, { description: 'The door with this id; one of another workspace, or none, answers `not_found`.' })
  door(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The door's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return doors.getDoor(ctx, id);
  }

  @Authorized('read')
  @Query(() => [DoorType], { description: "A device's doors, by number." })
  deviceDoors(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
  ) {
    return doors.listDeviceDoors(ctx, deviceId);
  }

  @Authorized('read')
  @Query(() => DoorConnection, {
    description: "The workspace's doors, by device then number: a board of every door, or (alarmed: true) the alarms open now, in one request.",
  })
  async doors(@Ctx() ctx: RequestContext, @Args() { deviceId, alarmed, ...page }: DoorsArgs) {
    return toConnection(await doors.listDoors(ctx, { deviceId: deviceId ?? undefined, alarmed: alarmed ?? undefined }, pageRequest(page)));
  }

  @Authorized('write', 'doors:manage')
  @Mutation(() => DoorType, {
    description: 'Changes a door and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateDoor(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The door's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateDoorInput,
  ) {
    return doors.updateDoor(ctx, id, input);
  }

  @Authorized('doors:unlock')
  @Mutation(() => DoorActionType, {
    description: 'Queues a door command (unlock, hold open, close, cancel alarm) and returns at once; follow it with doorAction(actionId).',
  })
  performDoorAction(
    @Ctx() ctx: RequestContext,
    @Arg('doorId', () => Int, { description: "The door's id; one of another workspace, or none, answers `not_found`." }) doorId: number,
    @Arg('input', { description: 'What to do: the action, and for `unlock` how long.' }) input: DoorActionInput,
  ) {
    return doors.performDoorAction(ctx, doorId, input);
  }

  @FieldResolver(() => DoorStateType, { description: 'What the terminal last reported about the door: sensor, relay and active alarms.' })
  state(@Root() door: Door): DoorStateType {
    return { sensor: door.sensor, relay: door.relay, alarms: door.alarms };
  }
}
