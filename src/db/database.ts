import { LOCK_KEYS } from '../kernel/lock-keys';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres';
import { DATABASE_POOL_SIZE, ormOptions } from './orm-config';
import { ReadReplica } from './read-replica';
import { ReadinessProbe } from './readiness-probe';

export interface Database {
  orm: MikroORM;
  url: string;
  /** The read replica of DATABASE_REPLICA_URL, or null without one (read-replica.ts). */
  replica: ReadReplica | null;
  /** The database's state for /readyz, over a connection of its own (readiness-probe.ts). */
  readiness: ReadinessProbe;
  close(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL, then applies the committed migrations.
 * `close()` closes the pool and stops the embedded server if this process started it.
 */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, logger });
    url = embedded.serverUrl('timegate');
    logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL started');
  }
  try {
    const orm = await MikroORM.init(ormOptions(url));
    await migrateExclusively(orm, url);
    const applied = (await orm.migrator.getExecutedMigrations()).map((m) => m.name);
    const readiness = new ReadinessProbe(url, applied, READY_PROBE_MS);
    const replica = config.databaseReplicaUrl ? await ReadReplica.open(config.databaseReplicaUrl, config.replicaMaxLagMs, logger) : null;
    return {
      orm,
      url,
      replica,
      readiness,
      close: async () => {
        await readiness.close();
        await replica?.close();
        await orm.close(true);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}

/** How long /readyz waits for the database's answer: a connection attempt to a dead primary can hang for seconds. */
const READY_PROBE_MS = 1500;

/** Arbitrary key of the advisory lock held while migrating. */
const MIGRATION_LOCK_KEY = LOCK_KEYS.migrations;

/**
 * Applies the pending migrations while holding a session advisory lock: processes started together
 * on one database (an upgrade rolled out to every process at once) migrate one at a time, and the
 * ones that wait find nothing left to do.
 */
async function migrateExclusively(orm: MikroORM, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await orm.migrator.up();
  } finally {
    // Ending the session releases the lock, also when a migration failed.
    await client.end();
  }
}

/** The part of knex's connection pool (tarn) the pool gauges read. */
interface TarnPool {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** This process's connection pool now: connections used and idle, requests waiting for one, its size. */
export function poolUsage(orm: MikroORM): { used: number; idle: number; waiting: number; max: number } {
  const pool = (orm.em.getKnex().client as { pool?: TarnPool }).pool;
  if (!pool) return { used: 0, idle: 0, waiting: 0, max: DATABASE_POOL_SIZE };
  return { used: pool.numUsed(), idle: pool.numFree(), waiting: pool.numPendingAcquires(), max: pool.max };
}
