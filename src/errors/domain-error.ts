import type { ErrorCode } from './error-codes';

/** One problem with one input field, as in `error.details[]` (REST) and `extensions.details` (GraphQL). */
export interface FieldProblem {
  field: string;
  code: string;
  message: string;
}

/** The only error type services throw on purpose. Anything else is an internal error. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: FieldProblem[] = [],
    /** A refusal for now: the seconds to wait (REST `Retry-After`, GraphQL `extensions.retryAfter`). */
    readonly retryAfterSeconds?: number,
    /**
     * Figures that say how far off the request was (`distance_m` of a phone punch outside every
     * geofence): snake_case keys, beside `code` in the REST error body and (camelCase) in GraphQL's
     * `extensions`. docs/errors.md names them.
     */
    readonly facts?: Record<string, number | string | null>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static notFound(resource: string, id: unknown): DomainError {
    return new DomainError('not_found', `${resource} ${JSON.stringify(String(id))} was not found.`);
  }

  static invalid(details: FieldProblem[], message?: string): DomainError {
    const summary = message ?? (details.length === 1 ? details[0].message : `${details.length} fields are invalid.`);
    return new DomainError('validation_failed', summary, details);
  }

  static field(field: string, code: string, message: string): DomainError {
    return DomainError.invalid([{ field, code, message }]);
  }
}
