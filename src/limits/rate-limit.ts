import crypto from 'node:crypto';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import { sendError } from '../errors/error-response';
import type { TokenBuckets } from './token-bucket';

/**
 * The bucket of a request: the presented key (its hash; no database lookup is needed for that), or
 * the client address without one. GraphQL over WebSocket takes from the same buckets.
 */
export function rateLimitKey(authorization: string | undefined, address: string | undefined): string {
  const bearer = /^Bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
  return bearer ? `k:${crypto.createHash('sha256').update(bearer).digest('base64url').slice(0, 22)}` : `ip:${address}`;
}

/** Bytes a connection had read when its last request with a body ended (where a chunked body's charge starts). */
const connectionRead = new WeakMap<Socket, number>();

/** The per-key budgets of the API surfaces: requests, and request body bytes. */
export interface ApiRateLimits {
  requests: TokenBuckets;
  bytes: TokenBuckets;
}

/**
 * Per-key rate limit of the API surfaces (REST, GraphQL over HTTP and over WebSocket), reported
 * with the IETF `RateLimit-Limit`/`-Remaining`/`-Reset` headers and answered 429 with `Retry-After`
 * when spent. Two budgets: requests, and body bytes. A body whose declared length is over the byte
 * budget is refused before it is decoded or parsed, and its connection closed rather than read to
 * the end: a client sending megabyte documents back to back (alias bombs, which the GraphQL limits
 * refuse only after reading and parsing them) made the process spend most of its time collecting
 * their garbage, and every other workspace waited. A request over the request budget that has a
 * body is answered the same way (429, connection closed, body unread). A chunked body, whose size
 * is known only once read, is charged when its request ends and may run the budget into debt,
 * refusing the key's next bodies. Buckets live in each process: with N processes behind a balancer
 * a key gets up to N times the limit (documented in docs/limits.md).
 */
export function rateLimit(limits: ApiRateLimits) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = rateLimitKey(req.get('authorization'), req.ip);
    const result = limits.requests.take(key);
    res.setHeader('RateLimit-Limit', String(result.limit));
    res.setHeader('RateLimit-Remaining', String(result.remaining));
    res.setHeader('RateLimit-Reset', String(result.resetSeconds));
    const declared = req.headers['content-length'];
    const declaredBytes = declared === undefined ? 0 : Number(declared);
    const chunked = declaredBytes <= 0 && req.headers['transfer-encoding'] !== undefined;
    if (!result.allowed) {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      // Nor is its body read: to keep the connection, Node would read it to the end, and refused
      // megabyte bodies read back to back made a full collection every ~200 ms (noisy-neighbour
      // scenario), each pausing every workspace's requests.
      if (declaredBytes > 0 || chunked) res.setHeader('Connection', 'close');
      sendError(res, new DomainError('rate_limited', `Too many requests for this key; retry in ${result.retryAfterSeconds} s.`), res.locals.requestId);
      return;
    }
    // An empty body costs nothing: a key in debt (chunked bodies, WebSocket messages) still reads.
    if (declaredBytes > 0) {
      const bytes = limits.bytes.take(key, declaredBytes);
      if (!bytes.allowed) {
        res.setHeader('Retry-After', String(bytes.retryAfterSeconds));
        res.setHeader('Connection', 'close');
        const message = `Too many request bytes for this key: this ${declared}-byte body is over its budget; retry in ${bytes.retryAfterSeconds} s.`;
        sendError(res, new DomainError('rate_limited', message), res.locals.requestId);
        return;
      }
      res.once('finish', () => connectionRead.set(req.socket, req.socket.bytesRead));
    } else if (chunked) {
      // Node may have read the whole request before this runs: what it cost is what the connection
      // read since the end of its previous request with a body (bodyless requests' headers included).
      const start = connectionRead.get(req.socket) ?? 0;
      res.once('finish', () => {
        limits.bytes.spend(key, req.socket.bytesRead - start);
        connectionRead.set(req.socket, req.socket.bytesRead);
      });
    }
    next();
  };
}
