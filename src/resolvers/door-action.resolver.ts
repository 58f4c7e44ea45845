import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as doorActions from '../services/access/door-action.service';
import { DoorActionType, UnlockDoorInput } from '../schema/door-action.type';
import { Bounded, maxChars } from '../schema/bounds';

@Resolver(() => DoorActionType)
export class DoorActionResolver {
  @FieldResolver(() => ID, { description: 'The action id again, as the id a normalising client caches by.' })
  id(@Root() action: { actionId: string }): string {
    return action.actionId;
  }

  @Authorized('doors:unlock')
  @Mutation(() => DoorActionType, { description: 'Queues a remote door opening and returns at once; follow it with doorAction(actionId).' })
  unlockDoor(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: 'The door, by terminal serial number and door number, and how long to release it.' }) input: UnlockDoorInput,
  ) {
    return doorActions.unlockDoor(ctx, input);
  }

  @Authorized('read', 'doors:unlock')
  @Query(() => DoorActionType, { description: 'A door action by id: where it is (queued, sent, succeeded, failed, expired) and why.' })
  doorAction(
    @Ctx() ctx: RequestContext,
    @Arg('actionId', { description: `The action's id, as performDoorAction or unlockDoor returned it: ${maxChars('identifier')}.` })
    @Bounded('identifier')
    actionId: string,
  ) {
    return doorActions.getDoorAction(ctx, actionId);
  }
}
