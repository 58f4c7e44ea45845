import { EventEmitter } from 'node:events';

/**
 * In-process notice that devices have queued commands again (enqueued, or put back for a retry),
 * carrying their device ids. The /iclock adapter keeps a "has pending commands" flag per device so
 * that a poll of a device with nothing queued costs no query; other processes learn it when their
 * device cache entry is reloaded (TIMEGATE_DEVICE_CACHE_TTL_MS).
 */
export const commandQueueChanges = new EventEmitter<{ queued: [deviceIds: number[]] }>();

/** The second notice of the same devices, once the change's transaction has had time to commit. */
const AFTER_COMMIT_MS = 250;

/**
 * Most callers notify from inside the transaction that queued the work: a poll woken at once may
 * still read the queue before that commit, find nothing and clear the device's flag, and the work
 * would then wait for the next cache reload. So the notice is given twice: now, for the usual case,
 * and again a moment later, when the transaction has committed. A second notice costs one queue
 * read on the device's next poll at most.
 */
export function notifyCommandsQueued(deviceIds: readonly number[]): void {
  if (deviceIds.length === 0) return;
  const ids = [...new Set(deviceIds)];
  commandQueueChanges.emit('queued', ids);
  setTimeout(() => commandQueueChanges.emit('queued', ids), AFTER_COMMIT_MS).unref();
}
