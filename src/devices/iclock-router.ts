// Transport of the terminal protocol: `/iclock/*` with raw bodies whatever the Content-Type (or
// none), any path case, trailing slash or `.aspx`, and plain-text replies with Content-Length and a
// GMT Date header (the terminal sets its clock from it) — never chunked, compressed or ETagged.
import crypto from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { RequestContext } from '../services/context';
import { iclockEndpoint, queryParams } from './protocol';
import { handleTerminalRequest, type TerminalDeps, type TerminalReply } from './terminal-requests';

export interface IclockRouterDeps extends TerminalDeps {
  orm: MikroORM;
  logger: Logger;
  now: () => Date;
}

function sendText(res: Response, now: Date, { status, body }: TerminalReply): void {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': bytes.length, Date: now.toUTCString() });
  res.end(bytes);
}

function remoteAddress(req: Request): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function createIclockRouter(deps: IclockRouterDeps): express.Router {
  const router = express.Router({ caseSensitive: false });
  // Raw bytes for every Content-Type, including none (a type-based parser drops such bodies, §2).
  const raw = express.raw({ type: () => true, limit: deps.config.iclockBodyLimitBytes });
  router.use((req, res, next) => (/^\/iclock\//i.test(req.path) ? raw(req, res, next) : next()));

  router.all(/^\/iclock\/.*/i, async (req: Request, res: Response) => {
    const now = deps.now();
    const endpoint = iclockEndpoint(req.path);
    const query = queryParams(req.originalUrl);
    const serialNumber = query.get('SN')?.trim();
    if (!endpoint) return sendText(res, now, { status: 404, body: 'Not Found' });
    if (!serialNumber || !/^[A-Za-z0-9_-]{1,64}$/.test(serialNumber)) return sendText(res, now, { status: 400, body: 'SN is required' });
    const requestId = crypto.randomUUID();
    const ctx: RequestContext = {
      principal: { kind: 'terminal', serialNumber },
      em: deps.orm.em.fork(),
      requestId,
      logger: deps.logger.child({ requestId, serial: serialNumber }),
      now: deps.now,
      config: deps.config,
    };
    try {
      const reply = await handleTerminalRequest(ctx, deps, {
        endpoint,
        method: req.method,
        query,
        serialNumber,
        body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        cookie: req.headers.cookie,
        remoteAddress: remoteAddress(req),
      });
      if (reply.status !== 200) ctx.logger.info({ endpoint, status: reply.status, reply: reply.body }, 'terminal request refused');
      sendText(res, now, reply);
    } catch (error) {
      // Only infrastructure failures get here (parsers never throw): answer 503 so the terminal
      // keeps its records and sends them again, rather than acknowledging data we did not keep.
      ctx.logger.error({ err: error, endpoint }, 'terminal request failed');
      sendText(res, now, { status: 503, body: 'Service Unavailable' });
    }
  });

  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!/^\/iclock\//i.test(req.path)) return next(error);
    const type = (error as { type?: string }).type;
    deps.logger.warn({ err: error, path: req.path }, 'terminal request body unreadable');
    sendText(res, deps.now(), type === 'entity.too.large' ? { status: 413, body: 'Payload Too Large' } : { status: 400, body: 'Bad Request' });
  });
  return router;
}
