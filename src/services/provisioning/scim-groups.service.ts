// SCIM Groups of the company a SCIM token is bound to: stored with their members (users of the same
// company). A group mapped to an area and/or access levels (setScimGroupMapping, through the API)
// grants them to its members (scim-group-grants.ts), so directory membership decides terminals and doors.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ScimError } from '../../scim/errors';
import { checkResourceBounds } from '../../scim/bounds';
import type { Filter } from '../../scim/filter';
import { applyPatch } from '../../scim/patch';
import { entryValues } from '../../scim/projection';
import { getAttr, isObject, type Json, type JsonObject } from '../../scim/resource';
import { GROUP, GROUP_SCHEMA } from '../../scim/schemas';
import { searchDocument } from '../../scim/search-document';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import { intArray } from '../common/sql-arrays';
import { FieldChecker, limits } from '../common/validation';
import { lockWorkspace } from '../common/workspace-lock';
import { afterMembersChange, directoryGrantsOf } from './scim-group-grants';
import { scimScope, type ScimScope } from './scim-scope';
import { conjuncts, equalityOf, filterSql, type FilterTarget, type Sql } from './scim-filter-sql';
import { pageOfIds, withinReferenceBudget } from './scim-list';
import { isoSql, resourceBounds, type ScimList } from './scim-users.service';

const MAX_DISPLAY_NAME = limits.scimName;
const NOT_STORED = new Set(['id', 'meta', 'members', 'schemas', 'displayname', 'externalid']);

interface GroupRow {
  id: string;
  company_id: number;
  display_name: string;
  external_id: string | null;
  document: JsonObject;
  area_id: number | null;
  created_at: string | Date;
  updated_at: string | Date;
}

interface Member {
  employee_id: number;
  display: string;
}

const iso = (value: string | Date) => new Date(value).toISOString();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function groupRows(em: EntityManager, companyId: number, narrow: { ids?: string[]; displayName?: string } = {}): Promise<GroupRow[]> {
  const conditions = ['company_id = ?'];
  const params: unknown[] = [companyId];
  if (narrow.ids !== undefined) {
    const ids = narrow.ids.filter((id) => UUID.test(id));
    if (ids.length === 0) return [];
    conditions.push('id = any(?::uuid[])');
    params.push(`{${ids.join(',')}}`);
  }
  if (narrow.displayName !== undefined) {
    conditions.push('lower(display_name) = lower(?)');
    params.push(narrow.displayName);
  }
  return em.execute<GroupRow[]>(
    `select id::text as id, company_id, display_name, external_id, document, area_id, created_at, updated_at from scim_group where ${conditions.join(' and ')} order by created_at, id`,
    params,
  );
}

async function membersOf(em: EntityManager, groupIds: string[]): Promise<Map<string, Member[]>> {
  const byGroup = new Map<string, Member[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const rows = await em.execute<(Member & { group_id: string })[]>(
    `select m.group_id::text as group_id, m.employee_id, coalesce(s.document->>'displayName', e.name || ' ' || e.lastname) as display
     from scim_group_member m join employee e on e.id = m.employee_id left join scim_user s on s.employee_id = m.employee_id
     where m.group_id = any(?::uuid[]) order by m.employee_id`,
    [`{${groupIds.join(',')}}`],
  );
  for (const row of rows) byGroup.get(row.group_id)!.push(row);
  return byGroup;
}

function toResource(row: GroupRow, members: Member[], baseUrl: string): JsonObject {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...row.document,
    displayName: row.display_name,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    members: members.map((m) => ({ value: String(m.employee_id), display: m.display, $ref: `${baseUrl}/Users/${m.employee_id}`, type: 'User' })),
    meta: { resourceType: 'Group', created: iso(row.created_at), lastModified: iso(row.updated_at), location: `${baseUrl}/Groups/${row.id}` },
  };
}

async function resourcesOf(em: EntityManager, rows: GroupRow[], baseUrl: string): Promise<JsonObject[]> {
  const members = await membersOf(
    em,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toResource(row, members.get(row.id) ?? [], baseUrl));
}

