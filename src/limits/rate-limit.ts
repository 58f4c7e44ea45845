import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import { sendError } from '../rest/error-response';
import { TokenBuckets } from './token-bucket';

/**
 * Per-key rate limit of the API surfaces (REST and GraphQL over HTTP), reported with the IETF
 * `RateLimit-Limit`/`-Remaining`/`-Reset` headers and answered 429 with `Retry-After` when spent.
 * The bucket is chosen by the presented key (its hash; no database lookup is needed for that), or by
 * the client address for requests without one. Buckets live in each process: with N processes behind
 * a balancer a key gets up to N times the limit (documented in docs/limits.md).
 */
export function rateLimit(options: { perMinute: number; burst: number; now?: () => number }) {
  const buckets = new TokenBuckets(options.perMinute, options.burst, options.now);
  return (req: Request, res: Response, next: NextFunction): void => {
    const bearer = /^Bearer\s+(\S+)/i.exec(req.get('authorization') ?? '')?.[1];
    const key = bearer ? `k:${crypto.createHash('sha256').update(bearer).digest('base64url').slice(0, 22)}` : `ip:${req.ip}`;
    const result = buckets.take(key);
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
