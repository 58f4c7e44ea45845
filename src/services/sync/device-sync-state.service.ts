// How far each terminal is from what it should hold: its people by sync status. Read for every
// device of a list at once (one grouped query per request, through DataLoader), not per device.
import DataLoader from 'dataloader';
import { workspaceOf, type RequestContext } from '../../context/request-context';

export interface DeviceSyncState {
  synced: number;
  pending: number;
  failed: number;
}

/** The sync state of a device of the caller's workspace, batched with the other devices of the same request. */
export function deviceSyncState(ctx: RequestContext, deviceId: number): Promise<DeviceSyncState> {
  const loaders = (ctx.loaders ??= new Map());
  let loader = loaders.get('deviceSyncState') as DataLoader<number, DeviceSyncState> | undefined;
  if (!loader) {
    loader = new DataLoader<number, DeviceSyncState>(async (ids) => {
      const rows = await ctx.em.execute<{ device_id: number; synced: number; pending: number; failed: number }[]>(
        `select device_id,
           count(*) filter (where sync_status = 'synced')::int as synced,
           count(*) filter (where sync_status = 'pending')::int as pending,
           count(*) filter (where sync_status = 'failed')::int as failed
         from device_user where workspace_id = ? and present and device_id = any(?::int[]) group by device_id`,
        [workspaceOf(ctx), `{${ids.join(',')}}`],
      );
      const byDevice = new Map(rows.map((r) => [r.device_id, { synced: r.synced, pending: r.pending, failed: r.failed }]));
      return ids.map((id) => byDevice.get(id) ?? { synced: 0, pending: 0, failed: 0 });
    });
    loaders.set('deviceSyncState', loader);
  }
  return loader.load(deviceId);
}
