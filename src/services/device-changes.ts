import { EventEmitter } from 'node:events';

/**
 * In-process notice that a device row changed (created, renamed serial, zone/mode edited, deleted),
 * carrying the serial numbers concerned. The /iclock adapter's serial cache listens so a claimed
 * terminal is recognised on its very next request; other processes rely on the cache's short TTL.
 */
export const deviceChanges = new EventEmitter<{ changed: [serialNumbers: string[]] }>();

export function notifyDeviceChanged(...serialNumbers: string[]): void {
  deviceChanges.emit('changed', serialNumbers);
}
