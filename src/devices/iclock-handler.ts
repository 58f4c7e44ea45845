// Transport of the terminal protocol, below Express: the http.Server hands every `/iclock/*`
// request straight to this handler (app.ts), so a heartbeat costs no routing, middleware or body
// parsing. Raw bodies whatever the Content-Type (or none), any path case, trailing slash or `.aspx`,
// and plain-text replies with Content-Length and a GMT Date header (the terminal sets its clock from
// it) — never chunked, compressed or ETagged.
import crypto from 'node:crypto';
import type http from 'node:http';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics';
import type { Principal, RequestContext } from '../context/request-context';
import { iclockEndpoint, iclockMethods, isIclockMethod, queryParams, type IclockEndpoint, type IclockQuery } from '../protocol';
import { cidrMatcher, clientAddress } from '../kernel/source-address';
import { terminalRequestKind } from './request-kind';
import { uploadLane } from './upload-slots';
import { handleTerminalRequest, type TerminalDeps, type TerminalReply } from './terminal-requests';
import { TerminalGone } from './upload-handlers';
import { sandboxProofValid } from './terminal-proof';
import { isSandboxSerial, SANDBOX_PROOF_HEADER } from '../kernel/sandbox';

export interface IclockHandlerDeps extends TerminalDeps {
  orm: MikroORM;
  logger: Logger;
  metrics: Metrics;
  now: () => Date;
  /** The secret this process's virtual terminals send (SANDBOX_PROOF_HEADER); none: every sandbox serial is refused. */
  sandboxProof?: string | null;
}

const ICLOCK_PATH = /^\/iclock\//i;

/** Whether the server should give this request to the terminal handler rather than to Express. */
export function isIclockRequest(url: string | undefined): boolean {
  return url !== undefined && ICLOCK_PATH.test(url);
}

function sendText(res: http.ServerResponse, now: Date, { status, body }: TerminalReply): void {
  res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body), Date: now.toUTCString() });
  // A string body goes out in one write together with the header block (a Buffer makes two).
  res.end(body);
}

/** The terminal's address: the socket peer, or X-Forwarded-For behind a trusted proxy (TIMEGATE_TRUSTED_PROXIES). */
function remoteAddress(req: http.IncomingMessage, trustedProxy: ((address: string) => boolean) | null): string {
  const forwarded = req.headers['x-forwarded-for'];
  return clientAddress(req.socket.remoteAddress ?? 'unknown', Array.isArray(forwarded) ? forwarded.join(',') : forwarded, trustedProxy);
}

class BodyTooLarge extends Error {}

/** The body of every GET without one (zero-length, so sharing it is safe): a heartbeat allocates no Buffer. */
const NO_BODY = Buffer.alloc(0);

