import cors from 'cors';
import helmet from 'helmet';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config/config';

/**
 * Security headers on every API response (helmet's defaults: no sniffing, no framing, HSTS, a strict
 * referrer policy...) and CORS only for the configured origins. The Content-Security-Policy allows
 * scripts from our own origin only; /docs (Swagger UI), the console and the GraphQL explorer use
 * inline styles and data: fonts and images.
 */
export function securityHeaders(config: Pick<Config, 'corsOrigins'>) {
  const headers = helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        // Not helmet's default `upgrade-insecure-requests`: on plain HTTP by host name or address
        // (a LAN install, TLS ended at a proxy) it sent /docs' and the console's assets to https.
        'upgrade-insecure-requests': null,
      },
    },
  });
  const origins = config.corsOrigins;
  const corsHandler =
    origins.length === 0
      ? null
      : cors({
          origin: origins.includes('*') ? true : origins,
          // Only the methods the API has (the cors package would advertise PATCH too).
          methods: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'],
          exposedHeaders: [
            'X-Request-Id',
            'X-Total-Count',
            'Link',
            'RateLimit-Limit',
            'RateLimit-Remaining',
            'RateLimit-Reset',
            'Retry-After',
            'Idempotent-Replayed',
            'Deprecation',
            'Sunset',
          ],
          allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
          maxAge: 600,
        });
  const fixed = fixedHeaders(headers);
  return (req: Request, res: Response, next: NextFunction): void => {
    for (const name of fixed.removed) res.removeHeader(name);
    for (const [name, value] of fixed.set) res.setHeader(name, value);
    if (corsHandler) corsHandler(req, res, next);
    else next();
  };
}

/**
 * What helmet does to a response, recorded once at start-up and replayed on every response. With
 * these options (no CSP nonce, no function-valued directive) helmet's headers depend on nothing in
 * the request, and replaying them costs a fraction of running its thirteen middlewares per request.
 * Anything else (an error, a call we do not record, an asynchronous next) fails at start-up.
 */
function fixedHeaders(middleware: ReturnType<typeof helmet>): { set: [string, string][]; removed: string[] } {
  const set: [string, string][] = [];
  const removed: string[] = [];
  let done = false;
  const res = {
    setHeader(name: string, value: string) {
      set.push([name, String(value)]);
      return res;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  middleware({ headers: {} } as Request, res as unknown as Response, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously: its headers cannot be fixed at start-up');
  return { set, removed };
}
