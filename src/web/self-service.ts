// The self-service app's server side (docs/self-service.md): the app's page at /me (and at
// /me/invitation, where an invitation link lands), its web app manifest and service worker, and the
// employee's session: /auth/me/invitation turns a link's secret into a session cookie (HttpOnly,
// SameSite=Lax), /auth/me/session tells the app who is signed in and its CSRF token, /auth/me/logout
// ends it. The app itself is a client of GraphQL `me`, like the console of the workspace fields.
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { DomainError } from '../errors/domain-error';
import { sendError } from '../errors/error-response';
import { csrfTokenMatches, csrfTokenOf } from '../services/identity/console-session.service';
import { endEmployeeSession, findEmployeeSession, redeemInvitation } from '../services/identity/employee-access.service';
import { CSRF_HEADER, clearedMeSessionCookie, meSessionCookie, meSessionTokenOf } from '../services/identity/session-credential';
import { OidcSignIn } from '../services/identity/oidc-sign-in';

const assets = path.resolve(__dirname, '..', '..', 'console', 'assets');

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="theme-color" content="#1f4e79">
  <title>Timegate</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <link rel="manifest" href="/me/manifest.webmanifest">
  <link rel="stylesheet" href="/console/assets/me.css">
</head>
<body>
  <div id="me"></div>
  <script type="module" src="/console/assets/me.js"></script>
</body>
</html>
`;

/** What makes the app installable: a name, a start URL inside its scope, standalone display and an icon. */
const manifest = JSON.stringify({
  name: 'Timegate',
  short_name: 'Timegate',
  description: 'Your hours, leave and punches.',
  start_url: '/me',
  scope: '/me',
  display: 'standalone',
  background_color: '#ffffff',
  theme_color: '#1f4e79',
  icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
});

export function selfServiceRouter(deps: { orm: MikroORM; config: Config; logger: Logger; now: () => Date }): express.Router {
  const { config, now } = deps;
  const router = express.Router();
  const secure = (req: Request) => (config.publicUrl ? config.publicUrl.startsWith('https:') : req.secure || req.get('x-forwarded-proto') === 'https');
  const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store');
  const built = () => fs.existsSync(path.join(assets, 'me.js'));

  const sendPage = (_req: Request, res: Response) => {
    if (!built()) {
      res.status(503).type('text/plain').send('The self-service app is not built: run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page);
  };
  router.get('/me', sendPage);
  router.get('/me/invitation', sendPage);
  router.get('/me/manifest.webmanifest', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/manifest+json').send(manifest);
  });
  // The service worker is served from /me/ and allowed the scope /me (the app's page itself, which
  // a worker at /me/sw.js would not control by default: its scope would stop at /me/).
  router.get('/me/sw.js', (_req, res) => {
    if (!built()) return void res.status(503).type('text/plain').send('The self-service app is not built.');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Service-Worker-Allowed', '/me');
    res.type('application/javascript').send(fs.readFileSync(path.join(assets, 'me-sw.js')));
  });

  router.get('/auth/me/session', async (req, res, next) => {
    noStore(res);
    try {
      const token = meSessionTokenOf(req.headers.cookie);
      const session = token ? await findEmployeeSession(deps.orm.em.fork(), token, now()) : null;
      if (!session || !token) {
        if (token) res.setHeader('Set-Cookie', clearedMeSessionCookie(secure(req)));
        // With single sign-on configured, the app offers `/auth/oidc/login?app=me`.
        res.json({ signedIn: false, singleSignOn: OidcSignIn.configured(config) });
        return;
      }
      res.json({
        signedIn: true,
        employeeId: session.employeeId,
        name: session.name,
        lastname: session.lastname,
        expiresAt: session.expiresAt.toISOString(),
        csrfToken: csrfTokenOf(token),
      });
    } catch (error) {
      next(error);
    }
  });

  // The app sends the link's secret (from the address's fragment, which no server saw) as JSON: a
  // form of another site cannot send JSON without the CORS preflight this service does not grant.
  router.post('/auth/me/invitation', express.json({ limit: 1024 }), async (req, res, next) => {
    noStore(res);
    const secret = (req.body as { secret?: unknown } | undefined)?.secret;
    if (!req.is('application/json') || typeof secret !== 'string' || secret.length > 100) {
      return sendError(res, DomainError.field('secret', 'required', 'Send {"secret": "<the part of the link after #>"} as JSON.'), res.locals.requestId);
    }
    try {
      const session = await redeemInvitation(deps.orm.em.fork(), secret, config.employeeSessionDays, now());
      if (!session) {
        return sendError(
          res,
          new DomainError('unauthenticated', 'This link is not valid: it was used already, has expired, or a newer link was sent. Ask HR for a new one.'),
          res.locals.requestId,
        );
      }
      deps.logger.info({ employeeId: session.employeeId }, 'self-service sign-in with an invitation link');
      res.setHeader('Set-Cookie', meSessionCookie(session.token, session.expiresAt, secure(req)));
      res
        .status(201)
        .json({ signedIn: true, employeeId: session.employeeId, expiresAt: session.expiresAt.toISOString(), csrfToken: csrfTokenOf(session.token) });
    } catch (error) {
      next(error);
    }
  });

  router.post('/auth/me/logout', async (req, res, next) => {
    noStore(res);
    const token = meSessionTokenOf(req.headers.cookie);
    if (token && !csrfTokenMatches(token, req.get(CSRF_HEADER))) {
      return sendError(res, new DomainError('csrf_refused', "Signing out needs the session's X-CSRF-Token header."), res.locals.requestId);
    }
    try {
      if (token) await endEmployeeSession(deps.orm.em.fork(), token, now());
      res.setHeader('Set-Cookie', clearedMeSessionCookie(secure(req)));
      res.status(204).end();
    } catch (error) {
      next(error);
    }
  });
  return router;
}
