// The read replica (DATABASE_REPLICA_URL): where the heavy reads go while it is fresh enough, and
// the one place that decides it. A read goes to the replica only when the replica has replayed the
// primary's log up to the reading workspace's last write (its `workspace_write_mark`, exact) and
// trails the primary by at most TIMEGATE_REPLICA_MAX_LAG_MS; otherwise, and whenever the replica
// cannot answer, it goes to the primary. docs/deployment.md ("Read replica") and docs/decisions.md
// explain the rule; the services of the heavy reads call `readFromReplica`, nothing else does.
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { DomainError } from '../errors/domain-error';
import { DATABASE_POOL_SIZE, ormOptions } from './orm-config';

/** The reads that may go to the replica (the `kind` label of the read counter). */
export type ReplicaReadKind = 'timesheet' | 'timesheet_summary' | 'payroll_export' | 'punches' | 'door_events';

/**
 * Where a read went and why: `fresh` (the replica: it holds the workspace's last write and is within
 * the bound), or the primary for `own_write` (the replica has not replayed the workspace's last
 * write), `lag` (it trails by more than the bound), `unavailable` (it failed to answer, or failed
 * within the last REPLICA_RETRY_MS), `not_standby` (the server at DATABASE_REPLICA_URL is not
 * replaying a primary's log: never read as a replica).
 */
export type ReadRoute = 'fresh' | 'own_write' | 'lag' | 'unavailable' | 'not_standby';

/** What the metrics learn from the replica (observability's Metrics implements it). */
export interface ReplicaSink {
  read(kind: ReplicaReadKind, route: ReadRoute): void;
}

/** How far the replica trails the primary now; null when it could not be measured (unreachable, not a standby). */
export interface ReplicaLag {
  /** 0 when the replica has replayed everything the primary had written at the measurement. */
  seconds: number;
  /** Write-ahead log bytes the primary has written and the replica has not replayed. */
  bytes: number;
}

/** After the replica fails, reads skip it for this long (no connection attempt per read while it is down). */
export const REPLICA_RETRY_MS = 5000;
/** A connection to the replica that takes longer fails (a replica that does not answer must not hold reads). */
const REPLICA_CONNECT_TIMEOUT_MS = 2000;

/** The replica's position, read on the replica in the transaction that then serves the read. */
interface StandbyPosition {
  standby: boolean;
  /** Bytes since 0/0 of the last replayed record; null outside recovery. */
  replayed: string | null;
  /** Commit time (the primary's clock, ms since the epoch) of the last replayed transaction. */
  replayed_at: number | null;
}

/** The primary's position and the workspace's mark, in one statement on the primary. */
interface PrimaryPosition {
  current: string;
  /** The primary's clock, ms since the epoch. */
  at: number;
  mark: string | null;
}

const STANDBY_POSITION_SQL = `select pg_is_in_recovery() as standby, (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint::text as replayed,
  (extract(epoch from pg_last_xact_replay_timestamp()) * 1000)::float8 as replayed_at`;

/**
 * Milliseconds the replica's data may be behind the primary's at `primary.at`: 0 when it has replayed
 * all the primary had written; otherwise the time since the last transaction it replayed committed
 * (everything it lacks committed after that), measured on the primary's clock; Infinity when it has
 * replayed no transaction since it started.
 */
export function lagMs(primary: { current: string; at: number }, standby: StandbyPosition): number {
  if (standby.replayed === null) return Infinity;
  if (BigInt(standby.replayed) >= BigInt(primary.current)) return 0;
  if (standby.replayed_at === null) return Infinity;
  return Math.max(0, primary.at - standby.replayed_at);
}

/** A failure of the replica itself (not of the read's input): the read goes to the primary. */
function replicaFailure(error: unknown): boolean {
  return !(error instanceof DomainError);
}

export class ReadReplica {
  private downUntil = 0;
  private sink: ReplicaSink = { read: () => undefined };

  private constructor(
    private readonly orm: MikroORM,
    readonly maxLagMs: number,
    private readonly logger: Logger,
  ) {}

  /** A pool of its own on the replica (its connections are made on first use: a replica down at start delays nothing). */
  static async open(url: string, maxLagMs: number, logger: Logger): Promise<ReadReplica> {
    const orm = await MikroORM.init(
      ormOptions(url, {
        connect: false,
        pool: { min: 0, max: DATABASE_POOL_SIZE },
        driverOptions: {
          acquireConnectionTimeout: REPLICA_CONNECT_TIMEOUT_MS + 1000,
          connection: { connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS },
          // knex's own notices (a pooled connection the replica closed) go to the service's log, not the console.
          log: {
            warn: (message: unknown) => logger.warn({ message: String(message) }, 'read replica connection'),
            error: (message: unknown) => logger.error({ message: String(message) }, 'read replica connection'),
            deprecate: () => undefined,
            debug: () => undefined,
          },
        },
      }),
    );
    return new ReadReplica(orm, maxLagMs, logger);
  }

