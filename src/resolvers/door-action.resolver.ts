import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../services/context';
import * as doorActions from '../services/door-action.service';
import { DoorActionType, UnlockDoorInput } from '../schema/door-action.type';

@Resolver(() => DoorActionType)
export class DoorActionResolver {
  @Authorized('doors:unlock')
  @Mutation(() => DoorActionType, { description: 'Queues a remote door opening and returns at once; follow it with doorAction(actionId).' })
  unlockDoor(@Ctx() ctx: RequestContext, @Arg('input') input: UnlockDoorInput) {
    return doorActions.unlockDoor(ctx, input);
  }

  @Authorized('read', 'doors:unlock')
  @Query(() => DoorActionType)
  doorAction(@Ctx() ctx: RequestContext, @Arg('actionId') actionId: string) {
    return doorActions.getDoorAction(ctx, actionId);
  }
}
