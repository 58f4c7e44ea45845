import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Config } from './config/config';
import type { ClientActivity } from './gc-compaction';
import { openDatabase, poolUsage, type Database } from './db/database';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './errors/database-unavailable';
import { DATABASE_UNAVAILABLE_MESSAGE, toPublicError } from './errors/public-error';
import { DomainError } from './errors/domain-error';
import { statusOf } from './errors/error-codes';
import { isIclockRequest } from './devices/iclock-handler';
import { ingestionBusy } from './devices/upload-slots';
import { timeZoneSupportProblem } from './protocol';
import { TerminalGateway } from './devices/terminal-gateway';
import { EventFeed } from './events/event-feed';
import { HistoryHousekeeping } from './workers/history-housekeeping';
import { operationsSnapshotReader } from './workers/operations-snapshot';
import { SandboxTerminals } from './workers/sandbox-terminals';
import { startSubscriptionServer } from './graphql/subscription-server';
import { WebhookWorker } from './events/webhook-worker';
import { PeriodicJobs } from './jobs/periodic-jobs';
import { removeEndedVisitorPasses, VISITOR_PASS_SWEEP_MS } from './services/access/visitor-pass.service';
import { AttendanceWorker } from './services/attendance/attendance-worker';
import { rateLimit } from './limits/rate-limit';
import { TokenBuckets } from './limits/token-bucket';
import { createLogger } from './logger';
import { observeRequests, operationsRouter } from './observability/http';
import { Metrics } from './observability/metrics';
import { nameActiveSpan, tracingEnabled } from './observability/tracing';
import { securityHeaders } from './observability/security-headers';
import { sendError } from './errors/error-response';
import { apiDocsRouter } from './rest/api-docs';
import { webRouter } from './web/console';
import { sessionCredential } from './web/session-cookie';
import { singleSignOnRouter } from './web/single-sign-on';
import { selfServiceRouter } from './web/self-service';
import { erasePunchLocations, PUNCH_LOCATION_SWEEP_MS } from './services/self-service/punch-locations';
import compression from 'compression';
import { createRestRouter } from './rest/rest-router';
import { SCIM_BASE_PATH, scimRouter } from './scim-http/scim-router';
import { routeTable } from './rest/route-table';
import { buildTimegateSchema } from './graphql/build-schema';
import { CompiledOperations, compiledExecutionGateway } from './graphql/compiled-execution';
import { RepeatedQueries } from './graphql/repeated-queries';
import { createContextFactory, type ContextFactory } from './services/identity/request-context-factory';
import { formatGraphQLError } from './graphql/format-error';
import { legacyJsonStatusPlugin, parseOptions, unstorableInputPlugin, validationRules } from './graphql/graphql-rules';
import { graphqlHttpErrorsPlugin, graphqlHttpGuard, graphqlNestingGuard } from './graphql/graphql-http-guard';
import { refuseDeepJson } from './services/common/input-limits';
import { costLimit, costLimitPlugin } from './graphql/operation-limits';
import type { RequestContext } from './context/request-context';
import { bootstrapDefaultWorkspace } from './services/directory/workspace.service';
import { registerCommandEngines } from './devices/command-engines';
import { commandQueueChanges } from './services/commands/command-queue-changes';

export interface App {
  /** Base URL the server listens on, e.g. `http://127.0.0.1:8080`. */
  url: string;
  server: http.Server;
  database: Database;
  schema: GraphQLSchema;
  logger: Logger;
  /** Prometheus metrics of this app (served at /metrics). */
  metrics: Metrics;
  /** The /iclock side: `flush()` writes buffered presence, `sweep()` applies offline/command timeouts (tests call both). */
  terminals: TerminalGateway;
  /** This process's live event feed (subscriptions read from it). */
  events: EventFeed;
  /** The webhook sender: `runOnce()` sends every due delivery now (tests call it with an injected clock). */
  webhooks: WebhookWorker;
  /** Periodic outbox retention purge: `purge()` runs it now. */
  housekeeping: HistoryHousekeeping;
  /** Every periodic background job of this process (presence, terminal_sweep, webhooks, event_purge, ...). */
  jobs: PeriodicJobs;
  /** Keeps stored attendance days current (tests run it with `jobs.runNow('attendance')`). */
  attendance: AttendanceWorker;
  /** Plays the virtual terminals of the sandboxes this process holds (docs/sandbox.md); `poll()` runs a pass now. */
  sandboxTerminals: SandboxTerminals;
  /** The admin key of the default workspace, when this start created it (first start only). */
  bootstrapKey: string | null;
  /** API requests received so far and subscriptions open now: what a compaction's pause must not meet. */
  clientActivity(): ClientActivity;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  stop(): Promise<void>;
}

