import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import type { Metrics } from '../../observability/metrics';
import type { ReadReplica } from '../../db/read-replica';
import { authenticate } from './api-key.service';
import type { RequestContext } from '../../context/request-context';

/**
 * The one way a request context is made, for Apollo, graphql-ws and the REST surface alike:
 * authenticate the key, fork an EntityManager, attach a request id, a logger and the clock.
 */
export type ContextFactory = (request: { authorization?: string; requestId?: string; origin?: string }) => Promise<RequestContext>;

export function createContextFactory(deps: {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  metrics?: Metrics;
  replica?: ReadReplica;
  now?: () => Date;
}): ContextFactory {
  const now = deps.now ?? (() => new Date());
  return async ({ authorization, requestId, origin }) => {
    const em = deps.orm.em.fork();
    const principal = await authenticate(em, authorization, deps.config.masterKey, deps.config.keyCacheMs);
    const id = requestId ?? crypto.randomUUID();
    // The request's child logger is made on first use: most requests never log through it, and a
    // pino child (bindings serialised, a new instance) is a measurable part of a short read.
    let logger: Logger | undefined;
    return {
      principal,
      em,
      requestId: id,
      get logger() {
        return (logger ??= deps.logger.child({ requestId: id }));
      },
      now,
      config: deps.config,
      metrics: deps.metrics,
      replica: deps.replica,
      loaders: new Map(),
      origin,
    };
  };
}
