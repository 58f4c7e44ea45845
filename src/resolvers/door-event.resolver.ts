import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../services/common/context';
import { listDoorEvents } from '../services/access/door-event.service';
import { pageRequest, toConnection } from '../schema/connection';
import { DoorEventConnection, DoorEventsArgs, DoorEventType } from '../schema/door-event.type';

@Resolver(() => DoorEventType)
export class DoorEventResolver {
  @Authorized('read')
  @Query(() => DoorEventConnection, { description: "A device's door events, newest first." })
  async doorEvents(@Ctx() ctx: RequestContext, @Args() { deviceId, ...page }: DoorEventsArgs) {
    return toConnection(await listDoorEvents(ctx, deviceId, pageRequest(page)));
  }
}
