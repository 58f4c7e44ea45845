import client from 'prom-client';
import type { JobOutcomeSink } from '../jobs/periodic-jobs';

/**
 * Every Prometheus metric of the service, in one registry per app (tests run several apps in one
 * process). Names follow Prometheus conventions: `_total` counters, `_seconds` histograms.
 */
/** What the subscription and outbox-lag gauges read from the event feed. */
export interface EventFeedGauges {
  subscriberCount(): number;
  lagSeconds(): number;
}

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
    help: 'Terminal requests refused because they could not prove they come from the terminal, by reason: source_address (not on the device allow-list), push_comm_key (missing or wrong), session (token missing or wrong), pairing (registry or handshake of a paired serial without proof).',
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
