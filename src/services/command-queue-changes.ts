import { EventEmitter } from 'node:events';

/**
 * In-process notice that devices have queued commands again (enqueued, or put back for a retry),
 * carrying their device ids. The /iclock adapter keeps a "has pending commands" flag per device so
 * that a poll of a device with nothing queued costs no query; other processes learn it when their
 * device cache entry is reloaded (TIMEGATE_DEVICE_CACHE_TTL_MS).
 */
export const commandQueueChanges = new EventEmitter<{ queued: [deviceIds: number[]] }>();

export function notifyCommandsQueued(deviceIds: readonly number[]): void {
  if (deviceIds.length > 0) commandQueueChanges.emit('queued', [...new Set(deviceIds)]);
}
