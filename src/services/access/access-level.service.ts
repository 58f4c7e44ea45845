// Access levels: a company's doors opened during a schedule, for the level's members (employees
// with an optional validity window, and areas whose employees inherit it). A member is put on the
// terminals of the level's doors; their rights on a door are the union of their levels; the sync
// engine writes them into the terminals' own tables (access-sync.service.ts, sync-commands.ts).
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { AccessLevel, AccessLevelArea, AccessLevelDoor, AccessLevelEmployee, AccessSchedule, Area, Company, Employee } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { checkBulkItems } from '../common/bulk-input';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import { recomputeDeviceUsers } from '../sync/device-user.service';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker, limits } from '../common/validation';
import { lockWorkspace } from '../common/workspace-lock';
import { retryOnConflict } from '../common/transaction-conflict';
import { openingRulesUsing } from './door-opening-rules.service';

export interface AccessLevelInput {
  companyId?: number | null;
  name?: string | null;
  scheduleId?: number | null;
  doorIds?: number[] | null;
}

/** A level with its doors (ids, ascending). */
export type AccessLevelView = AccessLevel & { doorIds: number[] };

async function withDoors(em: EntityManager, levels: AccessLevel[]): Promise<AccessLevelView[]> {
  if (levels.length === 0) return [];
  const doors = await em.find(AccessLevelDoor, { accessLevelId: { $in: levels.map((l) => l.id) } }, { orderBy: { doorId: 'asc' } });
  return levels.map((level) => Object.assign(level, { doorIds: doors.filter((d) => d.accessLevelId === level.id).map((d) => d.doorId) }));
}

async function findLevel(ctx: RequestContext, id: number): Promise<AccessLevel> {
  const level = await ctx.em.findOne(AccessLevel, { id, workspaceId: workspaceOf(ctx) });
  if (!level) throw DomainError.notFound('Access level', id);
  return level;
}

export async function getAccessLevel(ctx: RequestContext, id: number): Promise<AccessLevelView> {
  return (await withDoors(ctx.em, [await findLevel(ctx, id)]))[0]!;
}

export async function listAccessLevels(ctx: RequestContext, filter: { companyId?: number }, page: PageRequest): Promise<Page<AccessLevelView>> {
  const where: FilterQuery<AccessLevel> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(AccessLevel, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items: await withDoors(ctx.em, items), totalCount, offset: page.offset };
}

function checkLevel(input: AccessLevelInput, creating: boolean): void {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.accessName, required: creating || input.name !== undefined });
  if (creating && input.companyId == null) check.add('companyId', 'required', 'companyId is required.');
  if (creating && input.scheduleId == null) check.add('scheduleId', 'required', 'scheduleId is required (the company has a built-in "Always" schedule).');
  if (input.doorIds != null) {
    if (input.doorIds.length > 256) check.add('doorIds', 'too_many_items', 'doorIds may name at most 256 doors.');
    const seen = new Set<number>();
    input.doorIds.forEach((id, index) => {
      if (seen.has(id)) check.add(`doorIds.${index}`, 'duplicate', `door ${id} appears more than once.`);
      seen.add(id);
    });
  }
  check.done();
}

/** The schedule and doors must be the level's company's: a foreign id is not found, another company's a mismatch. */
async function checkReferences(ctx: RequestContext, companyId: number, input: AccessLevelInput): Promise<void> {
  const check = new FieldChecker();
  const workspaceId = workspaceOf(ctx);
  if (input.scheduleId != null) {
    const schedule = await ctx.em.findOne(AccessSchedule, { id: input.scheduleId, workspaceId });
    if (!schedule) check.add('scheduleId', 'not_found', `Access schedule ${input.scheduleId} does not exist in this workspace.`);
    else if (schedule.companyId !== companyId)
      check.add(
        'scheduleId',
        'company_mismatch',
        `Schedule ${schedule.id} belongs to company ${schedule.companyId}, not to company ${companyId} of this level.`,
      );
  }
  if (input.doorIds != null && input.doorIds.length > 0) {
    const rows = await ctx.em.execute<{ id: number; company_id: number }[]>(
      'select d.id, dev.company_id from door d join device dev on dev.id = d.device_id where d.workspace_id = ? and d.id in (?)',
      [workspaceId, input.doorIds],
    );
    const companyOf = new Map(rows.map((r) => [r.id, r.company_id]));
    input.doorIds.forEach((id, index) => {
      const owner = companyOf.get(id);
      if (owner === undefined) check.add(`doorIds.${index}`, 'not_found', `Door ${id} does not exist in this workspace.`);
      else if (owner !== companyId)
        check.add(`doorIds.${index}`, 'company_mismatch', `Door ${id} is on a device of company ${owner}, not of company ${companyId} of this level.`);
    });
  }
  check.done();
}

