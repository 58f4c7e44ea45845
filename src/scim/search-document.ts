// The copy of a stored resource that list filters read in SQL (services/provisioning/
// scim-filter-sql.ts). Attribute names are case-insensitive (RFC 7643, section 2.1) and string
// comparisons ignore case unless the attribute is `caseExact`, so the copy has every name in lower
// case and every string in lower case (as JavaScript lowers it, like filter-eval.ts) except the
// strings of `caseExact` attributes, which keep their case. Pure.
import { isObject, type Json, type JsonObject } from './resource';
import { findAttribute, schemaByUrn, type AttributeDefinition, type SchemaDefinition } from './schemas';

type Lookup = (name: string) => AttributeDefinition | undefined;

function lowered(value: Json, definition: AttributeDefinition | undefined): Json {
  if (typeof value === 'string') return definition?.caseExact ? value : value.toLowerCase();
  if (Array.isArray(value)) return value.map((entry) => lowered(entry, definition));
  if (isObject(value)) {
    const subAttributes = definition?.subAttributes ?? [];
    return loweredObject(value, (name) => subAttributes.find((a) => a.name.toLowerCase() === name));
  }
  return value;
}

/** An object with lower-case names; of two names that differ only by case, the first is kept (as filters read it). */
function loweredObject(object: JsonObject, lookup: Lookup, skip: ReadonlySet<string> = new Set()): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(object)) {
    const name = key.toLowerCase();
    if (skip.has(name) || Object.prototype.hasOwnProperty.call(result, name)) continue;
    result[name] = lowered(value, lookup(name));
  }
  return result;
}

/**
 * The search copy of a resource of schema `core`: its top-level attributes and its extensions
 * (an object under a schema URN) read with their schema's definitions; `skip` names (lower case)
 * are left out: the attributes the list query reads from columns instead.
 */
export function searchDocument(resource: JsonObject, core: SchemaDefinition, skip: ReadonlySet<string> = new Set()): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(resource)) {
    const name = key.toLowerCase();
    if (skip.has(name) || Object.prototype.hasOwnProperty.call(result, name)) continue;
    const extension = name.startsWith('urn:') ? schemaByUrn(key) : undefined;
    if (name.startsWith('urn:') && isObject(value)) {
      const urn = extension?.id ?? key;
      result[name] = loweredObject(value, (attr) => (extension ? findAttribute(core, urn, attr) : undefined));
    } else {
      result[name] = lowered(value, findAttribute(core, null, name));
    }
  }
  return result;
}