async function oneGroup(em: EntityManager, scope: ScimScope, id: string): Promise<GroupRow> {
  const [row] = await groupRows(em, scope.companyId, { ids: [id] });
  if (!row) throw new ScimError(404, null, `Group ${JSON.stringify(id)} not found.`);
  return row;
}

export async function getScimGroup(ctx: RequestContext, id: string, baseUrl: string): Promise<JsonObject> {
  const row = await oneGroup(ctx.em, scimScope(ctx), id);
  return (await resourcesOf(ctx.em, [row], baseUrl))[0]!;
}

/** What a Groups filter reads: the search copy (with `displayName`), and the attributes the resource computes from columns. */
function groupTarget(baseUrl: string): FilterTarget {
  return {
    core: GROUP,
    search: 'g.search',
    computed: {
      id: () => ({ sql: 'to_jsonb(g.id::text)', params: [] }),
      externalid: () => ({ sql: 'to_jsonb(g.external_id)', params: [] }),
      schemas: () => ({ sql: 'jsonb_build_array(?::text)', params: [GROUP_SCHEMA.toLowerCase()] }),
      meta: () => ({
        sql: `jsonb_build_object('resourcetype', 'Group', 'created', ${isoSql('g.created_at')}, 'lastmodified', ${isoSql('g.updated_at')}, 'location', ?::text || g.id::text)`,
        params: [`${baseUrl}/Groups/`],
      }),
      // A member's display as the resource shows it, lowered: the user's displayName, else the employee's names.
      members: () => ({
        sql: `(select coalesce(jsonb_agg(jsonb_build_object('value', m.employee_id::text, 'display', coalesce(su.search ->> 'displayname', lower(me.name || ' ' || me.lastname)),
                 '$ref', ?::text || m.employee_id, 'type', 'user')), '[]'::jsonb)
               from scim_group_member m join employee me on me.id = m.employee_id left join scim_user su on su.employee_id = m.employee_id where m.group_id = g.id)`,
        params: [`${baseUrl}/Users/`.toLowerCase()],
      }),
    },
  };
}

/** The list's condition: the company, the filter, and the index-backed equalities it implies (`displayName`, `externalId`, `id` eq). */
function groupCondition(scope: ScimScope, filter: Filter | null, baseUrl: string): Sql {
  const parts: Sql[] = [{ sql: 'g.company_id = ?', params: [scope.companyId] }];
  if (filter) {
    for (const term of conjuncts(filter)) {
      const equality = equalityOf(term, GROUP);
      if (equality?.attr === 'displayname') parts.push({ sql: "(g.search ->> 'displayname') = ?", params: [equality.value.toLowerCase()] });
      else if (equality?.attr === 'externalid') parts.push({ sql: 'g.external_id = ?', params: [equality.value] });
      // `id` is caseExact: only the lower-case form of a UUID names a group.
      else if (equality?.attr === 'id')
        parts.push(LOWER_UUID.test(equality.value) ? { sql: 'g.id = ?::uuid', params: [equality.value] } : { sql: 'false', params: [] });
    }
    parts.push(filterSql(filter, groupTarget(baseUrl)));
  }
  return { sql: parts.map((p) => p.sql).join(' and '), params: parts.flatMap((p) => p.params) };
}

/**
 * The groups matching `filter`, `count` from the 1-based `startIndex`, and how many match in all:
 * filtered, counted and paged in PostgreSQL. With `members` (the client shows the attribute), a
 * page ends early once it carries MAX_REFERENCES_PER_PAGE members.
 */
export async function listScimGroups(
  ctx: RequestContext,
  filter: Filter | null,
  page: { startIndex: number; count: number },
  baseUrl: string,
  options: { members: boolean } = { members: true },
): Promise<ScimList> {
  const scope = scimScope(ctx);
  const found = await pageOfIds<string>(
    ctx,
    { id: 'g.id::text', from: 'scim_group g', where: groupCondition(scope, filter, baseUrl), order: 'g.created_at, g.id' },
    page,
  );
  let ids = found.ids;
  if (options.members && ids.length > 1) {
    const counts = await ctx.em.execute<{ group_id: string; n: string }[]>(
      'select group_id::text as group_id, count(*) as n from scim_group_member where group_id = any(?::uuid[]) group by group_id',
      [`{${ids.join(',')}}`],
    );
    ids = withinReferenceBudget(ids, new Map(counts.map((c) => [c.group_id, Number(c.n)])));
  }
  const rows = ids.length > 0 ? await groupRows(ctx.em, scope.companyId, { ids }) : [];
  const resources = options.members ? await resourcesOf(ctx.em, rows, baseUrl) : rows.map((row) => toResource(row, [], baseUrl));
  return { resources, totalResults: found.totalResults };
}

