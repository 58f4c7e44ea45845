// GraphQL over graphql-ws on the same HTTP server and path as Apollo (`/graphql`). The key comes in
// `connectionParams` (`{ authorization: 'Bearer <key>' }` or `{ apiKey: '<key>' }`) and is checked at
// connection_init: missing/unknown/revoked closes with 4401 Unauthorized, a key without `read` (or
// the operator key, which has no workspace) with 4403 Forbidden.
//
// Every operation on the socket passes the same rules as POST /graphql (graphql-rules.ts: token,
// depth, field-count and cost limits, the introspection switch), takes from the same per-key rate
// limit, and its errors are formatted (internals only with TIMEGATE_DEBUG_ERRORS) by the same function. Frames are
// capped at the HTTP body limit, sockets not yet accepted are capped per process and must send
// connection_init in time, and an accepted socket whose key is revoked is closed with 4403 within
// the key cache time. Message bytes take from the key's body-byte budget (the address's before
// connection_init); a socket that spent it is not read until it refills: its next frames wait in
// the network buffers instead of being parsed, and the sender slows down to the budget.
import type http from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Config } from '../config/config';
import { DomainError } from '../errors/domain-error';
import type { PeriodicJobs } from '../jobs/periodic-jobs';
import { type ApiRateLimits, rateLimitKey } from '../limits/rate-limit';
import type { Metrics } from '../observability/metrics';
import type { ContextFactory } from '../services/identity/request-context-factory';
import { formatGraphQLError } from './format-error';
import { checkOperation } from './graphql-rules';
import { authenticate } from '../services/identity/api-key.service';
import { hasScope } from '../context/request-context';
import type { EventFeed, SubscriptionContext } from '../events/event-feed';
import { subscribeShared } from './shared-execution';
import { batchWrites } from './socket-batching';
import { consoleCredential } from '../services/identity/session-credential';

/** `Bearer <key>` from either accepted connectionParams shape, or undefined. */
export function authorizationOf(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const authorization = params?.authorization ?? params?.Authorization;
  if (typeof authorization === 'string') return authorization;
  return typeof params?.apiKey === 'string' ? `Bearer ${params.apiKey}` : undefined;
}

export interface SubscriptionServer {
  /** Puts the periodic re-check of the open sockets' keys on the job runner. */
  registerJobs(jobs: PeriodicJobs): void;
  /** Closes every socket whose key is no longer valid (4403); the job runs it every key cache time. */
  closeRevoked(): Promise<number>;
  /** Closes every socket (1001 going away) and the server. */
  close(): Promise<void>;
}

function messageBytes(data: Buffer | ArrayBuffer | Buffer[]): number {
  return Array.isArray(data) ? data.reduce((n, part) => n + part.length, 0) : data.byteLength;
}

/** Longest single pause of a socket over its byte budget (below graphql-ws's 12 s keep-alive). */
const MAX_PAUSE_MS = 5_000;

/** Close codes: RFC 6455 1013 "try again later"; graphql-ws's 4403 Forbidden. */
const TRY_AGAIN_LATER = 1013;
const FORBIDDEN = 4403;

