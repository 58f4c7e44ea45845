import path from 'node:path';
import { parseRoleMap, type RoleMapping } from './console-roles';
import { invalidCidrs } from '../kernel/source-address';

/**
 * Every setting of the service, described once: the environment variable, its default and what it
 * means. `loadConfig` validates them all and reports every bad value in one message; the README's
 * configuration table is checked against this list by a test.
 */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  databaseReplicaUrl: string | null;
  replicaMaxLagMs: number;
  dataDir: string;
  embeddedPgPort: number | null;
  masterKey: string | null;
  logLevel: string;
  nodeEnv: string;
  debugErrors: boolean;
  restBodyLimitBytes: number;
  scimMaxResourceBytes: number;
  scimMaxResourceAttributes: number;
  scimMaxGroups: number;
  scimListTimeoutMs: number;
  quarantineMaxPerDevice: number;
  idempotencyTtlHours: number;
  idempotencyLeaseSeconds: number;
  defaultWorkspaceName: string;
  metricsToken: string | null;
  keyCacheMs: number;
  corsOrigins: string[];
  graphqlIntrospection: boolean;
  graphqlMaxDepth: number;
  graphqlMaxCost: number;
  graphqlMaxTokens: number;
  graphqlMaxFields: number;
  wsMaxUnauthenticated: number;
  wsInitTimeoutMs: number;
  rateLimitPerMinute: number;
  rateLimitBurst: number;
  rateLimitBytesPerMinute: number;
  rateLimitBurstBytes: number;
  iclockBodyLimitBytes: number;
  trustedProxies: string[];
  traceHeartbeatRatio: number;
  attendanceDelaySeconds: number;
  attendanceErrorDelaySeconds: number;
  accessRequestDelaySeconds: number;
  offlineMinSeconds: number;
  commandBatchSize: number;
  commandTimeoutSeconds: number;
  commandMaxAttempts: number;
  doorActionExpirySeconds: number;
  deviceActionExpirySeconds: number;
  pendingActionsPerDevice: number;
  relayInvertedModels: string[];
  requestComputeBudgetMs: number;
  clockSkewAlertSeconds: number;
  presenceFlushMs: number;
  terminalSweepMs: number;
  deviceCacheTtlMs: number;
  eventRetentionDays: number;
  commandArchiveDays: number;
  commandLogRetentionDays: number;
  eventPurgeMs: number;
  eventPollMs: number;
  eventBatchMs: number;
  gcCompactionSeconds: number;
  attendanceWorker: boolean;
  attendancePollMs: number;
  attendanceBatchDelayMs: number;
  sandboxTerminals: boolean;
  sandboxPollMs: number;
  sandboxLeaseSeconds: number;
  webhookTimeoutMs: number;
  webhookRetryHours: number;
  webhookRetryBaseSeconds: number;
  webhookDisableAfterHours: number;
  webhookAllowPrivate: boolean;
  webhookPollMs: number;
  webhookConcurrency: number;
  webhookEndpointConcurrency: number;
  publicUrl: string | null;
  oidcIssuer: string | null;
  oidcClientId: string | null;
  oidcClientSecret: string | null;
  oidcScopes: string;
  oidcRoleClaim: string;
  oidcRoleMap: RoleMapping[];
  oidcWorkspaceId: number | null;
  sessionMinutes: number;
  employeeSessionDays: number;
  punchLocationDays: number;
}

export interface SettingDescription {
  env: string;
  default: string;
  meaning: string;
}

const projectRoot = path.resolve(__dirname, '..', '..', '..');

