import { DomainError, type FieldProblem } from '../errors/domain-error';

/**
 * Field rules shared by every surface. GraphQL clients reach services without the REST JSON
 * Schemas, so services check formats themselves; the REST schemas only check shape and types.
 */
export const limits = {
  companyName: 200,
  companyCode: 64,
  personName: 100,
  employeeCode: 64,
  pin: 23,
  email: 254,
  workspaceName: 200,
  apiKeyName: 200,
  stateName: 100,
  areaName: 200,
  areaCode: 64,
} as const;

// Control characters would corrupt terminal commands (TAB/CR/LF separate fields and commands) and
// PostgreSQL cannot store NUL at all, so they are refused in every text field.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const PIN = /^[A-Za-z0-9]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class FieldChecker {
  readonly problems: FieldProblem[] = [];

  text(field: string, value: string | null | undefined, options: { max: number; required?: boolean }): void {
    if (value === undefined || value === null) {
      if (options.required) this.add(field, 'required', `${field} is required.`);
      return;
    }
    if (value.trim() === '') {
      if (options.required) this.add(field, 'blank', `${field} must not be blank.`);
      return;
    }
    if (value.length > options.max) this.add(field, 'too_long', `${field} must be at most ${options.max} characters long.`);
    if (CONTROL_CHARS.test(value)) this.add(field, 'invalid_characters', `${field} must not contain control characters (NUL, TAB, CR, LF, ...).`);
  }

  pin(field: string, value: string | null | undefined): void {
    if (value === undefined || value === null) return;
    if (!PIN.test(value) || value.length > limits.pin) {
      this.add(
        field,
        'invalid_pin',
        `${field} must be 1 to ${limits.pin} letters or digits: terminals store the PIN in a 23-character field and accept no other characters.`,
      );
    }
  }

  email(field: string, value: string | null | undefined): void {
    if (value === undefined || value === null) return;
    if (value.length > limits.email || !EMAIL.test(value)) this.add(field, 'invalid_email', `${field} must be an e-mail address.`);
  }

  positive(field: string, value: number | undefined, max = 1_000_000): void {
    if (value === undefined) return;
    if (!Number.isInteger(value) || value < 0 || value > max) this.add(field, 'out_of_range', `${field} must be an integer from 0 to ${max}.`);
  }

  add(field: string, code: string, message: string): void {
    this.problems.push({ field, code, message });
  }

  /** Throws one validation error naming every problem found. */
  done(): void {
    if (this.problems.length > 0) throw DomainError.invalid(this.problems);
  }
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
}
