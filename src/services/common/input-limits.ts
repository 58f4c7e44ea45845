import { DomainError } from '../../errors/domain-error';
import { jsonNestsDeeperThan } from '../../kernel/nesting';

/**
 * The bounds of what a client may send, defined once. The REST JSON Schemas (`maxLength`,
 * `maxItems`), the GraphQL schema (the `@constraint` directive on every string argument and input
 * field, src/schema/bounds.ts) and the services' own checks all read these tables, so a name, a
 * search or a reason has the same limit on every surface. docs/limits.md lists them.
 */

/**
 * The longest value of each kind of text, in Unicode code points (as JSON Schema's `maxLength` and
 * PostgreSQL's `varchar` count them: an emoji is one).
 */
export const textLimits = {
  // Names and codes of the directory.
  workspaceName: 200,
  companyName: 200,
  companyCode: 64,
  areaName: 200,
  areaCode: 64,
  /** A geofence's name, shown to employees. */
  geofenceName: 200,
  /** An employee's first or last name (a terminal shows 24 characters or so). */
  personName: 100,
  employeeCode: 64,
  /** Letters and digits: the terminals' user field holds 23 characters. */
  pin: 23,
  email: 254,
  apiKeyName: 200,
  /** An API key scope (`read`, `doors:manage`, ...). */
  scope: 32,
  // Terminals and doors.
  deviceName: 100,
  serialNumber: 64,
  /** The vendor `pushcommkey` a terminal sends: printable ASCII. */
  pushCommKey: 64,
  /** One allowed source address or CIDR (an IPv6 CIDR is at most 43 characters). */
  cidr: 64,
  doorName: 100,
  /** Names of access schedules, access levels, linkage rules and visitor passes. */
  accessName: 100,
  /** A visitor pass's card number: 1 to 20 digits. */
  cardNo: 20,
  // Attendance and leave.
  stateName: 100,
  /** A punch state: the value of a verification state, as the terminal sends it. */
  punchState: 16,
  shiftName: 200,
  holidayName: 200,
  rosterName: 200,
  absenceTypeName: 100,
  absenceCode: 20,
  /** A reason a change must give: voiding a punch, a punch correction, a lockdown. */
  reason: 500,
  /** A note filed with a request (an absence, an overtime approval). */
  note: 1000,
  /** A manager's comment on a decision (approve, reject, cancel). */
  comment: 1000,
  /** A payroll export's `columns` or `codes` list (`column[:header],...`). */
  exportMapping: 2000,
  // Webhooks.
  url: 2048,
  description: 500,
  eventType: 64,
  // Lookups and filters.
  /** The text of a search (employees: name, last name, code, pin or e-mail). */
  search: 200,
  /** An id or a name in one argument (an area's id, code or name). */
  idOrName: 200,
  /** An operation name in the audit log (a mutation or `scim.<operation>`). */
  operation: 100,
  /** A page cursor or an event id (`after`). */
  cursor: 64,
  /** An action id (`da_...`) or a directory group's id. */
  identifier: 64,
  // SCIM (RFC 7643 sets no lengths; the same table as every other surface).
  /** A SCIM User's `userName` or a Group's `displayName` (the stored column's length). */
  scimName: 256,
  /** A SCIM User's or Group's `externalId`: the directory's own id (a GUID in Entra ID). */
  scimExternalId: 256,
  // Formatted values: their format is shorter still.
  /** A calendar date `YYYY-MM-DD`. */
  date: 10,
  /** An ISO 8601 date-time (`2026-03-03T17:30:00+01:00`). */
  dateTime: 64,
  /** A time of day `HH:MM`. */
  timeOfDay: 5,
  /** An IANA time zone name. */
  timeZone: 64,
  /** A colour `#RRGGBB`. */
  color: 7,
  /** A value of a fixed set that is sent as text: a state, a mode, a type, an action, a colour. */
  keyword: 32,
  /** A face photo as base64 (the image itself is at most 5 MiB). */
  photoBase64: 6_990_508,
} as const;

export type TextLimit = keyof typeof textLimits;

/** The most items of each list of strings a client sends. */
export const listLimits = {
  scopes: 16,
  /** Allowed source addresses of a device. */
  cidrs: 32,
  eventTypes: 64,
  /** Values of a fixed set to filter by (device command statuses). */
  keywords: 16,
} as const;

export type ListLimit = keyof typeof listLimits;

/**
 * How deeply input may nest, checked without recursion before anything walks it
 * (src/kernel/nesting.ts): JSON bodies of REST, SCIM and GraphQL (variables, extensions, WebSocket
 * messages) in objects and arrays; GraphQL documents in braces, brackets and parentheses. No valid
 * request of the API comes near either; a GraphQL document's selections are limited further by
 * TIMEGATE_GRAPHQL_MAX_DEPTH.
 */
export const nestingLimits = { json: 32, document: 128 } as const;

/** The refusal of input nested deeper than `nestingLimits.json` (400 `nesting_too_deep`). */
export function nestingTooDeep(what = 'The request body'): DomainError {
  return new DomainError('nesting_too_deep', `${what} nests objects and arrays more than ${nestingLimits.json} levels deep; nothing of it was read further.`);
}

/**
 * body-parser's `verify` hook (express.json of REST, SCIM and POST /graphql): a JSON body nested
 * deeper than `nestingLimits.json` is refused from its raw bytes, before it is parsed.
 */
export function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer): void {
  if (jsonNestsDeeperThan(body, nestingLimits.json)) throw nestingTooDeep();
}
