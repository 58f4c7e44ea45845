// The console session on /graphql: the session cookie, with its CSRF token, is the request's credential.
import type { NextFunction, Request, Response } from 'express';
import type { DomainError } from '../errors/domain-error';
import { sendError } from '../errors/error-response';
import { CSRF_HEADER, consoleCredential } from '../services/identity/session-credential';

/** Express middleware for /graphql: a session cookie with its CSRF token becomes the request's credential. */
export function sessionCredential() {
  return (req: Request, res: Response, next: NextFunction): void => {
    try {
      const credential = consoleCredential(req.headers, req.get(CSRF_HEADER));
      if (credential !== undefined) req.headers.authorization = credential;
    } catch (error) {
      return sendError(res, error as DomainError, res.locals.requestId);
    }
    next();
  };
}
