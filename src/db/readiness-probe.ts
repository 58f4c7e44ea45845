import pg from 'pg';

export type DatabaseState = 'reachable' | 'read_only' | 'unreachable';

export interface ReadinessAnswer {
  database: DatabaseState;
  /** Migrations this release applied that the database does not hold (a restore of an older backup); null when unknown. */
  pendingMigrations: string[] | null;
}

/** The table MikroORM's migrator records applied migrations in (its default name). */
const MIGRATIONS_TABLE = 'mikro_orm_migrations';

/**
 * Asks the database what /readyz needs over a connection of its own, never one of the pool's.
 *
 * Readiness is a question about the database (is there a writable primary; does it hold this
 * release's schema), not about this process's load: when every pool connection is busy (a fleet of
 * controllers building their sync), a probe queued behind them would time out, the load balancer
 * would take every process out at once, and each terminal refused would wait its ErrorDelay before
 * trying again. The probe's own connection answers in a round trip however busy the pool is, and
 * is opened again after a failure (a failover, a restart of PostgreSQL).
 *
 * One question is in flight at a time: probes that arrive meanwhile share its answer, so a flood of
 * anonymous /readyz requests costs the database one query.
 */
export class ReadinessProbe {
  private client: pg.Client | null = null;
  private inFlight: Promise<ReadinessAnswer> | null = null;

  /** @param expectedMigrations the migrations recorded as applied when this process started (after it migrated). */
  constructor(
    private readonly url: string,
    private readonly expectedMigrations: readonly string[],
    private readonly timeoutMs: number,
  ) {}

  check(): Promise<ReadinessAnswer> {
    this.inFlight ??= this.ask().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  async close(): Promise<void> {
    await this.drop();
  }

  private async ask(): Promise<ReadinessAnswer> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.timeoutMs);
    });
    try {
      const answer = await Promise.race([this.query(), late]);
      if (answer === 'late') {
        // A connection to a dead primary can hang until TCP gives up: the next probe starts afresh.
        void this.drop();
        return { database: 'unreachable', pendingMigrations: null };
      }
      return answer;
    } catch {
      void this.drop();
      return { database: 'unreachable', pendingMigrations: null };
    } finally {
      clearTimeout(timer);
    }
  }

  private async query(): Promise<ReadinessAnswer> {
    const client = await this.connected();
    const { rows } = await client.query<{ standby: boolean; missing: string[] }>(
      `select pg_is_in_recovery() as standby,
              coalesce((select array_agg(expected order by expected) from unnest($1::text[]) expected
                        where not exists (select 1 from ${MIGRATIONS_TABLE} m where m.name = expected)), '{}') as missing`,
      [this.expectedMigrations],
    );
    const row = rows[0]!;
    return { database: row.standby ? 'read_only' : 'reachable', pendingMigrations: row.missing };
  }

  private async connected(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: this.timeoutMs, application_name: 'timegate readiness' });
    // A connection that breaks between probes (PostgreSQL restarted) is dropped; the next probe reconnects.
    client.on('error', () => {
      if (this.client === client) this.client = null;
    });
    this.client = client;
    try {
      await client.connect();
    } catch (error) {
      if (this.client === client) this.client = null;
      throw error;
    }
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
