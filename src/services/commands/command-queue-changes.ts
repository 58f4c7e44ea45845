import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterCommit } from '../../db/after-commit';

/**
 * In-process notice that devices have queued commands again (enqueued, or put back for a retry),
 * carrying their device ids. The /iclock adapter keeps a "has pending commands" flag per device so
 * that a poll of a device with nothing queued costs no query; other processes learn it when their
 * device cache entry is reloaded (TIMEGATE_DEVICE_CACHE_TTL_MS).
 */
export const commandQueueChanges = new EventEmitter<{ queued: [deviceIds: number[]] }>();

/**
 * Notices that these devices have work queued by the statements run on `em`, given once that work is
 * committed (afterCommit): a poll woken before the commit would read the queue, find nothing, clear
 * the device's flag, and the work would wait for the next cache reload. Nothing when the
 * transaction rolls back, as nothing was queued.
 */
export function notifyCommandsQueued(em: EntityManager, deviceIds: readonly number[]): void {
  if (deviceIds.length === 0) return;
  const ids = [...new Set(deviceIds)];
  afterCommit(em, () => commandQueueChanges.emit('queued', ids));
}
