import type { JsonSchema } from './body-schemas';

/** What a REST route receives, already checked: path parameters, query parameters, the body. */
export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * One REST route = one GraphQL operation. The router validates the body against `body.schema`,
 * binds variables with `variables`, executes `document`, takes `resultField` from the data,
 * renames it to snake_case and answers with `status`.
 */
export interface RestRoute {
  /** Stable name of the route (also the OpenAPI operationId). */
  name: string;
  /**
   * The OpenAPI description when the GraphQL operation's does not fit REST (the photo upload takes
   * the raw image, where the mutation takes base64); default: the operation's description.
   */
  description?: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Express path, e.g. `/public/v2/employees/:id`. */
  path: string;
  document: string;
  /** The field of the operation's data to return; a dotted path reaches into a payload (`createPunch.punch`). */
  resultField: string;
  /** The success status, or a function of the operation's whole data when it depends on the outcome. */
  // oxlint-disable-next-line typescript/no-explicit-any -- an operation's data is JSON of the route's own query
  status: number | ((data: Record<string, any>) => number);
  /**
   * The request body's schema and the resource name it may be wrapped in. `field` names a body
   * that is not an object (a bare array) in error details, as the GraphQL argument it becomes, so
   * that both APIs name the same field (`items.3.device_id`). `example` is shown in the OpenAPI
   * document; a test checks that it validates. Its dates are written as of 2026-11-27 (tests move
   * them by the days since: a date that must be in the future is at least a day after that).
   */
  body?: { schema: JsonSchema; wrapper?: string; field?: string; example: unknown };
  /** Query parameters beyond paging (JSON Schema of an object; values are coerced from strings). */
  query?: JsonSchema;
  /** A paged list: `page`/`per_page` become `first`/`after`, the result is a bare array with paging headers. */
  list?: boolean;
  /**
   * The body is an image, not JSON: one of `mediaTypes`, at most `limitBytes`; `variables` gets it
   * as a base64 string in `body` (the GraphQL operation's argument).
   */
  imageBody?: { mediaTypes: readonly string[]; limitBytes: number };
  /** The result is an image: the base64 `field` of the result (snake_case) is answered as `mediaType` bytes. */
  imageResult?: { field: string; mediaType: string };
  /** `:id` may also be a name (areas by code or name): the router does not refuse a non-numeric one. */
  idOrName?: boolean;
  /** `:id` is a 64-bit id (punches): up to MAX_LONG_ID instead of MAX_ID. */
  longId?: boolean;
  /** The result may also be sent as CSV (`Accept: text/csv`): these snake_case fields, in this order, as columns. */
  csv?: string[];
  /**
   * The result's (snake_case) field holding a whole CSV document the service wrote (a payroll
   * export): answered as a text/csv attachment for `Accept: text/csv` or `?format=csv`, and left out
   * of the JSON answer.
   */
  csvField?: string;
  variables(input: RouteInput): Record<string, unknown>;
}

/** The largest id of most resources (PostgreSQL `integer`, GraphQL `Int`). */
export const MAX_ID = 2_147_483_647;
/** The largest 64-bit id the APIs carry (punches; GraphQL `SafeInt`): JSON numbers stay exact up to here. */
export const MAX_LONG_ID = Number.MAX_SAFE_INTEGER;

/** `:id` path parameters are integers; anything else names nothing and is a 404 like a missing id. */
export function idParam(value: string | undefined, max = MAX_ID): number {
  return /^[1-9]\d{0,15}$/.test(value ?? '') && Number(value) <= max ? Number(value) : -1;
}
