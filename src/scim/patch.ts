// SCIM PATCH (RFC 7644, section 3.5.2) applied to a resource as JSON: `add`, `remove`, `replace`,
// with or without a path, paths with value filters (`emails[type eq "work"].value`) and paths
// qualified by an extension's URN. Pure: a resource in, the changed copy out.
//
// Tolerated beyond the RFC, because directories send it:
// * operation names in any case (Entra ID sends `Add`, `Replace`, `Remove`);
// * booleans as the strings "True"/"False" (Entra ID; coerced by the caller with the schema);
// * `remove` of a multi-valued attribute with a `value` listing the entries to remove (Entra ID
//   removes group members as `{"op":"Remove","path":"members","value":[{"value":"<id>"}]}`);
// * `add`/`replace` through a value filter that matches nothing, when the filter only says
//   `sub eq "x"` (and-ed): the entry is created with those values (Entra ID writes
//   `emails[type eq "work"].value` to a user without a work e-mail yet);
// * no-path operations whose value keys are paths (`"name.givenName"`, or fully qualified
//   `"urn:...:enterprise:2.0:User:employeeNumber"`), as well as extension objects under their URN.
import { ScimError } from './errors';
import { parseAttrPath, parsePatchPath, type AttrPath, type Filter, type PatchPath } from './filter';
import { entryMatches } from './filter-eval';
import { clone, containerOf, deepEqual, definitionOf, deleteAttr, getAttr, isObject, setAttr, type Json, type JsonObject } from './resource';
import { schemaByUrn, type AttributeDefinition, type SchemaDefinition } from './schemas';

export interface PatchOperation {
  op: string;
  path?: string;
  value?: Json;
}

type Op = 'add' | 'remove' | 'replace';

/** Attributes no PATCH may change (RFC 7643: `id` and `meta` are read-only; `groups` changes through groups). */
function checkMutable(core: SchemaDefinition, path: AttrPath, definition: AttributeDefinition | undefined): void {
  const top = definitionOf(core, { ...path, sub: null });
  if (top?.mutability === 'readOnly' || definition?.mutability === 'readOnly') {
    throw ScimError.badRequest('mutability', `"${path.attr}${path.sub ? `.${path.sub}` : ''}" is read-only.`);
  }
}

function operationName(raw: unknown): Op {
  const name = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (name === 'add' || name === 'remove' || name === 'replace') return name;
  throw ScimError.badRequest('invalidSyntax', `Unknown PATCH operation ${JSON.stringify(raw)}: use add, remove or replace.`);
}

/** The values of a filter of only `attr eq value` and `and`: what a new matching entry holds. */
function equalities(filter: Filter): JsonObject | null {
  if (filter.kind === 'compare' && filter.op === 'eq' && filter.path.sub === null && filter.path.schema === null) return { [filter.path.attr]: filter.value };
  if (filter.kind === 'and') {
    const left = equalities(filter.left);
    const right = equalities(filter.right);
    return left && right ? { ...left, ...right } : null;
  }
  return null;
}

/** Adds entries to a multi-valued attribute, skipping ones it already holds (by content, or by `value`). */
function appendEntries(existing: Json[], added: Json[]): Json[] {
  const result = [...existing];
  for (const entry of added) {
    const same = result.findIndex(
      (e) =>
        deepEqual(e, entry) ||
        (isObject(e) &&
          isObject(entry) &&
          getAttr(entry, 'value') !== undefined &&
          deepEqual(getAttr(e, 'value'), getAttr(entry, 'value')) &&
          (getAttr(entry, 'type') === undefined || deepEqual(getAttr(e, 'type'), getAttr(entry, 'type')))),
    );
    if (same < 0) result.push(entry);
    else if (isObject(result[same]) && isObject(entry)) result[same] = { ...(result[same] as JsonObject), ...entry };
  }
  return result;
}

/** The value an attribute path holds now (undefined when absent). */
function currentValue(resource: JsonObject, core: SchemaDefinition, path: AttrPath): Json | undefined {
  const container = containerOf(resource, core, path, false);
  const attr = container ? getAttr(container, path.attr) : undefined;
  if (path.sub === null) return attr;
  return isObject(attr) ? getAttr(attr, path.sub) : undefined;
}

/** Applies one operation whose path has no value filter. */
function applyPlain(resource: JsonObject, core: SchemaDefinition, op: Op, path: AttrPath, value: Json | undefined): void {
  const definition = definitionOf(core, path);
  // A read-only attribute set to the value it holds is no change (RFC 7644, 3.5.2): Okta renames a
  // group with `{"op":"replace","value":{"id":"<its id>","displayName":"…"}}`.
  if (op !== 'remove' && value !== undefined && deepEqual(currentValue(resource, core, path), value)) return;
  checkMutable(core, path, definition);
  const topDefinition = definitionOf(core, { ...path, sub: null });
  const container = containerOf(resource, core, path, op !== 'remove');
  if (!container) return;
  if (path.sub !== null) {
    const parent = getAttr(container, path.attr);
    if (op === 'remove') {
      for (const entry of Array.isArray(parent) ? parent : [parent]) if (isObject(entry)) deleteAttr(entry, path.sub);
      return;
    }
    if (Array.isArray(parent)) {
      for (const entry of parent) if (isObject(entry)) setAttr(entry, path.sub, value!);
      return;
    }
    const object = isObject(parent) ? parent : {};
    setAttr(object, path.sub, value!);
    setAttr(container, path.attr, object);
    return;
  }
  const current = getAttr(container, path.attr);
  const multiValued = topDefinition?.multiValued ?? Array.isArray(current);
  if (op === 'remove') {
    if (value !== undefined && multiValued && Array.isArray(current)) {
      const removed = Array.isArray(value) ? value : [value];
      const kept = current.filter(
        (entry) => !removed.some((r) => deepEqual(r, entry) || (isObject(r) && isObject(entry) && deepEqual(getAttr(r, 'value'), getAttr(entry, 'value')))),
      );
      setAttr(container, path.attr, kept);
    } else deleteAttr(container, path.attr);
    return;
  }
  if (multiValued) {
    const values = Array.isArray(value) ? value : [value!];
    setAttr(container, path.attr, op === 'add' ? appendEntries(Array.isArray(current) ? current : [], values) : values);
    return;
  }
  // A complex attribute: the given sub-attributes replace theirs, the others stay (RFC 7644, 3.5.2.1 and 3.5.2.3).
  if (isObject(current) && isObject(value)) setAttr(container, path.attr, { ...current, ...value });
  else setAttr(container, path.attr, value!);
}

