// SCIM Users (RFC 7644) of the company a SCIM token is bound to: each is an employee. Creating,
// replacing and patching write the employee through the employee service (its checks, its plan
// limit, and the recompute of what every terminal should hold); `active: false` and DELETE take
// the person off every terminal (docs/identity.md, "Deprovisioning").
import type { EntityManager } from '@mikro-orm/postgresql';
import { ScimError } from '../../scim/errors';
import type { Filter } from '../../scim/filter';
import { applyPatch } from '../../scim/patch';
import { getAttr, isObject, type JsonObject } from '../../scim/resource';
import { ENTERPRISE_USER_SCHEMA, USER, USER_SCHEMA } from '../../scim/schemas';
import { searchDocument } from '../../scim/search-document';
import { withEm, type RequestContext } from '../../context/request-context';
import { createEmployee, deleteEmployee, updateEmployee } from '../directory/employee.service';
import { intArray } from '../common/sql-arrays';
import { lockWorkspace } from '../common/workspace-lock';
import { scimScope, type ScimScope } from './scim-scope';
import { employeeFieldsOf, isTerminalPin, storedUserDocument } from './scim-user-mapping';
import { afterMembersChange, directoryGrantsOf } from './scim-group-grants';
import { conjuncts, equalityOf, filterSql, type FilterTarget, type Sql } from './scim-filter-sql';
import { pageOfIds, withinReferenceBudget } from './scim-list';

interface UserRow {
  employee_id: number;
  document: JsonObject;
  created_at: string | Date;
  updated_at: string | Date;
  is_active: boolean;
}

export interface ScimList {
  resources: JsonObject[];
  totalResults: number;
}

const iso = (value: string | Date) => new Date(value).toISOString();

/** The size bounds of a stored resource (TIMEGATE_SCIM_MAX_RESOURCE_BYTES, TIMEGATE_SCIM_MAX_RESOURCE_ATTRIBUTES). */
export const resourceBounds = (ctx: RequestContext) => ({ maxBytes: ctx.config.scimMaxResourceBytes, maxAttributes: ctx.config.scimMaxResourceAttributes });

const USERS_FROM = 'scim_user s join employee e on e.id = s.employee_id and e.deleted_at is null and e.company_id = s.company_id';

/** The users of the scope (live employees only), narrowed in SQL by their ids. */
async function userRows(em: EntityManager, scope: ScimScope, narrow: { employeeIds?: number[] } = {}): Promise<UserRow[]> {
  const conditions = ['s.company_id = ?'];
  const params: unknown[] = [scope.companyId];
  if (narrow.employeeIds !== undefined) {
    conditions.push('s.employee_id = any(?::int[])');
    params.push(intArray(narrow.employeeIds));
  }
  return em.execute<UserRow[]>(
    `select s.employee_id, s.document, s.created_at, greatest(s.updated_at, e.updated_at) as updated_at, e.is_active
     from ${USERS_FROM} where ${conditions.join(' and ')} order by s.employee_id`,
    params,
  );
}

/** The groups of some users, for their read-only `groups` attribute. */
async function groupsOf(em: EntityManager, employeeIds: number[], baseUrl: string): Promise<Map<number, JsonObject[]>> {
  const byEmployee = new Map<number, JsonObject[]>();
  if (employeeIds.length === 0) return byEmployee;
  const rows = await em.execute<{ employee_id: number; id: string; display_name: string }[]>(
    `select m.employee_id, g.id, g.display_name from scim_group_member m join scim_group g on g.id = m.group_id
     where m.employee_id = any(?::int[]) order by g.display_name, g.id`,
    [intArray(employeeIds)],
  );
  for (const row of rows) {
    const list = byEmployee.get(row.employee_id) ?? [];
    list.push({ value: row.id, display: row.display_name, $ref: `${baseUrl}/Groups/${row.id}`, type: 'direct' });
    byEmployee.set(row.employee_id, list);
  }
  return byEmployee;
}

