import { Args, Authorized, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { DoorEvent } from '../entities';
import type { RequestContext } from '../context/request-context';
import { doorEventReason, queryDoorEvents } from '../services/access/door-event-query.service';
import { pageRequest, toConnection } from '../schema/connection';
import { DoorDenialReason, DoorEventConnection, DoorEventsArgs, DoorEventType } from '../schema/door-event.type';

@Resolver(() => DoorEventType)
export class DoorEventResolver {
  @Authorized('read')
  @Query(() => DoorEventConnection, { description: 'Door events across the devices of the workspace, newest first; the filters combine.' })
  async doorEvents(@Ctx() ctx: RequestContext, @Args() { first, after, ...filter }: DoorEventsArgs) {
    return toConnection(await queryDoorEvents(ctx, filter, pageRequest({ first, after })));
  }

  @FieldResolver(() => DoorDenialReason, { nullable: true })
  reason(@Root() event: DoorEvent): string | null {
    return doorEventReason(event);
  }
}
