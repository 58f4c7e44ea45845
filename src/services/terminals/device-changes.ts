import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterCommit } from '../../db/after-commit';

/**
 * In-process notice that a device row changed (created, renamed serial, zone/mode edited, deleted),
 * carrying the serial numbers concerned. The /iclock adapter's serial cache listens so a claimed
 * terminal is recognised on its very next request; other processes rely on the cache's short TTL.
 */
export const deviceChanges = new EventEmitter<{ changed: [serialNumbers: string[]] }>();

/** Given once the change made on `em` is committed (afterCommit): a request that reloaded the row before would see the old one. */
export function notifyDeviceChanged(em: EntityManager, ...serialNumbers: string[]): void {
  afterCommit(em, () => deviceChanges.emit('changed', serialNumbers));
}
