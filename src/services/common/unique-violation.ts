import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { DomainError } from '../../errors/domain-error';

/**
 * Turns a unique-constraint violation into the field error a client can act on. Services check
 * uniqueness first for a friendly message; this covers the race where two requests pass that check.
 */
export function uniqueViolationToDomainError(error: unknown, fields: Record<string, { field: string; message: string }>): unknown {
  if (!(error instanceof UniqueConstraintViolationException)) return error;
  for (const [constraint, problem] of Object.entries(fields)) {
    if (error.message.includes(`"${constraint}"`)) return DomainError.field(problem.field, 'already_taken', problem.message);
  }
  return error;
}
