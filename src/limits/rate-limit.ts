import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import { sendError } from '../rest/error-response';
import type { TokenBuckets } from './token-bucket';

/**
 * The bucket of a request: the presented key (its hash; no database lookup is needed for that), or
 * the client address without one. GraphQL over WebSocket takes from the same buckets.
 */
export function rateLimitKey(authorization: string | undefined, address: string | undefined): string {
  const bearer = /^Bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
  return bearer ? `k:${crypto.createHash('sha256').update(bearer).digest('base64url').slice(0, 22)}` : `ip:${address}`;
}

/**
 * Per-key rate limit of the API surfaces (REST, GraphQL over HTTP and over WebSocket), reported with the IETF
 * `RateLimit-Limit`/`-Remaining`/`-Reset` headers and answered 429 with `Retry-After` when spent.
 * Buckets live in each process: with N processes behind
 * a balancer a key gets up to N times the limit (documented in docs/limits.md).
 */
export function rateLimit(buckets: TokenBuckets) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const result = buckets.take(rateLimitKey(req.get('authorization'), req.ip));
    res.setHeader('RateLimit-Limit', String(result.limit));
    res.setHeader('RateLimit-Remaining', String(result.remaining));
    res.setHeader('RateLimit-Reset', String(result.resetSeconds));
    if (result.allowed) {
      next();
      return;
    }
    res.setHeader('Retry-After', String(result.retryAfterSeconds));
    sendError(res, new DomainError('rate_limited', `Too many requests for this key; retry in ${result.retryAfterSeconds} s.`), res.locals.requestId);
  };
}
