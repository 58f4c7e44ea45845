import { ensureDoors } from '../access/door.service';
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Area, Assignment, Company, Device, Workspace } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { DomainError } from '../../errors/domain-error';
import { requireScopeFor, workspaceOf, type RequestContext, withEm } from '../../context/request-context';
import { recomputeDeviceUsers } from '../sync/device-user.service';
import type { Page, PageRequest } from '../common/pagination';
import { notifyDeviceChanged } from './device-changes';
import { uniqueViolationToDomainError } from '../common/unique-violation';
import { clearUnknownTerminal } from './unknown-terminal.service';
import { invalidCidrs, MAX_CIDRS, parseCidr } from '../../kernel/source-address';
import { FieldChecker, isValidTimeZone, limits } from '../common/validation';
import { lockWorkspace } from '../common/workspace-lock';
import { isSandboxSerial, SANDBOX_SERIAL_PREFIX } from '../../kernel/sandbox';

export interface DeviceInput {
  companyId?: number;
  name?: string | null;
  serialNumber?: string | null;
  modeType?: DeviceMode | null;
  timeZone?: string | null;
  /** The area whose employees the device inherits; `null` takes it out of its area. */
  areaId?: number | null;
  /** The `pushcommkey` the terminal's handshake carries (docs/security.md); `null` or `""` removes it. */
  pushCommKey?: string | null;
  /** Source addresses (CIDRs) the terminal may call from; `null` or `[]`: any. */
  allowedSourceCidrs?: string[] | null;
}

export interface DeviceFilter {
  companyId?: number;
}

const SERIAL = /^[A-Za-z0-9_-]{1,64}$/;
const PUSH_COMM_KEY = /^[\x21-\x7e]{1,64}$/;

const SERIAL_TAKEN = 'This serial number is already registered (a terminal reports to one owner only). Remove it from the other device record first.';
const uniqueFields = { device_serial_number_unique: { field: 'serialNumber', message: SERIAL_TAKEN } };

function checkDevice(input: DeviceInput, creating: boolean): void {
  const check = new FieldChecker();
  if (creating && input.companyId === undefined) check.add('companyId', 'required', 'companyId is required.');
  check.text('name', input.name, { max: limits.deviceName, required: creating || input.name !== undefined });
  check.text('serialNumber', input.serialNumber, { max: limits.serialNumber, required: creating || input.serialNumber !== undefined });
  if (input.serialNumber && !SERIAL.test(input.serialNumber)) {
    check.add('serialNumber', 'invalid_serial_number', 'serialNumber must be 1 to 64 letters, digits, "-" or "_", as printed on the terminal.');
  }
  if (input.modeType != null && !Object.values(DeviceMode).includes(input.modeType)) {
    check.add('modeType', 'invalid_mode_type', 'modeType must be "att" (attendance) or "acc" (access control).');
  }
  if (input.pushCommKey != null && input.pushCommKey !== '' && !PUSH_COMM_KEY.test(input.pushCommKey)) {
    check.add('pushCommKey', 'invalid_push_comm_key', 'pushCommKey must be 1 to 64 printable ASCII characters without spaces, as the terminal sends it.');
  }
  if (input.allowedSourceCidrs != null) {
    if (input.allowedSourceCidrs.length > MAX_CIDRS)
      check.add('allowedSourceCidrs', 'too_many_items', `allowedSourceCidrs may list at most ${MAX_CIDRS} entries.`);
    const bad = invalidCidrs(input.allowedSourceCidrs);
    if (bad.length > 0) {
      check.add(
        'allowedSourceCidrs',
        'invalid_cidr',
        `allowedSourceCidrs must list IPv4/IPv6 addresses or CIDRs such as "203.0.113.0/24" (got "${bad.slice(0, 3).join('", "')}").`,
      );
    }
  }
  if (input.timeZone != null && !isValidTimeZone(input.timeZone)) {
    check.add('timeZone', 'invalid_time_zone', `timeZone must be an IANA time zone name such as "Europe/Berlin" (got "${input.timeZone}").`);
  }
  check.done();
}

/**
 * A sandbox's devices are virtual terminals, whose serials are reserved (`TGSBX…`); a live
 * workspace can never register one of them, so a real terminal never reports into a sandbox and a
 * virtual one never into a live workspace (docs/sandbox.md).
 */