export function startSubscriptionServer(deps: {
  server: http.Server;
  schema: GraphQLSchema;
  orm: MikroORM;
  config: Config;
  contextFactory: ContextFactory;
  events: EventFeed;
  rateLimits: ApiRateLimits;
  metrics: Metrics;
  logger: Logger;
}): SubscriptionServer {
  const { config } = deps;
  const debug = config.debugErrors;
  // A frame larger than a request body may be is refused by `ws` itself (close 1009), before it is buffered whole.
  const wsServer = new WebSocketServer({ server: deps.server, path: '/graphql', maxPayload: config.restBodyLimitBytes });
  const unauthenticated = new Set<WebSocket>();
  const accepted = new Map<WebSocket, string>();
  const throttle = (socket: WebSocket, key: string, bytes: number) => {
    const waitMs = deps.rateLimits.bytes.spend(key, bytes);
    if (waitMs === 0 || socket.isPaused) return;
    socket.pause();
    deps.metrics.websocketThrottled.inc();
    // At most MAX_PAUSE_MS at a time: an unread socket cannot answer graphql-ws's keep-alive ping
    // (12 s), and is terminated if it stays unread that long. Still in debt, its next message pauses it again.
    setTimeout(() => socket.resume(), Math.min(waitMs, MAX_PAUSE_MS)).unref();
  };
  wsServer.on('connection', (socket: WebSocket, request: http.IncomingMessage) => {
    if (unauthenticated.size >= config.wsMaxUnauthenticated) {
      socket.close(TRY_AGAIN_LATER, 'Too many connections waiting for connection_init');
      return;
    }
    const address = request.socket.remoteAddress;
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => throttle(socket, rateLimitKey(accepted.get(socket), address), messageBytes(data)));
    unauthenticated.add(socket);
    socket.once('close', () => {
      unauthenticated.delete(socket);
      accepted.delete(socket);
    });
  });
  // Registered before useServer's own listener: every frame graphql-ws sends goes through the batching.
  wsServer.on('connection', (socket: WebSocket) => batchWrites(socket));
  const authorizations = new WeakMap<object, string>();
  const format = (error: GraphQLError | GraphQLFormattedError) =>
    formatGraphQLError(error instanceof GraphQLError ? error.toJSON() : error, error, { debug }) as unknown as GraphQLError;

  const cleanup = useServer<Record<string, unknown>>(
    {
      schema: deps.schema,
      subscribe: subscribeShared,
      connectionInitWaitTimeout: config.wsInitTimeoutMs,
      onConnect: async (ctx) => {
        const socket = ctx.extra.socket;
        let authorization: string | undefined;
        let principal;
        try {
          // The console signed in with single sign-on: the handshake's session cookie, with the
          // session's CSRF token in the connection parameters.
          const csrfToken = typeof ctx.connectionParams?.csrfToken === 'string' ? ctx.connectionParams.csrfToken : undefined;
          authorization = consoleCredential({ authorization: authorizationOf(ctx.connectionParams), cookie: ctx.extra.request.headers.cookie }, csrfToken);
          principal = await authenticate(deps.orm.em.fork(), authorization, config.masterKey);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          socket.close(4401, 'Unauthorized');
          return false;
        }
        if (principal.kind !== 'workspace' || !hasScope(principal.scopes, 'read')) return false; // 4403 Forbidden
        authorizations.set(ctx, authorization!);
        unauthenticated.delete(socket);
        accepted.set(socket, authorization!);
        return true;
      },
      onSubscribe: (ctx, _id, payload) => {
        const allowed = deps.rateLimits.requests.take(rateLimitKey(authorizations.get(ctx), undefined));
        if (!allowed.allowed) {
          return [
            new GraphQLError(`Too many requests for this key; retry in ${allowed.retryAfterSeconds} s.`, {
              extensions: { code: 'rate_limited', retryAfter: allowed.retryAfterSeconds },
            }),
          ];
        }
        // Errors go back as GraphQLError objects (graphql-ws insists); onError formats them.
        const checked = checkOperation(deps.schema, config, payload);
        if ('errors' in checked) return checked.errors;
        return { schema: deps.schema, document: checked.document, operationName: payload.operationName, variableValues: payload.variables };
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map(format) } : undefined),
      onError: (_ctx, _id, _payload, errors) => errors.map(format),
      context: async (ctx): Promise<SubscriptionContext> => ({
        ...(await deps.contextFactory({ authorization: authorizations.get(ctx) })),
        events: deps.events,
      }),
    },
    wsServer,
  );
  // A client's protocol errors (an oversize frame: `ws` closes with 1009 itself) are not internal
  // errors: graphql-ws would print each to the console, a log flood any anonymous client could cause.
  wsServer.on('connection', (socket: WebSocket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err) => deps.logger.debug({ err }, 'websocket client error'));
  });

  const closeRevoked = async (): Promise<number> => {
    let closed = 0;
    for (const [socket, authorization] of accepted) {
      try {
        await authenticate(deps.orm.em.fork(), authorization, config.masterKey, config.keyCacheMs);
      } catch (error) {
        // Only a definite "not valid" closes the socket; a database hiccup does not sign anyone out.
        if (!(error instanceof DomainError)) throw error;
        accepted.delete(socket);
        socket.close(FORBIDDEN, 'Forbidden: the API key was revoked');
        closed += 1;
      }
    }
    if (closed > 0) deps.logger.info({ closed }, 'closed subscriptions of revoked API keys');
    return closed;
  };

  return {
    registerJobs: (jobs) => jobs.add('socket_keys', Math.max(1000, config.keyCacheMs), closeRevoked),
    closeRevoked,
    close: async () => {
      for (const client of wsServer.clients) client.close(1001, 'Going away');
      await cleanup.dispose();
    },
  };
}
