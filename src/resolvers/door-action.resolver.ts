import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as doorActions from '../services/access/door-action.service';
import { DoorActionType, UnlockDoorInput } from '../schema/door-action.type';
import { Bounded } from '../schema/bounds';

@Resolver(() => DoorActionType)
export class DoorActionResolver {
  @FieldResolver(() => ID, { description: 'The action id again, as the id a normalising client caches by.' })
  id(@Root() action: { actionId: string }): string {
    return action.actionId;
  }

  @Authorized('doors:unlock')
  @Mutation(() => DoorActionType, { description: 'Queues a remote door opening and returns at once; follow it with doorAction(actionId).' })
  unlockDoor(@Ctx() ctx: RequestContext, @Arg('input') input: UnlockDoorInput) {
    return doorActions.unlockDoor(ctx, input);
  }

  @Authorized('read', 'doors:unlock')
  @Query(() => DoorActionType)
  doorAction(@Ctx() ctx: RequestContext, @Arg('actionId') @Bounded('identifier') actionId: string) {
    return doorActions.getDoorAction(ctx, actionId);
  }
}
