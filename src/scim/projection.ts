// `attributes` / `excludedAttributes` (RFC 7644, section 3.4.2.5) and list paging (3.4.2.4). Pure.
import { ScimError } from './errors';
import { parseAttrPath, type AttrPath } from './filter';
import { containerOf, getAttr, isCore, isObject, keyOf, type Json, type JsonObject } from './resource';
import { LIST_RESPONSE_SCHEMA, type SchemaDefinition } from './schemas';

/** Attributes returned whatever the client asks (`returned: always`). */
const ALWAYS = new Set(['id', 'schemas']);

function parseList(text: string | undefined): AttrPath[] {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((part) => parseAttrPath(part.trim(), (detail) => ScimError.badRequest('invalidPath', detail)));
}

export interface Projection {
  attributes: AttrPath[];
  excluded: AttrPath[];
}

export function parseProjection(query: { attributes?: string; excludedAttributes?: string }): Projection {
  return { attributes: parseList(query.attributes), excluded: parseList(query.excludedAttributes) };
}

/** Copies the path's value from `source` into `target` (making the extension object and the complex parent as needed). */
function copyPath(source: JsonObject, target: JsonObject, core: SchemaDefinition, path: AttrPath): void {
  const from = containerOf(source, core, path, false);
  if (!from) return;
  const key = keyOf(from, path.attr);
  if (key === undefined) return;
  let into = target;
  if (!isCore(core, path.schema)) {
    const urnKey = keyOf(source, path.schema!)!;
    into = (isObject(target[urnKey]) ? target[urnKey] : (target[urnKey] = {})) as JsonObject;
  }
  const value = from[key]!;
  if (path.sub === null) {
    into[key] = value;
    return;
  }
  if (Array.isArray(value)) {
    const existing = Array.isArray(into[key]) ? (into[key] as Json[]) : value.map(() => ({}) as Json);
    value.forEach((entry, i) => {
      const subKey = isObject(entry) ? keyOf(entry, path.sub!) : undefined;
      if (subKey !== undefined && isObject(existing[i])) (existing[i] as JsonObject)[subKey] = (entry as JsonObject)[subKey]!;
    });
    into[key] = existing;
  } else if (isObject(value)) {
    const subKey = keyOf(value, path.sub);
    if (subKey === undefined) return;
    const parent = (isObject(into[key]) ? into[key] : (into[key] = {})) as JsonObject;
    parent[subKey] = value[subKey]!;
  }
}

function removePath(resource: JsonObject, core: SchemaDefinition, path: AttrPath): void {
  if (isCore(core, path.schema) && ALWAYS.has(path.attr.toLowerCase()) && path.sub === null) return;
  const container = containerOf(resource, core, path, false);
  if (!container) return;
  const key = keyOf(container, path.attr);
  if (key === undefined) return;
  if (path.sub === null) {
    delete container[key];
    return;
  }
  for (const entry of Array.isArray(container[key]) ? (container[key] as Json[]) : [container[key]!]) {
    const subKey = isObject(entry) ? keyOf(entry, path.sub) : undefined;
    if (subKey !== undefined) delete (entry as JsonObject)[subKey];
  }
}

/** The resource as the client asked to see it. */
export function project(resource: JsonObject, core: SchemaDefinition, projection: Projection): JsonObject {
  if (projection.attributes.length > 0) {
    const result: JsonObject = {};
    for (const name of Object.keys(resource)) if (ALWAYS.has(name.toLowerCase())) result[name] = resource[name]!;
    for (const path of projection.attributes) copyPath(resource, result, core, path);
    return result;
  }
  if (projection.excluded.length === 0) return resource;
  const result = structuredClone(resource);
  for (const path of projection.excluded) removePath(result, core, path);
  return result;
}

/** Whether a projection shows a core attribute (`members`, `groups`), so that a list need not read what it leaves out. */
export function shows(projection: Projection, core: SchemaDefinition, attr: string): boolean {
  const names = (paths: AttrPath[], whole: boolean) =>
    paths.some((p) => isCore(core, p.schema) && p.attr.toLowerCase() === attr.toLowerCase() && (!whole || p.sub === null));
  if (projection.attributes.length > 0) return names(projection.attributes, false);
  return !names(projection.excluded, true);
}

export interface ListPage {
  /** 1-based index of the first result (RFC 7644: values below 1 mean 1). */
  startIndex: number;
  /** How many to return at most (negative means 0). */
  count: number;
}

/** The largest page this service returns (advertised as `filter.maxResults`). */
export const MAX_PAGE = 200;

function integerParam(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  if (!/^-?\d+$/.test(text.trim())) throw ScimError.badRequest('invalidValue', `${name} must be an integer.`);
  return Number(text);
}

export function parseListPage(query: { startIndex?: string; count?: string }): ListPage {
  const startIndex = Math.max(1, integerParam('startIndex', query.startIndex, 1));
  const count = Math.min(MAX_PAGE, Math.max(0, integerParam('count', query.count, MAX_PAGE)));
  return { startIndex, count };
}

export function listResponse(resources: JsonObject[], totalResults: number, page: ListPage): JsonObject {
  return { schemas: [LIST_RESPONSE_SCHEMA], totalResults, startIndex: page.startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** Reads `value` of a complex multi-valued attribute's entries (`members[].value`), skipping the rest. */
export function entryValues(resource: JsonObject, attr: string): string[] {
  const value = getAttr(resource, attr);
  if (!Array.isArray(value)) return [];
  return value.flatMap((e) => (isObject(e) && typeof getAttr(e, 'value') === 'string' ? [getAttr(e, 'value') as string] : []));
}
