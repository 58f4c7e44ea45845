import { Arg, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Door } from '../entities';
import type { RequestContext } from '../context/request-context';
import * as rules from '../services/access/controller-rules.service';
import * as opening from '../services/access/door-opening-rules.service';
import { DoorType } from '../schema/door.type';
import { DeviceDoorRulesInput, DeviceDoorRulesType, DoorRulesType } from '../schema/door-rules.type';
import { DoorOpeningRulesInput, DoorOpeningRulesType } from '../schema/door-opening-rules.type';

@Resolver(() => DoorType)
export class DoorRulesResolver {
  @Authorized('read')
  @Query(() => DeviceDoorRulesType, { description: "A controller's door rules (anti-passback, interlock)." })
  deviceDoorRules(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
  ) {
    return rules.getControllerRules(ctx, deviceId);
  }

  @Authorized('doors:manage')
  @Mutation(() => DeviceDoorRulesType, {
    description: "Sets a controller's door rules and queues them to it (SET OPTIONS AntiPassback, InterLock); a rule it cannot enforce is refused.",
  })
  updateDeviceDoorRules(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: DeviceDoorRulesInput,
  ) {
    return rules.setControllerRules(ctx, deviceId, input);
  }

  @Authorized('read')
  @Query(() => DoorOpeningRulesType, { description: "A door's opening rules (first-person-in)." })
  doorOpeningRules(
    @Ctx() ctx: RequestContext,
    @Arg('doorId', () => Int, { description: "The door's id; one of another workspace, or none, answers `not_found`." }) doorId: number,
  ) {
    return opening.getDoorOpeningRules(ctx, doorId);
  }

  @Authorized('doors:manage')
  @Mutation(() => DoorOpeningRulesType, {
    description:
      "Sets a door's opening rules and queues them to its controller (firstcard rows, SET OPTIONS Door{N}FirstCardOpenDoor); a rule it cannot enforce is refused.",
  })
  updateDoorOpeningRules(
    @Ctx() ctx: RequestContext,
    @Arg('doorId', () => Int, { description: "The door's id; one of another workspace, or none, answers `not_found`." }) doorId: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: DoorOpeningRulesInput,
  ) {
    return opening.setDoorOpeningRules(ctx, doorId, input);
  }

  @FieldResolver(() => DoorRulesType, { description: "The rules as they concern this door: its controller's, and its own opening rules." })
  async rules(@Ctx() ctx: RequestContext, @Root() door: Door): Promise<DoorRulesType> {
    return { ...(await rules.doorRulesOf(ctx, door)), ...(await opening.openingRulesOf(ctx, door)) };
  }
}
