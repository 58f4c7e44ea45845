import client from 'prom-client';
import type { JobOutcomeSink } from '../jobs/periodic-jobs';
import type { ReadRoute, ReplicaLag, ReplicaReadKind, ReplicaSink } from '../db/read-replica';

/**
 * Every Prometheus metric of the service, in one registry per app (tests run several apps in one
 * process). Names follow Prometheus conventions: `_total` counters, `_seconds` histograms.
 */
/** What the subscription and outbox-lag gauges read from the event feed. */
export interface EventFeedGauges {
  subscriberCount(): number;
  lagSeconds(): number;
}

/**
 * What the operations gauges read from the database at a scrape (src/workers/operations-snapshot.ts):
 * the whole installation's state, the same in every process (alert on `max`, not `sum`).
 */
export interface OperationsSnapshot {
  /** Registered terminals by status (pending, online, offline). */
  devicesByStatus: Record<string, number>;
  /** How long the oldest queued interactive command of an online terminal has waited (0: none). */
  commandWaitSeconds: number;
  /** Age of the oldest punch the attendance worker has not taken yet (0: none); null where no worker runs. */
  attendanceBacklogSeconds: number | null;
  /** How long the oldest due webhook delivery of an enabled endpoint has waited for its attempt (0: none). */
  webhookBacklogSeconds: number;
}

/** The database connection pool of this process, as the pool gauges report it. */
export interface PoolUsage {
  used: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
  max: number;
}

/** The gauges of one scrape share one database read; a later scrape reads again. */
const SNAPSHOT_MAX_AGE_MS = 1000;
/** A snapshot read that takes longer leaves the gauges NaN for this scrape (a saturated pool must not stall /metrics). */
const SNAPSHOT_TIMEOUT_MS = 2500;
const DEVICE_STATUSES = ['pending', 'online', 'offline'] as const;

export class Metrics {
  readonly registry = new client.Registry();

  readonly httpRequests = new client.Counter({
    name: 'timegate_http_requests_total',
    help: 'HTTP requests by route (the route pattern, not the raw path) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new client.Histogram({
    name: 'timegate_http_request_duration_seconds',
    help: 'HTTP request latency by route.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly graphqlRequests = new client.Counter({
    name: 'timegate_graphql_requests_total',
    help: 'Requests to /graphql by the path that answered them: repeated (a remembered query run directly) or apollo.',
    labelNames: ['path'] as const,
    registers: [this.registry],
  });

  readonly websocketThrottled = new client.Counter({
    name: 'timegate_websocket_throttled_total',
    help: "Times a GraphQL WebSocket was left unread until its key's request-byte budget refilled.",
    registers: [this.registry],
  });

  readonly terminalRequests = new client.Counter({
    name: 'timegate_terminal_requests_total',
    help: 'Terminal (/iclock) requests by endpoint and kind (poll, upload table, handshake...).',
    labelNames: ['endpoint', 'kind'] as const,
    registers: [this.registry],
  });