function checkSerialOfWorkspace(workspace: Workspace, serialNumber: string): void {
  if (workspace.sandbox && !isSandboxSerial(serialNumber)) {
    throw DomainError.field(
      'serialNumber',
      'sandbox_serial_required',
      `This is a sandbox: its devices are virtual terminals, whose serial numbers start with ${SANDBOX_SERIAL_PREFIX} (e.g. ${SANDBOX_SERIAL_PREFIX}CLOCK2).`,
    );
  }
  if (!workspace.sandbox && isSandboxSerial(serialNumber)) {
    throw DomainError.field(
      'serialNumber',
      'reserved_serial',
      `Serial numbers starting with ${SANDBOX_SERIAL_PREFIX} are reserved for the virtual terminals of sandbox workspaces.`,
    );
  }
}

/** An allow-list as stored: trimmed entries, bare addresses as written; empty means none. */
function normalisedCidrs(list: string[] | null | undefined): string[] | null {
  if (list == null) return null;
  const entries = list.map((entry) => entry.trim()).filter((entry) => parseCidr(entry) !== null);
  return entries.length === 0 ? null : [...new Set(entries)];
}

export async function getDevice(ctx: RequestContext, id: number): Promise<Device> {
  const device = await ctx.em.findOne(Device, { id, workspaceId: workspaceOf(ctx) });
  if (!device) throw DomainError.notFound('Device', id);
  return device;
}

export async function listDevices(ctx: RequestContext, filter: DeviceFilter, page: PageRequest): Promise<Page<Device>> {
  const where: FilterQuery<Device> = { workspaceId: workspaceOf(ctx) };
  if (filter.companyId != null) where.companyId = filter.companyId;
  const [items, totalCount] = await ctx.em.findAndCount(Device, where, { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit });
  return { items, totalCount, offset: page.offset };
}

async function ensureCompany(ctx: RequestContext, companyId: number): Promise<void> {
  if (!(await ctx.em.findOne(Company, { id: companyId, workspaceId: workspaceOf(ctx) }))) {
    throw DomainError.field('companyId', 'not_found', `Company ${companyId} does not exist in this workspace.`);
  }
}

async function ensureSerialFree(ctx: RequestContext, serialNumber: string, exceptId?: number): Promise<void> {
  // Serials are compared without regard to case: terminals print them in upper case, people type either.
  const other = await ctx.em.findOne(Device, { serialNumber: { $ilike: serialNumber.replace(/[\\%_]/g, (c) => `\\${c}`) } });
  if (other && other.id !== exceptId) throw DomainError.field('serialNumber', 'already_taken', SERIAL_TAKEN);
}