/** A Group body checked: its display name, external id, members (ids of this company's users) and the rest kept. */
async function readGroupBody(
  ctx: RequestContext,
  em: EntityManager,
  scope: ScimScope,
  body: Json,
): Promise<{ displayName: string; externalId: string | null; members: number[]; document: JsonObject; search: JsonObject }> {
  if (!isObject(body)) throw ScimError.badRequest('invalidSyntax', 'A Group is a JSON object.');
  // The bounds hold for everything stored but the members (each a user of the company, checked below).
  const bounded: JsonObject = {};
  for (const [key, value] of Object.entries(body)) if (!['members', 'meta', 'schemas', 'id'].includes(key.toLowerCase())) bounded[key] = value;
  checkResourceBounds('Group', bounded, resourceBounds(ctx));
  const displayName = getAttr(body, 'displayName');
  if (typeof displayName !== 'string' || displayName.trim() === '') throw ScimError.badRequest('invalidValue', 'displayName is required.');
  if (displayName.length > MAX_DISPLAY_NAME) throw ScimError.badRequest('invalidValue', `displayName has at most ${MAX_DISPLAY_NAME} characters.`);
  const externalId = getAttr(body, 'externalId');
  if (externalId !== undefined && externalId !== null && typeof externalId !== 'string') throw ScimError.badRequest('invalidValue', 'externalId is a string.');
  if (typeof externalId === 'string' && externalId.length > limits.scimExternalId)
    throw ScimError.badRequest('invalidValue', `externalId has at most ${limits.scimExternalId} characters.`);
  const values = [...new Set(entryValues(body, 'members'))];
  const ids = values.map((v) => (/^[1-9]\d{0,9}$/.test(v) && Number(v) <= 2_147_483_647 ? Number(v) : -1));
  const known = ids.length
    ? await em.execute<{ employee_id: number }[]>(
        `select s.employee_id from scim_user s join employee e on e.id = s.employee_id and e.deleted_at is null and e.company_id = s.company_id where s.company_id = ? and s.employee_id = any(?::int[])`,
        [scope.companyId, intArray(ids.filter((id) => id > 0))],
      )
    : [];
  const knownIds = new Set(known.map((k) => k.employee_id));
  const unknown = values.filter((_, i) => !knownIds.has(ids[i]!));
  if (unknown.length > 0) throw ScimError.badRequest('invalidValue', `No user of this company has the id ${unknown.map((u) => JSON.stringify(u)).join(', ')}.`);
  const document: JsonObject = {};
  for (const [key, value] of Object.entries(body)) if (!NOT_STORED.has(key.toLowerCase())) document[key] = value;
  const search = searchDocument({ ...document, displayName: displayName.trim() }, GROUP);
  return { displayName: displayName.trim(), externalId: (externalId as string | undefined) ?? null, members: [...knownIds], document, search };
}

/** Sets the group's members to exactly `members`, applying what its mapping grants or takes away. */
async function setMembers(em: EntityManager, groupId: string, members: number[], now: Date): Promise<void> {
  const current = (await em.execute<{ employee_id: number }[]>('select employee_id from scim_group_member where group_id = ?::uuid', [groupId])).map(
    (r) => r.employee_id,
  );
  const added = members.filter((m) => !current.includes(m));
  const removed = current.filter((m) => !members.includes(m));
  if (added.length === 0 && removed.length === 0) return;
  const concerned = [...added, ...removed];
  const before = await directoryGrantsOf(em, concerned);
  if (removed.length > 0)
    await em.execute('delete from scim_group_member where group_id = ?::uuid and employee_id = any(?::int[])', [groupId, intArray(removed)]);
  if (added.length > 0) {
    await em.execute('insert into scim_group_member (group_id, employee_id) select ?::uuid, e from unnest(?::int[]) e on conflict do nothing', [
      groupId,
      intArray(added),
    ]);
  }
  await afterMembersChange(em, concerned, before, now);
}

