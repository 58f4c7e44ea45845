// Every failure of a /scim/v2 request as a SCIM error body (RFC 7644, section 3.12), whatever
// raised it: the protocol (ScimError), a business rule (DomainError), Express's body parser, or
// the database.
import type { Logger } from 'pino';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../errors/database-unavailable';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../errors/public-error';
import { DomainError } from '../errors/domain-error';
import { statusOf } from '../errors/error-codes';
import { ScimError } from '../scim/errors';

export interface ScimFailure {
  error: ScimError;
  headers: Record<string, string>;
}

function fromDomainError(error: DomainError): ScimError {
  if (error.code === 'validation_failed') {
    const fields = error.details.map((d) => `${d.field}: ${d.message}`).join(' ');
    if (error.details.some((d) => d.code === 'already_taken')) return new ScimError(409, 'uniqueness', fields || error.message);
    return new ScimError(400, 'invalidValue', fields || error.message);
  }
  if (error.code === 'malformed_json' || error.code === 'nesting_too_deep') return new ScimError(400, 'invalidSyntax', error.message);
  return new ScimError(statusOf(error.code), null, error.message);
}

export function toScimFailure(error: unknown, logger: Logger): ScimFailure {
  if (error instanceof ScimError) return { error, headers: error.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {} };
  if (error instanceof DomainError) {
    const scim = fromDomainError(error);
    const headers: Record<string, string> = {};
    if (scim.status === 401) headers['WWW-Authenticate'] = 'Bearer';
    if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
    return { error: scim, headers };
  }
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.too.large') return { error: new ScimError(413, null, 'The request body is larger than the limit.'), headers: {} };
  if (type === 'entity.parse.failed') return { error: ScimError.badRequest('invalidSyntax', 'The request body is not valid JSON.'), headers: {} };
  if (isDatabaseUnavailable(error)) {
    return {
      error: new ScimError(503, null, DATABASE_UNAVAILABLE_MESSAGE),
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    };
  }
  logger.error({ err: error }, 'unhandled error on /scim/v2');
  return { error: new ScimError(500, null, 'Internal error.'), headers: {} };
}
