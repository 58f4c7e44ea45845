import type { JsonSchema } from './body-schemas';

/**
 * Examples of the OpenAPI document's success answers, made from the same JSON Schema the answer is
 * documented with (the GraphQL selection of the route, src/rest/openapi.ts), so an example always
 * has the answer's fields and types. Values follow the field's name where it says what it holds
 * (an id, a date, a time of day, a time zone, a serial number), and the request body's example
 * where the answer echoes a field of it (a created employee's `name`). The dates are those of the
 * request examples (2026-11-27).
 */

const DATE = '2026-11-27';
const DATE_TIME = '2026-11-27T08:02:11Z';

/** A string for a field, by its snake_case name. */
function stringFor(name: string): string {
  if (/(^|_)date$/.test(name) || /_(from|until)$/.test(name)) return DATE;
  if (/(^|_)time$/.test(name) && !/local_time/.test(name)) return '08:00';
  if (name === 'local_time') return '2026-11-27T09:02:11';
  if (/time_zone$/.test(name)) return 'Europe/Berlin';
  if (/(^|_)(punch_)?state$/.test(name)) return '0';
  if (/serial(_number)?$/.test(name)) return 'CKJJ220160123';
  if (/(^|_)pin$/.test(name)) return '1024';
  if (/e?mail$/.test(name)) return 'ana.lopez@example.com';
  if (/url$/.test(name)) return 'https://hooks.example.com/timegate';
  if (/colou?r$/.test(name)) return '#2E86DE';
  if (/(^|_)code$/.test(name)) return 'BER';
  if (/lastname|last_name/.test(name)) return 'López';
  if (/(^|_)name$/.test(name)) return 'Ana';
  if (/reason|note|comment|description|message|detail/.test(name)) return 'Badge left at home.';
  if (/(^|_)id$/.test(name)) return 'da_8f14e45f';
  return 'text';
}

/** Integers of fields whose name says what they count or name. */
const INTEGERS: Record<string, number> = {
  id: 42,
  company_id: 1,
  employee_id: 17,
  device_id: 3,
  door_id: 2,
  area_id: 4,
  shift_id: 5,
  scheduled_minutes: 480,
  worked_minutes: 450,
  break_minutes: 30,
  overtime_minutes: 30,
  late_minutes: 0,
  early_leave_minutes: 0,
  leave_minutes: 0,
  pending_overtime_minutes: 0,
  duration: 5,
  number: 1,
  door: 1,
  year: 2026,
};

/**
 * The first value a string field's description names, when it names values of a fixed set
 * (`present`, `absent`..., `attendance.created`): an example a reader recognises.
 */
function keywordOf(schema: JsonSchema): string | undefined {
  const description = typeof schema.description === 'string' ? schema.description : '';
  const first = /`([a-z][a-z0-9_.]*)`/.exec(description)?.[1];
  return first && (typeof schema.maxLength !== 'number' || first.length <= schema.maxLength) ? first : undefined;
}

/** An integer for a field, by its name, within the schema's bounds. */
function integerFor(name: string, schema: JsonSchema): number {
  let value =
    INTEGERS[name] ??
    (/minutes$/.test(name) ? 60 : /seconds$/.test(name) ? 5 : /(^|_)ids?$/.test(name) ? 7 : /count|total|pending|confirmed|failed|synced/.test(name) ? 3 : 1);
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = schema.minimum;
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  return value;
}

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type as string[]).find((t) => t !== 'null');
  return typeof type === 'string' ? type : undefined;
}

/** An example value valid against `schema`, for a field called `name`. */
export function exampleOf(schema: JsonSchema, name = ''): unknown {
  if (Array.isArray(schema.oneOf) && schema.oneOf.length) return exampleOf(schema.oneOf[0] as JsonSchema, name);
  if (Array.isArray(schema.anyOf) && schema.anyOf.length) return exampleOf(schema.anyOf[0] as JsonSchema, name);
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).find((value) => value !== null) ?? null;
  switch (typeOf(schema)) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, exampleOf(value, key)]));
    }
    case 'array': {
      const item = (schema.items ?? {}) as JsonSchema;
      // A list's description names the values of its items (`event_types`: `attendance.created`, ...).
      return [exampleOf(item.description || !schema.description ? item : { ...item, description: schema.description }, name.replace(/s$/, ''))];
    }
    case 'string':
      return schema.format === 'date-time' ? DATE_TIME : schema.format === 'date' ? DATE : (keywordOf(schema) ?? stringFor(name));
    case 'integer':
      return integerFor(name, schema);
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    default:
      return {};
  }
}

/** Whether `value` may stand for a field of `schema` (the same simple type; in the enum, if any). */
function fits(value: unknown, schema: JsonSchema): boolean {
  if (value === null || typeof value === 'object') return false;
  if (Array.isArray(schema.enum) && !(schema.enum as unknown[]).includes(value)) return false;
  const type = typeOf(schema);
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'string' && schema.format === 'date-time') return false;
  return type === typeof value;
}

/**
 * The example of an answer: made from its schema, with the fields the request body's example sets
 * (top-level, of a simple type) taken from it, so that the answer shows what the request stored.
 */
export function answerExample(schema: JsonSchema, requestExample?: unknown): unknown {
  const example = exampleOf(schema);
  if (
    !requestExample ||
    typeof requestExample !== 'object' ||
    Array.isArray(requestExample) ||
    !example ||
    typeof example !== 'object' ||
    Array.isArray(example)
  ) {
    return example;
  }
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const merged = example as Record<string, unknown>;
  for (const [key, value] of Object.entries(requestExample)) if (properties[key] && fits(value, properties[key])) merged[key] = value;
  return merged;
}