export async function createScimGroup(ctx: RequestContext, body: unknown, baseUrl: string): Promise<JsonObject> {
  const scope = scimScope(ctx);
  const id = randomUUID();
  await ctx.em.transactional(async (em) => {
    await lockWorkspace(em, scope.workspaceId);
    const group = await readGroupBody(ctx, em, scope, body as Json);
    if ((await groupRows(em, scope.companyId, { displayName: group.displayName })).length > 0) {
      throw new ScimError(409, 'uniqueness', `A group named ${JSON.stringify(group.displayName)} exists in this company.`);
    }
    const [held] = await em.execute<{ n: string }[]>('select count(*) as n from scim_group where company_id = ?', [scope.companyId]);
    if (Number(held!.n) >= ctx.config.scimMaxGroups) {
      throw ScimError.badRequest('invalidValue', `This company holds the most groups allowed (${ctx.config.scimMaxGroups}); delete one first.`);
    }
    const now = ctx.now();
    await em.execute(
      `insert into scim_group (id, workspace_id, company_id, display_name, external_id, document, search, area_id, created_at, updated_at)
       values (?::uuid, ?, ?, ?, ?, ?::jsonb, ?::jsonb, null, ?, ?)`,
      [id, scope.workspaceId, scope.companyId, group.displayName, group.externalId, JSON.stringify(group.document), JSON.stringify(group.search), now, now],
    );
    await setMembers(em, id, group.members, now);
  });
  return getScimGroup(ctx, id, baseUrl);
}

async function writeGroup(ctx: RequestContext, id: string, change: (current: JsonObject) => Json, baseUrl: string): Promise<JsonObject> {
  const scope = scimScope(ctx);
  await ctx.em.transactional(async (em) => {
    await lockWorkspace(em, scope.workspaceId);
    const row = await oneGroup(em, scope, id);
    const [current] = await resourcesOf(em, [row], baseUrl);
    const group = await readGroupBody(ctx, em, scope, change(current!));
    const clash = await groupRows(em, scope.companyId, { displayName: group.displayName });
    if (clash.some((g) => g.id !== row.id))
      throw new ScimError(409, 'uniqueness', `A group named ${JSON.stringify(group.displayName)} exists in this company.`);
    const now = ctx.now();
    await em.execute('update scim_group set display_name = ?, external_id = ?, document = ?::jsonb, search = ?::jsonb, updated_at = ? where id = ?::uuid', [
      group.displayName,
      group.externalId,
      JSON.stringify(group.document),
      JSON.stringify(group.search),
      now,
      row.id,
    ]);
    await setMembers(em, row.id, group.members, now);
  });
  return getScimGroup(ctx, id, baseUrl);
}

export function replaceScimGroup(ctx: RequestContext, id: string, body: unknown, baseUrl: string): Promise<JsonObject> {
  return writeGroup(ctx, id, () => body as Json, baseUrl);
}

export function patchScimGroup(ctx: RequestContext, id: string, body: unknown, baseUrl: string): Promise<JsonObject> {
  return writeGroup(ctx, id, (current) => applyPatch(current, GROUP, body), baseUrl);
}

/** DELETE /Groups/{id}: its members lose what it granted. */
export async function deleteScimGroup(ctx: RequestContext, id: string): Promise<void> {
  const scope = scimScope(ctx);
  await ctx.em.transactional(async (em) => {
    await lockWorkspace(em, scope.workspaceId);
    const row = await oneGroup(em, scope, id);
    await setMembers(em, row.id, [], ctx.now());
    await em.execute('delete from scim_group where id = ?::uuid', [row.id]);
  });
}

// ---------------------------------------------------------------------------------------------
// The mapping, set by the workspace's administrators through GraphQL and REST (not over SCIM).

export interface ScimGroupView {
  id: string;
  companyId: number;
  displayName: string;
  externalId: string | null;
  memberIds: number[];
  areaId: number | null;
  accessLevelIds: number[];
}

