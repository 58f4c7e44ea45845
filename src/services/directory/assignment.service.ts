import type { EntityManager } from '@mikro-orm/postgresql';
import { AreaEmployee, Assignment, Device, DeviceUser, Employee } from '../../entities';
import type { SyncStatus } from '../../entities/device-user.entity';
import { DomainError } from '../../errors/domain-error';
import { checkBulkItems, checkBulkOwners } from '../common/bulk-input';
import { requireScopeFor, workspaceOf, type RequestContext, withEm } from '../../context/request-context';
import { getDevice } from '../terminals/device.service';
import { accessControllerIds, deviceUserRows, recomputeDeviceUsers } from '../sync/device-user.service';
import { getEmployee } from './employee.service';
import type { Page, PageRequest } from '../common/pagination';
import { FieldChecker } from '../common/validation';
import { lockWorkspace } from '../common/workspace-lock';

export enum AssignmentSource {
  direct = 'direct',
  area = 'area',
}

/**
 * One listed assignment: a direct one, or one inherited from the device's area. A pair that is
 * both is listed twice (once per source); the terminal gets the direct permission.
 */
export interface AssignmentView {
  employeeId: number;
  deviceId: number;
  permissionId: number;
  source: AssignmentSource;
  areaId: number | null;
  /** The pair's desired-state row status; null while nothing is to be sent (no pin, inactive, never on the device). */
  syncStatus: SyncStatus | null;
  returnCode: number | null;
  employeeName: string;
  employeeLastname: string;
  employeePin: string | null;
  deviceName: string;
  deviceSerialNumber: string;
}

export type BulkMode = 'add' | 'remove' | 'sync';

function view(device: Device, employee: Employee, permissionId: number, source: AssignmentSource, row: DeviceUser | undefined): AssignmentView {
  return {
    employeeId: employee.id,
    deviceId: device.id,
    permissionId,
    source,
    areaId: source === AssignmentSource.area ? device.areaId! : null,
    syncStatus: row?.syncStatus ?? null,
    returnCode: row?.returnCode ?? null,
    employeeName: employee.name,
    employeeLastname: employee.lastname,
    employeePin: employee.pin ?? null,
    deviceName: device.name,
    deviceSerialNumber: device.serialNumber,
  };
}

const bySourceOrder = (a: AssignmentView, b: AssignmentView) =>
  a.deviceId - b.deviceId || a.employeeId - b.employeeId || (a.source === b.source ? 0 : a.source === AssignmentSource.direct ? -1 : 1);

/** Every assignment of an employee (direct and area-derived), ordered by device. */
async function employeeAssignments(em: EntityManager, employee: Employee): Promise<AssignmentView[]> {
  const direct = await em.find(Assignment, { employeeId: employee.id });
  const areaIds = (await em.find(AreaEmployee, { employeeId: employee.id })).map((m) => m.areaId);
  const inherited = areaIds.length ? await em.find(Device, { areaId: { $in: areaIds } }) : [];
  const directDevices = direct.length ? await em.find(Device, { id: { $in: direct.map((a) => a.deviceId) } }) : [];
  const devices = new Map([...directDevices, ...inherited].map((d) => [d.id, d]));
  const rows = await deviceUserRows(em, { employeeId: employee.id });
  return [
    ...direct.map((a) => view(devices.get(a.deviceId)!, employee, a.permission, AssignmentSource.direct, rows.get(`${a.deviceId}:${employee.id}`))),
    ...inherited.map((d) => view(d, employee, 0, AssignmentSource.area, rows.get(`${d.id}:${employee.id}`))),
  ].sort(bySourceOrder);
}

/** Every assignment of a device (direct and inherited from its area), ordered by employee. */
async function deviceAssignments(em: EntityManager, device: Device): Promise<AssignmentView[]> {
  const direct = await em.find(Assignment, { deviceId: device.id });
  const memberIds = device.areaId ? (await em.find(AreaEmployee, { areaId: device.areaId })).map((m) => m.employeeId) : [];
  const ids = [...new Set([...direct.map((a) => a.employeeId), ...memberIds])];
  const employees = new Map((ids.length ? await em.find(Employee, { id: { $in: ids } }) : []).map((e) => [e.id, e]));
  const rows = await deviceUserRows(em, { deviceId: device.id });
  return [
    ...direct.map((a) => view(device, employees.get(a.employeeId)!, a.permission, AssignmentSource.direct, rows.get(`${device.id}:${a.employeeId}`))),
    ...memberIds.map((id) => view(device, employees.get(id)!, 0, AssignmentSource.area, rows.get(`${device.id}:${id}`))),
  ].sort((a, b) => a.employeeId - b.employeeId || bySourceOrder(a, b));
}

function page<T>(items: T[], request: PageRequest): Page<T> {
  return { items: items.slice(request.offset, request.offset + request.limit), totalCount: items.length, offset: request.offset };
}

export async function listEmployeeDevices(ctx: RequestContext, employeeId: number, request: PageRequest): Promise<Page<AssignmentView>> {
  return page(await employeeAssignments(ctx.em, await getEmployee(ctx, employeeId)), request);
}

export async function listDeviceEmployees(ctx: RequestContext, deviceId: number, request: PageRequest): Promise<Page<AssignmentView>> {
  return page(await deviceAssignments(ctx.em, await getDevice(ctx, deviceId)), request);
}

