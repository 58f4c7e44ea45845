import DataLoader from 'dataloader';
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Area, AreaEmployee, Company, Device, Employee, ShiftAssignment } from '../../entities';
import { markDaysStale } from '../attendance/day-store';
import { DomainError } from '../../errors/domain-error';
import { checkBulkItems, checkBulkOwners } from '../common/bulk-input';
import { requireScopeFor, workspaceOf, type RequestContext, withEm } from '../../context/request-context';
import { accessControllerIds, recomputeDeviceUsers } from '../sync/device-user.service';
import type { Page, PageRequest } from '../common/pagination';
import { uniqueViolationToDomainError } from '../common/unique-violation';
import { intArray } from '../common/sql-arrays';
import { FieldChecker, limits } from '../common/validation';
import { lockWorkspace } from '../common/workspace-lock';

export interface AreaInput {
  companyId?: number;
  name?: string | null;
  code?: string | null;
}

export interface AreaFilter {
  companyId?: number;
}

const uniqueFields = {
  area_company_code_unique: { field: 'code', message: 'Another area of this company already has this code.' },
};

function checkArea(input: AreaInput, creating: boolean): void {
  const check = new FieldChecker();
  if (creating && input.companyId === undefined) check.add('companyId', 'required', 'companyId is required.');
  check.text('name', input.name, { max: limits.areaName, required: creating || input.name !== undefined });
  check.text('code', input.code, { max: limits.areaCode, required: creating || input.code !== undefined });
  check.done();
}

export async function getArea(ctx: RequestContext, id: number): Promise<Area> {
  const area = await ctx.em.findOne(Area, { id, workspaceId: workspaceOf(ctx) });
  if (!area) throw DomainError.notFound('Area', id);
  return area;
}

/**
 * The area named by an id or a name, as `GET /areas/{id}` allows: a value of only digits is tried
 * as an id first, then as a name. Names are not unique: the oldest area with the name wins.
 */
export async function findArea(ctx: RequestContext, idOrName: string): Promise<Area> {
  const workspaceId = workspaceOf(ctx);
  if (/^\d{1,10}$/.test(idOrName) && Number(idOrName) <= 2_147_483_647) {
    const byId = await ctx.em.findOne(Area, { id: Number(idOrName), workspaceId });
    if (byId) return byId;
  }
  const byName = await ctx.em.findOne(Area, { name: idOrName, workspaceId }, { orderBy: { id: 'asc' } });
  if (!byName) throw DomainError.notFound('Area', idOrName);
  return byName;
}