export interface AppOptions {
  logger?: Logger;
  /** The clock services read; tests pass their own. */
  now?: () => Date;
}

/** Builds and starts the whole service. Listens on `config.port` (0 = any free port). */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const timeZones = timeZoneSupportProblem();
  if (timeZones) throw new Error(`Timegate needs IANA time-zone data: ${timeZones}`);
  const logger = options.logger ?? createLogger(config);
  // The engines that queue terminal commands plug into the queue before any command moves.
  registerCommandEngines();
  const database = await openDatabase(config, logger);
  try {
    const created = await bootstrapDefaultWorkspace(database.orm.em.fork(), config.defaultWorkspaceName);
    const schema = await buildTimegateSchema();
    const metrics = new Metrics();
    const replica = database.replica ?? undefined;
    const contextFactory = createContextFactory({ orm: database.orm, config, logger, metrics, replica, now: options.now });

    const expressApp = express();
    const now = options.now ?? (() => new Date());
    const jobs = new PeriodicJobs({ logger, sink: metrics.jobSink(), databaseUnavailable: isDatabaseUnavailable });
    // The operations gauges (terminals by status, backlogs, the pool) are read at each scrape.
    metrics.observeDatabase(operationsSnapshotReader({ orm: database.orm, config, logger, now }));
    metrics.observePool(() => poolUsage(database.orm));
    // With a read replica: its lag at each scrape, and where each heavy read went.
    if (replica) metrics.observeReplica(replica, () => replica.lag(database.orm.em.fork()));
    // The secret this process's virtual terminals send: only they may call /iclock with a sandbox serial.
    const sandboxProof = crypto.randomBytes(24).toString('base64url');
    const terminals = new TerminalGateway({ orm: database.orm, config, logger, metrics, now, sandboxProof });
    // Terminals never go through Express: a heartbeat must cost a fraction of what Express routing
    // and middleware do, and their raw bodies must never meet a JSON or form parser.
    // API requests are counted: the old generation's compaction waits while API clients are served
    // (gc-compaction.ts). Probes and scrapes are not clients: a pause does not hurt them.
    let apiRequests = 0;
    const server = http.createServer((req, res) => {
      if (isIclockRequest(req.url)) return terminals.handle(req, res);
      if (!PROBE_PATH.test(req.url ?? '')) apiRequests += 1;
      expressApp(req, res);
    });
    expressApp.disable('x-powered-by');
    // JSON responses are small and per-request; hashing each for an ETag costs more than it saves.
    expressApp.set('etag', false);
    expressApp.use(assignRequestId);

    expressApp.use(observeRequests(metrics, logger));
    expressApp.use(securityHeaders(config));
    // gzip/deflate/brotli for clients that ask (Accept-Encoding), on bodies over 1 KB: /openapi.json,
    // /metrics, long lists, the console's bundles. Small answers and terminal traffic (not Express) are untouched.
    // Only set up for requests that accept an encoding: the wrapper costs a measurable share of a short read.
    const compress = compression({ threshold: 1024 });
    expressApp.use((req: Request, res: Response, next: NextFunction) => (req.headers['accept-encoding'] ? compress(req, res, next) : next()));
    expressApp.use(operationsRouter({ database, metrics, metricsToken: config.metricsToken, failingJobs: () => jobs.failing() }));
    expressApp.use(apiDocsRouter(routeTable, schema));
    expressApp.use(webRouter());
    const rateLimits = {
      requests: new TokenBuckets(config.rateLimitPerMinute, config.rateLimitBurst),
      bytes: new TokenBuckets(config.rateLimitBytesPerMinute, config.rateLimitBurstBytes),
    };
    expressApp.use(rateLimit(rateLimits));
    expressApp.use(singleSignOnRouter({ orm: database.orm, config, logger, now }));
    expressApp.use(selfServiceRouter({ orm: database.orm, config, logger, now }));

    const operations = new CompiledOperations(schema);
    const graphqlCost = costLimit(schema, config.graphqlMaxCost);
    const repeatedQueries = new RepeatedQueries({ operations, contextFactory, costLimit: graphqlCost, metrics });
    const apollo = new ApolloServer<RequestContext>({
      // Our schema, executed by graphql-jit (src/graphql/compiled-execution.ts).
      gateway: compiledExecutionGateway(schema, operations),
      formatError: (formatted, error) => formatGraphQLError(formatted, error, { debug: config.debugErrors }),
      plugins: [
        ApolloServerPluginDrainHttpServer({ httpServer: server }),
        // No cache hints are used; the default cache-control plugin would wrap every field resolver.
        ApolloServerPluginCacheControlDisabled(),
        costLimitPlugin(graphqlCost),
        unstorableInputPlugin(),
        repeatedQueries.plugin(),
        legacyJsonStatusPlugin(),
        graphqlHttpErrorsPlugin(),
      ],
      validationRules: validationRules(config, { withIntrospectionRule: false }),
      parseOptions: parseOptions(config),
      introspection: config.graphqlIntrospection,
      includeStacktraceInErrorResponses: config.debugErrors,
      // main.ts owns the signal handling: Apollo's own would re-raise SIGTERM before we finish.
      stopOnTerminationSignals: false,
    });
    await apollo.start();
    expressApp.use(
      '/graphql',
      // With tracing on, the HTTP span is named by its route (the operation's own span names the operation).
      ...(tracingEnabled()
        ? [(req: Request, _res: Response, next: NextFunction) => (nameActiveSpan(`${req.method} /graphql`, { 'http.route': '/graphql' }), next())]
        : []),
      graphqlHttpGuard(),
      // The console signed in with single sign-on: its session cookie, with the CSRF token header.
      sessionCredential(),
      express.json({ limit: config.restBodyLimitBytes, verify: refuseDeepJson }),
      graphqlNestingGuard(),
      // A query Apollo already validated and ran is answered directly (src/graphql/repeated-queries.ts).
      repeatedQueries.handler,
      expressMiddleware(apollo, { context: ({ req, res }) => graphQLContext(contextFactory, req, res) }),
    );

    // A company's directory provisions its people here, with a `scim` key (docs/identity.md).
    expressApp.use(SCIM_BASE_PATH, scimRouter({ contextFactory, logger, bodyLimitBytes: config.restBodyLimitBytes }));
    expressApp.use(createRestRouter({ routes: routeTable, schema, contextFactory, config, logger }));
    expressApp.use((req: Request, res: Response) => {
      sendError(res, new DomainError('not_found', `No route for ${req.method} ${req.path}.`), res.locals.requestId);
    });
    expressApp.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      sendError(res, httpError(error, logger, config.debugErrors), res.locals.requestId);
    });

    const events = new EventFeed({ orm: database.orm, databaseUrl: database.url, pollMs: config.eventPollMs, batchMs: config.eventBatchMs, logger });
    metrics.observeEventFeed({ subscriberCount: () => events.totalSubscribers(), lagSeconds: () => events.lagSeconds() });
    await events.start();
    const webhooks = new WebhookWorker({ orm: database.orm, config, logger, now, metrics });
    events.onWake(() => webhooks.kick());
    const housekeeping = new HistoryHousekeeping({ orm: database.orm, config, logger, now });
    // This month's and the coming months' partitions exist before the first row arrives (a row
    // without its month would land in the default partition and have to be moved later). A failure
    // here (a lock held too long) must not stop the start: rows still have the default partition,
    // and the periodic job tries again.
    await housekeeping
      .ensurePartitions()
      .catch((error: unknown) => logger.warn({ err: error }, 'history partitions not created at start; the periodic job retries'));
    // Ingestion comes first: a burst of uploads is stored before the days it changes are computed.
    const attendance = new AttendanceWorker({ orm: database.orm, config, logger, now, metrics, ingestionBusy });
    events.onActivity(() => attendance.kick());
    // Commands queued by another process wake this process's polls of those devices at once.
    events.onCommandsQueued((deviceIds) => commandQueueChanges.emit('queued', deviceIds));
    const subscriptions = startSubscriptionServer({ server, schema, orm: database.orm, config, contextFactory, events, rateLimits, metrics, logger });
    subscriptions.registerJobs(jobs);

    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
    const address = server.address() as AddressInfo;
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const url = `http://${host}:${address.port}`;
    logger.info({ url }, 'timegate listening');
    terminals.registerJobs(jobs);
    webhooks.registerJobs(jobs);
    housekeeping.registerJobs(jobs);
    // Ended visitor passes leave their controllers (the controllers already refuse them by EndTime).
    jobs.add('visitor_passes', VISITOR_PASS_SWEEP_MS, () => removeEndedVisitorPasses(database.orm.em.fork(), now()));
    // The positions of phone punches are erased after TIMEGATE_PUNCH_LOCATION_DAYS (docs/self-service.md).
    jobs.add('punch_locations', PUNCH_LOCATION_SWEEP_MS, () => erasePunchLocations(database.orm.em.fork(), now(), config.punchLocationDays));
    if (config.attendanceWorker) attendance.registerJobs(jobs);
    // Sandboxes' virtual terminals talk to this process's own address, proving themselves with its secret.
    const sandboxTerminals = new SandboxTerminals({ orm: database.orm, config, logger, url, proof: sandboxProof });
    if (config.sandboxTerminals) sandboxTerminals.registerJobs(jobs);
    jobs.start();

    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        // Virtual terminals stop first (saving what they hold) while the server still answers them;
        // their leases are given up so that another process takes them at once.
        await sandboxTerminals.stop().catch((err: unknown) => logger.warn({ err }, 'sandbox terminals did not stop cleanly'));
        // apollo.stop() drains the HTTP server: no new connections, in-flight requests finish.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await subscriptions.close();
        await apollo.stop();
        await closed;
        // Background work takes nothing new from here on: a backlog (attendance days, webhook
        // deliveries) waits in the database for the next process instead of holding this one.
        attendance.stop();
        const webhooksStopped = webhooks.stop();
        await jobs.stop();
        await terminals.stop();
        // In-flight webhook requests finish (and are recorded) before the database closes.
        await webhooksStopped;
        await events.stop();
        await database.close();
        logger.info('timegate stopped');
      })());
    return {
      url,
      server,
      database,
      schema,
      logger,
      metrics,
      terminals,
      events,
      webhooks,
      housekeeping,
      attendance,
      sandboxTerminals,
      jobs,
      bootstrapKey: created?.key ?? null,
      clientActivity: () => ({ apiRequests, openSubscriptions: events.totalSubscribers() }),
      stop,
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Health probes and the metrics scrape. */
const PROBE_PATH = /^\/(healthz|readyz|metrics)(\?|$)/;

function assignRequestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get('X-Request-Id');
  const requestId = incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : crypto.randomUUID();
  res.locals.requestId = requestId;
  res.setHeader('X-Request-Id', requestId);
  next();
}

