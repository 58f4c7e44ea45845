// The breaking-change check of docs/change-policy.md: compares schema.graphql and openapi.json with the
// documents of the last release (docs/releases/<version>/) and fails on a breaking change that the
// changelog's Unreleased section does not list.
//
// GraphQL: graphql-inspector's diff (its BREAKING criticality). OpenAPI: a structural diff of our
// own, below: oasdiff is a Go binary (not installable with npm), and the npm OpenAPI diff packages
// found either stopped at OpenAPI 3.0 or are unmaintained, while openapi.json is OpenAPI 3.1
// (`type: ["string", "null"]`). The diff reads what a client depends on: operations, parameters,
// request body fields (names, types, required, enums, bounds) and success answers (fields, types,
// required, status codes); descriptions, examples, summaries, tags and new operations never break.
import fs from 'node:fs';
import path from 'node:path';
import { diff, CriticalityLevel } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';

/** One breaking change: `key` is what the changelog names in backticks to list it (`Employee.pin`, `GET /public/v2/staff`). */
export interface BreakingChange {
  api: 'graphql' | 'rest';
  key: string;
  message: string;
}

export async function graphqlBreakingChanges(oldSdl: string, newSdl: string): Promise<BreakingChange[]> {
  const changes = await diff(buildSchema(oldSdl), buildSchema(newSdl));
  return changes
    .filter((change) => change.criticality.level === CriticalityLevel.Breaking)
    .map((change) => ({ api: 'graphql' as const, key: change.path ?? change.message, message: change.message }));
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function resolver(document: Json): (value: unknown) => Json {
  return (value) => {
    let node = value as Json | undefined;
    for (let hops = 0; node && typeof node.$ref === 'string' && hops < 20; hops += 1) {
      node = (node.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((at, part) => (at as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document) as Json | undefined;
    }
    return node ?? {};
  };
}

function types(schema: Json): Set<string> {
  const type = schema.type;
  const list = Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
  // An integer is a number: widening integer → number is a type change, the other way is not.
  return new Set(list);
}

/**
 * Compares two JSON Schemas in one direction. `request`: the client sends it, so narrowing breaks
 * (a removed field, a new required field, a removed type or enum value, a tighter bound). `response`:
 * the client reads it, so widening breaks (a removed or no longer required field, a new type such as
 * null), and a new enum value does not (clients must tolerate them, docs/change-policy.md).
 */
function compareSchemas(
  oldRaw: unknown,
  newRaw: unknown,
  direction: 'request' | 'response',
  where: string,
  resolveOld: (v: unknown) => Json,
  resolveNew: (v: unknown) => Json,
  out: string[],
  depth = 0,
): void {
  if (depth > 12) return;
  const a = resolveOld(oldRaw);
  const b = resolveNew(newRaw);
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const oldList = (a[key] as unknown[] | undefined) ?? [];
    const newList = (b[key] as unknown[] | undefined) ?? [];
    if (oldList.length || newList.length) {
      if (direction === 'request' ? newList.length < oldList.length : newList.length > oldList.length)
        out.push(`${where}: ${key} changed from ${oldList.length} to ${newList.length} alternatives`);
      oldList
        .slice(0, newList.length)
        .forEach((sub, i) => compareSchemas(sub, newList[i], direction, `${where} (${key} ${i + 1})`, resolveOld, resolveNew, out, depth + 1));
    }
  }
  const oldTypes = types(a);
  const newTypes = types(b);
  if (oldTypes.size && newTypes.size) {
    const lost = [...oldTypes].filter((t) => !newTypes.has(t) && !(t === 'integer' && newTypes.has('number')));
    const gained = [...newTypes].filter((t) => !oldTypes.has(t) && !(t === 'integer' && oldTypes.has('number')));
    if (direction === 'request' && lost.length) out.push(`${where}: no longer accepts ${lost.join(', ')}`);
    if (direction === 'response' && gained.length) out.push(`${where}: may now be ${gained.join(', ')}`);
  }
  if (direction === 'request' && Array.isArray(a.enum) && Array.isArray(b.enum)) {
    const gone = (a.enum as unknown[]).filter((v) => !(b.enum as unknown[]).includes(v));
    if (gone.length) out.push(`${where}: no longer accepts ${gone.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if (direction === 'request') {
    for (const bound of ['maxLength', 'maximum', 'maxItems'] as const) {
      if (typeof b[bound] === 'number' && (typeof a[bound] !== 'number' || (b[bound] as number) < (a[bound] as number)))
        out.push(`${where}: ${bound} lowered to ${b[bound]}`);
    }
    for (const bound of ['minLength', 'minimum', 'minItems'] as const) {
      if (typeof b[bound] === 'number' && (typeof a[bound] !== 'number' || (b[bound] as number) > (a[bound] as number)))
        out.push(`${where}: ${bound} raised to ${b[bound]}`);
    }
  }
  const oldProps = (a.properties as Json | undefined) ?? {};
  const newProps = (b.properties as Json | undefined) ?? {};
  const oldRequired = new Set((a.required as string[] | undefined) ?? []);
  const newRequired = new Set((b.required as string[] | undefined) ?? []);
  for (const name of Object.keys(oldProps)) {
    if (!(name in newProps)) {
      out.push(`${where}.${name}: removed`);
      continue;
    }
    if (direction === 'response' && oldRequired.has(name) && !newRequired.has(name)) out.push(`${where}.${name}: no longer always present`);
    if (direction === 'request' && !oldRequired.has(name) && newRequired.has(name)) out.push(`${where}.${name}: now required`);
    compareSchemas(oldProps[name], newProps[name], direction, `${where}.${name}`, resolveOld, resolveNew, out, depth + 1);
  }
  if (direction === 'request') {
    for (const name of Object.keys(newProps)) if (!(name in oldProps) && newRequired.has(name)) out.push(`${where}.${name}: new required field`);
  }
  if (a.items || b.items) compareSchemas(a.items ?? {}, b.items ?? {}, direction, `${where}[]`, resolveOld, resolveNew, out, depth + 1);
}

/** The structural OpenAPI diff: one BreakingChange per operation, its message listing what broke. */
export function openapiBreakingChanges(oldDocument: Json, newDocument: Json): BreakingChange[] {
  const resolveOld = resolver(oldDocument);
  const resolveNew = resolver(newDocument);
  const oldPaths = (oldDocument.paths as Record<string, Json>) ?? {};
  const newPaths = (newDocument.paths as Record<string, Json>) ?? {};
  const changes: BreakingChange[] = [];
  for (const [route, oldItem] of Object.entries(oldPaths)) {
    for (const method of METHODS) {
      const oldOp = oldItem[method] as Json | undefined;
      if (!oldOp) continue;
      const key = `${method.toUpperCase()} ${route}`;
      const newOp = newPaths[route]?.[method] as Json | undefined;
      if (!newOp) {
        changes.push({ api: 'rest', key, message: `${key} was removed` });
        continue;
      }
      const problems: string[] = [];
      const params = (op: Json, item: Json, resolve: (v: unknown) => Json) =>
        new Map([...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(resolve).map((p) => [`${p.in} ${p.name}`, p]));
      const oldParams = params(oldOp, oldItem, resolveOld);
      const newParams = params(newOp, newPaths[route]!, resolveNew);
      for (const [id, p] of oldParams) {
        const q = newParams.get(id);
        if (!q) problems.push(`parameter ${id} removed`);
        else {
          if (!p.required && q.required) problems.push(`parameter ${id} now required`);
          compareSchemas(p.schema, q.schema, 'request', `parameter ${id}`, resolveOld, resolveNew, problems);
        }
      }
      for (const [id, q] of newParams) if (!oldParams.has(id) && q.required) problems.push(`new required parameter ${id}`);
      const oldBody = resolveOld(oldOp.requestBody);
      const newBody = resolveNew(newOp.requestBody);
      if (!oldBody.required && newBody.required) problems.push('request body now required');
      const oldMedia = (oldBody.content as Json | undefined) ?? {};
      const newMedia = (newBody.content as Json | undefined) ?? {};
      for (const [type, media] of Object.entries(oldMedia)) {
        if (!(type in newMedia)) problems.push(`request body ${type} no longer accepted`);
        else compareSchemas((media as Json).schema, (newMedia[type] as Json).schema, 'request', 'body', resolveOld, resolveNew, problems);
      }
      const oldResponses = (oldOp.responses as Json) ?? {};
      const newResponses = (newOp.responses as Json) ?? {};
      for (const [status, response] of Object.entries(oldResponses)) {
        if (!/^2\d\d$/.test(status)) continue;
        if (!(status in newResponses)) {
          problems.push(`success status ${status} no longer answered`);
          continue;
        }
        const oldContent = (resolveOld(response).content as Json | undefined) ?? {};
        const newContent = (resolveNew(newResponses[status]).content as Json | undefined) ?? {};
        for (const [type, media] of Object.entries(oldContent)) {
          if (!(type in newContent)) problems.push(`answer ${status} ${type} no longer sent`);
          else compareSchemas((media as Json).schema, (newContent[type] as Json).schema, 'response', `answer ${status}`, resolveOld, resolveNew, problems);
        }
      }
      if (problems.length) changes.push({ api: 'rest', key, message: `${key}: ${problems.join('; ')}` });
    }
  }
  return changes;
}

/** The `## [Unreleased]` section of a Keep a Changelog file, and the version of the last release below it. */
export function readChangelog(text: string): { unreleased: string; lastRelease: string | null } {
  const sections = text.split(/^(?=## \[)/m);
  const unreleased = sections.find((s) => /^## \[Unreleased\]/i.test(s)) ?? '';
  const release = sections.map((s) => /^## \[(\d+\.\d+\.\d+[\w.-]*)\]/.exec(s)?.[1]).find((v) => v !== undefined) ?? null;
  return { unreleased, lastRelease: release };
}

/**
 * The breaking changes the changelog does not list. A change is listed when a line of the Unreleased
 * section marked `**Breaking**` names its key in backticks (`` `Employee.pin` ``, `` `GET /public/v2/staff` ``).
 */
export function unlisted(changes: BreakingChange[], changelog: string): BreakingChange[] {
  const breakingLines = readChangelog(changelog)
    .unreleased.split('\n')
    .filter((line) => line.includes('**Breaking**'));
  const named = new Set(breakingLines.flatMap((line) => [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)));
  return changes.filter((change) => !named.has(change.key));
}

/** Runs the whole check on a repository folder (or a fixture laid out like one). */
export async function checkApiChanges(root: string): Promise<{ release: string; breaking: BreakingChange[]; unlisted: BreakingChange[] }> {
  const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
  const { lastRelease } = readChangelog(changelog);
  if (!lastRelease) throw new Error('CHANGELOG.md names no release (## [x.y.z] - date)');
  const releaseDir = path.join(root, 'docs', 'releases', lastRelease);
  const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
  const breaking = [
    ...(await graphqlBreakingChanges(read(releaseDir, 'schema.graphql'), read(root, 'schema.graphql'))),
    ...openapiBreakingChanges(JSON.parse(read(releaseDir, 'openapi.json')) as Json, JSON.parse(read(root, 'openapi.json')) as Json),
  ];
  return { release: lastRelease, breaking, unlisted: unlisted(breaking, changelog) };
}
