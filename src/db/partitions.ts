// Monthly partitions of the history tables (PostgreSQL declarative range partitioning).
//
// `punch`, `event`, `audit_event`, `webhook_attempt` and `device_command_archive` are partitioned by
// month of one timestamp column (UTC months),
// each with a default partition that catches what no month holds (a terminal whose clock says 1999
// or 2040). The service creates the coming months ahead so that rows almost never land in the
// default partition; when some did, creating their month moves them out of it first (PostgreSQL
// refuses to create a partition whose rows sit in the default one). Event partitions whose whole
// month is past the retention are dropped, with their webhook deliveries: dropping a partition is
// instant and leaves no dead rows behind, where deleting row by row left the table to vacuum.
//
// Every step runs under a transaction-scoped advisory lock, so several processes running the same
// maintenance never race, and with a short lock timeout, so a busy table delays the maintenance to
// its next run instead of stalling ingestion behind a waiting ACCESS EXCLUSIVE lock.
import { LOCK_KEYS } from '../kernel/lock-keys';
import type { EntityManager } from '@mikro-orm/postgresql';

export interface PartitionedTable {
  table: 'punch' | 'event' | 'audit_event' | 'webhook_attempt' | 'device_command_archive';
  column: string;
}

export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  { table: 'punch', column: 'punch_time' },
  { table: 'event', column: 'created_at' },
  { table: 'audit_event', column: 'created_at' },
  { table: 'webhook_attempt', column: 'attempted_at' },
  { table: 'device_command_archive', column: 'completed_at' },
];

/** Months created ahead of the current one. */
export const MONTHS_AHEAD = 3;

/** Arbitrary key of the advisory lock that serialises partition changes across processes. */
const PARTITION_LOCK_KEY = LOCK_KEYS.partitions;

const NAME = /^(.+)_y(\d{4})m(\d{2})$/;

/** First instant (UTC) of the month holding `at`, shifted by `months`. */
export function monthStart(at: Date, months = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

/** `punch_y2026m11` for November 2026. */
export function partitionName(table: string, month: Date): string {
  return `${table}_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month a partition name stands for, or null for the default partition and other tables. */
export function partitionMonth(table: string, name: string): Date | null {
  const match = NAME.exec(name);
  if (!match || match[1] !== table) return null;
  return new Date(Date.UTC(Number(match[2]), Number(match[3]) - 1, 1));
}

/** Names of the partitions of `table` (the default one included). */
export async function listPartitions(em: EntityManager, table: string): Promise<string[]> {
  const rows = await em.execute<{ name: string }[]>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ?::regclass order by c.relname`,
    [table],
  );
  return rows.map((row) => row.name);
}

/**
 * Creates the partitions of every history table from last month to MONTHS_AHEAD months after
 * `now`, moving rows of those months out of the default partition. Returns the names created.
 */
export async function ensurePartitions(em: EntityManager, now: Date): Promise<string[]> {
  const created: string[] = [];
  for (const { table, column } of PARTITIONED_TABLES) {
    const existing = new Set(await listPartitions(em, table));
    for (let k = -1; k <= MONTHS_AHEAD; k++) {
      const month = monthStart(now, k);
      const name = partitionName(table, month);
      if (existing.has(name)) continue;
      if (await createMonthPartition(em, table, column, month)) created.push(name);
    }
  }
  return created;
}

/** Creates one month's partition; false when another process made it first. */
async function createMonthPartition(em: EntityManager, table: string, column: string, month: Date): Promise<boolean> {
  const name = partitionName(table, month);
  const from = month.toISOString();
  const to = monthStart(month, 1).toISOString();
  return em.transactional(async (tx) => {
    await tx.execute(`set local lock_timeout = '5s'`);
    await tx.execute('select pg_advisory_xact_lock(?)', [PARTITION_LOCK_KEY]);
    const [found] = await tx.execute<{ found: boolean }[]>('select to_regclass(?) is not null as found', [name]);
    if (found.found) return false;
    // No row may reach the default partition between the move below and the attach (the attach
    // would find it and fail): writes to the default partition wait for this transaction, reads go
    // on. An insert that waited re-checks the default partition's new bounds and is refused if its
    // row now belongs to the new month; a terminal re-sends it. Taken before anything is written, so
    // that a maintenance waiting for a busy table holds no transaction id: the event feed delivers
    // only below the oldest running one (event-feed.ts), in every database of the server.
    await tx.execute(`lock table "${table}_default" in exclusive mode`);
    // A standalone table first, filled with the month's rows from the default partition, then
    // attached: attaching checks that the default partition no longer holds any of them.
    await tx.execute(`create table "${name}" (like "${table}" including defaults including constraints)`);
    await tx.execute(
      `with moved as (delete from "${table}_default" where "${column}" >= ? and "${column}" < ? returning *) insert into "${name}" select * from moved`,
      [from, to],
    );
    await tx.execute(`alter table "${table}" attach partition "${name}" for values from ('${from}') to ('${to}')`);
    return true;
  });
}

