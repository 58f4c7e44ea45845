import type { Response } from 'express';
import { DATABASE_RETRY_AFTER_SECONDS } from './database-unavailable';
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { DomainError, type FieldProblem } from './domain-error';
import { statusOf } from './error-codes';
import { toPublicError } from './public-error';
import { camelToSnake, snakeToCamel } from '../kernel/case';

export interface RestErrorBody {
  error: { code: string; message: string; details: FieldProblem[]; request_id: string; [fact: string]: unknown };
}

export function errorBody(code: string, message: string, details: FieldProblem[], requestId: string, facts?: DomainError['facts']): RestErrorBody {
  return { error: { code, message, details, request_id: requestId, ...facts } };
}

/** An error's facts as GraphQL extensions name them (camelCase). */
export function factsExtensions(facts: DomainError['facts']): Record<string, unknown> {
  return facts ? Object.fromEntries(Object.entries(facts).map(([key, value]) => [snakeToCamel(key), value])) : {};
}

/**
 * An error answered outside GraphQL execution (authentication, rate limit, body parsing, size): the
 * REST shape `{error: {...}}`, except on `/graphql`, where every body keeps the GraphQL shape
 * `{errors: [{message, extensions: {code, ...}}]}` so that GraphQL clients read it as usual.
 */
export function sendError(res: Response, error: DomainError, requestId: string): void {
  const status = statusOf(error.code);
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  if (status === 503) res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  const path = res.req?.originalUrl?.split('?')[0] ?? '';
  if (path === '/graphql' || path === '/graphql/') {
    const retryAfter = error.retryAfterSeconds !== undefined ? { retryAfter: error.retryAfterSeconds } : {};
    res.status(status).json({
      errors: [{ message: error.message, extensions: { code: error.code, details: error.details, requestId, ...retryAfter, ...factsExtensions(error.facts) } }],
    });
    return;
  }
  res.status(status).json(errorBody(error.code, error.message, error.details, requestId, error.facts));
}

const CAMEL_NAME = /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g;

/**
 * A service message as a REST client reads it: every field it names, not only the field of the
 * detail (`Give exactly one scope: companyId, areaId or doorIds.` names three), in snake_case. Text in
 * double quotes is the client's own value and stays as it was sent.
 */
export function restNames(text: string): string {
  return text
    .split('"')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(CAMEL_NAME, (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))))
    .join('"');
}

/**
 * Maps any error thrown or returned by GraphQL execution to the domain error the client gets.
 * Services name fields as GraphQL does (camelCase); REST clients see their own snake_case names.
 */
export function toDomainError(error: unknown, logger: Logger, debug: boolean): DomainError {
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  if (original instanceof DomainError) {
    if (!(error instanceof GraphQLError)) return original;
    const details = original.details.map((d) => ({ ...d, field: d.field.split('.').map(camelToSnake).join('.'), message: restNames(d.message) }));
    return new DomainError(original.code, restNames(original.message), details, original.retryAfterSeconds, original.facts);
  }
  if (original instanceof GraphQLError) {
    // Variable coercion failures: the body passed JSON Schema but GraphQL still refused a value.
    return new DomainError('validation_failed', original.message);
  }
  return toPublicError(original, { logger, debug });
}
