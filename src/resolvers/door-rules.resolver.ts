import { Arg, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Door } from '../entities';
import type { RequestContext } from '../services/common/context';
import * as rules from '../services/access/controller-rules.service';
import { DoorType } from '../schema/door.type';
import { DeviceDoorRulesInput, DeviceDoorRulesType, DoorRulesType } from '../schema/door-rules.type';

@Resolver(() => DoorType)
export class DoorRulesResolver {
  @Authorized('read')
  @Query(() => DeviceDoorRulesType, { description: "A controller's door rules (anti-passback, interlock)." })
  deviceDoorRules(@Ctx() ctx: RequestContext, @Arg('deviceId', () => Int) deviceId: number) {
    return rules.getControllerRules(ctx, deviceId);
  }

  @Authorized('doors:manage')
  @Mutation(() => DeviceDoorRulesType, {
    description: "Sets a controller's door rules and queues them to it (SET OPTIONS AntiPassback, InterLock); a rule it cannot enforce is refused.",
  })
  updateDeviceDoorRules(@Ctx() ctx: RequestContext, @Arg('deviceId', () => Int) deviceId: number, @Arg('input') input: DeviceDoorRulesInput) {
    return rules.setControllerRules(ctx, deviceId, input);
  }

  @FieldResolver(() => DoorRulesType, { description: "The controller's rules as they concern this door." })
  async rules(@Ctx() ctx: RequestContext, @Root() door: Door): Promise<DoorRulesType> {
    return rules.doorRulesOf(ctx, door);
  }
}