  /** Where the read counter is told each read's route. */
  observe(sink: ReplicaSink): void {
    this.sink = sink;
  }

  async close(): Promise<void> {
    await this.orm.close(true);
  }

  /**
   * Runs `read` on the replica when it is fresh enough for `workspaceId` (see the file's head),
   * otherwise on `primary`. `read` only reads: on the replica it runs in a read-only transaction,
   * on the connection that checked the replica's position. A DomainError of `read` (bad input) is
   * the answer; any other failure on the replica sends the read to the primary.
   */
  async read<T>(primary: EntityManager, workspaceId: number, kind: ReplicaReadKind, read: (em: EntityManager) => Promise<T>): Promise<T> {
    const onPrimary = (route: ReadRoute) => {
      this.sink.read(kind, route);
      return read(primary);
    };
    if (Date.now() < this.downUntil) return onPrimary('unavailable');
    const [position] = await primary.execute<PrimaryPosition[]>(
      `select (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint::text as current, (extract(epoch from clock_timestamp()) * 1000)::float8 as at,
         (select lsn::text from workspace_write_mark where workspace_id = ?) as mark`,
      [workspaceId],
    );
    let route: ReadRoute = 'fresh';
    let value: T | undefined;
    try {
      await this.orm.em.fork().transactional(async (tx) => {
        await tx.execute('set transaction read only');
        const [standby] = await tx.execute<StandbyPosition[]>(STANDBY_POSITION_SQL);
        route = this.route(position!, standby!);
        if (route === 'fresh') value = await read(tx);
      });
    } catch (error) {
      if (!replicaFailure(error)) throw error;
      // Down, refusing, or failing a read (a conflict with recovery): rested for a while.
      this.logger.warn({ err: error }, `read replica failed: reads go to the primary for ${REPLICA_RETRY_MS / 1000} s`);
      this.downUntil = Date.now() + REPLICA_RETRY_MS;
      return onPrimary('unavailable');
    }
    if (route !== 'fresh') return onPrimary(route);
    this.sink.read(kind, 'fresh');
    return value as T;
  }

  private route(primary: PrimaryPosition, standby: StandbyPosition): ReadRoute {
    if (!standby.standby || standby.replayed === null) return 'not_standby';
    if (primary.mark !== null && BigInt(standby.replayed) < BigInt(primary.mark)) return 'own_write';
    return lagMs(primary, standby) > this.maxLagMs ? 'lag' : 'fresh';
  }

  /** The replica's lag now (the gauges); null when it cannot be measured. */
  async lag(primary: EntityManager): Promise<ReplicaLag | null> {
    try {
      const [position] = await primary.execute<PrimaryPosition[]>(
        `select (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint::text as current, (extract(epoch from clock_timestamp()) * 1000)::float8 as at, null as mark`,
      );
      const [standby] = await this.orm.em.fork().execute<StandbyPosition[]>(STANDBY_POSITION_SQL);
      if (!standby!.standby || standby!.replayed === null) return null;
      const ms = lagMs(position!, standby!);
      const bytes = Number(BigInt(position!.current) - BigInt(standby!.replayed));
      return { seconds: Number.isFinite(ms) ? ms / 1000 : Infinity, bytes: Math.max(0, bytes) };
    } catch {
      return null;
    }
  }
}

/**
 * Notes that `workspaceIds` (or the workspaces of `employeeIds`) have just written: the primary's
 * log position now, which is past the COMMIT of every change they made so far, becomes their mark.
 * Call it after the COMMIT (never inside the transaction of the change), and only with a replica
 * configured: without one it costs nothing because nothing calls it.
 */
export async function markWorkspacesWritten(em: EntityManager, of: { workspaceIds: number[] } | { employeeIds: number[] }): Promise<void> {
  const ids = 'workspaceIds' in of ? of.workspaceIds : of.employeeIds;
  if (ids.length === 0) return;
  const source = 'workspaceIds' in of ? 'select distinct unnest(?::int[])' : 'select distinct workspace_id from employee where id = any(?::int[])';
  await em.execute(
    `insert into workspace_write_mark (workspace_id, lsn, written_at)
     select w, (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint, now() from (${source}) as s(w)
     where exists (select 1 from workspace where id = w) order by w
     on conflict (workspace_id) do update set lsn = greatest(workspace_write_mark.lsn, excluded.lsn), written_at = excluded.written_at`,
    [`{${ids.join(',')}}`],
  );
}
