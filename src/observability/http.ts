import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Database } from '../db/database';
import type { Metrics } from './metrics';

/**
 * Counts and times every API request by its route pattern (never the raw path, which would explode
 * the label set) and writes one access-log line with the request id.
 */
export function observeRequests(metrics: Metrics, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req, res);
      metrics.httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
      metrics.httpDuration.observe({ method: req.method, route }, seconds);
      logger.info(
        { requestId: res.locals.requestId, method: req.method, route, path: req.path, status: res.statusCode, ms: Math.round(seconds * 1e4) / 10 },
        'request',
      );
    });
    next();
  };
}

function routeLabel(req: Request, res: Response): string {
  // The REST dispatcher names its route pattern in res.locals (it does not use Express's routing).
  if (typeof res.locals.route === 'string') return res.locals.route;
  if (req.route?.path) return `${req.baseUrl}${req.route.path}`;
  if (req.baseUrl) return req.baseUrl;
  // Answered before any route matched (a 404, a 429 of the rate limit, which runs first): a fixed
  // label. The raw path would let anonymous traffic create a metric series per URL it invents.
  return res.statusCode === 429 ? 'rate_limited' : 'unmatched';
}

/**
 * Operational endpoints, without API keys: `/healthz` (liveness: the process serves; answered
 * without touching the database, so 200 also while it is unreachable: restarting a process cannot
 * bring a database back, and a failover is waited out, not restarted through), `/readyz`
 * (readiness: the database reachable and writable within 1.5 s over a connection of its own, not
 * the pool's (readiness-probe.ts), every migration of this release recorded in it,
 * no periodic job failing 3 runs in a row) and `/metrics` (Prometheus text format; protected by
 * `TIMEGATE_METRICS_TOKEN` when set).
 */
export function operationsRouter(deps: { database: Database; metrics: Metrics; metricsToken: string | null; failingJobs: () => string[] }): express.Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const { database, pendingMigrations } = await deps.database.readiness.check();
    const failingJobs = deps.failingJobs();
    const ready = database === 'reachable' && pendingMigrations !== null && pendingMigrations.length === 0 && failingJobs.length === 0;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not_ready',
      database,
      pending_migrations: pendingMigrations,
      failing_jobs: failingJobs,
    });
  });
  router.get('/metrics', async (req, res) => {
    if (deps.metricsToken && req.get('authorization') !== `Bearer ${deps.metricsToken}`) {
      res.status(401).setHeader('WWW-Authenticate', 'Bearer').type('text/plain').send('metrics need the metrics token\n');
      return;
    }
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  return router;
}