/**
 * Applies `mode` to the direct assignments of one side of the relation, given as the items' other
 * side. add: create or update the permission; remove: delete (unassigned pairs are ignored);
 * sync: make the direct set exactly `items`. Area-derived assignments are never touched.
 * Everything happens in one transaction under the workspace lock: one bad item changes nothing.
 * An assignment to an access controller (made, changed or ended) decides who may pass its doors:
 * it needs `doors:manage`; an attendance terminal's needs `write` (`insufficient_scope` otherwise;
 * the operations take either scope).
 */
async function changeDirect(
  ctx: RequestContext,
  em: EntityManager,
  mode: BulkMode,
  anchor: { employee?: Employee; device?: Device },
  pairs: { deviceId: number; employeeId: number; permission?: number }[],
): Promise<void> {
  const where = anchor.employee ? { employeeId: anchor.employee.id } : { deviceId: anchor.device!.id };
  const current = await em.find(Assignment, where);
  const pairKey = (p: { deviceId: number; employeeId: number }) => `${p.deviceId}:${p.employeeId}`;
  const requested = new Map(pairs.map((p) => [pairKey(p), p]));
  const byKey = new Map(current.map((a) => [pairKey(a), a]));
  const touched: number[] = [];
  for (const assignment of current) {
    const inRequest = requested.has(pairKey(assignment));
    if ((mode === 'remove' && inRequest) || (mode === 'sync' && !inRequest)) {
      em.remove(assignment);
      touched.push(assignment.deviceId);
    }
  }
  if (mode !== 'remove') {
    for (const pair of pairs) {
      const existing = byKey.get(pairKey(pair));
      if (existing) {
        if (existing.permission !== pair.permission) touched.push(pair.deviceId);
        existing.permission = pair.permission!;
      } else {
        em.persist(em.create(Assignment, { deviceId: pair.deviceId, employeeId: pair.employeeId, permission: pair.permission! } as Assignment));
        touched.push(pair.deviceId);
      }
    }
  }
  const controllers = await accessControllerIds(em, touched);
  if (controllers.size > 0) {
    requireScopeFor(
      ctx,
      'doors:manage',
      `Assigning people to access controller ${Math.min(...controllers)} (or ending or changing such an assignment) decides who may pass its doors`,
    );
  }
  const clocks = touched.filter((id) => !controllers.has(id));
  if (clocks.length > 0) requireScopeFor(ctx, 'write', `Assigning people to attendance terminal ${Math.min(...clocks)} is attendance data`);
  await em.flush();
  await recomputeDeviceUsers(em, anchor.employee ? { employeeIds: [anchor.employee.id] } : { deviceIds: [anchor.device!.id] }, ctx.now(), ctx.principal);
}

function noPinError(field: string, employeeId: number): { field: string; code: string; message: string } {
  return {
    field,
    code: 'employee_has_no_pin',
    message: `Employee ${employeeId} has no pin, so no terminal can hold it; give the employee a pin first.`,
  };
}

export async function changeEmployeeDevices(
  ctx: RequestContext,
  employeeId: number,
  mode: BulkMode,
  items: { deviceId: number; permissionId?: number }[],
): Promise<AssignmentView[]> {
  return ctx.em.transactional(async (em) => {
    const workspaceId = workspaceOf(ctx);
    await lockWorkspace(em, workspaceId);
    // The resource in the path first: an unknown or foreign one is a 404 whatever the body says.
    const employee = await getEmployee(withEm(ctx, em), employeeId);
    const ids = checkBulkItems(items, 'deviceId', { allowEmpty: mode === 'sync', permissionField: mode === 'remove' ? undefined : 'permissionId' });
    const devices = ids.length ? await em.find(Device, { id: { $in: ids }, workspaceId }) : [];
    checkBulkOwners(ids, 'deviceId', 'Device', new Map(devices.map((d) => [d.id, d.companyId])), {
      companyId: employee.companyId,
      owner: `employee ${employee.id}`,
    });
    if (mode !== 'remove' && ids.length > 0 && !employee.pin) throw DomainError.invalid([noPinError('items', employee.id)]);
    const pairs = items.map((item) => ({ deviceId: item.deviceId, employeeId, permission: item.permissionId }));
    await changeDirect(ctx, em, mode, { employee }, pairs);
    return employeeAssignments(em, employee);
  });
}

export async function changeDeviceEmployees(
  ctx: RequestContext,
  deviceId: number,
  mode: BulkMode,
  items: { employeeId: number; permissionId?: number }[],
): Promise<AssignmentView[]> {
  return ctx.em.transactional(async (em) => {
    const workspaceId = workspaceOf(ctx);
    await lockWorkspace(em, workspaceId);
    // The resource in the path first: an unknown or foreign one is a 404 whatever the body says.
    const device = await getDevice(withEm(ctx, em), deviceId);
    const ids = checkBulkItems(items, 'employeeId', { allowEmpty: mode === 'sync', permissionField: mode === 'remove' ? undefined : 'permissionId' });
    const employees = ids.length ? await em.find(Employee, { id: { $in: ids }, workspaceId }) : [];
    const byId = new Map(employees.map((e) => [e.id, e]));
    checkBulkOwners(ids, 'employeeId', 'Employee', new Map(employees.map((e) => [e.id, e.companyId])), {
      companyId: device.companyId,
      owner: `device ${device.id}`,
    });
    if (mode !== 'remove') {
      const check = new FieldChecker();
      ids.forEach((id, index) => {
        if (!byId.get(id)!.pin) check.problems.push(noPinError(`items.${index}.employeeId`, id));
      });
      check.done();
    }
    const pairs = items.map((item) => ({ deviceId, employeeId: item.employeeId, permission: item.permissionId }));
    await changeDirect(ctx, em, mode, { device }, pairs);
    return deviceAssignments(em, device);
  });
}