export async function listAreas(ctx: RequestContext, filter: AreaFilter, page: PageRequest): Promise<Page<Area>> {
  const where: FilterQuery<Area> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(Area, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

async function ensureCompany(ctx: RequestContext, companyId: number): Promise<void> {
  if (!(await ctx.em.findOne(Company, { id: companyId, workspaceId: workspaceOf(ctx) }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${companyId} does not exist in this workspace.`);
  }
}

async function ensureCodeFree(ctx: RequestContext, companyId: number, code: string, exceptId?: number): Promise<void> {
  const other = await ctx.em.findOne(Area, { companyId, code });
  if (other && other.id !== exceptId) throw DomainError.field('code', 'already_taken', uniqueFields.area_company_code_unique.message);
}

export async function createArea(ctx: RequestContext, input: AreaInput): Promise<Area> {
  checkArea(input, true);
  await ensureCompany(ctx, input.companyId!);
  await ensureCodeFree(ctx, input.companyId!, input.code!);
  const area = ctx.em.create(Area, { workspaceId: workspaceOf(ctx), companyId: input.companyId!, name: input.name!, code: input.code! } as Area);
  try {
    await ctx.em.persist(area).flush();
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
  return area;
}

/** Moving an area to another company is refused while it has members: they belong to the old company. */
export async function updateArea(ctx: RequestContext, id: number, input: AreaInput): Promise<Area> {
  checkArea(input, false);
  const area = await getArea(ctx, id);
  const companyId = input.companyId ?? area.companyId;
  if (companyId !== area.companyId) {
    await ensureCompany(ctx, companyId);
    const members = (await ctx.em.count(AreaEmployee, { areaId: id })) + (await ctx.em.count(Device, { areaId: id }));
    if (members > 0) {
      throw DomainError.field(
        'companyId',
        'area_not_empty',
        `Area ${id} still has employees or devices of company ${area.companyId}; remove them before moving the area.`,
      );
    }
  }
  if (input.code != null || companyId !== area.companyId) await ensureCodeFree(ctx, companyId, input.code ?? area.code, id);
  area.companyId = companyId;
  if (input.name != null) area.name = input.name;
  if (input.code != null) area.code = input.code;
  try {
    await ctx.em.flush();
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
  return area;
}

/** Deleting an area ends its memberships, and with them the assignments its devices inherited and the access levels its members had through it. */
export async function deleteArea(ctx: RequestContext, id: number): Promise<Area> {
  return ctx.em.transactional(async (em) => {
    await lockWorkspace(em, workspaceOf(ctx));
    const area = await getArea(withEm(ctx, em), id);
    if ((await em.count(AreaEmployee, { areaId: id })) > 0 && (await areaGrantsDoors(em, id))) {
      requireScopeFor(ctx, 'doors:manage', `Area ${id} holds an access controller or an access level: deleting it takes its people off doors`);
    }
    const devices = await em.find(Device, { areaId: id });
    for (const device of devices) device.areaId = null;
    // Its members also lose the access levels they had through the area, on those levels' terminals.
    const members = await em.find(AreaEmployee, { areaId: id });
    await em.nativeDelete(AreaEmployee, { areaId: id });
    const snapshot = { ...area };
    await em.remove(area).flush();
    await recomputeDeviceUsers(em, { deviceIds: devices.map((d) => d.id), employeeIds: members.map((m) => m.employeeId) }, ctx.now(), ctx.principal);
    return Object.assign(new Area(), snapshot);
  });
}

// --- membership -----------------------------------------------------------------------------

/**
 * The member lists of areas, per EntityManager like the area-id loaders below: the `employeeIds`
 * and `deviceIds` of every area of a list page are two queries, not two per area. No cache (a
 * mutation reads the lists it has just changed, after its flush).
 */
const areaMemberLoaders = new WeakMap<EntityManager, { employees: DataLoader<number, number[]>; devices: DataLoader<number, number[]> }>();

function areaMembers(ctx: RequestContext) {
  const em = ctx.em;
  let loaders = areaMemberLoaders.get(em);
  if (!loaders) {
    const workspaceId = workspaceOf(ctx);
    const byArea = (areaIds: readonly number[], rows: { area_id: number; id: number }[]) => {
      const grouped = new Map<number, number[]>();
      for (const row of rows) (grouped.get(row.area_id) ?? grouped.set(row.area_id, []).get(row.area_id)!).push(row.id);
      return areaIds.map((id) => grouped.get(id) ?? []);
    };
    loaders = {
      employees: new DataLoader<number, number[]>(
        async (areaIds) =>
          byArea(
            areaIds,
            await em.execute('select area_id, employee_id as id from area_employee where area_id = any(?::int[]) order by employee_id', [intArray(areaIds)]),
          ),
        { cache: false },
      ),
      devices: new DataLoader<number, number[]>(
        async (areaIds) =>
          byArea(
            areaIds,
            await em.execute('select area_id, id from device where workspace_id = ? and area_id = any(?::int[]) order by id', [workspaceId, intArray(areaIds)]),
          ),
        { cache: false },
      ),
    };
    areaMemberLoaders.set(em, loaders);
  }
  return loaders;
}

/** The employees registered in the area, ascending (batched with the other areas of the request). */
export function areaEmployeeIds(ctx: RequestContext, areaId: number): Promise<number[]> {
  return areaMembers(ctx).employees.load(areaId);
}

/** The devices of the area, ascending (batched with the other areas of the request). */
export function areaDeviceIds(ctx: RequestContext, areaId: number): Promise<number[]> {
  return areaMembers(ctx).devices.load(areaId);
}

/**
 * Area-id loaders per EntityManager (so per request, and inside its transaction when there is one).
 * Batching only, no cache: a mutation that changes memberships and then returns employees must
 * read the new ids.
 */
const areaIdLoaders = new WeakMap<EntityManager, DataLoader<number, number[]>>();

/**
 * The employee's area ids, ascending. Employees read by `readEmployee`/`listEmployees` carry them
 * already; for the others (mutation results, area members) the lookups a list page makes in one
 * turn of the event loop are read in ONE query (DataLoader), instead of one per employee.
 */
export function employeeAreaIds(ctx: RequestContext, employee: { id: number; areaIds?: number[] }): number[] | Promise<number[]> {
  if (employee.areaIds) return employee.areaIds;
  const em = ctx.em;
  let loader = areaIdLoaders.get(em);
  if (!loader) {
    loader = new DataLoader<number, number[]>(
      async (employeeIds) => {
        const rows = await em.execute<{ employee_id: number; area_id: number }[]>(
          'select employee_id, area_id from area_employee where employee_id = any(?::int[]) order by area_id',
          [`{${employeeIds.join(',')}}`],
        );
        const byEmployee = new Map<number, number[]>();
        for (const row of rows) (byEmployee.get(row.employee_id) ?? byEmployee.set(row.employee_id, []).get(row.employee_id)!).push(row.area_id);
        return employeeIds.map((id) => byEmployee.get(id) ?? []);
      },
      { cache: false },
    );
    areaIdLoaders.set(em, loader);
  }
  return loader.load(employee.id);
}

export async function listAreaEmployees(ctx: RequestContext, areaId: number, page: PageRequest): Promise<Page<Employee>> {
  await getArea(ctx, areaId);
  const ids = await areaEmployeeIds(ctx, areaId);
  const [items, totalCount] = await ctx.em.findAndCount(Employee, { id: { $in: ids } }, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

export async function listAreaDevices(ctx: RequestContext, areaId: number, page: PageRequest): Promise<Page<Device>> {
  await getArea(ctx, areaId);
  const [items, totalCount] = await ctx.em.findAndCount(Device, { areaId }, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

type Mode = 'add' | 'remove' | 'sync';

/**
 * Whether the area's people are door access: it holds an access controller (its members are on it)
 * or is a member of an access level (its members hold the level). Changing such an area's people
 * needs `doors:manage` besides `write` (docs/security.md, "Scopes").
 */
async function areaGrantsDoors(em: EntityManager, areaId: number): Promise<boolean> {
  const [row] = await em.execute<{ doors: boolean }[]>(
    `select exists (select 1 from device where area_id = ? and mode_type = 'acc')
         or exists (select 1 from access_level_area where area_id = ?) as doors`,
    [areaId, areaId],
  );
  return row!.doors;
}

/**
 * Runs a membership change in one transaction under the workspace lock: the area must be in the
 * path's workspace (404, checked before the body), every id in the body must be of the area's company (422 naming them),
 * and the whole request changes nothing unless every item is valid.
 */
async function inAreaTransaction<T>(ctx: RequestContext, areaId: number, work: (em: EntityManager, area: Area) => Promise<T>): Promise<T> {
  return ctx.em.transactional(async (em) => {
    await lockWorkspace(em, workspaceOf(ctx));
    const area = await getArea(withEm(ctx, em), areaId);
    return work(em, area);
  });
}

export async function changeAreaEmployees(ctx: RequestContext, areaId: number, mode: Mode, items: { employeeId: number }[]): Promise<Employee[]> {
  return inAreaTransaction(ctx, areaId, async (em, area) => {
    const ids = checkBulkItems(items, 'employeeId', { allowEmpty: mode === 'sync' });
    const employees = ids.length ? await em.find(Employee, { id: { $in: ids }, workspaceId: area.workspaceId }) : [];
    checkBulkOwners(ids, 'employeeId', 'Employee', new Map(employees.map((e) => [e.id, e.companyId])), { companyId: area.companyId, owner: `area ${area.id}` });
    const current = await em.find(AreaEmployee, { areaId });
    const currentIds = new Set(current.map((m) => m.employeeId));
    const wanted = new Set(ids);
    const toRemove =
      mode === 'remove' ? current.filter((m) => wanted.has(m.employeeId)) : mode === 'sync' ? current.filter((m) => !wanted.has(m.employeeId)) : [];
    const toAdd = mode === 'remove' ? [] : ids.filter((id) => !currentIds.has(id));
    if (toRemove.length + toAdd.length > 0 && (await areaGrantsDoors(em, areaId))) {
      requireScopeFor(ctx, 'doors:manage', `Area ${areaId} holds an access controller or an access level: changing its people decides who may pass doors`);
    }
    for (const membership of toRemove) em.remove(membership);
    for (const employeeId of toAdd) em.persist(em.create(AreaEmployee, { areaId, employeeId } as AreaEmployee));
    await em.flush();
    await recomputeDeviceUsers(em, { employeeIds: [...toRemove.map((m) => m.employeeId), ...toAdd] }, ctx.now(), ctx.principal);
    // The area's shift assignments now apply to other employees: their days are computed again.
    const moved = [...toRemove.map((m) => m.employeeId), ...toAdd];
    if (moved.length > 0 && (await em.count(ShiftAssignment, { areaId })) > 0) await markDaysStale(em, { employeeIds: moved }, null, null);
    const memberIds = await areaEmployeeIds(withEm(ctx, em), areaId);
    return em.find(Employee, { id: { $in: memberIds } }, { orderBy: { id: 'asc' } });
  });
}

/** Adding a device that is in another area moves it: a device is in at most one area. */
export async function changeAreaDevices(ctx: RequestContext, areaId: number, mode: Mode, items: { deviceId: number }[]): Promise<Device[]> {
  return inAreaTransaction(ctx, areaId, async (em, area) => {
    const ids = checkBulkItems(items, 'deviceId', { allowEmpty: mode === 'sync' });
    const devices = ids.length ? await em.find(Device, { id: { $in: ids }, workspaceId: area.workspaceId }) : [];
    checkBulkOwners(ids, 'deviceId', 'Device', new Map(devices.map((d) => [d.id, d.companyId])), { companyId: area.companyId, owner: `area ${area.id}` });
    const changed: Device[] = [];
    if (mode === 'remove') {
      for (const device of devices) if (device.areaId === areaId) changed.push(device);
      for (const device of changed) device.areaId = null;
    } else {
      if (mode === 'sync') {
        const wanted = new Set(ids);
        for (const device of await em.find(Device, { areaId })) {
          if (!wanted.has(device.id)) {
            device.areaId = null;
            changed.push(device);
          }
        }
      }
      for (const device of devices) {
        if (device.areaId !== areaId) {
          device.areaId = areaId;
          changed.push(device);
        }
      }
    }
    const controllers = await accessControllerIds(
      em,
      changed.map((d) => d.id),
    );
    if (controllers.size > 0) {
      requireScopeFor(ctx, 'doors:manage', `Moving access controller ${Math.min(...controllers)} into or out of an area decides who is on it`);
    }
    const clocks = changed.filter((d) => !controllers.has(d.id));
    if (clocks.length > 0) requireScopeFor(ctx, 'write', `Moving attendance terminal ${clocks[0]!.id} into or out of an area is attendance data`);
    await em.flush();
    await recomputeDeviceUsers(em, { deviceIds: changed.map((d) => d.id) }, ctx.now(), ctx.principal);
    return em.find(Device, { areaId }, { orderBy: { id: 'asc' } });
  });
}
