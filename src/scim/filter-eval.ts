// Evaluates a parsed SCIM filter against a resource (RFC 7644, section 3.4.2.2). String
// comparisons ignore case unless the attribute's schema says `caseExact` (id, externalId, member
// values); a multi-valued attribute matches when any of its values does, and a complex multi-valued
// attribute compared without a sub-attribute compares its `value`s.
import type { AttrPath, CompValue, Filter } from './filter';
import { coerceBoolean, containerOf, definitionOf, getAttr, isObject, type Json, type JsonObject } from './resource';
import type { AttributeDefinition, SchemaDefinition } from './schemas';

/** Where a filter's paths are read: a whole resource, or one entry of a multi-valued attribute (inside `[...]`). */
interface Scope {
  object: JsonObject;
  core: SchemaDefinition;
  /** Inside a value filter: the multi-valued attribute whose entry `object` is. */
  parent: AttributeDefinition | null;
}

/** An attribute the schemas do not define (kept as sent): its entries compare case-insensitively. */
const UNKNOWN_PARENT: AttributeDefinition = {
  name: '',
  type: 'complex',
  multiValued: true,
  description: '',
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  subAttributes: [],
};

function definitionIn(scope: Scope, path: AttrPath): AttributeDefinition | undefined {
  if (scope.parent) return scope.parent.subAttributes?.find((a) => a.name.toLowerCase() === path.attr.toLowerCase());
  return definitionOf(scope.core, path);
}

/** The values a path names in a scope, flattened. */
function valuesAt(scope: Scope, path: AttrPath): Json[] {
  const container = scope.parent ? scope.object : containerOf(scope.object, scope.core, path, false);
  if (!container) return [];
  const value = getAttr(container, path.attr);
  if (value === undefined || value === null) return [];
  const entries = Array.isArray(value) ? value : [value];
  if (path.sub !== null) return entries.flatMap((e) => (isObject(e) ? [getAttr(e, path.sub!)] : [])).filter((v): v is Json => v !== undefined && v !== null);
  // A complex multi-valued attribute compared as a whole compares its entries' `value`s.
  return entries.flatMap((e) => (isObject(e) ? (getAttr(e, 'value') !== undefined ? [getAttr(e, 'value')!] : []) : [e]));
}

function compareOne(actual: Json, op: string, expected: CompValue, caseExact: boolean): boolean {
  if (typeof expected === 'boolean') {
    const value = coerceBoolean(actual);
    return op === 'eq' ? value === expected : op === 'ne' ? value !== expected : false;
  }
  if (expected === null) return op === 'ne';
  if (typeof expected === 'number') {
    const value = typeof actual === 'number' ? actual : Number(actual);
    if (Number.isNaN(value)) return op === 'ne';
    return numeric(value, op, expected);
  }
  if (typeof actual !== 'string') return op === 'ne' ? String(actual) !== expected : op === 'eq' ? String(actual) === expected : false;
  const a = caseExact ? actual : actual.toLowerCase();
  const b = caseExact ? expected : expected.toLowerCase();
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'co':
      return a.includes(b);
    case 'sw':
      return a.startsWith(b);
    case 'ew':
      return a.endsWith(b);
    default:
      return numeric(a < b ? -1 : a > b ? 1 : 0, op, 0);
  }
}

function numeric(a: number, op: string, b: number): boolean {
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'gt':
      return a > b;
    case 'ge':
      return a >= b;
    case 'lt':
      return a < b;
    case 'le':
      return a <= b;
    default:
      return false;
  }
}

function evaluateIn(scope: Scope, filter: Filter): boolean {
  switch (filter.kind) {
    case 'and':
      return evaluateIn(scope, filter.left) && evaluateIn(scope, filter.right);
    case 'or':
      return evaluateIn(scope, filter.left) || evaluateIn(scope, filter.right);
    case 'not':
      return !evaluateIn(scope, filter.filter);
    case 'present':
      return valuesAt(scope, filter.path).some((v) => v !== '' && !(Array.isArray(v) && v.length === 0));
    case 'compare': {
      const values = valuesAt(scope, filter.path);
      const caseExact = definitionIn(scope, filter.path)?.caseExact ?? false;
      if (filter.op === 'ne') return values.every((v) => compareOne(v, 'ne', filter.value, caseExact));
      return values.some((v) => compareOne(v, filter.op, filter.value, caseExact));
    }
    case 'valuePath': {
      const container = scope.parent ? scope.object : containerOf(scope.object, scope.core, filter.path, false);
      const value = container ? getAttr(container, filter.path.attr) : undefined;
      const parent = definitionIn(scope, { ...filter.path, sub: null });
      const entries = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
      return entries.some((entry) => isObject(entry) && evaluateIn({ object: entry, core: scope.core, parent: parent ?? UNKNOWN_PARENT }, filter.filter));
    }
  }
}

/** Whether a resource of schema `core` matches the filter. */
export function matchesFilter(resource: JsonObject, core: SchemaDefinition, filter: Filter): boolean {
  return evaluateIn({ object: resource, core, parent: null }, filter);
}

/** Whether one entry of the multi-valued attribute `parent` matches a value filter (`emails[type eq "work"]`). */
export function entryMatches(entry: JsonObject, core: SchemaDefinition, parent: AttributeDefinition | undefined, filter: Filter): boolean {
  return evaluateIn({ object: entry, core, parent: parent ?? UNKNOWN_PARENT }, filter);
}
