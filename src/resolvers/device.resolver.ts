import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Device } from '../entities';
import { deviceCapabilities } from '../services/access/door.service';
import { deviceSyncState, type DeviceSyncState } from '../services/sync/device-sync-state.service';
import type { RequestContext } from '../context/request-context';
import * as devices from '../services/terminals/device.service';
import * as pairing from '../services/terminals/terminal-pairing.service';
import { pageRequest, toConnection } from '../schema/connection';
import {
  CreateDeviceInput,
  DeviceCapabilitiesType,
  DevicePairing,
  DeviceConnection,
  DevicesArgs,
  DeviceSyncStateType,
  DeviceType,
  UpdateDeviceInput,
} from '../schema/device.type';

@Resolver(() => DeviceType)
export class DeviceResolver {
  @Authorized('read')
  @Query(() => DeviceType, { description: 'A terminal by id; one of another workspace, or none, answers `not_found`.' })
  device(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The device's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return devices.getDevice(ctx, id);
  }

  @Authorized('read')
  @Query(() => DeviceConnection, { description: "The workspace's terminals, a page at a time (`first`, `after`)." })
  async devices(@Ctx() ctx: RequestContext, @Args() { companyId, ...page }: DevicesArgs) {
    return toConnection(await devices.listDevices(ctx, { companyId: companyId ?? undefined }, pageRequest(page)));
  }

  @Authorized('write')
  @Mutation(() => DeviceType, {
    description:
      'Creates a device and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing is stored.',
  })
  createDevice(
    @Ctx() ctx: RequestContext,
    @Arg('input', { description: "The new one's fields; each says what it means and what refuses it." }) input: CreateDeviceInput,
  ) {
    return devices.createDevice(ctx, input);
  }

  @Authorized('write')
  @Mutation(() => DeviceType, {
    description:
      'Changes a device and returns it as stored; a bad field is refused with `validation_failed` (the field named in `details`) and nothing changes.',
  })
  updateDevice(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The device's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
    @Arg('input', { description: 'The values to change; a field left out keeps its value.' }) input: UpdateDeviceInput,
  ) {
    return devices.updateDevice(ctx, id, input);
  }

  @Authorized('write')
  @Mutation(() => DeviceType, { description: 'Deletes a terminal and returns it as it was last stored; its punches stay, with its serial number.' })
  deleteDevice(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => Int, { description: "The device's id; an id that is not one of this workspace's answers `not_found`." }) id: number,
  ) {
    return devices.deleteDevice(ctx, id);
  }

  @Authorized('admin')
  @Mutation(() => DeviceType, {
    description:
      "Forgets the access-control terminal's RegistryCode and SessionID: its next registration is accepted and gets new ones (a replaced or factory-reset controller). Until then a paired serial cannot register again.",
  })
  resetTerminalPairing(
    @Ctx() ctx: RequestContext,
    @Arg('deviceId', () => Int, { description: "The terminal (device)'s id; one of another workspace, or none, answers `not_found`." }) deviceId: number,
  ) {
    return pairing.resetTerminalPairing(ctx, deviceId);
  }

  @FieldResolver(() => DevicePairing, { description: 'Whether the terminal is paired: `unpaired`, `registered` (a RegistryCode was issued) or `paired`.' })
  pairing(@Root() device: Device): DevicePairing {
    if (device.pairedAt) return DevicePairing.paired;
    return device.registryCode ? DevicePairing.registered : DevicePairing.unpaired;
  }

  @FieldResolver(() => Boolean, { description: 'Whether a pushCommKey is set (its value is never shown).' })
  pushCommKeySet(@Root() device: Device): boolean {
    return Boolean(device.pushCommKey);
  }

  @Authorized('read')
  @FieldResolver(() => DeviceSyncStateType, { description: "The terminal's people by sync status (one query for every device of a list)." })
  syncState(@Ctx() ctx: RequestContext, @Root() device: Device): Promise<DeviceSyncState> {
    return deviceSyncState(ctx, device.id);
  }

  @FieldResolver(() => DeviceCapabilitiesType, { description: 'What the terminal reported it can do: its limits of users, templates, records and photos.' })
  capabilities(@Root() device: Device): DeviceCapabilitiesType {
    return deviceCapabilities(device);
  }
}
