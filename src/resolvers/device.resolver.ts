import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Device } from '../entities';
import { deviceCapabilities } from '../services/door.service';
import { deviceSyncState, type DeviceSyncState } from '../services/device-sync-state.service';
import type { RequestContext } from '../services/context';
import * as devices from '../services/device.service';
import { pageRequest, toConnection } from '../schema/connection';
import { CreateDeviceInput, DeviceCapabilitiesType, DeviceConnection, DevicesArgs, DeviceSyncStateType, DeviceType, UpdateDeviceInput } from '../schema/device.type';

@Resolver(() => DeviceType)
export class DeviceResolver {
  @Authorized('read')
  @Query(() => DeviceType)
  device(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return devices.getDevice(ctx, id);
  }

  @Authorized('read')
  @Query(() => DeviceConnection)
  async devices(@Ctx() ctx: RequestContext, @Args() { companyId, ...page }: DevicesArgs) {
    return toConnection(await devices.listDevices(ctx, { companyId: companyId ?? undefined }, pageRequest(page)));
  }

  @Authorized('write')
  @Mutation(() => DeviceType)
  createDevice(@Ctx() ctx: RequestContext, @Arg('input') input: CreateDeviceInput) {
    return devices.createDevice(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => DeviceType)
  updateDevice(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number, @Arg('input') input: UpdateDeviceInput) {
    return devices.updateDevice(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => DeviceType)
  deleteDevice(@Ctx() ctx: RequestContext, @Arg('id', () => Int) id: number) {
    return devices.deleteDevice(ctx, id);
  }

  @Authorized('read')
  @FieldResolver(() => DeviceSyncStateType, { description: "The terminal's people by sync status (one query for every device of a list)." })
  syncState(@Ctx() ctx: RequestContext, @Root() device: Device): Promise<DeviceSyncState> {
    return deviceSyncState(ctx, device.id);
  }

  @FieldResolver(() => DeviceCapabilitiesType)
  capabilities(@Root() device: Device): DeviceCapabilitiesType {
    return deviceCapabilities(device);
  }
}
