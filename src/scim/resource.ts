// A SCIM resource as JSON: core attributes at the top, an extension's attributes under its URN.
// Attribute names are case-insensitive (RFC 7643, section 2.1), so every lookup goes through
// `keyOf`. Pure helpers shared by filter evaluation and PATCH.
import type { AttrPath } from './filter';
import { findAttribute, schemaByUrn, type AttributeDefinition, type SchemaDefinition } from './schemas';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The key of `object` that names `name` (any case), or undefined. */
export function keyOf(object: JsonObject, name: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(object, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(object).find((k) => k.toLowerCase() === lower);
}

export function getAttr(object: JsonObject, name: string): Json | undefined {
  const key = keyOf(object, name);
  return key === undefined ? undefined : object[key];
}

/** Sets `name` on `object`, keeping the spelling of a key it already has. */
export function setAttr(object: JsonObject, name: string, value: Json): void {
  object[keyOf(object, name) ?? name] = value;
}

export function deleteAttr(object: JsonObject, name: string): void {
  const key = keyOf(object, name);
  if (key !== undefined) delete object[key];
}

/** Whether a path's schema URN is the resource's core schema (or absent). */
export function isCore(core: SchemaDefinition, schema: string | null): boolean {
  return schema === null || schema.toLowerCase() === core.id.toLowerCase();
}

/**
 * The object holding a path's attribute: the resource itself, or its extension object (made when
 * `create`). Undefined when the extension is absent and not made.
 */
export function containerOf(resource: JsonObject, core: SchemaDefinition, path: AttrPath, create: boolean): JsonObject | undefined {
  if (isCore(core, path.schema)) return resource;
  const existing = getAttr(resource, path.schema!);
  if (isObject(existing)) return existing;
  if (!create) return undefined;
  const made: JsonObject = {};
  setAttr(resource, schemaByUrn(path.schema!)?.id ?? path.schema!, made);
  return made;
}

/** The definition of a path's attribute (its sub-attribute when it has one). */
export function definitionOf(core: SchemaDefinition, path: AttrPath): AttributeDefinition | undefined {
  return findAttribute(core, isCore(core, path.schema) ? null : path.schema, path.attr, path.sub);
}

export function deepEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => deepEqual(a[k], getAttr(b, k)));
  }
  return false;
}

export function clone<T extends Json>(value: T): T {
  return structuredClone(value);
}

/** "True"/"false" (any case: Entra ID sends booleans as strings) as a boolean; anything else unchanged. */
export function coerceBoolean(value: Json): Json {
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return value;
}

/**
 * Brings the boolean attributes of a resource (and of its multi-valued entries) to real booleans,
 * so that `"active": "False"` means false. Other values are left as the client sent them.
 */
export function coerceBooleans(resource: JsonObject, core: SchemaDefinition, extensions: SchemaDefinition[]): void {
  const walk = (object: JsonObject, attributes: AttributeDefinition[]) => {
    for (const definition of attributes) {
      const key = keyOf(object, definition.name);
      if (key === undefined) continue;
      const value = object[key]!;
      if (definition.type === 'boolean') object[key] = coerceBoolean(value);
      else if (definition.subAttributes) {
        for (const entry of Array.isArray(value) ? value : [value]) if (isObject(entry)) walk(entry, definition.subAttributes);
      }
    }
  };
  walk(resource, core.attributes);
  for (const extension of extensions) {
    const object = getAttr(resource, extension.id);
    if (isObject(object)) walk(object, extension.attributes);
  }
}
