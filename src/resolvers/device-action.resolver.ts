import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context/request-context';
import * as actions from '../services/fleet/device-action.service';
import { ConnectionArgs, pageRequest, toConnection } from '../schema/connection';
import { CreateDeviceActionInput, DeviceActionConnection, DeviceActionType } from '../schema/device-action.type';
import { Bounded, maxChars } from '../schema/bounds';

@Resolver(() => DeviceActionType)
export class DeviceActionResolver {
  @FieldResolver(() => ID, { description: 'The action id again, as the id a normalising client caches by.' })
  id(@Root() action: { actionId: string }): string {
    return action.actionId;
  }

  @Authorized('write')
  @Mutation(() => DeviceActionType, {
    description: 'Queues an operation on a terminal and returns at once; follow it with deviceAction or the deviceActionUpdated subscription.',
  })
  createDeviceAction(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateDeviceActionInput,
  ) {
    return actions.createDeviceAction(ctx, deviceId, { type: input.type, options: { ...input.options } });
  }

  @Authorized('read')
  @Query(() => DeviceActionType, { description: 'A device action of a terminal, by its id; one of another terminal or workspace answers `not_found`.' })
  deviceAction(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
    @Arg('actionId', { description: `The action's id (\`da_...\`) as createDeviceAction returned it, ${maxChars('identifier')}.` })
    @Bounded('identifier')
    actionId: string,
  ) {
    return actions.getDeviceAction(ctx, deviceId, actionId);
  }

  @Authorized('read')
  @Query(() => DeviceActionConnection, { description: "A device's actions, newest first." })
  async deviceActions(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
    @Args() args: ConnectionArgs,
  ) {
    return toConnection(await actions.listDeviceActions(ctx, deviceId, pageRequest(args)));
  }
}