/** Applies one operation through a value filter (`emails[type eq "work"]` or `...].value`). */
function applyFiltered(resource: JsonObject, core: SchemaDefinition, op: Op, target: PatchPath, value: Json | undefined, raw: string): void {
  const { path, filter } = target;
  const definition = definitionOf(core, path);
  checkMutable(
    core,
    target.subAfterFilter ? { ...path, sub: target.subAfterFilter } : path,
    definition?.subAttributes?.find((a) => a.name.toLowerCase() === target.subAfterFilter?.toLowerCase()),
  );
  const container = containerOf(resource, core, path, op !== 'remove');
  const current = container ? getAttr(container, path.attr) : undefined;
  const entries = Array.isArray(current) ? current : [];
  const matching = entries.filter((e): e is JsonObject => isObject(e) && entryMatches(e, core, definition, filter!));
  if (op === 'remove') {
    if (!container) return;
    if (target.subAfterFilter) for (const entry of matching) deleteAttr(entry, target.subAfterFilter);
    else
      setAttr(
        container,
        path.attr,
        entries.filter((e) => !matching.includes(e as JsonObject)),
      );
    return;
  }
  if (matching.length === 0) {
    const seed = equalities(filter!);
    if (!seed) throw ScimError.badRequest('noTarget', `No value of "${path.attr}" matches "${raw}".`);
    const entry: JsonObject = { ...seed };
    entries.push(entry);
    setAttr(container!, path.attr, entries);
    matching.push(entry);
  }
  for (const entry of matching) {
    if (target.subAfterFilter) setAttr(entry, target.subAfterFilter, value!);
    else if (isObject(value)) {
      if (op === 'replace') for (const key of Object.keys(entry)) delete entry[key];
      Object.assign(entry, value);
    } else throw ScimError.badRequest('invalidValue', `"${raw}" names whole entries: the value must be an object.`);
  }
}

/** Applies one operation with a path. */
function applyPath(resource: JsonObject, core: SchemaDefinition, op: Op, rawPath: string, value: Json | undefined): void {
  const target = parsePatchPath(rawPath);
  if (target.path.schema !== null && !schemaByUrn(target.path.schema) && target.path.schema.toLowerCase() !== core.id.toLowerCase()) {
    throw ScimError.badRequest('invalidPath', `"${rawPath}" names an unknown schema.`);
  }
  if (op !== 'remove' && value === undefined) throw ScimError.badRequest('invalidValue', `"${op}" of "${rawPath}" needs a value.`);
  if (target.filter) applyFiltered(resource, core, op, target, value, rawPath);
  else applyPlain(resource, core, op, target.path, value);
}

/** Applies an operation without a path: its value's members are attributes (or paths, or extension objects). */
function applyWithoutPath(resource: JsonObject, core: SchemaDefinition, op: Op, value: Json | undefined): void {
  if (op === 'remove') throw ScimError.badRequest('noTarget', 'A remove operation needs a path.');
  if (!isObject(value)) throw ScimError.badRequest('invalidValue', `An ${op} without a path needs an object of attributes as its value.`);
  for (const [key, member] of Object.entries(value)) {
    if (key.toLowerCase() === 'schemas') continue;
    const extension = schemaByUrn(key);
    if (extension && isObject(member)) {
      for (const [attr, inner] of Object.entries(member)) applyPath(resource, core, op, `${extension.id}:${attr}`, inner);
      continue;
    }
    parseAttrPath(key);
    applyPath(resource, core, op, key, member);
  }
}

/**
 * Applies a PatchOp body's operations in order to a copy of the resource and returns the copy. Any
 * failing operation fails the whole request (RFC 7644: the resource is left unchanged).
 */
export function applyPatch(resource: JsonObject, core: SchemaDefinition, body: unknown): JsonObject {
  if (!isObject(body as Json)) throw ScimError.badRequest('invalidSyntax', 'A PATCH body is a PatchOp object.');
  const operations = getAttr(body as JsonObject, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0) throw ScimError.badRequest('invalidSyntax', 'A PATCH body has a non-empty "Operations" array.');
  const result = clone(resource);
  for (const raw of operations) {
    if (!isObject(raw)) throw ScimError.badRequest('invalidSyntax', 'Each operation is an object with "op", "path" and "value".');
    const op = operationName(getAttr(raw, 'op'));
    const path = getAttr(raw, 'path');
    const value = getAttr(raw, 'value');
    if (path === undefined || path === null || path === '') applyWithoutPath(result, core, op, value);
    else if (typeof path !== 'string') throw ScimError.badRequest('invalidPath', 'A path is a string.');
    else applyPath(result, core, op, path, value);
  }
  return result;
}