export const settings: Record<keyof Config, SettingDescription> = {
  port: { env: 'PORT', default: '8080', meaning: 'HTTP port for the API, GraphQL and the terminal endpoints (0 = any free port).' },
  host: { env: 'HOST', default: '0.0.0.0', meaning: 'Address to listen on.' },
  databaseUrl: {
    env: 'DATABASE_URL',
    default: '(unset)',
    meaning: 'PostgreSQL connection URL. When unset, an embedded PostgreSQL is started in TIMEGATE_DATA_DIR.',
  },
  databaseReplicaUrl: {
    env: 'DATABASE_REPLICA_URL',
    default: '(unset)',
    meaning:
      'PostgreSQL URL of a streaming read replica (a hot standby of DATABASE_URL). When set, heavy reads (timesheets, summaries, payroll exports of open periods, punch and door-event lists) go to it while it is fresh enough (docs/deployment.md, "Read replica"); everything else stays on DATABASE_URL. Unset: every read goes to DATABASE_URL.',
  },
  replicaMaxLagMs: {
    env: 'TIMEGATE_REPLICA_MAX_LAG_MS',
    default: '5000',
    meaning:
      "The staleness bound of replica reads, 0 to 3600000 ms: a read goes to the replica only when it has replayed the workspace's last write and trails the primary by at most this long; otherwise to DATABASE_URL.",
  },
  dataDir: {
    env: 'TIMEGATE_DATA_DIR',
    default: '.data (inside the project)',
    meaning:
      'Folder of the embedded PostgreSQL data (used only without DATABASE_URL); kept across restarts. Its pg-password file (mode 0600) holds the database password.',
  },
  embeddedPgPort: {
    env: 'TIMEGATE_PG_PORT',
    default: '(a free port)',
    meaning: 'Port of the embedded PostgreSQL on 127.0.0.1. Unset: a free port is chosen at each start.',
  },
  masterKey: {
    env: 'TIMEGATE_MASTER_KEY',
    default: '(unset)',
    meaning: 'Operator key (at least 32 characters) allowed to create workspaces and keys for any workspace through GraphQL.',
  },
  logLevel: { env: 'LOG_LEVEL', default: 'info', meaning: 'pino log level: fatal, error, warn, info, debug, trace or silent.' },
  nodeEnv: {
    env: 'NODE_ENV',
    default: 'development',
    meaning:
      '`production` changes the defaults of TIMEGATE_GRAPHQL_INTROSPECTION and TIMEGATE_WEBHOOK_ALLOW_PRIVATE; error answers do not depend on it (TIMEGATE_DEBUG_ERRORS).',
  },
  debugErrors: {
    env: 'TIMEGATE_DEBUG_ERRORS',
    default: 'false',
    meaning:
      'Whether error answers carry internals for debugging: the cause of an internal error and stack traces (with server paths) in GraphQL errors. Off, whatever NODE_ENV says: a 5xx answer carries only its code, a fixed message and the request id (the log has the rest).',
  },
  restBodyLimitBytes: {
    env: 'TIMEGATE_REST_BODY_LIMIT',
    default: '1048576',
    meaning:
      'Largest accepted REST/GraphQL request body in bytes (larger bodies get 413), and largest GraphQL WebSocket message (the socket is closed with 1009).',
  },
  idempotencyLeaseSeconds: {
    env: 'TIMEGATE_IDEMPOTENCY_LEASE_SECONDS',
    default: '60',
    meaning: 'A request with an Idempotency-Key still unfinished after this many seconds (its process died) no longer blocks a retry with the same key.',
  },
  idempotencyTtlHours: {
    env: 'TIMEGATE_IDEMPOTENCY_TTL_HOURS',
    default: '24',
    meaning: 'How long a response stored under an Idempotency-Key is replayed.',
  },
  corsOrigins: {
    env: 'TIMEGATE_CORS_ORIGINS',
    default: '(unset: no CORS)',
    meaning: 'Comma-separated origins allowed to call the API from browsers (`*` for any); unset sends no CORS headers.',
  },
  graphqlIntrospection: {
    env: 'TIMEGATE_GRAPHQL_INTROSPECTION',
    default: 'true (false when NODE_ENV=production)',
    meaning: 'Whether GraphQL introspection queries are answered.',
  },
  graphqlMaxDepth: { env: 'TIMEGATE_GRAPHQL_MAX_DEPTH', default: '10', meaning: 'Deepest GraphQL selection allowed (query_too_complex beyond).' },
  graphqlMaxCost: {
    env: 'TIMEGATE_GRAPHQL_MAX_COST',
    default: '50000',
    meaning: 'Highest cost of one GraphQL operation: each field costs 1, a paged list its children times `first` (default 100).',
  },
  graphqlMaxTokens: {
    env: 'TIMEGATE_GRAPHQL_MAX_TOKENS',
    default: '15000',
    meaning: 'Most lexical tokens in one GraphQL document (HTTP and WebSocket); a larger one is refused before it is parsed further.',
  },
  graphqlMaxFields: {
    env: 'TIMEGATE_GRAPHQL_MAX_FIELDS',
    default: '2000',
    meaning:
      'Most field selections (aliases included, fragments counted where they are spread) in one GraphQL operation: an alias bomb is refused with query_too_complex.',
  },
  wsMaxUnauthenticated: {
    env: 'TIMEGATE_WS_MAX_UNAUTHENTICATED',
    default: '100',
    meaning: 'WebSocket connections per process that have not yet been accepted with a valid key; more are closed at once (1013 try again later).',
  },
  wsInitTimeoutMs: {
    env: 'TIMEGATE_WS_INIT_TIMEOUT_MS',
    default: '3000',
    meaning: 'A WebSocket that sends no connection_init within this time is closed (4408).',
  },
  rateLimitPerMinute: {
    env: 'TIMEGATE_RATE_LIMIT_PER_MINUTE',
    default: '1200',
    meaning: 'API requests per minute per key (token bucket refill; per process). Terminals are not limited.',
  },
  rateLimitBurst: { env: 'TIMEGATE_RATE_LIMIT_BURST', default: '200', meaning: 'Largest burst of API requests per key (bucket size).' },
  rateLimitBytesPerMinute: {
    env: 'TIMEGATE_RATE_LIMIT_BYTES_PER_MINUTE',
    default: '33554432',
    meaning:
      'Request body bytes per minute per key, REST and GraphQL over HTTP and WebSocket together (token bucket refill; per process). A body beyond it gets 429 before it is read; a WebSocket beyond it is not read until the budget refills.',
  },
  rateLimitBurstBytes: { env: 'TIMEGATE_RATE_LIMIT_BURST_BYTES', default: '2097152', meaning: 'Largest burst of request body bytes per key (bucket size).' },
  keyCacheMs: {
    env: 'TIMEGATE_KEY_CACHE_MS',
    default: '5000',
    meaning:
      'How long a process trusts a key it has checked (0 = check every request); a revocation takes effect at once in the process that made it and within this time in the others.',
  },
  metricsToken: {
    env: 'TIMEGATE_METRICS_TOKEN',
    default: '(unset: /metrics is open)',
    meaning: 'When set, `/metrics` requires `Authorization: Bearer <token>`.',
  },
  defaultWorkspaceName: {
    env: 'TIMEGATE_DEFAULT_WORKSPACE',
    default: 'Default workspace',
    meaning: 'Name of the workspace created on first start of an empty database.',
  },
  iclockBodyLimitBytes: {
    env: 'TIMEGATE_ICLOCK_BODY_LIMIT',
    default: '10485760',
    meaning: 'Largest terminal upload (/iclock/*) in bytes; template and photo uploads can be several MB.',
  },
  trustedProxies: {
    env: 'TIMEGATE_TRUSTED_PROXIES',
    default: '(unset: none)',
    meaning:
      'Comma-separated addresses or CIDRs of reverse proxies in front of the terminal endpoint (/iclock/*): only for requests from these is the terminal address taken from X-Forwarded-For (for device source allow-lists and the address shown); otherwise the header is ignored.',
  },
  traceHeartbeatRatio: {
    env: 'TIMEGATE_TRACE_HEARTBEAT_RATIO',
    default: '0.01',
    meaning:
      "With tracing on (OTEL_EXPORTER_OTLP_ENDPOINT set): the share of terminal polls (`/iclock/getrequest`) that get a span, from 0 to 1. Every other terminal request, and every poll that delivers commands, is traced under OTEL_TRACES_SAMPLER's rule.",
  },
  attendanceDelaySeconds: {
    env: 'TIMEGATE_ATT_DELAY',
    default: '10',
    meaning: 'Poll interval (`Delay`) advertised to attendance terminals: command latency and the basis of offline detection.',
  },
  attendanceErrorDelaySeconds: {
    env: 'TIMEGATE_ATT_ERROR_DELAY',
    default: '30',
    meaning: '`ErrorDelay` advertised to terminals: seconds they wait before retrying after a failed request.',
  },
  accessRequestDelaySeconds: {
    env: 'TIMEGATE_ACC_REQUEST_DELAY',
    default: '1',
    meaning:
      'Poll interval (`RequestDelay`) advertised to access-control terminals: the latency of a remote open and of a lockdown (a company lockdown of 100 doors is confirmed p95 within 2 s at 1 s; docs/capacity.md gives its cost per 10,000 controllers).',
  },
  offlineMinSeconds: {
    env: 'TIMEGATE_OFFLINE_MIN_SECONDS',
    default: '60',
    meaning: 'A terminal is offline after max(3 x its poll interval, this many seconds) without a request.',
  },
  commandBatchSize: {
    env: 'TIMEGATE_COMMAND_BATCH_SIZE',
    default: '5',
    meaning: 'Most commands delivered in one poll reply (the protocol advises small batches).',
  },
  commandTimeoutSeconds: {
    env: 'TIMEGATE_COMMAND_TIMEOUT',
    default: '60',
    meaning: 'A delivered command without a result after this many seconds is queued again (retried).',
  },
  commandMaxAttempts: {
    env: 'TIMEGATE_COMMAND_MAX_ATTEMPTS',
    default: '3',
    meaning: 'Deliveries of one command (timeouts and transient codes -1003/-1005) before it is marked failed.',
  },
  doorActionExpirySeconds: {
    env: 'TIMEGATE_UNLOCK_EXPIRY',
    default: '60',
    meaning: 'A remote unlock not delivered to the terminal within this many seconds expires (a late open is worse than none).',
  },
  deviceActionExpirySeconds: {
    env: 'TIMEGATE_DEVICE_ACTION_EXPIRY',
    default: '86400',
    meaning:
      'A device action (info refresh, reboot, record count, backfill) whose commands the terminal has not taken within this many seconds expires (an offline terminal gets a day).',
  },
  pendingActionsPerDevice: {
    env: 'TIMEGATE_PENDING_ACTIONS_PER_DEVICE',
    default: '100',
    meaning:
      'Most door actions, and separately most device actions, one terminal may have pending (queued, or sent and waiting for an answer; a door action the terminal took and never answered waits for nothing); beyond, creating one answers 429 device_queue_full with Retry-After.',
  },
  relayInvertedModels: {
    env: 'TIMEGATE_RELAY_INVERTED_MODELS',
    default: '(unset: none)',
    meaning:
      'Comma-separated access-controller models (the DeviceName they report, any case) whose rtstate relay bit reads the other way: 1 = lock released (unlocked), 0 = locked. Every other model is read as the Security PUSH document states it (section 10.3): 0 = relay pulled in = unlocked, 1 = relay open = locked.',
  },
  requestComputeBudgetMs: {
    env: 'TIMEGATE_REQUEST_COMPUTE_BUDGET_MS',
    default: '20000',
    meaning:
      'Most milliseconds one timesheet or summary request spends computing missing or stale days; past it (with days left) the request answers 503 computation_budget_exceeded with Retry-After, keeping the days it computed, so a retry continues where it stopped.',
  },
  scimMaxResourceBytes: {
    env: 'TIMEGATE_SCIM_MAX_RESOURCE_BYTES',
    default: '32768',
    meaning: 'Largest SCIM User or Group a directory may store (its JSON in bytes, group members aside): beyond it POST, PUT and PATCH answer 413.',
  },
  scimMaxResourceAttributes: {
    env: 'TIMEGATE_SCIM_MAX_RESOURCE_ATTRIBUTES',
    default: '500',
    meaning:
      'Most values a stored SCIM User or Group holds (attributes, sub-attributes and multi-valued entries, group members aside): beyond it POST, PUT and PATCH answer 400 invalidValue.',
  },
  scimMaxGroups: {
    env: 'TIMEGATE_SCIM_MAX_GROUPS',
    default: '10000',
    meaning: 'Most SCIM Groups a company may hold: beyond it POST /Groups answers 400 invalidValue.',
  },
  scimListTimeoutMs: {
    env: 'TIMEGATE_SCIM_LIST_TIMEOUT_MS',
    default: '5000',
    meaning: 'Longest a SCIM list or filter may run in PostgreSQL: past it the list answers 400 tooMany (narrow the filter).',
  },
  quarantineMaxPerDevice: {
    env: 'TIMEGATE_QUARANTINE_MAX_PER_DEVICE',
    default: '10000',
    meaning:
      'Most quarantined punches (impossible dates) kept per terminal; records beyond it are acknowledged to the terminal and dropped (counted in timegate_punches_quarantined_total{outcome="dropped"}).',
  },
  clockSkewAlertSeconds: {
    env: 'TIMEGATE_CLOCK_SKEW_ALERT_SECONDS',
    default: '300',
    meaning:
      'A terminal whose clock is off by more than this many seconds (read from records made just now) raises one device.clock_skew event, until it is back under the limit.',
  },
  presenceFlushMs: {
    env: 'TIMEGATE_PRESENCE_FLUSH_MS',
    default: '1000',
    meaning: 'How often last-seen times, reported terminal info and unknown-serial contacts are written, batched, to the database.',
  },
  terminalSweepMs: {
    env: 'TIMEGATE_TERMINAL_SWEEP_MS',
    default: '5000',
    meaning: 'How often silent terminals are marked offline and command timeouts/expiries are applied.',
  },
  deviceCacheTtlMs: {
    env: 'TIMEGATE_DEVICE_CACHE_TTL_MS',
    default: '5000',
    meaning:
      'How stale a cached serial -> device entry may be: each process re-checks all its entries in one batched query every half TTL (changes made in this process invalidate them at once; 0 disables the cache).',
  },
  eventRetentionDays: {
    env: 'TIMEGATE_EVENT_RETENTION_DAYS',
    default: '7',
    meaning:
      'Days events stay at least in the outbox (subscription replay with `after`, webhook redelivery); a month of events is dropped once all of it is older.',
  },
  commandArchiveDays: {
    env: 'TIMEGATE_COMMAND_ARCHIVE_DAYS',
    default: '7',
    meaning:
      'Days a finished device command stays in the live command queue before it moves to the command log archive (which keeps its verb and outcome, not its text).',
  },
  commandLogRetentionDays: {
    env: 'TIMEGATE_COMMAND_LOG_RETENTION_DAYS',
    default: '365',
    meaning: 'Days archived device commands are kept at least; a month of them is dropped once all of it is older.',
  },
  eventPurgeMs: {
    env: 'TIMEGATE_EVENT_PURGE_MS',
    default: '3600000',
    meaning: 'How often the history partitions of the coming months are created and event months past the retention dropped.',
  },
  eventPollMs: {
    env: 'TIMEGATE_EVENT_POLL_MS',
    default: '1000',
    meaning: 'Fallback poll of the outbox for subscribers, in case a NOTIFY wake-up was lost (LISTEN connection down).',
  },
  eventBatchMs: {
    env: 'TIMEGATE_EVENT_BATCH_MS',
    default: '20',
    meaning:
      "While events keep coming, a workspace's subscribers are sent new events at most this often (an event after a quiet period goes at once): fewer, larger socket writes; 0 sends each wake-up at once.",
  },
  gcCompactionSeconds: {
    env: 'TIMEGATE_GC_COMPACTION_SECONDS',
    default: '10',
    meaning:
      'How often the service looks at the old generation and compacts it (returning its emptied pages to the system) when more than 4 MB of it is free but committed, or it grew by more than 4 MB since the last compaction; a compaction waits while API clients are served (requests other than those of terminals, probes and scrapes; open subscriptions), and while only terminals are served and the event loop was more than half busy, at most six intervals; while the heap keeps growing back after one the next waits two intervals, then up to six; 0 compacts at every full collection instead (longest pauses).',
  },
  attendanceWorker: {
    env: 'TIMEGATE_ATTENDANCE_WORKER',
    default: 'true',
    meaning:
      'Whether this process runs the attendance worker that keeps stored days current after punches and changes (`false`: a worker in another process does the work, or else days are brought up to date, and their attendance.day.updated events sent, when a timesheet is read; the benchmark compares ingestion both ways).',
  },
  attendancePollMs: {
    env: 'TIMEGATE_ATTENDANCE_POLL_MS',
    default: '500',
    meaning: 'How often the attendance worker looks for days to recompute without being woken (stale marks, days whose window ended, a lost NOTIFY).',
  },
  attendanceBatchDelayMs: {
    env: 'TIMEGATE_ATTENDANCE_BATCH_DELAY_MS',
    default: '100',
    meaning: 'After a wake-up (new punches), the attendance worker waits this long so that one run takes the punches of many uploads together; 0 runs at once.',
  },
  sandboxTerminals: {
    env: 'TIMEGATE_SANDBOX_TERMINALS',
    default: 'true',
    meaning:
      "Whether this process plays sandbox workspaces' virtual terminals (docs/sandbox.md); of several processes on one database each sandbox is played by one, which holds its lease (`false`: this process plays none).",
  },
  sandboxPollMs: {
    env: 'TIMEGATE_SANDBOX_POLL_MS',
    default: '1000',
    meaning:
      "How often the process that plays a sandbox looks for its virtual terminals' new settings and triggers (a punch, a badge or an alarm asked through the API happens within this time).",
  },
  sandboxLeaseSeconds: {
    env: 'TIMEGATE_SANDBOX_LEASE_SECONDS',
    default: '15',
    meaning:
      "How long a process's lease on a sandbox lasts without renewal (it renews every third of it): a process that stops or dies is replaced within this time.",
  },
  webhookTimeoutMs: {
    env: 'TIMEGATE_WEBHOOK_TIMEOUT_MS',
    default: '10000',
    meaning: 'A webhook request without a complete response in this time is a failed attempt.',
  },
  webhookRetryHours: {
    env: 'TIMEGATE_WEBHOOK_RETRY_HOURS',
    default: '72',
    meaning: 'How long a failing webhook delivery is retried (exponential backoff with jitter) before it is marked failed.',
  },
  webhookRetryBaseSeconds: {
    env: 'TIMEGATE_WEBHOOK_RETRY_BASE_SECONDS',
    default: '30',
    meaning: 'First retry delay; each further retry doubles it (capped at 12 hours), with ±20% jitter.',
  },
  webhookDisableAfterHours: {
    env: 'TIMEGATE_WEBHOOK_DISABLE_AFTER_HOURS',
    default: '24',
    meaning: 'An endpoint whose every attempt failed for this long is disabled, with the reason in `disabled_reason`.',
  },
  webhookAllowPrivate: {
    env: 'TIMEGATE_WEBHOOK_ALLOW_PRIVATE',
    default: 'true in development, false when NODE_ENV=production',
    meaning: 'Whether webhook URLs may point at private, loopback or link-local addresses (checked at creation and after DNS at each delivery).',
  },
  webhookPollMs: {
    env: 'TIMEGATE_WEBHOOK_POLL_MS',
    default: '1000',
    meaning: 'How often the webhook worker looks for due deliveries (new events also wake it at once).',
  },
  webhookConcurrency: {
    env: 'TIMEGATE_WEBHOOK_CONCURRENCY',
    default: '32',
    meaning:
      'Webhook requests one process sends at the same time (a continuous pool: a slow request holds one slot, never the others); one workspace gets at most half of them.',
  },
  webhookEndpointConcurrency: {
    env: 'TIMEGATE_WEBHOOK_ENDPOINT_CONCURRENCY',
    default: '8',
    meaning: 'Webhook requests one process sends to one endpoint at the same time.',
  },
  publicUrl: {
    env: 'TIMEGATE_PUBLIC_URL',
    default: '(unset: taken from each request)',
    meaning:
      'The address people open the console at, e.g. `https://timegate.example.com`: the single sign-on redirect URI is this plus `/auth/oidc/callback`, and the session cookie is `Secure` when it is https.',
  },
  oidcIssuer: {
    env: 'TIMEGATE_OIDC_ISSUER',
    default: '(unset: no single sign-on)',
    meaning:
      "OpenID Connect issuer of the console's single sign-on (discovered at `<issuer>/.well-known/openid-configuration`). Unset, the console signs in with API keys only. Must be https (http only on a loopback address).",
  },
  oidcClientId: {
    env: 'TIMEGATE_OIDC_CLIENT_ID',
    default: '(unset)',
    meaning: 'Client (application) id registered at the provider; required with TIMEGATE_OIDC_ISSUER.',
  },
  oidcClientSecret: {
    env: 'TIMEGATE_OIDC_CLIENT_SECRET',
    default: '(unset: a public client, PKCE only)',
    meaning: 'Client secret registered at the provider (sent with HTTP Basic authentication to its token endpoint).',
  },
  oidcScopes: {
    env: 'TIMEGATE_OIDC_SCOPES',
    default: 'openid profile email',
    meaning: 'Scopes asked for at sign-in (Okta needs `groups` added to send group claims).',
  },
  oidcRoleClaim: {
    env: 'TIMEGATE_OIDC_ROLE_CLAIM',
    default: 'groups',
    meaning:
      "Claim (of the ID token or the userinfo answer) whose values decide a person's console roles: `groups` (group ids at Entra ID, names at Okta) or `roles` (Entra ID app roles).",
  },
  oidcRoleMap: {
    env: 'TIMEGATE_OIDC_ROLE_MAP',
    default: '(unset: nobody may sign in)',
    meaning:
      'Comma-separated `value=role` pairs: a person whose role claim holds the value gets the role (admin, hr, security or viewer; several roles add up); `*=viewer` gives everyone who signs in at least viewer. A person with no role is refused.',
  },
  oidcWorkspaceId: {
    env: 'TIMEGATE_OIDC_WORKSPACE_ID',
    default: '(unset: the first workspace)',
    meaning: 'Workspace that people signed in with single sign-on work in.',
  },
  sessionMinutes: {
    env: 'TIMEGATE_SESSION_MINUTES',
    default: '480',
    meaning: 'Lifetime of a console session after single sign-on; the person signs in again after it (a sign-out ends it at once).',
  },
  employeeSessionDays: {
    env: 'TIMEGATE_EMPLOYEE_SESSION_DAYS',
    default: '30',
    meaning:
      "Lifetime of an employee's session of the self-service app (/me) after an invitation link or single sign-on; the employee signs in again after it (a sign-out ends it at once).",
  },
  punchLocationDays: {
    env: 'TIMEGATE_PUNCH_LOCATION_DAYS',
    default: '90',
    meaning:
      'Days the position (latitude, longitude) of a punch made from a phone is kept; after it the position is erased and the punch keeps its geofence and accuracy (docs/self-service.md).',
  },
};

