import type { Response } from 'express';
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { DomainError, type FieldProblem } from '../errors/domain-error';
import { statusOf } from '../errors/error-codes';
import { camelToSnake } from './case';

export interface RestErrorBody {
  error: { code: string; message: string; details: FieldProblem[]; request_id: string };
}

export function errorBody(code: string, message: string, details: FieldProblem[], requestId: string): RestErrorBody {
  return { error: { code, message, details, request_id: requestId } };
}

export function sendError(res: Response, error: DomainError, requestId: string): void {
  const status = statusOf(error.code);
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  // Field names in REST are snake_case, as in the bodies the client sent.
  const details = error.details.map((d) => ({ ...d, field: d.field.split('.').map(camelToSnake).join('.') }));
  res.status(status).json(errorBody(error.code, error.message, details, requestId));
}

/** Maps any error thrown or returned by GraphQL execution to the domain error the client gets. */
export function toDomainError(error: unknown, logger: Logger, production: boolean): DomainError {
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  if (original instanceof DomainError) return original;
  if (original instanceof GraphQLError) {
    // Variable coercion failures: the body passed JSON Schema but GraphQL still refused a value.
    return new DomainError('validation_failed', original.message);
  }
  logger.error({ err: original }, 'unexpected error');
  return new DomainError('internal_error', production ? 'Internal error.' : `Internal error: ${(original as Error)?.message ?? original}`);
}
