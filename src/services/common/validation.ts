import { isValidTimeZone } from '../../kernel/local-time';
import { DomainError, type FieldProblem } from '../../errors/domain-error';
import { DATE_RANGE, daysBetween, isCalendarDate, MAX_SPAN_DAYS } from '../../kernel/calendar-date';
import { textLimits } from './input-limits';

/**
 * Field rules shared by every surface. GraphQL clients reach services without the REST JSON
 * Schemas, so services check formats themselves; the REST schemas only check shape and types.
 * `limits`: the text limits of src/services/common/input-limits.ts (one table for REST, GraphQL and
 * the services) and the sizes of lists the services check themselves.
 */
export const limits = {
  ...textLimits,
  /** Entries of a roster's repeating cycle (a year at most). */
  rosterDays: 366,
  /** Items of one bulk request (assignments, area and access-level membership). */
  bulkItems: 1000,
} as const;

/** Face photos: the largest upload (before it is normalised) and the image types accepted. */
export const photoLimits = { maxBytes: 5 * 1024 * 1024, mediaTypes: ['image/jpeg', 'image/png'] } as const;

// Refused in every text field: C0 controls and DEL (TAB/CR/LF separate fields and commands on the
// terminals, PostgreSQL cannot store NUL), C1 controls (U+0085 is a line break to some firmware),
// the Unicode line and paragraph separators, and lone UTF-16 surrogates (no UTF-8 form: they cannot
// be stored, and JSON carrying one is refused by PostgreSQL's jsonb).
const CONTROL_IN_TEXT = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Also refused: Unicode format characters (category Cf), which are invisible and change how the
// text around them shows: bidirectional embeddings, overrides and isolates (U+202A-U+202E,
// U+2066-U+2069) and marks (U+200E, U+200F, U+061C) make "Eve\u202Eladmin" display as another
// name in the console and on a terminal's screen; zero-width spaces (U+200B, U+2060, U+FEFF), the
// soft hyphen and tag characters make two names that look alike differ. The two joiners (ZWNJ
// U+200C, ZWJ U+200D) are accepted between two visible characters only: Persian and Indic names
// need them inside words, and emoji sequences (a ZWJ between two emoji) use them; at the start or
// end of a text, next to a space or another format character, they join nothing and are refused.
const INVISIBLE_IN_TEXT = /(?![\u200c\u200d])\p{Cf}|(?<![^\s\p{Cf}])[\u200c\u200d]|[\u200c\u200d](?![^\s\p{Cf}])/u;
// Refused in every string a client sends (names, searches, lookups): what cannot be stored or compared.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` holds a character no text field accepts (controls, separators, lone surrogates, invisible format characters). */
function hasForbiddenCharacters(value: string): boolean {
  return CONTROL_IN_TEXT.test(value) || INVISIBLE_IN_TEXT.test(value);
}

/**
 * The path (`name`, `employees[2].email`) of the first string in a client's input that holds a NUL
 * or a lone surrogate, or null. Such a value reaching SQL is a database error (a 500), so every
 * surface checks its whole input with this before running anything.
 */
export function unstorableStringAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path || '(value)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableStringAt(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found = UNSTORABLE.test(key) ? path || '(key)' : unstorableStringAt(child, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}

/** The validation error for `unstorableStringAt`'s finding. */
export function unstorableError(field: string): DomainError {
  return DomainError.field(field, 'invalid_characters', `${field} must not contain NUL bytes or unpaired UTF-16 surrogates.`);
}
const PIN = /^[A-Za-z0-9]+$/;

/** Length in Unicode code points (a surrogate pair counts once). */
export function codePoints(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
/**
 * `value` cut to at most `max` code points, never between the two halves of a surrogate pair: a
 * column of `varchar(max)` counts code points, and a lone half is refused inside `jsonb` (a JSON
 * parameter) and stored as U+FFFD in text. `String.slice` counts UTF-16 units and cuts an emoji.
 */
export function cutToCodePoints(value: string, max: number): string {
  if (value.length <= max) return value;
  let end = 0;
  for (let count = 0; count < max && end < value.length; count++) {
    const unit = value.charCodeAt(end);
    const next = value.charCodeAt(end + 1);
    end += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return value.slice(0, end);
}

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
    // Characters are code points, as JSON Schema's maxLength and PostgreSQL's varchar count them (an emoji is one).
    if (codePoints(value) > options.max) this.add(field, 'too_long', `${field} must be at most ${options.max} characters long.`);
    if (hasForbiddenCharacters(value)) {
      this.add(
        field,
        'invalid_characters',
        `${field} must not contain control characters (NUL, TAB, CR, LF, U+0085...), line separators, unpaired surrogates or invisible format characters (bidirectional overrides and marks such as U+202E and U+200E, zero-width spaces, U+FEFF; a zero-width joiner only between two visible characters).`,
      );
    }
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
    if (codePoints(value) > limits.email || !EMAIL.test(value)) this.add(field, 'invalid_email', `${field} must be an e-mail address.`);
  }

  /**
   * A calendar date `YYYY-MM-DD` within DATE_RANGE; true when `value` is one (then the caller may
   * compute with it). Every date parameter of both APIs goes through here before any work.
   */
  date(field: string, value: unknown, options: { required?: boolean } = {}): value is string {
    if (value === undefined || value === null) {
      if (options.required) this.add(field, 'required', `${field} is required.`);
      return false;
    }
    if (typeof value !== 'string' || !isCalendarDate(value)) {
      this.add(field, 'invalid_date', `${field} must be a calendar date YYYY-MM-DD (got ${JSON.stringify(value)}).`);
      return false;
    }
    if (value < DATE_RANGE.first || value > DATE_RANGE.last) {
      this.add(field, 'out_of_range', `${field} must be a date from ${DATE_RANGE.first} to ${DATE_RANGE.last} (got "${value}").`);
      return false;
    }
    return true;
  }

  /**
   * The order and span of two dates already checked with `date`: `end` not before `start`, and at
   * most `maxDays` days from the one to the other, both included (timesheets, summaries, pay
   * periods, device action ranges).
   */
  span(fields: { start: string; end: string }, start: string, end: string, maxDays = MAX_SPAN_DAYS): void {
    const days = daysBetween(start, end) + 1;
    if (days < 1) this.add(fields.end, 'before_start_date', `${fields.end} (${end}) must not be before ${fields.start} (${start}).`);
    else if (days > maxDays) this.add(fields.end, 'out_of_range', `${fields.start} to ${fields.end} spans at most ${maxDays} days (got ${days}).`);
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

// The date rules live in the kernel (every layer checks dates); validators take them from here too.
export { DATE_RANGE, isCalendarDate, isValidTimeZone, MAX_SPAN_DAYS };