/**
 * Read by the OpenTelemetry SDK itself (src/observability/tracing-setup.ts), not by loadConfig: listed
 * so that the README's configuration table documents them. Tracing is on only when an endpoint is set.
 */
export const sdkSettings: SettingDescription[] = [
  {
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    default: '(unset: tracing off, the SDK not loaded)',
    meaning:
      'Base URL of an OTLP/HTTP receiver (a collector, Jaeger, Tempo, ...), e.g. `http://otel-collector:4318`: traces are posted to `<url>/v1/traces`. Set, tracing is on (docs/operations.md, "Tracing").',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    default: '(unset)',
    meaning: 'Full URL for traces only (used as is, no `/v1/traces` added); also turns tracing on.',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    default: 'http/protobuf',
    meaning: 'OTLP encoding: `http/protobuf` or `http/json` (`grpc` needs a gRPC receiver on port 4317).',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_HEADERS',
    default: '(unset)',
    meaning: 'Headers sent with every export, `key=value` pairs separated by commas (a vendor API key).',
  },
  { env: 'OTEL_SERVICE_NAME', default: 'timegate', meaning: 'The `service.name` resource attribute of every span.' },
  { env: 'OTEL_RESOURCE_ATTRIBUTES', default: '(unset)', meaning: 'More resource attributes, `key=value,...` (e.g. `deployment.environment=production`).' },
  {
    env: 'OTEL_TRACES_SAMPLER',
    default: 'parentbased_always_on',
    meaning:
      "Sampler: `always_on`, `always_off`, `traceidratio`, `parentbased_traceidratio`, ... A parent-based sampler follows the caller's `traceparent` sampled flag. Terminal polls are sampled down further by TIMEGATE_TRACE_HEARTBEAT_RATIO.",
  },
  { env: 'OTEL_TRACES_SAMPLER_ARG', default: '(unset: 1.0)', meaning: 'The ratio of the `traceidratio` samplers, from 0 to 1.' },
  { env: 'OTEL_BSP_SCHEDULE_DELAY', default: '5000', meaning: 'Milliseconds between two exports of finished spans.' },
  {
    env: 'OTEL_BSP_MAX_QUEUE_SIZE',
    default: '2048',
    meaning: 'Finished spans kept waiting for export at most; beyond it new spans are dropped (never blocking a request).',
  },
  { env: 'OTEL_SDK_DISABLED', default: 'false', meaning: '`true` turns tracing off whatever the endpoint.' },
];

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates the configuration; throws one ConfigError listing every bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const int = (key: keyof Config, fallback: number, min: number, max: number): number => {
    const raw = env[settings[key].env];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${settings[key].env} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (key: keyof Config, fallback: boolean): boolean => {
    const raw = env[settings[key].env];
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    problems.push(`${settings[key].env} must be true or false (got "${raw}")`);
    return fallback;
  };
  const ratio = (key: keyof Config, fallback: number): number => {
    const raw = env[settings[key].env];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\s*[0-9.eE+-]+\s*$/.test(raw) || !Number.isFinite(value) || value < 0 || value > 1) {
      problems.push(`${settings[key].env} must be a number from 0 to 1 (got "${raw.slice(0, 100)}")`);
      return fallback;
    }
    return value;
  };
  const str = (key: keyof Config): string | null => {
    const raw = env[settings[key].env];
    return raw === undefined || raw === '' ? null : raw;
  };

  const databaseUrl = str('databaseUrl');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL must start with postgres:// or postgresql:// (got "${databaseUrl.replace(/:[^:@/]*@/, ':***@')}")`);
  }
  const databaseReplicaUrl = str('databaseReplicaUrl');
  if (databaseReplicaUrl && !/^postgres(ql)?:\/\//.test(databaseReplicaUrl)) {
    problems.push(
      `DATABASE_REPLICA_URL must start with postgres:// or postgresql:// (got "${databaseReplicaUrl.replace(/:[^:@/]*@/, ':***@').slice(0, 200)}")`,
    );
  }
  if (databaseReplicaUrl && !databaseUrl) problems.push('DATABASE_REPLICA_URL needs DATABASE_URL (the embedded PostgreSQL has no replica)');
  const masterKey = str('masterKey');
  if (masterKey !== null && masterKey.length < 32) problems.push('TIMEGATE_MASTER_KEY must be at least 32 characters long');
  const logLevel = str('logLevel') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  const embeddedPgPortRaw = str('embeddedPgPort');
  const nodeEnv = str('nodeEnv') ?? 'development';
  const allowPrivateRaw = str('webhookAllowPrivate');
  if (allowPrivateRaw !== null && !['true', 'false'].includes(allowPrivateRaw)) {
    problems.push(`TIMEGATE_WEBHOOK_ALLOW_PRIVATE must be true or false (got "${allowPrivateRaw}")`);
  }

  const trustedProxies = (str('trustedProxies') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const badProxies = invalidCidrs(trustedProxies);
  if (badProxies.length > 0) problems.push(`TIMEGATE_TRUSTED_PROXIES must list addresses or CIDRs (got "${badProxies.join('", "')}")`);

  const relayInvertedModels = (str('relayInvertedModels') ?? '')
    .split(',')
    .map((m) => m.trim().toLowerCase())
    .filter(Boolean);
  if (relayInvertedModels.length > 100 || relayInvertedModels.some((m) => m.length > 100)) {
    problems.push('TIMEGATE_RELAY_INVERTED_MODELS must list at most 100 models of at most 100 characters each');
  }

  const oidcIssuer = str('oidcIssuer');
  const oidcClientId = str('oidcClientId');
  const roleMap = parseRoleMap(str('oidcRoleMap') ?? '');
  problems.push(...roleMap.problems.map((p) => `TIMEGATE_OIDC_ROLE_MAP: ${p}`));
  if (oidcIssuer !== null) {
    const issuer = URL.canParse(oidcIssuer) ? new URL(oidcIssuer) : null;
    const loopback = issuer !== null && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
    if (!issuer || !(issuer.protocol === 'https:' || (issuer.protocol === 'http:' && loopback))) {
      problems.push(`TIMEGATE_OIDC_ISSUER must be an https URL (http only on a loopback address) (got "${oidcIssuer}")`);
    }
    if (oidcClientId === null) problems.push('TIMEGATE_OIDC_CLIENT_ID is required with TIMEGATE_OIDC_ISSUER');
  }
  const publicUrl = str('publicUrl');
  if (publicUrl !== null && !/^https?:\/\/[^/]+\/?$/.test(publicUrl)) {
    problems.push(`TIMEGATE_PUBLIC_URL must be http(s)://host[:port] with no path (got "${publicUrl}")`);
  }
  const oidcWorkspaceRaw = str('oidcWorkspaceId');

  const config: Config = {
    port: int('port', 8080, 0, 65535),
    host: str('host') ?? '0.0.0.0',
    databaseUrl,
    databaseReplicaUrl,
    replicaMaxLagMs: int('replicaMaxLagMs', 5000, 0, 3_600_000),
    dataDir: path.resolve(str('dataDir') ?? path.join(projectRoot, '.data')),
    embeddedPgPort: embeddedPgPortRaw === null ? null : int('embeddedPgPort', 0, 1, 65535),
    masterKey,
    logLevel,
    nodeEnv,
    debugErrors: bool('debugErrors', false),
    restBodyLimitBytes: int('restBodyLimitBytes', 1048576, 1024, 100 * 1048576),
    scimMaxResourceBytes: int('scimMaxResourceBytes', 32_768, 1024, 1_048_576),
    scimMaxResourceAttributes: int('scimMaxResourceAttributes', 500, 10, 100_000),
    scimMaxGroups: int('scimMaxGroups', 10_000, 1, 10_000_000),
    scimListTimeoutMs: int('scimListTimeoutMs', 5000, 100, 600_000),
    quarantineMaxPerDevice: int('quarantineMaxPerDevice', 10_000, 0, 10_000_000),
    idempotencyTtlHours: int('idempotencyTtlHours', 24, 1, 24 * 30),
    idempotencyLeaseSeconds: int('idempotencyLeaseSeconds', 60, 1, 3600),
    defaultWorkspaceName: str('defaultWorkspaceName') ?? 'Default workspace',
    metricsToken: str('metricsToken'),
    keyCacheMs: int('keyCacheMs', 5000, 0, 300_000),
    corsOrigins: (str('corsOrigins') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    graphqlIntrospection: bool('graphqlIntrospection', (str('nodeEnv') ?? 'development') !== 'production'),
    graphqlMaxDepth: int('graphqlMaxDepth', 10, 2, 100),
    graphqlMaxCost: int('graphqlMaxCost', 50_000, 10, 100_000_000),
    graphqlMaxTokens: int('graphqlMaxTokens', 15_000, 100, 10_000_000),
    graphqlMaxFields: int('graphqlMaxFields', 2_000, 10, 1_000_000),
    wsMaxUnauthenticated: int('wsMaxUnauthenticated', 100, 1, 1_000_000),
    wsInitTimeoutMs: int('wsInitTimeoutMs', 3_000, 100, 60_000),
    rateLimitPerMinute: int('rateLimitPerMinute', 1200, 1, 10_000_000),
    rateLimitBurst: int('rateLimitBurst', 200, 1, 10_000_000),
    rateLimitBytesPerMinute: int('rateLimitBytesPerMinute', 33_554_432, 1024, 1024 * 1048576),
    rateLimitBurstBytes: int('rateLimitBurstBytes', 2_097_152, 1024, 1024 * 1048576),
    iclockBodyLimitBytes: int('iclockBodyLimitBytes', 10485760, 1024, 1024 * 1048576),
    trustedProxies,
    traceHeartbeatRatio: ratio('traceHeartbeatRatio', 0.01),
    attendanceDelaySeconds: int('attendanceDelaySeconds', 10, 2, 300),
    attendanceErrorDelaySeconds: int('attendanceErrorDelaySeconds', 30, 10, 600),
    accessRequestDelaySeconds: int('accessRequestDelaySeconds', 1, 1, 300),
    offlineMinSeconds: int('offlineMinSeconds', 60, 1, 86400),
    commandBatchSize: int('commandBatchSize', 5, 1, 200),
    commandTimeoutSeconds: int('commandTimeoutSeconds', 60, 1, 86400),
    commandMaxAttempts: int('commandMaxAttempts', 3, 1, 100),
    doorActionExpirySeconds: int('doorActionExpirySeconds', 60, 1, 86400),
    deviceActionExpirySeconds: int('deviceActionExpirySeconds', 86400, 1, 30 * 86400),
    pendingActionsPerDevice: int('pendingActionsPerDevice', 100, 1, 100_000),
    relayInvertedModels,
    requestComputeBudgetMs: int('requestComputeBudgetMs', 20_000, 1, 600_000),
    clockSkewAlertSeconds: int('clockSkewAlertSeconds', 300, 1, 86400),
    presenceFlushMs: int('presenceFlushMs', 1000, 10, 86_400_000),
    terminalSweepMs: int('terminalSweepMs', 5000, 10, 86_400_000),
    deviceCacheTtlMs: int('deviceCacheTtlMs', 5000, 0, 3_600_000),
    // At least 7 days: replay and redelivery promise a week.
    eventRetentionDays: int('eventRetentionDays', 7, 7, 3650),
    commandArchiveDays: int('commandArchiveDays', 7, 1, 3650),
    commandLogRetentionDays: int('commandLogRetentionDays', 365, 7, 3650),
    eventPurgeMs: int('eventPurgeMs', 3_600_000, 1000, 86_400_000),
    eventPollMs: int('eventPollMs', 1000, 10, 3_600_000),
    eventBatchMs: int('eventBatchMs', 20, 0, 1000),
    gcCompactionSeconds: int('gcCompactionSeconds', 10, 0, 86_400),
    attendanceWorker: bool('attendanceWorker', true),
    attendancePollMs: int('attendancePollMs', 500, 10, 3_600_000),
    attendanceBatchDelayMs: int('attendanceBatchDelayMs', 100, 0, 10_000),
    sandboxTerminals: bool('sandboxTerminals', true),
    sandboxPollMs: int('sandboxPollMs', 1000, 10, 60_000),
    sandboxLeaseSeconds: int('sandboxLeaseSeconds', 15, 2, 3600),
    webhookTimeoutMs: int('webhookTimeoutMs', 10_000, 100, 120_000),
    webhookRetryHours: int('webhookRetryHours', 72, 1, 24 * 30),
    webhookRetryBaseSeconds: int('webhookRetryBaseSeconds', 30, 1, 3600),
    webhookDisableAfterHours: int('webhookDisableAfterHours', 24, 1, 24 * 30),
    webhookAllowPrivate: allowPrivateRaw === null ? nodeEnv !== 'production' : allowPrivateRaw === 'true',
    webhookPollMs: int('webhookPollMs', 1000, 10, 3_600_000),
    webhookConcurrency: int('webhookConcurrency', 32, 2, 1000),
    webhookEndpointConcurrency: int('webhookEndpointConcurrency', 8, 1, 1000),
    publicUrl: publicUrl?.replace(/\/$/, '') ?? null,
    oidcIssuer,
    oidcClientId,
    oidcClientSecret: str('oidcClientSecret'),
    oidcScopes: str('oidcScopes') ?? 'openid profile email',
    oidcRoleClaim: str('oidcRoleClaim') ?? 'groups',
    oidcRoleMap: roleMap.mappings,
    oidcWorkspaceId: oidcWorkspaceRaw === null ? null : int('oidcWorkspaceId', 1, 1, 2_147_483_647),
    sessionMinutes: int('sessionMinutes', 480, 1, 30 * 24 * 60),
    employeeSessionDays: int('employeeSessionDays', 30, 1, 400),
    punchLocationDays: int('punchLocationDays', 90, 1, 3650),
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}
