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
  /**
   * The route is deprecated (docs/change-policy.md): the router answers every request with
   * `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers, and a `successor-version` link when a
   * successor is named; the OpenAPI document marks the operation `deprecated: true` and says why.
   */
  deprecated?: RouteDeprecation;
  variables(input: RouteInput): Record<string, unknown>;
}

/** Why and until when a REST route is kept (docs/change-policy.md). */
export interface RouteDeprecation {
  /** The day the deprecation was announced, `YYYY-MM-DD` (UTC): the `Deprecation` header. */
  since: string;
  /** The day after which the route may be removed, `YYYY-MM-DD` (UTC), at least DEPRECATION_NOTICE_DAYS after `since`: the `Sunset` header. */
  sunset: string;
  /** Why, and what to use instead (at most 500 characters): the OpenAPI description and the changelog say it. */
  reason: string;
  /** The path of the route that replaces it (`/public/v2/employees`), linked with `rel="successor-version"`. */
  successor?: string;
}

/** The shortest notice between a REST route's deprecation and its sunset (docs/change-policy.md). */
export const DEPRECATION_NOTICE_DAYS = 180;

const DAY_MS = 86_400_000;

function utcDay(value: string, what: string): Date {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(NaN);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    throw new Error(`${what} must be a date YYYY-MM-DD (got ${JSON.stringify(value)})`);
  return date;
}

/**
 * The headers a deprecated route answers with. Throws (at start-up, when the router is built) on a
 * deprecation that breaks the policy: bad dates, a notice shorter than DEPRECATION_NOTICE_DAYS, no reason.
 */
export function deprecationHeaders(route: Pick<RestRoute, 'name' | 'deprecated'>): Record<string, string> | undefined {
  const deprecation = route.deprecated;
  if (!deprecation) return undefined;
  const since = utcDay(deprecation.since, `${route.name}: deprecated.since`);
  const sunset = utcDay(deprecation.sunset, `${route.name}: deprecated.sunset`);
  if (sunset.getTime() - since.getTime() < DEPRECATION_NOTICE_DAYS * DAY_MS) {
    throw new Error(
      `${route.name}: a deprecated route is kept at least ${DEPRECATION_NOTICE_DAYS} days (deprecated.since ${deprecation.since}, sunset ${deprecation.sunset})`,
    );
  }
  if (!deprecation.reason.trim() || deprecation.reason.length > 500) throw new Error(`${route.name}: deprecated.reason must say why, in 1 to 500 characters`);
  if (deprecation.successor !== undefined && !/^\/[\w\-/.:]{1,200}$/.test(deprecation.successor))
    throw new Error(`${route.name}: deprecated.successor must be a path`);
  // Sunset: the last day is whole; the route may go after its end.
  const headers: Record<string, string> = {
    Deprecation: `@${since.getTime() / 1000}`,
    Sunset: new Date(sunset.getTime() + DAY_MS - 1000).toUTCString(),
  };
  if (deprecation.successor) headers.Link = `<${deprecation.successor}>; rel="successor-version"`;
  return headers;
}

/** The largest id of most resources (PostgreSQL `integer`, GraphQL `Int`). */
export const MAX_ID = 2_147_483_647;
/** The largest 64-bit id the APIs carry (punches; GraphQL `SafeInt`): JSON numbers stay exact up to here. */
export const MAX_LONG_ID = Number.MAX_SAFE_INTEGER;

/** `:id` path parameters are integers; anything else names nothing and is a 404 like a missing id. */
export function idParam(value: string | undefined, max = MAX_ID): number {
  return /^[1-9]\d{0,15}$/.test(value ?? '') && Number(value) <= max ? Number(value) : -1;
}