/** Everyone the level reaches: its employees and its areas' employees. */
async function memberIds(em: EntityManager, levelId: number): Promise<number[]> {
  const rows = await em.execute<{ employee_id: number }[]>(
    `select employee_id from access_level_employee where access_level_id = ?
     union select ae.employee_id from access_level_area a join area_employee ae on ae.area_id = a.area_id where a.access_level_id = ?`,
    [levelId, levelId],
  );
  return rows.map((r) => r.employee_id);
}

async function setDoors(em: EntityManager, level: AccessLevel, doorIds: number[]): Promise<void> {
  await em.nativeDelete(AccessLevelDoor, { accessLevelId: level.id });
  for (const doorId of doorIds) em.persist(em.create(AccessLevelDoor, { workspaceId: level.workspaceId, accessLevelId: level.id, doorId } as AccessLevelDoor));
  await em.flush();
}

export async function createAccessLevel(ctx: RequestContext, input: AccessLevelInput): Promise<AccessLevelView> {
  checkLevel(input, true);
  const workspaceId = workspaceOf(ctx);
  if (!(await ctx.em.findOne(Company, { id: input.companyId!, workspaceId }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${input.companyId} does not exist in this workspace.`);
  }
  await checkReferences(ctx, input.companyId!, input);
  const level = await ctx.em.transactional(async (em) => {
    const created = em.create(AccessLevel, { workspaceId, companyId: input.companyId!, name: input.name!, scheduleId: input.scheduleId! } as AccessLevel);
    em.persist(created);
    await em.flush();
    await setDoors(em, created, input.doorIds ?? []);
    return created;
  });
  return getAccessLevel(ctx, level.id);
}

/** Changes name, schedule or doors; its members' terminals follow. A level stays in its company. */
export async function updateAccessLevel(ctx: RequestContext, id: number, input: Omit<AccessLevelInput, 'companyId'>): Promise<AccessLevelView> {
  checkLevel(input, false);
  const level = await findLevel(ctx, id);
  await checkReferences(ctx, level.companyId, input);
  // Its members' terminal rows are written while their controllers sync: a deadlock with a sync
  // transaction is retried whole (docs/errors.md, "Concurrent changes").
  await retryOnConflict(() =>
    ctx.em.transactional(async (em) => {
      await lockWorkspace(em, level.workspaceId);
      const row = await em.findOneOrFail(AccessLevel, { id });
      if (input.name != null) row.name = input.name;
      if (input.scheduleId != null) row.scheduleId = input.scheduleId;
      await em.flush();
      if (input.doorIds != null) await setDoors(em, row, input.doorIds);
      await recomputeDeviceUsers(em, { employeeIds: await memberIds(em, id) }, ctx.now(), ctx.principal);
    }),
  );
  return getAccessLevel(ctx, id);
}

export async function deleteAccessLevel(ctx: RequestContext, id: number): Promise<AccessLevelView> {
  const view = await getAccessLevel(ctx, id);
  const doors = await openingRulesUsing(ctx.em, { accessLevelId: id });
  if (doors > 0)
    throw new DomainError(
      'resource_in_use',
      `Access level ${id} starts the first-person-in of ${doors} door${doors === 1 ? '' : 's'}; change their opening rules first.`,
    );
  const snapshot = { ...view };
  await retryOnConflict(() =>
    ctx.em.transactional(async (em) => {
      await lockWorkspace(em, view.workspaceId);
      const members = await memberIds(em, id);
      await em.nativeDelete(AccessLevel, { id });
      await recomputeDeviceUsers(em, { employeeIds: members }, ctx.now(), ctx.principal);
    }),
  );
  return Object.assign(new AccessLevel(), snapshot);
}

export type Mode = 'add' | 'remove' | 'sync';

export interface LevelEmployeeItem {
  employeeId: number;
  startDate?: string | null;
  endDate?: string | null;
}

export async function listAccessLevelEmployees(ctx: RequestContext, levelId: number, page: PageRequest): Promise<Page<AccessLevelEmployee>> {
  await findLevel(ctx, levelId);
  const [items, totalCount] = await ctx.em.findAndCount(
    AccessLevelEmployee,
    { accessLevelId: levelId },
    { orderBy: { employeeId: 'asc' }, offset: page.offset, limit: page.limit },
  );
  return { items, totalCount, offset: page.offset };
}

export async function listAccessLevelAreas(ctx: RequestContext, levelId: number, page: PageRequest): Promise<Page<AccessLevelArea>> {
  await findLevel(ctx, levelId);
  const [items, totalCount] = await ctx.em.findAndCount(
    AccessLevelArea,
    { accessLevelId: levelId },
    { orderBy: { areaId: 'asc' }, offset: page.offset, limit: page.limit },
  );
  return { items, totalCount, offset: page.offset };
}

/** Ids must be of the workspace (else not_found) and of the level's company (else company_mismatch). */
async function checkOwners(ctx: RequestContext, entity: typeof Employee | typeof Area, ids: number[], field: string, level: AccessLevel): Promise<void> {
  const rows = ids.length ? await ctx.em.find(entity as typeof Employee, { id: { $in: ids }, workspaceId: level.workspaceId }) : [];
  const companyOf = new Map(rows.map((r) => [r.id, r.companyId]));
  const check = new FieldChecker();
  ids.forEach((id, index) => {
    const owner = companyOf.get(id);
    const what = entity === Employee ? 'Employee' : 'Area';
    if (owner === undefined) check.add(`items.${index}.${field}`, 'not_found', `${what} ${id} does not exist in this workspace.`);
    else if (owner !== level.companyId)
      check.add(`items.${index}.${field}`, 'company_mismatch', `${what} ${id} belongs to company ${owner}, not to company ${level.companyId} of this level.`);
  });
  check.done();
}

function checkWindows(items: LevelEmployeeItem[]): void {
  const check = new FieldChecker();
  items.forEach((item, index) => {
    const startOk = check.date(`items.${index}.startDate`, item.startDate);
    const endOk = check.date(`items.${index}.endDate`, item.endDate);
    if (startOk && endOk && item.endDate! < item.startDate!) {
      check.add(`items.${index}.endDate`, 'before_start_date', `endDate ${item.endDate} is before startDate ${item.startDate}.`);
    }
  });
  check.done();
}

/**
 * Adds (or changes the window of), removes, or sets exactly (`sync`) the level's employees. The
 * terminals of the level's doors follow in the same transaction (their rows become pending).
 */
export async function changeAccessLevelEmployees(ctx: RequestContext, levelId: number, mode: Mode, items: LevelEmployeeItem[]): Promise<AccessLevelEmployee[]> {
  const level = await findLevel(ctx, levelId);
  const ids = checkBulkItems(items, 'employeeId', { allowEmpty: mode === 'sync' });
  if (mode !== 'remove') checkWindows(items);
  await checkOwners(ctx, Employee, ids, 'employeeId', level);
  // Computed from what the transaction reads, so a deadlock with a sync transaction (whose rows it
  // writes) is retried whole (docs/errors.md, "Concurrent changes").
  return retryOnConflict(() =>
    ctx.em.transactional(async (em) => {
      await lockWorkspace(em, level.workspaceId);
      const existing = await em.find(AccessLevelEmployee, { accessLevelId: levelId });
      const touched = new Set<number>();
      if (mode === 'remove' || mode === 'sync') {
        for (const row of existing) {
          if (mode === 'remove' ? ids.includes(row.employeeId) : !ids.includes(row.employeeId)) {
            em.remove(row);
            touched.add(row.employeeId);
          }
        }
      }
      if (mode !== 'remove') {
        for (const item of items) {
          const row = existing.find((r) => r.employeeId === item.employeeId);
          const window = { startDate: item.startDate ?? null, endDate: item.endDate ?? null };
          if (row) {
            if ((row.startDate ?? null) !== window.startDate || (row.endDate ?? null) !== window.endDate) Object.assign(row, window);
            else continue;
          } else {
            em.persist(
              em.create(AccessLevelEmployee, {
                workspaceId: level.workspaceId,
                accessLevelId: levelId,
                employeeId: item.employeeId,
                ...window,
              } as AccessLevelEmployee),
            );
          }
          touched.add(item.employeeId);
        }
      }
      await em.flush();
      await recomputeDeviceUsers(em, { employeeIds: [...touched] }, ctx.now(), ctx.principal);
      return em.find(AccessLevelEmployee, { accessLevelId: levelId }, { orderBy: { employeeId: 'asc' } });
    }),
  );
}

/** Adds, removes or sets exactly the level's areas; their employees' terminals follow. */
export async function changeAccessLevelAreas(ctx: RequestContext, levelId: number, mode: Mode, items: { areaId: number }[]): Promise<AccessLevelArea[]> {
  const level = await findLevel(ctx, levelId);
  const ids = checkBulkItems(items, 'areaId', { allowEmpty: mode === 'sync' });
  await checkOwners(ctx, Area, ids, 'areaId', level);
  return retryOnConflict(() =>
    ctx.em.transactional(async (em) => {
      await lockWorkspace(em, level.workspaceId);
      const before = await memberIds(em, levelId);
      const existing = await em.find(AccessLevelArea, { accessLevelId: levelId });
      for (const row of existing) if (mode === 'remove' ? ids.includes(row.areaId) : mode === 'sync' && !ids.includes(row.areaId)) em.remove(row);
      if (mode !== 'remove') {
        for (const areaId of ids) {
          if (!existing.some((r) => r.areaId === areaId))
            em.persist(em.create(AccessLevelArea, { workspaceId: level.workspaceId, accessLevelId: levelId, areaId } as AccessLevelArea));
        }
      }
      await em.flush();
      const after = await memberIds(em, levelId);
      await recomputeDeviceUsers(em, { employeeIds: [...new Set([...before, ...after])] }, ctx.now(), ctx.principal);
      return em.find(AccessLevelArea, { accessLevelId: levelId }, { orderBy: { areaId: 'asc' } });
    }),
  );
}
