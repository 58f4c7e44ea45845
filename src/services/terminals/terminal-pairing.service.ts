// Pairing of an access-control terminal: the RegistryCode and SessionID Timegate issued it, which
// only the registered terminal knows (its token cookie proves them). Once issued, the serial cannot
// register again by itself; an admin resets the pairing (a replaced or factory-reset controller),
// after which the next registration is accepted and gets new codes (docs/security.md, terminals).
import { Device } from '../../entities';
import { workspaceOf, withEm, type RequestContext } from '../../context/request-context';
import { notifyDeviceChanged } from './device-changes';
import { getDevice } from './device.service';

/** Forgets the device's RegistryCode, SessionID and pairing: its next registration is accepted. */
export async function resetTerminalPairing(ctx: RequestContext, deviceId: number): Promise<Device> {
  const device = await ctx.em.transactional(async (em) => {
    const found = await getDevice(withEm(ctx, em), deviceId);
    await em.execute('update device set registry_code = null, session_id = null, paired_at = null, updated_at = ? where id = ? and workspace_id = ?', [
      ctx.now(),
      found.id,
      workspaceOf(ctx),
    ]);
    // Every process drops its cached row; this one at once (the others within their cache TTL).
    notifyDeviceChanged(em, found.serialNumber);
    return found;
  });
  ctx.logger.info({ deviceId, serial: device.serialNumber }, 'terminal pairing reset: the next registration of this serial is accepted');
  return ctx.em.findOneOrFail(Device, { id: deviceId }, { refresh: true, disableIdentityMap: true });
}