  readonly punchesIngested = new client.Counter({
    name: 'timegate_punches_ingested_total',
    help: 'Punches stored, by source (device, manual or mobile); duplicates are not counted.',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly punchesQuarantined = new client.Counter({
    name: 'timegate_punches_quarantined_total',
    help: 'Terminal punches with an impossible date (docs/punches.md, "Quarantine"): stored in the quarantine, or dropped past TIMEGATE_QUARANTINE_MAX_PER_DEVICE; re-sent ones are not counted.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly commands = new client.Counter({
    name: 'timegate_device_commands_total',
    help: 'Terminal commands by event: queued, sent, succeeded, failed, expired.',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });

  /** Read at scrape time from the event feed (observeEventFeed); 0 until a feed is attached. */
  private eventFeed: EventFeedGauges = { subscriberCount: () => 0, lagSeconds: () => 0 };

  readonly outboxLag: client.Gauge = new client.Gauge({
    name: 'timegate_outbox_lag_seconds',
    help: 'Age of the oldest committed event this process has read but not yet fanned out to its subscribers (held behind an older running transaction); 0 when caught up.',
    registers: [this.registry],
    collect: (): void => this.outboxLag.set(this.eventFeed.lagSeconds()),
  });

  readonly webhookAttempts = new client.Counter({
    name: 'timegate_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome (success, http_error, timeout, network_error).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly subscriptionsOpen: client.Gauge = new client.Gauge({
    name: 'timegate_subscriptions_open',
    help: 'GraphQL subscriptions currently open on this process.',
    registers: [this.registry],
    collect: (): void => this.subscriptionsOpen.set(this.eventFeed.subscriberCount()),
  });

  readonly terminalLinesRejected = new client.Counter({
    name: 'timegate_terminal_lines_rejected_total',
    help: 'Lines (or segments) of terminal uploads left out because they could not be read or stored (a NUL byte, a bad field), by table; the rest of each upload is stored.',
    labelNames: ['table'] as const,
    registers: [this.registry],
  });

  readonly terminalRequestsRefused = new client.Counter({
    name: 'timegate_terminal_requests_refused_total',
    help: 'Terminal requests refused because they could not prove they come from the terminal, by reason: source_address (not on the device allow-list), push_comm_key (missing or wrong), session (token missing or wrong), pairing (registry or handshake of a paired serial without proof), sandbox (a sandbox serial not played by this process).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly terminalUploadsAbandoned = new client.Counter({
    name: 'timegate_terminal_uploads_abandoned_total',
    help: 'Terminal uploads left unparsed because the terminal closed the connection while they waited for an upload slot (it sends them again).',
    registers: [this.registry],
  });

  readonly jobRuns = new client.Counter({
    name: 'timegate_job_runs_total',
    help: 'Runs of the periodic background jobs (presence, terminal_sweep, webhooks, ...) by outcome.',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly jobConsecutiveFailures = new client.Gauge({
    name: 'timegate_job_consecutive_failures',
    help: 'Runs in a row that failed, per periodic job (0 = its last run succeeded; 3 or more makes /readyz answer 503).',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  readonly jobPoisonDropped = new client.Counter({
    name: 'timegate_job_poison_rows_dropped_total',
    help: 'Rows a periodic job dropped because the database refused their content (each is logged).',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  readonly terminalRequestErrors = new client.Counter({
    name: 'timegate_terminal_request_errors_total',
    help: 'Terminal requests Timegate failed (answered 503 because the database or the service failed; the terminal keeps its records and retries), by endpoint and kind.',
    labelNames: ['endpoint', 'kind'] as const,
    registers: [this.registry],
  });

  readonly terminalUploadDuration = new client.Histogram({
    name: 'timegate_terminal_upload_duration_seconds',
    help: 'Terminal uploads stored and acknowledged (OK), from the body received to the answer (the wait for an upload slot included), by table and lane (live: a body of at most 1 KB, records sent as they happened; bulk: a backlog).',
    labelNames: ['table', 'lane'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly commandDelivery = new client.Histogram({
    name: 'timegate_device_command_delivery_seconds',
    help: "Terminal commands at their first delivery: seconds from queued (or from the terminal's return online, when later) to taken by the terminal's poll, by lane (interactive, revocation, bulk); an interactive command that expired undelivered while its terminal was online counts at its expiry.",
    labelNames: ['lane'] as const,
    buckets: [1, 2.5, 5, 10, 15, 30, 60, 120, 300, 900, 3600],
    registers: [this.registry],
  });

  readonly attendanceDayDelay = new client.Histogram({
    name: 'timegate_attendance_day_delay_seconds',
    help: 'Punches counted in a computed attendance day for the first time: seconds from the punch stored to its day stored.',
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600],
    registers: [this.registry],
  });

  readonly webhookDelivery = new client.Histogram({
    name: 'timegate_webhook_delivery_seconds',
    help: 'Webhook deliveries the receiver accepted (2xx): seconds from the event to the answer, by attempt (first, retry).',
    labelNames: ['attempt'] as const,
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600],
    registers: [this.registry],
  });

  /** Read at scrape time (observeDatabase); NaN until a reader is attached or when a read fails. */
  private operations: (() => Promise<OperationsSnapshot>) | null = null;
  private snapshot: { at: number; value: Promise<OperationsSnapshot | null> } | null = null;

  readonly devices: client.Gauge<'status'> = new client.Gauge({
    name: 'timegate_devices',
    help: 'Registered terminals of every workspace by status (pending, online, offline), read from the database at the scrape: the same in every process.',
    labelNames: ['status'] as const,
    registers: [this.registry],
    collect: async (): Promise<void> => {
      const snapshot = await this.readSnapshot();
      for (const status of DEVICE_STATUSES) this.devices.set({ status }, snapshot ? (snapshot.devicesByStatus[status] ?? 0) : NaN);
    },
  });

  readonly commandWait: client.Gauge = new client.Gauge({
    name: 'timegate_device_command_wait_seconds',
    help: "How long the oldest queued interactive command (door or device action) of an online terminal has waited, from queued or from the terminal's return online; 0 when none waits. Read from the database at the scrape.",
    registers: [this.registry],
    collect: async (): Promise<void> => this.commandWait.set((await this.readSnapshot())?.commandWaitSeconds ?? NaN),
  });

  readonly attendanceBacklog: client.Gauge = new client.Gauge({
    name: 'timegate_attendance_backlog_seconds',
    help: 'Age of the oldest punch the attendance worker has not taken yet (its days not recomputed); 0 when caught up, NaN in a process without the worker. Read from the database at the scrape.',
    registers: [this.registry],
    collect: async (): Promise<void> => this.attendanceBacklog.set((await this.readSnapshot())?.attendanceBacklogSeconds ?? NaN),
  });

  readonly webhookBacklog: client.Gauge = new client.Gauge({
    name: 'timegate_webhook_backlog_seconds',
    help: 'How long the oldest due webhook delivery of an enabled endpoint has waited for its attempt; 0 when none waits. Read from the database at the scrape.',
    registers: [this.registry],
    collect: async (): Promise<void> => this.webhookBacklog.set((await this.readSnapshot())?.webhookBacklogSeconds ?? NaN),
  });

  /** Read at scrape time from the pool (observePool). */
  private pool: () => PoolUsage = () => ({ used: 0, idle: 0, waiting: 0, max: 0 });

  readonly poolConnections: client.Gauge<'state'> = new client.Gauge({
    name: 'timegate_db_pool_connections',
    help: "This process's database pool connections by state: used (lent to a request or job) or idle.",
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: (): void => {
      const usage = this.pool();
      this.poolConnections.set({ state: 'used' }, usage.used);
      this.poolConnections.set({ state: 'idle' }, usage.idle);
    },
  });

  readonly poolMax: client.Gauge = new client.Gauge({
    name: 'timegate_db_pool_max_connections',
    help: "Most connections this process's database pool opens.",
    registers: [this.registry],
    collect: (): void => this.poolMax.set(this.pool().max),
  });

  readonly poolWaiting: client.Gauge = new client.Gauge({
    name: 'timegate_db_pool_waiting',
    help: 'Requests of this process waiting for a database pool connection now.',
    registers: [this.registry],
    collect: (): void => this.poolWaiting.set(this.pool().waiting),
  });

  /** Read at scrape time from the replica and the primary (observeReplica); null: no replica, or not measurable. */
  private replicaLag: (() => Promise<ReplicaLag | null>) | null = null;

  readonly replicaReads = new client.Counter({
    name: 'timegate_replica_reads_total',
    help: 'Heavy reads (kind: timesheet, timesheet_summary, payroll_export, punches, door_events) by the server that answered (replica or primary) and why (route: fresh on the replica; own_write, lag, unavailable, not_standby on the primary). Only with DATABASE_REPLICA_URL.',
    labelNames: ['kind', 'server', 'route'] as const,
    registers: [this.registry],
  });

  readonly replicaLagSeconds: client.Gauge = new client.Gauge({
    name: 'timegate_db_replica_lag_seconds',
    help: "How far the read replica's data trails the primary's, read at the scrape: 0 when it has replayed all the primary has written, otherwise the time since the last transaction it replayed committed (primary's clock); NaN when it cannot be measured (unreachable, not a standby) or without DATABASE_REPLICA_URL.",
    registers: [this.registry],
    collect: async (): Promise<void> => this.replicaLagSeconds.set((await this.readReplicaLag())?.seconds ?? NaN),
  });

  readonly replicaLagBytes: client.Gauge = new client.Gauge({
    name: 'timegate_db_replica_lag_bytes',
    help: 'Write-ahead log bytes the primary has written and the read replica has not replayed, read at the scrape; NaN as timegate_db_replica_lag_seconds.',
    registers: [this.registry],
    collect: async (): Promise<void> => this.replicaLagBytes.set((await this.readReplicaLag())?.bytes ?? NaN),
  });

  /** The replica whose reads the counter counts, and how its lag is read at a scrape. */
  observeReplica(replica: { observe(sink: ReplicaSink): void }, lag: () => Promise<ReplicaLag | null>): void {
    this.replicaLag = lag;
    replica.observe({
      read: (kind: ReplicaReadKind, route: ReadRoute) => this.replicaReads.inc({ kind, server: route === 'fresh' ? 'replica' : 'primary', route }),
    });
  }

  private replicaLagRead: { at: number; value: Promise<ReplicaLag | null> } | null = null;

  /** One measurement serves both gauges of a scrape (as readSnapshot); a later scrape measures again. */
  private readReplicaLag(): Promise<ReplicaLag | null> {
    const read = this.replicaLag;
    if (!read) return Promise.resolve(null);
    const now = Date.now();
    if (this.replicaLagRead && now - this.replicaLagRead.at < SNAPSHOT_MAX_AGE_MS) return this.replicaLagRead.value;
    let timer: NodeJS.Timeout | undefined;
    const value = Promise.race([read(), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), SNAPSHOT_TIMEOUT_MS)))])
      .catch(() => null)
      .finally(() => clearTimeout(timer));
    this.replicaLagRead = { at: now, value };
    return value;
  }

  /** Where the operations gauges read the database's state (app.ts attaches it). */
  observeDatabase(read: () => Promise<OperationsSnapshot>): void {
    this.operations = read;
    this.snapshot = null;
  }

  /** Where the pool gauges read this process's pool. */
  observePool(read: () => PoolUsage): void {
    this.pool = read;
  }

  /** One database read serves every gauge of a scrape; null when there is no reader, or the read failed or was too slow. */
  private readSnapshot(): Promise<OperationsSnapshot | null> {
    const read = this.operations;
    if (!read) return Promise.resolve(null);
    const now = Date.now();
    if (this.snapshot && now - this.snapshot.at < SNAPSHOT_MAX_AGE_MS) return this.snapshot.value;
    let timer: NodeJS.Timeout | undefined;
    const value = Promise.race([
      read(),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), SNAPSHOT_TIMEOUT_MS);
      }),
    ])
      .catch(() => null)
      .finally(() => clearTimeout(timer));
    this.snapshot = { at: now, value };
    return value;
  }

  /** Where the periodic job runner reports each run. */
  jobSink(): JobOutcomeSink {
    return {
      jobRun: (job, outcome) => this.jobRuns.inc({ job, outcome }),
      jobConsecutiveFailures: (job, failures) => this.jobConsecutiveFailures.set({ job }, failures),
    };
  }

  /** The event feed whose subscribers and lag the two gauges above report. */
  observeEventFeed(feed: EventFeedGauges): void {
    this.eventFeed = feed;
  }

  /** endpoint -> kind -> labelled child. Nested maps: a key string built per request would be a per-heartbeat allocation. */
  private readonly terminalRequestChildren = new Map<string, Map<string, client.Counter.Internal>>();

  /** Counts one terminal request; the labelled child is kept, so a heartbeat does not hash labels. */
  countTerminalRequest(endpoint: string, kind: string): void {
    let byKind = this.terminalRequestChildren.get(endpoint);
    if (!byKind) this.terminalRequestChildren.set(endpoint, (byKind = new Map()));
    let child = byKind.get(kind);
    if (!child) byKind.set(kind, (child = this.terminalRequests.labels(endpoint, kind)));
    child.inc();
  }

  constructor() {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'timegate_' });
    // prom-client also exports three gauges named `…_total`, a suffix Prometheus reserves for
    // counters (`promtool check metrics` refuses them); the same counts stay available by type in
    // `timegate_nodejs_active_handles`, `…_requests` and `…_resources` (sum them for the total).
    for (const name of ['active_handles', 'active_requests', 'active_resources']) this.registry.removeSingleMetric(`timegate_nodejs_${name}_total`);
  }
}
