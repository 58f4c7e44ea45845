import { Args, Authorized, Ctx, FieldResolver, Info, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { DoorEvent } from '../entities';
import type { RequestContext } from '../context/request-context';
import { doorEventReason, queryDoorEvents } from '../services/access/door-event-query.service';
import { pageRequest, selectsField, toConnection } from '../schema/connection';
import { DoorDenialReason, DoorEventConnection, DoorEventsArgs, DoorEventType } from '../schema/door-event.type';

@Resolver(() => DoorEventType)
export class DoorEventResolver {
  @Authorized('read')
  @Query(() => DoorEventConnection, { description: 'Door events across the devices of the workspace, newest first; the filters combine.' })
  async doorEvents(@Ctx() ctx: RequestContext, @Args() { first, after, ...filter }: DoorEventsArgs, @Info() info: GraphQLResolveInfo) {
    // The door board reads the newest events every 10 s without their count: none is made then.
    return toConnection(await queryDoorEvents(ctx, filter, pageRequest({ first, after }), { count: selectsField(info, 'totalCount') }));
  }

  @FieldResolver(() => DoorDenialReason, { nullable: true, description: 'Why the controller refused the person, for a `denied` event; null otherwise.' })
  reason(@Root() event: DoorEvent): string | null {
    return doorEventReason(event);
  }
}