async function groupViews(ctx: RequestContext, where: string, params: unknown[]): Promise<ScimGroupView[]> {
  const rows = await ctx.em.execute<
    { id: string; company_id: number; display_name: string; external_id: string | null; area_id: number | null; member_ids: number[]; level_ids: number[] }[]
  >(
    `select g.id::text as id, g.company_id, g.display_name, g.external_id, g.area_id,
       array(select m.employee_id from scim_group_member m where m.group_id = g.id order by m.employee_id) as member_ids,
       array(select l.access_level_id from scim_group_access_level l where l.group_id = g.id order by l.access_level_id) as level_ids
     from scim_group g where g.workspace_id = ? and ${where} order by g.display_name, g.id`,
    [workspaceOf(ctx), ...params],
  );
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    displayName: r.display_name,
    externalId: r.external_id,
    memberIds: r.member_ids,
    areaId: r.area_id,
    accessLevelIds: r.level_ids,
  }));
}

/** The directory groups of the workspace (optionally of one company). */
export function listDirectoryGroups(ctx: RequestContext, companyId?: number): Promise<ScimGroupView[]> {
  return companyId === undefined ? groupViews(ctx, 'true', []) : groupViews(ctx, 'g.company_id = ?', [companyId]);
}

export async function getDirectoryGroup(ctx: RequestContext, id: string): Promise<ScimGroupView> {
  const [group] = UUID.test(id) ? await groupViews(ctx, 'g.id = ?::uuid', [id]) : [];
  if (!group) throw DomainError.notFound('Directory group', id);
  return group;
}

/**
 * Maps a directory group to an area (null: none) and access levels (the whole list; empty: none),
 * both of the group's company. Its members gain what is new and lose what is no longer mapped.
 */
export async function setDirectoryGroupMapping(
  ctx: RequestContext,
  id: string,
  input: { areaId: number | null; accessLevelIds: number[] },
): Promise<ScimGroupView> {
  const group = await getDirectoryGroup(ctx, id);
  const levels = [...new Set(input.accessLevelIds)];
  const check = new FieldChecker();
  if (input.areaId !== null) {
    const [area] = await ctx.em.execute<{ company_id: number }[]>('select company_id from area where id = ? and workspace_id = ?', [
      input.areaId,
      workspaceOf(ctx),
    ]);
    if (!area) check.add('areaId', 'not_found', `Area ${input.areaId} does not exist in this workspace.`);
    else if (area.company_id !== group.companyId) check.add('areaId', 'company_mismatch', `Area ${input.areaId} belongs to another company than the group.`);
  }
  if (levels.length > 0) {
    const found = await ctx.em.execute<{ id: number; company_id: number }[]>(
      'select id, company_id from access_level where id = any(?::int[]) and workspace_id = ?',
      [intArray(levels), workspaceOf(ctx)],
    );
    levels.forEach((level, index) => {
      const row = found.find((f) => f.id === level);
      if (!row) check.add(`accessLevelIds.${index}`, 'not_found', `Access level ${level} does not exist in this workspace.`);
      else if (row.company_id !== group.companyId)
        check.add(`accessLevelIds.${index}`, 'company_mismatch', `Access level ${level} belongs to another company than the group.`);
    });
  }
  check.done();
  await ctx.em.transactional(async (em) => {
    await lockWorkspace(em, workspaceOf(ctx));
    const members = (await em.execute<{ employee_id: number }[]>('select employee_id from scim_group_member where group_id = ?::uuid', [id])).map(
      (r) => r.employee_id,
    );
    const before = await directoryGrantsOf(em, members);
    await em.execute('update scim_group set area_id = ?, updated_at = ? where id = ?::uuid', [input.areaId, ctx.now(), id]);
    await em.execute('delete from scim_group_access_level where group_id = ?::uuid', [id]);
    if (levels.length > 0)
      await em.execute('insert into scim_group_access_level (group_id, access_level_id) select ?::uuid, l from unnest(?::int[]) l', [id, intArray(levels)]);
    await afterMembersChange(em, members, before, ctx.now());
  });
  return getDirectoryGroup(ctx, id);
}
