// Transport of the terminal protocol, below Express: the http.Server hands every `/iclock/*`
// request straight to this handler (app.ts), so a heartbeat costs no routing, middleware or body
// parsing. Raw bodies whatever the Content-Type (or none), any path case, trailing slash or `.aspx`,
// and plain-text replies with Content-Length and a GMT Date header (the terminal sets its clock from
// it) — never chunked, compressed or ETagged.
import crypto from 'node:crypto';
import type http from 'node:http';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { RequestContext } from '../services/context';
import { iclockEndpoint, queryParams } from './protocol';
import { handleTerminalRequest, type TerminalDeps, type TerminalReply } from './terminal-requests';

export interface IclockHandlerDeps extends TerminalDeps {
  orm: MikroORM;
  logger: Logger;
  now: () => Date;
}

const ICLOCK_PATH = /^\/iclock\//i;

/** Whether the server should give this request to the terminal handler rather than to Express. */
export function isIclockRequest(url: string | undefined): boolean {
  return url !== undefined && ICLOCK_PATH.test(url);
}

function sendText(res: http.ServerResponse, now: Date, { status, body }: TerminalReply): void {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': bytes.length, Date: now.toUTCString() });
  res.end(bytes);
}

function remoteAddress(req: http.IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

class BodyTooLarge extends Error {}

/** The raw body bytes, refused beyond `limit`. A GET/HEAD without a declared body is not read at all. */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> | Buffer {
  const declared = req.headers['content-length'];
  if (declared === undefined && req.headers['transfer-encoding'] === undefined) return Buffer.alloc(0);
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A terminal request context whose EntityManager fork, request id and child logger are made on
 * first use: a heartbeat answered from memory needs none of them.
 */
function terminalContext(deps: IclockHandlerDeps, serialNumber: string): RequestContext {
  let em: EntityManager | undefined;
  let requestId: string | undefined;
  let logger: Logger | undefined;
  return {
    principal: { kind: 'terminal', serialNumber },
    get em() {
      return (em ??= deps.orm.em.fork());
    },
    get requestId() {
      return (requestId ??= crypto.randomUUID());
    },
    get logger() {
      return (logger ??= deps.logger.child({ requestId: this.requestId, serial: serialNumber }));
    },
    now: deps.now,
    config: deps.config,
  };
}

export function createIclockHandler(deps: IclockHandlerDeps): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const now = deps.now();
    const endpoint = iclockEndpoint(url);
    if (!endpoint) return sendText(res, now, { status: 404, body: 'Not Found' });
    const query = queryParams(url);
    const serialNumber = query.get('SN')?.trim();
    if (!serialNumber || !/^[A-Za-z0-9_-]{1,64}$/.test(serialNumber)) return sendText(res, now, { status: 400, body: 'SN is required' });
    let body: Buffer;
    try {
      body = await readBody(req, deps.config.iclockBodyLimitBytes);
    } catch (error) {
      deps.logger.warn({ err: error, path: url }, 'terminal request body unreadable');
      return sendText(res, deps.now(), error instanceof BodyTooLarge ? { status: 413, body: 'Payload Too Large' } : { status: 400, body: 'Bad Request' });
    }
    const ctx = terminalContext(deps, serialNumber);
    try {
      const reply = await handleTerminalRequest(ctx, deps, {
        endpoint,
        method: req.method ?? 'GET',
        query,
        serialNumber,
        body,
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
  };
  return (req, res) => {
    serve(req, res).catch((error) => {
      deps.logger.error({ err: error }, 'terminal reply failed');
      if (!res.headersSent) sendText(res, deps.now(), { status: 503, body: 'Service Unavailable' });
      else res.destroy();
    });
  };
}