/** A stored user as the SCIM resource: the directory's document, the employee's active flag, groups and meta. */
function toResource(row: UserRow, groups: JsonObject[], baseUrl: string): JsonObject {
  const id = String(row.employee_id);
  const schemas = [USER_SCHEMA, ...(isObject(getAttr(row.document, ENTERPRISE_USER_SCHEMA)) ? [ENTERPRISE_USER_SCHEMA] : [])];
  return {
    schemas,
    id,
    ...row.document,
    // The employee's flag is what the terminals follow: the API may have changed it too.
    active: row.is_active,
    ...(groups.length > 0 ? { groups } : {}),
    meta: { resourceType: 'User', created: iso(row.created_at), lastModified: iso(row.updated_at), location: `${baseUrl}/Users/${id}` },
  };
}

async function resourcesOf(em: EntityManager, rows: UserRow[], baseUrl: string): Promise<JsonObject[]> {
  const groups = await groupsOf(
    em,
    rows.map((r) => r.employee_id),
    baseUrl,
  );
  return rows.map((row) => toResource(row, groups.get(row.employee_id) ?? [], baseUrl));
}

/** An id of this company's users, or 404 (an id of another company is unknown here too). */
function userId(id: string): number {
  return /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : -1;
}

async function oneUser(em: EntityManager, scope: ScimScope, id: string): Promise<UserRow> {
  const [row] = await userRows(em, scope, { employeeIds: [userId(id)] });
  if (!row) throw new ScimError(404, null, `User ${JSON.stringify(id)} not found.`);
  return row;
}

export async function getScimUser(ctx: RequestContext, id: string, baseUrl: string): Promise<JsonObject> {
  const row = await oneUser(ctx.em, scimScope(ctx), id);
  return (await resourcesOf(ctx.em, [row], baseUrl))[0]!;
}