/**
 * Drops the partitions of `table` whose whole month ended before `cutoff`, each in its own
 * transaction under the partition lock; `beforeDrop` runs in that transaction first (the rows that
 * go with the partition's rows). Returns how many rows went (`countSql` over them: the events of event rows).
 */
async function dropMonthsBefore(
  em: EntityManager,
  table: PartitionedTable['table'],
  cutoff: Date,
  beforeDrop?: (tx: EntityManager, name: string) => Promise<void>,
  countSql = 'count(*)',
): Promise<number> {
  let dropped = 0;
  for (const name of await listPartitions(em, table)) {
    const month = partitionMonth(table, name);
    if (!month || monthStart(month, 1) > cutoff) continue;
    dropped += await em.transactional(async (tx) => {
      await tx.execute(`set local lock_timeout = '5s'`);
      await tx.execute('select pg_advisory_xact_lock(?)', [PARTITION_LOCK_KEY]);
      const [found] = await tx.execute<{ found: boolean }[]>('select to_regclass(?) is not null as found', [name]);
      if (!found.found) return 0;
      await beforeDrop?.(tx, name);
      const [count] = await tx.execute<{ n: number }[]>(`select coalesce(${countSql}, 0)::int as n from "${name}"`);
      await tx.execute(`drop table "${name}"`);
      return count.n;
    });
  }
  return dropped;
}

/**
 * Drops the event partitions whose whole month ended before `cutoff`, and the default partition's
 * events older than it, with their webhook deliveries (and, by cascade, their attempts). Returns
 * how many events went.
 */
export async function dropExpiredEvents(em: EntityManager, cutoff: Date): Promise<number> {
  // A row may hold several events (src/events/event-batch.ts): the ids of its span.
  const eventIds = (table: string, where = 'true') => `(select e.id + k.n as id from "${table}" e, generate_series(0, e.span - 1) k(n) where ${where})`;
  const dropped = await dropMonthsBefore(
    em,
    'event',
    cutoff,
    (tx, name) => tx.execute(`delete from webhook_delivery d using ${eventIds(name)} e where d.event_id = e.id`).then(() => undefined),
    'sum(span)',
  );
  const stray = await em.transactional(async (tx) => {
    await tx.execute(`delete from webhook_delivery d using ${eventIds('event_default', 'e.created_at < ?')} e where d.event_id = e.id`, [cutoff]);
    return tx.execute<{ span: number }[]>('delete from event_default where created_at < ? returning span', [cutoff]);
  });
  return dropped + stray.reduce((sum, row) => sum + row.span, 0);
}

/**
 * Drops the webhook attempt partitions whose whole month ended before `cutoff`, and the default
 * partition's attempts older than it. An attempt is never older than its event, so this only takes
 * attempts of events that are past the retention themselves. Returns how many attempts went.
 */
export async function dropExpiredAttempts(em: EntityManager, cutoff: Date): Promise<number> {
  const dropped = await dropMonthsBefore(em, 'webhook_attempt', cutoff);
  const stray = await em.execute<{ id: string }[]>('delete from webhook_attempt_default where attempted_at < ? returning id', [cutoff]);
  return dropped + stray.length;
}

/**
 * Drops the archived device commands of months wholly past `cutoff`, and the default partition's
 * older than it. Returns how many commands went.
 */
export async function dropExpiredCommandLog(em: EntityManager, cutoff: Date): Promise<number> {
  const dropped = await dropMonthsBefore(em, 'device_command_archive', cutoff);
  const stray = await em.execute<{ id: number }[]>('delete from device_command_archive_default where completed_at < ? returning id', [cutoff]);
  return dropped + stray.length;
}
