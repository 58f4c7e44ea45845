// GraphQL subscriptions over graphql-ws on the same HTTP server and path as Apollo (`/graphql`).
// The key comes in `connectionParams` (`{ authorization: 'Bearer <key>' }` or `{ apiKey: '<key>' }`)
// and is checked once at connection_init: missing/unknown/revoked closes with 4401 Unauthorized, a
// key without `read` (or the operator key, which has no workspace) with 4403 Forbidden.
import type http from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Config } from '../config/config';
import { DomainError } from '../errors/domain-error';
import type { SubscriptionContext } from '../resolvers/event.resolver';
import type { ContextFactory } from '../schema/context-factory';
import { authenticate } from '../services/api-key.service';
import { hasScope } from '../services/context';
import type { EventFeed } from './event-feed';
import { subscribeShared } from './shared-execution';
import { batchWrites } from './socket-batching';

/** `Bearer <key>` from either accepted connectionParams shape, or undefined. */
export function authorizationOf(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const authorization = params?.authorization ?? params?.Authorization;
  if (typeof authorization === 'string') return authorization;
  return typeof params?.apiKey === 'string' ? `Bearer ${params.apiKey}` : undefined;
}

export interface SubscriptionServer {
  /** Closes every socket (1001 going away) and the server. */
  close(): Promise<void>;
}

export function startSubscriptionServer(deps: {
  server: http.Server;
  schema: GraphQLSchema;
  orm: MikroORM;
  config: Config;
  contextFactory: ContextFactory;
  events: EventFeed;
}): SubscriptionServer {
  const wsServer = new WebSocketServer({ server: deps.server, path: '/graphql' });
  // Registered before useServer's own listener: every frame graphql-ws sends goes through the batching.
  wsServer.on('connection', batchWrites);
  const authorizations = new WeakMap<object, string>();
  const cleanup = useServer<Record<string, unknown>>(
    {
      schema: deps.schema,
      subscribe: subscribeShared,
      onConnect: async (ctx) => {
        const authorization = authorizationOf(ctx.connectionParams);
        let principal;
        try {
          principal = await authenticate(deps.orm.em.fork(), authorization, deps.config.masterKey);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          ctx.extra.socket.close(4401, 'Unauthorized');
          return false;
        }
        if (principal.kind !== 'workspace' || !hasScope(principal.scopes, 'read')) return false; // 4403 Forbidden
        authorizations.set(ctx, authorization!);
        return true;
      },
      context: async (ctx): Promise<SubscriptionContext> => ({
        ...(await deps.contextFactory({ authorization: authorizations.get(ctx) })),
        events: deps.events,
      }),
    },
    wsServer,
  );
  return {
    close: async () => {
      for (const client of wsServer.clients) client.close(1001, 'Going away');
      await cleanup.dispose();
    },
  };
}
