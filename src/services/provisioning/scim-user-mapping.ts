// How a SCIM User becomes an employee (docs/identity.md, "Attribute mapping"). Pure: the resource
// in, the employee's fields out.
import { checkResourceBounds, type ResourceBounds } from '../../scim/bounds';
import { ScimError } from '../../scim/errors';
import { coerceBooleans, getAttr, isObject, type Json, type JsonObject } from '../../scim/resource';
import { ENTERPRISE_USER, ENTERPRISE_USER_SCHEMA, USER } from '../../scim/schemas';
import { cutToCodePoints, limits } from '../common/validation';

/** What the directory decides about the employee. */
export interface EmployeeFields {
  name: string;
  lastname: string;
  code: string;
  email: string | null;
  isActive: boolean;
  /** The enterprise `employeeNumber`: the PIN too when it is a valid, free PIN. */
  employeeNumber: string | null;
}

export const MAX_USER_NAME = limits.scimName;
const PIN = /^[A-Za-z0-9]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Attributes never stored: what the server owns (`id`, `meta`, `groups`) and secrets (`password`). */
const NOT_STORED = new Set(['id', 'meta', 'password', 'groups', 'schemas']);

function text(value: Json | undefined): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * A User resource as the directory sent it (POST, PUT, or the result of a PATCH), checked and
 * reduced to what is stored: server-owned attributes and the password dropped, booleans coerced
 * ("True"/"False" from Entra ID). Over the size bounds it is refused (413, or 400 invalidValue).
 */
export function storedUserDocument(body: unknown, bounds: ResourceBounds): JsonObject {
  if (!isObject(body as Json)) throw ScimError.badRequest('invalidSyntax', 'A User is a JSON object.');
  const document: JsonObject = {};
  for (const [key, value] of Object.entries(body as JsonObject)) if (!NOT_STORED.has(key.toLowerCase())) document[key] = value;
  checkResourceBounds('User', document, bounds);
  coerceBooleans(document, USER, [ENTERPRISE_USER]);
  const userName = getAttr(document, 'userName');
  if (typeof userName !== 'string' || userName.trim() === '') throw ScimError.badRequest('invalidValue', 'userName is required.');
  if (userName.length > MAX_USER_NAME) throw ScimError.badRequest('invalidValue', `userName has at most ${MAX_USER_NAME} characters.`);
  const active = getAttr(document, 'active');
  if (active !== undefined && active !== null && typeof active !== 'boolean') throw ScimError.badRequest('invalidValue', 'active is a boolean.');
  const externalId = getAttr(document, 'externalId');
  if (externalId !== undefined && externalId !== null && typeof externalId !== 'string') throw ScimError.badRequest('invalidValue', 'externalId is a string.');
  if (typeof externalId === 'string' && externalId.length > limits.scimExternalId)
    throw ScimError.badRequest('invalidValue', `externalId has at most ${limits.scimExternalId} characters.`);
  return document;
}

/** The e-mail an employee gets: the primary one, else the first (invalid addresses are not taken). */
function employeeEmail(document: JsonObject): string | null {
  const emails = getAttr(document, 'emails');
  if (!Array.isArray(emails)) return null;
  const entries = emails.filter(isObject);
  const chosen = entries.find((e) => getAttr(e, 'primary') === true) ?? entries[0];
  const value = chosen ? text(getAttr(chosen, 'value')) : null;
  return value && value.length <= limits.email && EMAIL.test(value) ? value : null;
}

export function employeeFieldsOf(document: JsonObject): EmployeeFields {
  const userName = (getAttr(document, 'userName') as string).trim();
  const name = getAttr(document, 'name');
  const displayWords = (text(getAttr(document, 'displayName')) ?? '').split(/\s+/).filter(Boolean);
  const given = (isObject(name) ? text(getAttr(name, 'givenName')) : null) ?? displayWords[0] ?? userName.split('@')[0]!;
  // Employees have a last name; a directory without one gives the rest of the display name, or "-".
  const family = (isObject(name) ? text(getAttr(name, 'familyName')) : null) ?? (displayWords.length > 1 ? displayWords.slice(1).join(' ') : '-');
  const enterprise = getAttr(document, ENTERPRISE_USER_SCHEMA);
  const employeeNumber = isObject(enterprise) ? text(getAttr(enterprise, 'employeeNumber')) : null;
  return {
    name: cutToCodePoints(given, limits.personName),
    lastname: cutToCodePoints(family, limits.personName),
    // The employee code: the directory's employee number, else the userName (unique in the company).
    code: cutToCodePoints(employeeNumber ?? userName, limits.employeeCode),
    email: employeeEmail(document),
    isActive: getAttr(document, 'active') !== false,
    employeeNumber,
  };
}

/** Whether a value can be a terminal PIN (the rule of every employee PIN). */
export function isTerminalPin(value: string | null): value is string {
  return value !== null && value.length <= limits.pin && PIN.test(value);
}
