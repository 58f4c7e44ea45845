import cors from 'cors';
import helmet from 'helmet';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config/config';

/**
 * Security headers on every API response (helmet's defaults: no sniffing, no framing, HSTS, a strict
 * referrer policy...) and CORS only for the configured origins. The Content-Security-Policy allows
 * what the /docs page needs from our own origin (Swagger UI uses inline styles).
 */
export function securityHeaders(config: Pick<Config, 'corsOrigins'>) {
  const headers = helmet({
    contentSecurityPolicy: { directives: { 'default-src': ["'self'"], 'style-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:'] } },
  });
  const origins = config.corsOrigins;
  const corsHandler =
    origins.length === 0
      ? null
      : cors({
          origin: origins.includes('*') ? true : origins,
          exposedHeaders: ['X-Request-Id', 'X-Total-Count', 'Link', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed'],
          allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
          maxAge: 600,
        });
  return (req: Request, res: Response, next: NextFunction): void => {
    headers(req, res, (error?: unknown) => {
      if (error) return next(error);
      if (corsHandler) corsHandler(req, res, next);
      else next();
    });
  };
}