/** An ISO 8601 instant as the resource's `meta` writes it, lowered as the search copy is. */
export const isoSql = (column: string) => `lower(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** What a Users filter reads: the search copy, and the attributes the resource computes from columns. */
function userTarget(baseUrl: string): FilterTarget {
  const user = USER_SCHEMA.toLowerCase();
  const enterprise = ENTERPRISE_USER_SCHEMA.toLowerCase();
  return {
    core: USER,
    search: 's.search',
    computed: {
      id: () => ({ sql: 'to_jsonb(s.employee_id::text)', params: [] }),
      active: () => ({ sql: 'to_jsonb(e.is_active)', params: [] }),
      schemas: () => ({
        sql: `case when jsonb_typeof(s.search -> ?::text) = 'object' then jsonb_build_array(?::text, ?::text) else jsonb_build_array(?::text) end`,
        params: [enterprise, user, enterprise, user],
      }),
      meta: () => ({
        sql: `jsonb_build_object('resourcetype', 'User', 'created', ${isoSql('s.created_at')}, 'lastmodified', ${isoSql('greatest(s.updated_at, e.updated_at)')}, 'location', ?::text || s.employee_id)`,
        params: [`${baseUrl}/Users/`],
      }),
      groups: () => ({
        sql: `(select jsonb_agg(jsonb_build_object('value', g.id::text, 'display', g.search ->> 'displayname', '$ref', ?::text || g.id::text, 'type', 'direct'))
               from scim_group_member m join scim_group g on g.id = m.group_id where m.employee_id = s.employee_id)`,
        params: [`${baseUrl}/Groups/`.toLowerCase()],
      }),
    },
  };
}

/** The list's condition: the company, the filter, and the index-backed equalities it implies (`userName`, `externalId`, `id` eq). */
function userCondition(scope: ScimScope, filter: Filter | null, baseUrl: string): Sql {
  const parts: Sql[] = [{ sql: 's.company_id = ?', params: [scope.companyId] }];
  if (filter) {
    for (const term of conjuncts(filter)) {
      const equality = equalityOf(term, USER);
      if (equality?.attr === 'username') parts.push({ sql: "(s.search ->> 'username') = ?", params: [equality.value.toLowerCase()] });
      else if (equality?.attr === 'externalid') parts.push({ sql: 's.external_id = ?', params: [equality.value] });
      else if (equality?.attr === 'id') {
        // `id` is caseExact text: "012" is no id.
        const id = userId(equality.value);
        parts.push({ sql: 's.employee_id = ?', params: [String(id) === equality.value ? id : -1] });
      }
    }
    parts.push(filterSql(filter, userTarget(baseUrl)));
  }
  return { sql: parts.map((p) => p.sql).join(' and '), params: parts.flatMap((p) => p.params) };
}

/**
 * The users matching `filter`, `count` from the 1-based `startIndex`, and how many match in all:
 * filtered, counted and paged in PostgreSQL. With `groups` (the client shows the attribute), a page
 * ends early once it carries MAX_REFERENCES_PER_PAGE group references.
 */
export async function listScimUsers(
  ctx: RequestContext,
  filter: Filter | null,
  page: { startIndex: number; count: number },
  baseUrl: string,
  options: { groups: boolean } = { groups: true },
): Promise<ScimList> {
  const scope = scimScope(ctx);
  const found = await pageOfIds<number>(
    ctx,
    { id: 's.employee_id', from: USERS_FROM, where: userCondition(scope, filter, baseUrl), order: 's.employee_id' },
    page,
  );
  let ids = found.ids;
  if (options.groups && ids.length > 1) {
    const counts = await ctx.em.execute<{ employee_id: number; n: string }[]>(
      'select employee_id, count(*) as n from scim_group_member where employee_id = any(?::int[]) group by employee_id',
      [intArray(ids)],
    );
    ids = withinReferenceBudget(ids, new Map(counts.map((c) => [c.employee_id, Number(c.n)])));
  }
  const rows = ids.length > 0 ? await userRows(ctx.em, scope, { employeeIds: ids }) : [];
  const resources = options.groups ? await resourcesOf(ctx.em, rows, baseUrl) : rows.map((row) => toResource(row, [], baseUrl));
  return { resources, totalResults: found.totalResults };
}

async function checkUserNameFree(em: EntityManager, scope: ScimScope, userName: string, exceptEmployeeId: number | null): Promise<void> {
  const [taken] = await em.execute<{ employee_id: number }[]>(
    `select s.employee_id from scim_user s join employee e on e.id = s.employee_id and e.deleted_at is null and e.company_id = s.company_id
     where s.company_id = ? and lower(s.user_name) = lower(?)`,
    [scope.companyId, userName],
  );
  if (taken && taken.employee_id !== exceptEmployeeId)
    throw new ScimError(409, 'uniqueness', `userName ${JSON.stringify(userName)} is already taken in this company.`);
}

/**
 * The PIN of a provisioned employee: the employee number when it is a valid PIN no other live
 * employee of the company holds; else the PIN they have; else the next free number (one above the
 * highest numeric PIN of the company).
 */
async function choosePin(
  em: EntityManager,
  scope: ScimScope,
  employeeNumber: string | null,
  employeeId: number | null,
  currentPin: string | null,
): Promise<string> {
  if (isTerminalPin(employeeNumber)) {
    const [holder] = await em.execute<{ id: number }[]>('select id from employee where company_id = ? and pin = ? and deleted_at is null', [
      scope.companyId,
      employeeNumber,
    ]);
    if (!holder || holder.id === employeeId) return employeeNumber;
  }
  if (currentPin) return currentPin;
  const [next] = await em.execute<{ pin: string }[]>(
    `select (coalesce(max(pin::numeric), 0) + 1)::text as pin from employee
     where company_id = ? and deleted_at is null and pin ~ '^[0-9]{1,22}$'`,
    [scope.companyId],
  );
  return next!.pin;
}

/** Read from the employee and the memberships, not from the search copy. */
const COMPUTED_USER_ATTRIBUTES = new Set(['id', 'meta', 'groups', 'schemas', 'active', 'password']);

async function writeScimRow(em: EntityManager, scope: ScimScope, employeeId: number, document: JsonObject, now: Date): Promise<void> {
  const userName = (getAttr(document, 'userName') as string).trim();
  const externalId = (getAttr(document, 'externalId') as string | undefined) ?? null;
  const search = searchDocument(document, USER, COMPUTED_USER_ATTRIBUTES);
  await em.execute(
    `insert into scim_user (workspace_id, company_id, employee_id, user_name, external_id, document, search, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?)
     on conflict (employee_id) do update set user_name = excluded.user_name, external_id = excluded.external_id, document = excluded.document,
       search = excluded.search, updated_at = excluded.updated_at`,
    [scope.workspaceId, scope.companyId, employeeId, userName, externalId, JSON.stringify(document), JSON.stringify(search), now, now],
  );
}

/** POST /Users: a new employee of the company, with its PIN (docs/identity.md, "Attribute mapping"). */
export async function createScimUser(ctx: RequestContext, body: unknown, baseUrl: string): Promise<JsonObject> {
  const scope = scimScope(ctx);
  const document = storedUserDocument(body, resourceBounds(ctx));
  const fields = employeeFieldsOf(document);
  const employeeId = await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    await lockWorkspace(em, scope.workspaceId);
    await checkUserNameFree(em, scope, getAttr(document, 'userName') as string, null);
    // A user whose employee was deleted through the API (kept, marked deleted) no longer holds its userName.
    await em.execute(
      `delete from scim_user s using employee e where e.id = s.employee_id and s.company_id = ? and lower(s.user_name) = lower(?) and (e.deleted_at is not null or e.company_id <> s.company_id)`,
      [scope.companyId, getAttr(document, 'userName') as string],
    );
    const pin = await choosePin(em, scope, fields.employeeNumber, null, null);
    const employee = await createEmployee(tx, {
      companyId: scope.companyId,
      name: fields.name,
      lastname: fields.lastname,
      code: fields.code,
      pin,
      email: fields.email,
      isActive: fields.isActive,
    });
    await writeScimRow(em, scope, employee.id, document, ctx.now());
    return employee.id;
  });
  return getScimUser(ctx, String(employeeId), baseUrl);
}

/** PUT and PATCH: the new document decides the employee's fields; its PIN changes only to a valid, free employee number. */
async function writeUser(ctx: RequestContext, scope: ScimScope, id: string, change: (current: JsonObject) => JsonObject, baseUrl: string): Promise<JsonObject> {
  await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    await lockWorkspace(em, scope.workspaceId);
    const row = await oneUser(em, scope, id);
    // The id is the resource's too (not stored): a PATCH that sets it to itself changes nothing.
    const current = { ...row.document, id: String(row.employee_id), active: row.is_active };
    const document = storedUserDocument(change(current), resourceBounds(ctx));
    const fields = employeeFieldsOf(document);
    await checkUserNameFree(em, scope, getAttr(document, 'userName') as string, row.employee_id);
    const [employee] = await em.execute<{ pin: string | null }[]>('select pin from employee where id = ?', [row.employee_id]);
    const pin = await choosePin(em, scope, fields.employeeNumber, row.employee_id, employee!.pin);
    await updateEmployee(tx, row.employee_id, {
      name: fields.name,
      lastname: fields.lastname,
      code: fields.code,
      pin,
      email: fields.email,
      isActive: fields.isActive,
    });
    await writeScimRow(em, scope, row.employee_id, document, ctx.now());
  });
  return getScimUser(ctx, id, baseUrl);
}

/** PUT /Users/{id}: the whole resource replaced (attributes left out are gone). */
export function replaceScimUser(ctx: RequestContext, id: string, body: unknown, baseUrl: string): Promise<JsonObject> {
  return writeUser(ctx, scimScope(ctx), id, () => body as JsonObject, baseUrl);
}

/** PATCH /Users/{id}: the operations applied to the resource as stored (with the employee's active flag). */
export function patchScimUser(ctx: RequestContext, id: string, body: unknown, baseUrl: string): Promise<JsonObject> {
  return writeUser(ctx, scimScope(ctx), id, (current) => applyPatch(current, USER, body), baseUrl);
}

/**
 * DELETE /Users/{id}: the employee is deleted as the API deletes one (kept, marked deleted, when it
 * has punches or days), which takes them off every terminal; the SCIM resource and its group
 * memberships go, and with them what the groups granted.
 */
export async function deleteScimUser(ctx: RequestContext, id: string): Promise<void> {
  const scope = scimScope(ctx);
  await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    await lockWorkspace(em, scope.workspaceId);
    const row = await oneUser(em, scope, id);
    const before = await directoryGrantsOf(em, [row.employee_id]);
    await em.execute('delete from scim_group_member where employee_id = ?', [row.employee_id]);
    await afterMembersChange(em, [row.employee_id], before, ctx.now());
    await em.execute('delete from scim_user where employee_id = ?', [row.employee_id]);
    await deleteEmployee(tx, row.employee_id);
  });
}
