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
  @Query(() => DoorType)
  door(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return doors.getDoor(ctx, id);
  }

  @Authorized('read')
  @Query(() => [DoorType], { description: "A device's doors, by number." })
  deviceDoors(@Ctx() ctx: RequestContext, @Arg('deviceId', () => Int) deviceId: number) {
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
  @Mutation(() => DoorType)
  updateDoor(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateDoorInput) {
    return doors.updateDoor(ctx, id, input);
  }

  @Authorized('doors:unlock')
  @Mutation(() => DoorActionType, {
    description: 'Queues a door command (unlock, hold open, close, cancel alarm) and returns at once; follow it with doorAction(actionId).',
  })
  performDoorAction(@Ctx() ctx: RequestContext, @Arg('doorId', () => Int) doorId: number, @Arg('input') input: DoorActionInput) {
    return doors.performDoorAction(ctx, doorId, input);
  }

  @FieldResolver(() => DoorStateType)
  state(@Root() door: Door): DoorStateType {
    return { sensor: door.sensor, relay: door.relay, alarms: door.alarms };
  }
}