export async function createDevice(ctx: RequestContext, input: DeviceInput): Promise<Device> {
  checkDevice(input, true);
  const workspaceId = workspaceOf(ctx);
  try {
    const created = await ctx.em.transactional(async (em) => {
      const txCtx = withEm(ctx, em);
      const workspace: Workspace = await lockWorkspace(em, workspaceId);
      checkSerialOfWorkspace(workspace, input.serialNumber!);
      await ensureCompany(txCtx, input.companyId!);
      if ((await em.count(Device, { workspaceId })) >= workspace.maxDevices) {
        throw new DomainError('plan_limit_reached', `This workspace's plan allows ${workspace.maxDevices} devices; ask the operator to raise the limit.`);
      }
      await ensureSerialFree(txCtx, input.serialNumber!);
      const areaId = await areaForDevice(em, workspaceId, input.companyId!, input.areaId ?? null);
      if (areaId !== null && (input.modeType ?? DeviceMode.att) === DeviceMode.acc) {
        requireScopeFor(ctx, 'doors:manage', "An access controller created in an area puts the area's people on its doors");
      }
      const device = em.create(Device, {
        areaId,
        workspaceId,
        companyId: input.companyId!,
        name: input.name!,
        serialNumber: input.serialNumber!,
        modeType: input.modeType ?? DeviceMode.att,
        timeZone: input.timeZone ?? workspace.timeZone,
        pushCommKey: input.pushCommKey || null,
        allowedSourceCidrs: normalisedCidrs(input.allowedSourceCidrs),
      } as Device);
      em.persist(device);
      await em.flush();
      await ensureDoors(em, device.id);
      await recomputeDeviceUsers(em, { deviceIds: [device.id] }, ctx.now(), ctx.principal);
      // The serial is claimed: it leaves the unknown-terminal list and the terminal's next request is served.
      await clearUnknownTerminal(txCtx, device.serialNumber);
      return device;
    });
    notifyDeviceChanged(ctx.em, created.serialNumber);
    return created;
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
}

/**
 * Recomputes what the terminal should hold in the same transaction. Moving the device to another
 * company ends its direct assignments and takes it out of its area (unless a new area of the new
 * company is given): both were bound to the old company.
 */
export async function updateDevice(ctx: RequestContext, id: number, input: DeviceInput): Promise<Device> {
  checkDevice(input, false);
  const workspaceId = workspaceOf(ctx);
  let previousSerial = '';
  try {
    const updated = await ctx.em.transactional(async (em) => {
      const txCtx = withEm(ctx, em);
      const workspace = await lockWorkspace(em, workspaceId);
      const device = await getDevice(txCtx, id);
      previousSerial = device.serialNumber;
      if (input.serialNumber != null) checkSerialOfWorkspace(workspace, input.serialNumber);
      const companyId = input.companyId ?? device.companyId;
      const companyChanged = companyId !== device.companyId;
      if (companyChanged) await ensureCompany(txCtx, companyId);
      if (input.serialNumber != null && input.serialNumber !== device.serialNumber) await ensureSerialFree(txCtx, input.serialNumber, id);
      const areaId = input.areaId !== undefined ? await areaForDevice(em, workspaceId, companyId, input.areaId) : companyChanged ? null : device.areaId;
      // Who is on an access controller is door access: its area, its company (which ends its
      // assignments) and turning a terminal into one, or back, need doors:manage.
      const modeType = input.modeType ?? device.modeType;
      if (modeType !== device.modeType && (modeType === DeviceMode.acc || device.modeType === DeviceMode.acc)) {
        requireScopeFor(ctx, 'doors:manage', `Turning device ${id} into an access controller (or back) changes what its people may open`);
      }
      if ((device.modeType === DeviceMode.acc || modeType === DeviceMode.acc) && (areaId !== (device.areaId ?? null) || companyChanged)) {
        requireScopeFor(ctx, 'doors:manage', `Moving access controller ${id} to another area or company changes who is on it`);
      }
      device.areaId = areaId;
      device.companyId = companyId;
      if (input.name != null) device.name = input.name;
      if (input.serialNumber != null) device.serialNumber = input.serialNumber;
      if (input.modeType != null) device.modeType = input.modeType;
      if (input.timeZone != null) device.timeZone = input.timeZone;
      if (input.pushCommKey !== undefined) device.pushCommKey = input.pushCommKey || null;
      if (input.allowedSourceCidrs !== undefined) device.allowedSourceCidrs = normalisedCidrs(input.allowedSourceCidrs);
      await em.flush();
      if (companyChanged) await em.nativeDelete(Assignment, { deviceId: id });
      await ensureDoors(em, id);
      await recomputeDeviceUsers(em, { deviceIds: [id] }, ctx.now(), ctx.principal);
      if (device.serialNumber !== previousSerial) await clearUnknownTerminal(txCtx, device.serialNumber);
      return device;
    });
    notifyDeviceChanged(ctx.em, previousSerial, updated.serialNumber);
    return updated;
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
}

/** Its assignments and desired-state rows go with it: its terminal is no longer ours to command. */
export async function deleteDevice(ctx: RequestContext, id: number): Promise<Device> {
  const snapshot = await ctx.em.transactional(async (em) => {
    const device = await getDevice(withEm(ctx, em), id);
    const before = { ...device };
    await em.remove(device).flush();
    // Punches keep the serial and lose the device (no foreign key does it: see the Punch entity).
    // An upload being stored locked the row, so the delete above waited for it to commit.
    await em.execute('update punch set device_id = null where device_id = ?', [id]);
    return before;
  });
  notifyDeviceChanged(ctx.em, snapshot.serialNumber);
  return Object.assign(new Device(), snapshot);
}

/**
 * Checks a device's new area (create/update): it must be an area of the device's company.
 * Returns the area id to store (`null` clears it).
 */
async function areaForDevice(em: EntityManager, workspaceId: number, companyId: number, areaId: number | null): Promise<number | null> {
  if (areaId === null) return null;
  const area = await em.findOne(Area, { id: areaId, workspaceId });
  if (!area) throw DomainError.field('areaId', 'not_found', `Area ${areaId} does not exist in this workspace.`);
  if (area.companyId !== companyId) {
    throw DomainError.field('areaId', 'cross_company', `Area ${areaId} belongs to company ${area.companyId}, not to company ${companyId} of the device.`);
  }
  return areaId;
}
