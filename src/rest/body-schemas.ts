/**
 * Building blocks of the REST request-body JSON Schemas. Each `<resource>.routes.ts` declares its
 * own schemas with them. Schemas check shape and types and refuse unknown fields. Formats GraphQL
 * clients must meet too (pin, e-mail, time of day, time zone) are in the schema as patterns, so the
 * OpenAPI document states them, refused with the code the service gives the same mistake over GraphQL
 * (`x-error-codes`: JSON Schema keyword → error code; `x-error-message` says what is expected).
 * Uniqueness and whether a time zone exists stay the services' job.
 */
import { limits } from '../services/common/validation';

export type JsonSchema = Record<string, unknown>;

export const text = (maxLength: number): JsonSchema => ({ type: 'string', maxLength });
export const nullableText = (maxLength: number): JsonSchema => ({ type: ['string', 'null'], maxLength });
/** Text that must say something (names, codes, reasons): not empty, not only spaces, refused as the services do (`blank`). */
export const filled = (maxLength: number): JsonSchema => ({
  type: 'string',
  maxLength,
  pattern: '\\S',
  'x-error-codes': { pattern: 'blank' },
  'x-error-message': 'must not be blank',
});
export const id: JsonSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };
export const oneOf = (values: string[]): JsonSchema => ({ type: 'string', enum: values });

/**
 * A schema with a format: a pattern refused with the service's code and message. Its `maxLength`
 * (the bound every string has) is part of the format, refused with the same code and message.
 */
const formatted = (schema: JsonSchema, pattern: string, code: string, message: string): JsonSchema => ({
  ...schema,
  pattern,
  'x-error-codes': { pattern: code, maxLength: code },
  'x-error-message': message,
});

/** A PIN: 1 to 23 letters or digits (the terminals' field); null clears it. */
export const pinSchema = formatted(
  { type: ['string', 'null'], maxLength: limits.pin },
  '^[A-Za-z0-9]{1,23}$',
  'invalid_pin',
  'must be 1 to 23 letters or digits: terminals store the PIN in a 23-character field and accept no other characters',
);
// At most 254 characters (the lookahead), so that a long address gets the same code as a malformed one.
export const emailSchema = formatted(
  { type: ['string', 'null'], maxLength: limits.email },
  '^(?=.{1,254}$)[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
  'invalid_email',
  'must be an e-mail address',
);
/** A time of day `HH:MM`, 00:00 to 23:59. */
export const timeOfDay = formatted(
  { type: 'string', maxLength: limits.timeOfDay },
  '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  'invalid_time',
  'must be a time of day "HH:MM" from 00:00 to 23:59',
);
/** An IANA time zone name's shape (`UTC`, `Europe/Berlin`, `Etc/GMT+5`); whether it exists is the service's check. */
export const timeZoneSchema = formatted(
  { type: 'string', maxLength: limits.timeZone },
  '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$',
  'invalid_time_zone',
  'must be an IANA time zone name such as "Europe/Berlin"',
);

const nullableMinutes: JsonSchema = { type: ['integer', 'null'] };
const nullableTime: JsonSchema = { ...timeOfDay, type: ['string', 'null'] };
const nullablePercent: JsonSchema = { type: ['number', 'null'] };
/**
 * A pay policy change (docs/attendance.md, "Pay items"): a field left out keeps its value, null resets
 * it. Ranges are the service's rules. `company`: the company-only settings (weekly overtime, approval,
 * rates) are allowed (a shift's are not).
 */
export function payPolicySchema(company: boolean): JsonSchema {
  return object({
    early_overtime: { type: ['boolean', 'null'] },
    overtime_min_minutes: nullableMinutes,
    daily_overtime_after_minutes: nullableMinutes,
    ...(company
      ? {
          weekly_overtime_after_minutes: nullableMinutes,
          week_start: nullableMinutes,
          overtime_requires_approval: { type: ['boolean', 'null'] },
          overtime_rate_percent: nullablePercent,
          double_time_rate_percent: nullablePercent,
          night_premium_percent: nullablePercent,
          holiday_rate_percent: nullablePercent,
          rest_day_rate_percent: nullablePercent,
        }
      : {}),
    double_time_after_minutes: nullableMinutes,
    night_start: nullableTime,
    night_end: nullableTime,
    holiday_work: { type: ['string', 'null'], enum: ['holiday', 'overtime', null] },
    rest_day_work: { type: ['string', 'null'], enum: ['rest_day', 'overtime', null] },
  });
}

export function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * A bare-array bulk body (`[{device_id, permission_id}, ...]`). The maximum is in the schema (with
 * the service's code); emptiness (allowed for a sync) and duplicates are left to the service.
 */
export function bulkItems(properties: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'array',
    maxItems: limits.bulkItems,
    'x-error-codes': { maxItems: 'too_many_items' },
    'x-error-message': `may hold at most ${limits.bulkItems} items; split the request`,
    items: object(properties, Object.keys(properties)),
  };
}