/** The raw body bytes, refused beyond `limit`. A GET/HEAD without a declared body is not read at all. */
function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> | Buffer {
  const declared = req.headers['content-length'];
  if (declared === undefined && req.headers['transfer-encoding'] === undefined) return NO_BODY;
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
 * first use: a heartbeat answered from memory needs none of them. A class rather than an object
 * literal with getters (which made three closures and a slow-mode object per request); services
 * derive transaction contexts with `withEm`, which reads the getters.
 */
class TerminalContext implements RequestContext {
  readonly principal: Principal;
  readonly now: () => Date;
  readonly config: IclockHandlerDeps['config'];
  readonly metrics: Metrics;
  private forked: EntityManager | undefined = undefined;
  private id: string | undefined = undefined;
  private child: Logger | undefined = undefined;

  constructor(
    private readonly deps: IclockHandlerDeps,
    private readonly serialNumber: string,
  ) {
    this.principal = { kind: 'terminal', serialNumber };
    this.now = deps.now;
    this.config = deps.config;
    this.metrics = deps.metrics;
  }

  get em(): EntityManager {
    return (this.forked ??= this.deps.orm.em.fork());
  }

  get requestId(): string {
    return (this.id ??= crypto.randomUUID());
  }

  get logger(): Logger {
    return (this.child ??= this.deps.logger.child({ requestId: this.requestId, serial: this.serialNumber }));
  }
}

export function createIclockHandler(deps: IclockHandlerDeps): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const trustedProxy = deps.config.trustedProxies.length > 0 ? cidrMatcher(deps.config.trustedProxies) : null;
  const failed = (ctx: RequestContext, res: http.ServerResponse, now: Date, endpoint: string, kind: string, error: unknown) => {
    if (error instanceof TerminalGone) {
      // Nobody to answer: the upload was left for the terminal's re-send (upload-handlers.ts).
      deps.metrics.terminalUploadsAbandoned.inc();
      ctx.logger.info({ endpoint }, error.message);
      res.destroy();
      return;
    }
    // Only infrastructure failures get here (parsers never throw): answer 503 so the terminal
    // keeps its records and sends them again, rather than acknowledging data we did not keep.
    ctx.logger.error({ err: error, endpoint }, 'terminal request failed');
    deps.metrics.terminalRequestErrors.inc({ endpoint, kind });
    if (!res.headersSent) sendText(res, now, { status: 503, body: 'Service Unavailable' });
    else res.destroy();
  };
  const answer = (ctx: RequestContext, res: http.ServerResponse, now: Date, endpoint: string, reply: TerminalReply) => {
    if (reply.status !== 200) ctx.logger.info({ endpoint, status: reply.status, reply: reply.body }, 'terminal request refused');
    sendText(res, now, reply);
  };
  /** Answers; an upload stored and acknowledged is timed from its body received (an SLI of docs/operations.md). */
  const finish = (
    ctx: RequestContext,
    res: http.ServerResponse,
    now: Date,
    endpoint: string,
    kind: string,
    bytes: number,
    started: number,
    reply: TerminalReply,
  ) => {
    answer(ctx, res, now, endpoint, reply);
    if (started >= 0 && reply.status === 200)
      deps.metrics.terminalUploadDuration.observe({ table: kind, lane: uploadLane(bytes) }, (performance.now() - started) / 1000);
  };
  const dispatch = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    now: Date,
    endpoint: IclockEndpoint,
    query: IclockQuery,
    serialNumber: string,
    body: Buffer,
  ) => {
    const ctx = new TerminalContext(deps, serialNumber);
    const method = req.method ?? 'GET';
    const kind = terminalRequestKind(endpoint, method, query);
    deps.metrics.countTerminalRequest(endpoint, kind);
    // Uploads of records are timed (a heartbeat or poll costs no clock read).
    const started = endpoint === 'cdata' && method === 'POST' ? performance.now() : -1;
    try {
      const reply = handleTerminalRequest(ctx, deps, {
        endpoint,
        method,
        query,
        serialNumber,
        body,
        cookie: req.headers.cookie,
        remoteAddress: remoteAddress(req, trustedProxy),
        clientGone: () => res.destroyed,
      });
      // A heartbeat answered from memory is written in the same tick, without a promise.
      if (reply instanceof Promise)
        reply.then(
          (r) => finish(ctx, res, now, endpoint, kind, body.length, started, r),
          (error) => failed(ctx, res, now, endpoint, kind, error),
        );
      else finish(ctx, res, now, endpoint, kind, body.length, started, reply);
    } catch (error) {
      failed(ctx, res, now, endpoint, kind, error);
    }
  };
  return (req, res) => {
    const url = req.url ?? '/';
    const now = deps.now();
    const endpoint = iclockEndpoint(url);
    if (!endpoint) return sendText(res, now, { status: 404, body: 'Not Found' });
    if (!isIclockMethod(req.method, endpoint)) {
      res.setHeader('Allow', iclockMethods(endpoint).join(', '));
      return sendText(res, now, { status: 405, body: 'Method Not Allowed' });
    }
    const query = queryParams(url);
    const serialNumber = query.get('SN')?.trim();
    if (!serialNumber || !/^[A-Za-z0-9_-]{1,64}$/.test(serialNumber)) return sendText(res, now, { status: 400, body: 'SN is required' });
    // A sandbox serial is a virtual terminal that this very process plays: anything else calling
    // with one (a real terminal, a copy of the serial) is refused before it is looked up or recorded.
    if (isSandboxSerial(serialNumber) && !sandboxProofValid(req.headers[SANDBOX_PROOF_HEADER], deps.sandboxProof)) {
      deps.metrics.terminalRequestsRefused.labels('sandbox').inc();
      deps.logger.warn({ serial: serialNumber, remoteAddress: remoteAddress(req, trustedProxy) }, 'terminal request refused: a sandbox serial from outside');
      return sendText(res, now, { status: 403, body: 'Sandbox serials are virtual terminals played by Timegate itself' });
    }
    const body = readBody(req, deps.config.iclockBodyLimitBytes);
    if (Buffer.isBuffer(body)) return dispatch(req, res, now, endpoint, query, serialNumber, body);
    body.then(
      (bytes) => dispatch(req, res, now, endpoint, query, serialNumber, bytes),
      (error) => {
        deps.logger.warn({ err: error, path: url }, 'terminal request body unreadable');
        sendText(res, deps.now(), error instanceof BodyTooLarge ? { status: 413, body: 'Payload Too Large' } : { status: 400, body: 'Bad Request' });
      },
    );
  };
}
