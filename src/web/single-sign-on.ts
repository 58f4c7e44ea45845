// Single sign-on for the console (OpenID Connect): /auth/oidc/login sends the browser to the
// provider, /auth/oidc/callback opens a session and sets its cookie, /auth/session tells the
// console who is signed in (and its CSRF token), /auth/logout ends the session.
import crypto from 'node:crypto';
import express, { type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { DomainError } from '../errors/domain-error';
import { sendError } from '../errors/error-response';
import { csrfTokenMatches, csrfTokenOf, endSession, findSession, openSession, SIGN_IN_MINUTES } from '../services/identity/console-session.service';
import { OidcSignIn, SignInRefused } from '../services/identity/oidc-sign-in';
import { employeeOfIdentity, openEmployeeSession } from '../services/identity/employee-access.service';
import {
  CSRF_HEADER,
  clearedSessionCookie,
  clearedSignInCookie,
  meSessionCookie,
  sessionCookie,
  sessionTokenOf,
  signInBindingOf,
  signInCookie,
} from '../services/identity/session-credential';

export const CALLBACK_PATH = '/auth/oidc/callback';

export function singleSignOnRouter(deps: { orm: MikroORM; config: Config; logger: Logger; now: () => Date }): express.Router {
  const { config, logger, now } = deps;
  const router = express.Router();
  const oidc = OidcSignIn.configured(config) ? new OidcSignIn(config) : null;
  // The address the browser uses: the configured public URL, else this request's scheme and host
  // (the provider accepts only registered redirect URIs, so a forged Host leads nowhere).
  const baseUrl = (req: Request) => config.publicUrl ?? `${req.protocol}://${req.get('host')}`;
  const secure = (req: Request) => (config.publicUrl ? config.publicUrl.startsWith('https:') : req.secure || req.get('x-forwarded-proto') === 'https');
  const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store');

  router.get('/auth/session', async (req, res, next) => {
    noStore(res);
    try {
      const token = sessionTokenOf(req.headers.cookie);
      const session = token ? await findSession(deps.orm.em.fork(), token, now()) : null;
      if (!session || !token) {
        if (token) res.setHeader('Set-Cookie', clearedSessionCookie(secure(req)));
        res.json({ signedIn: false, singleSignOn: oidc !== null });
        return;
      }
      res.json({
        signedIn: true,
        singleSignOn: true,
        subject: session.subject,
        email: session.email,
        name: session.name,
        roles: session.roles,
        scopes: session.scopes,
        expiresAt: session.expiresAt.toISOString(),
        csrfToken: csrfTokenOf(token),
      });
    } catch (error) {
      next(error);
    }
  });

  router.get('/auth/oidc/login', async (req, res) => {
    noStore(res);
    if (!oidc) return sendError(res, new DomainError('not_found', 'Single sign-on is not configured (TIMEGATE_OIDC_ISSUER).'), res.locals.requestId);
    try {
      // The sign-in belongs to this browser: its callback counts only with this cookie (login CSRF).
      const binding = crypto.randomBytes(32).toString('base64url');
      // `?app=me`: an employee signing in to the self-service app (docs/self-service.md), not the console.
      const purpose = req.query.app === 'me' ? 'me' : 'console';
      const location = await oidc.start(deps.orm.em.fork(), `${baseUrl(req)}${CALLBACK_PATH}`, binding, now(), purpose);
      res.setHeader('Set-Cookie', signInCookie(binding, SIGN_IN_MINUTES * 60, secure(req)));
      res.redirect(302, location.href);
    } catch (error) {
      logger.warn({ err: error }, 'single sign-on: the provider could not be reached');
      res.redirect(302, '/console?signin=unavailable');
    }
  });

  router.get(CALLBACK_PATH, async (req, res) => {
    noStore(res);
    if (!oidc) return sendError(res, new DomainError('not_found', 'Single sign-on is not configured (TIMEGATE_OIDC_ISSUER).'), res.locals.requestId);
    const em = deps.orm.em.fork();
    try {
      const person = await oidc.finish(em, new URL(req.originalUrl, baseUrl(req)), signInBindingOf(req.headers.cookie), now());
      if (person.purpose === 'me') {
        // The person is one of the workspace's employees, or nobody signs in (docs/self-service.md).
        const match = await employeeOfIdentity(em, person.workspaceId, person.identity);
        if (!match.found) {
          logger.warn({ subject: person.subject, reason: match.reason }, 'self-service single sign-on matched no employee');
          res.setHeader('Set-Cookie', clearedSignInCookie(secure(req)));
          return res.redirect(302, `/me?signin=${match.reason}`);
        }
        const opened = await openEmployeeSession(
          em,
          { workspaceId: person.workspaceId, employeeId: match.employeeId, via: 'single_sign_on', subject: person.subject },
          config.employeeSessionDays,
          now(),
        );
        logger.info({ subject: person.subject, employeeId: match.employeeId }, 'self-service sign-in');
        res.setHeader('Set-Cookie', [meSessionCookie(opened.token, opened.expiresAt, secure(req)), clearedSignInCookie(secure(req))]);
        return res.redirect(302, '/me');
      }
      const { token, expiresAt } = await openSession(em, person, config.sessionMinutes, now());
      logger.info({ subject: person.subject, roles: person.roles, workspaceId: person.workspaceId }, 'console sign-in');
      res.setHeader('Set-Cookie', [sessionCookie(token, expiresAt, secure(req)), clearedSignInCookie(secure(req))]);
      res.redirect(302, '/console');
    } catch (error) {
      const reason = error instanceof SignInRefused ? error.reason : 'failed';
      logger.warn({ err: error, reason }, 'single sign-on refused');
      // A refused callback sets no cookie: the browser keeps whatever session (and sign-in) it had.
      res.redirect(302, `/console?signin=${reason}`);
    }
  });

  router.post('/auth/logout', async (req, res, next) => {
    noStore(res);
    const token = sessionTokenOf(req.headers.cookie);
    if (token && !csrfTokenMatches(token, req.get(CSRF_HEADER))) {
      return sendError(res, new DomainError('csrf_refused', "Signing out needs the session's X-CSRF-Token header."), res.locals.requestId);
    }
    try {
      if (token) await endSession(deps.orm.em.fork(), token, now());
      res.setHeader('Set-Cookie', clearedSessionCookie(secure(req)));
      res.status(204).end();
    } catch (error) {
      next(error);
    }
  });
  return router;
}