/** Apollo context: an unauthenticated GraphQL request is refused with HTTP 401 like any other. */
async function graphQLContext(contextFactory: ContextFactory, req: Request, res: Response): Promise<RequestContext> {
  try {
    return await contextFactory({ authorization: req.headers.authorization, requestId: res.locals.requestId, origin: `${req.protocol}://${req.get('host')}` });
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      throw new GraphQLError(DATABASE_UNAVAILABLE_MESSAGE, {
        extensions: {
          code: 'service_unavailable',
          requestId: res.locals.requestId,
          http: { status: 503, headers: new Map([['retry-after', String(DATABASE_RETRY_AFTER_SECONDS)]]) },
        },
      });
    }
    if (!(error instanceof DomainError)) throw error;
    throw new GraphQLError(error.message, {
      extensions: {
        code: error.code,
        requestId: res.locals.requestId,
        http: { status: statusOf(error.code), headers: new Map([['www-authenticate', 'Bearer']]) },
      },
    });
  }
}

/** Errors raised by Express itself (body parser on /graphql, ...) in the REST error shape. */
function httpError(error: unknown, logger: Logger, debug: boolean): DomainError {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') return new DomainError('payload_too_large', 'The request body is larger than the limit.');
  if (type === 'entity.parse.failed') return new DomainError('malformed_json', 'The request body is not valid JSON.');
  return toPublicError(error, { logger, debug });
}
