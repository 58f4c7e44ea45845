import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterCommit } from '../../db/after-commit';
import { COMMAND_CHANNEL, COMMAND_SENDER } from '../../events/outbox';

/**
 * In-process notice that devices have queued commands again (enqueued, or put back for a retry),
 * carrying their device ids. The /iclock adapter keeps a "has pending commands" flag per device so
 * that a poll of a device with nothing queued costs no query. Other processes learn it from a NOTIFY
 * on COMMAND_CHANNEL (EventFeed.onCommandsQueued, wired in app.ts), and at the latest when their
 * device cache entry is reloaded (TIMEGATE_DEVICE_CACHE_TTL_MS) if that wake-up was lost.
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
  afterCommit(em, () => {
    commandQueueChanges.emit('queued', ids);
    // The other processes: one NOTIFY per chunk of ids (a payload stays far below PostgreSQL's 8,000 bytes).
    // Sent after the commit, so no process reads the queue before the commands are in it; a lost one
    // costs only the wait for the next cache refresh.
    const connection = em.getConnection();
    for (let at = 0; at < ids.length; at += NOTIFY_CHUNK)
      connection.execute('select pg_notify(?, ?)', [COMMAND_CHANNEL, `${COMMAND_SENDER}|${ids.slice(at, at + NOTIFY_CHUNK).join(',')}`]).catch(() => undefined);
  });
}

/** Device ids per NOTIFY payload: 500 ids of up to 10 digits and their commas stay under 5,500 bytes. */
const NOTIFY_CHUNK = 500;
