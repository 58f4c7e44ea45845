import { notifyCommandsQueued } from '../commands/command-queue-changes';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AreaEmployee, Assignment, Device, DeviceUser, Employee } from '../../entities';
import { SyncStatus, type AccessGrant } from '../../entities/device-user.entity';
import { levelAccess } from './access-sync.service';
import { intArray } from '../common/sql-arrays';
import { DeviceMode } from '../../entities/device.entity';
import { DomainError } from '../../errors/domain-error';
import { hasScope, isScimPrincipal, type Principal } from '../../context/request-context';

/**
 * On whose behalf a recompute runs: an API caller (its scopes decide whether the change may widen
 * anyone's door access on an access controller), `terminal-report` (a terminal's own report, such
 * as a lock count that brings doors back: the levels already gave them) or `group-mapping` (a
 * directory group's members, mapped to areas and levels by an admin).
 */
export type DoorGrantor = Principal | 'terminal-report' | 'group-mapping';

function mayWidenDoorAccess(grantor: DoorGrantor): boolean {
  if (grantor === 'terminal-report' || grantor === 'group-mapping') return true;
  // A SCIM token provisions the people of its company; what they open comes from the admin's group mapping.
  if (grantor.kind !== 'workspace' || isScimPrincipal(grantor)) return true;
  return hasScope(grantor.scopes, 'doors:manage');
}

/** The access controllers (`mode_type` acc) among these devices. */
export async function accessControllerIds(em: EntityManager, deviceIds: readonly number[]): Promise<Set<number>> {
  if (deviceIds.length === 0) return new Set();
  const rows = await em.execute<{ id: number }[]>('select id from device where id = any(?::int[]) and mode_type = ?', [
    intArray([...new Set(deviceIds)]),
    DeviceMode.acc,
  ]);
  return new Set(rows.map((row) => row.id));
}

/**
 * Whether `want` lets the person through more than `row` did on an access controller: on it at all
 * (a person there without a level opens every door at every hour), a higher terminal privilege (an
 * administrator enrols anyone), grants no level gave before (a schedule, a door), or a wider
 * validity window.
 */
function widens(row: DeviceUser | undefined, want: Desired): boolean {
  if (!row || !row.present) return true;
  if (want.privilege > row.privilege) return true;
  const before = row.access ?? null;
  if (want.access === null) return before !== null;
  if (before === null) return false;
  for (const grant of want.access) {
    const had = before.find((g) => g.scheduleId === grant.scheduleId);
    if (!had || (grant.doorMask & ~had.doorMask) !== 0) return true;
  }
  const from = row.validFrom ?? null;
  const until = row.validUntil ?? null;
  if (from !== null && (want.validFrom === null || want.validFrom < from)) return true;
  if (until !== null && (want.validUntil === null || want.validUntil > until)) return true;
  return false;
}

/** Which pairs to recompute: every pair of these devices and every pair of these employees. */
export interface DeviceUserScope {
  deviceIds?: number[];
  employeeIds?: number[];
}

interface Desired {
  workspaceId: number;
  pin: string;
  name: string;
  privilege: number;
  /** Access levels' grants on this terminal; null: no level reaches it (every door, always). */
  access: AccessGrant[] | null;
  validFrom: string | null;
  validUntil: string | null;
}

const key = (deviceId: number, employeeId: number) => `${deviceId}:${employeeId}`;
const unique = (ids: number[]) => [...new Set(ids)];

/** The name a terminal shows for an employee. */
function terminalName(employee: Pick<Employee, 'name' | 'lastname'>): string {
  return `${employee.name} ${employee.lastname}`.trim();
}

/**
 * Brings `device_user` in line with what the devices should hold, for every pair in `scope`.
 *
 * The effective set is direct assignments plus area-derived ones (an employee of an area is on
 * every device of that area with privilege 0); when both exist the direct permission wins. Only
 * active employees with a pin can be on a terminal. A pair whose desired content changed is set to
 * `pending`; a pair that must leave a terminal keeps its row with `present = false` until the
 * terminal service confirms the delete; unchanged rows are left alone (their status stays).
 *
 * Call it inside the transaction of the change, after flushing it, with the caller holding the
 * workspace lock (so two recomputes of the same pairs never interleave).
 *
 * Door access is checked here, where every change of who is on a terminal ends: when the change
 * puts a person on an access controller, or widens what they may open there, and `grantor` lacks
 * `doors:manage`, it is refused (`insufficient_scope`) before anything is written, so the caller's
 * transaction changes nothing. A `write` key keeps attendance terminals' people (docs/security.md).
 */
export async function recomputeDeviceUsers(em: EntityManager, scope: DeviceUserScope, now: Date, grantor: DoorGrantor): Promise<void> {
  const deviceIds = unique(scope.deviceIds ?? []);
  const employeeIds = unique(scope.employeeIds ?? []);
  if (deviceIds.length === 0 && employeeIds.length === 0) return;
  const inScope = (deviceId: number, employeeId: number) => deviceIds.includes(deviceId) || employeeIds.includes(employeeId);
  const pairFilter = [...(deviceIds.length ? [{ deviceId: { $in: deviceIds } }] : []), ...(employeeIds.length ? [{ employeeId: { $in: employeeIds } }] : [])];

  const direct = await em.find(Assignment, { $or: pairFilter });
  const permissions = new Map(direct.map((a) => [key(a.deviceId, a.employeeId), a.permission]));

  // Area-derived pairs: members of the areas of the scoped devices, devices of the scoped employees' areas.
  const scopedDevices = deviceIds.length ? await em.find(Device, { id: { $in: deviceIds } }) : [];
  const scopedAreaIds = unique(scopedDevices.flatMap((d) => (d.areaId ? [d.areaId] : [])));
  const memberFilter = [
    ...(scopedAreaIds.length ? [{ areaId: { $in: scopedAreaIds } }] : []),
    ...(employeeIds.length ? [{ employeeId: { $in: employeeIds } }] : []),
  ];
  const memberships = memberFilter.length ? await em.find(AreaEmployee, { $or: memberFilter }) : [];
  const areaIds = unique(memberships.map((m) => m.areaId));
  const areaDevices = areaIds.length ? await em.find(Device, { areaId: { $in: areaIds } }) : [];
  const pairs = new Set(direct.map((a) => key(a.deviceId, a.employeeId)));
  for (const membership of memberships) {
    for (const device of areaDevices) {
      if (device.areaId === membership.areaId && inScope(device.id, membership.employeeId)) pairs.add(key(device.id, membership.employeeId));
    }
  }

  // Access levels put their members on the terminals of their doors, with their grants.
  const levels = await levelAccess(em, { deviceIds, employeeIds });
  for (const pair of levels.keys()) {
    const [deviceId, employeeId] = pair.split(':').map(Number) as [number, number];
    if (inScope(deviceId, employeeId)) pairs.add(pair);
  }

  const pairList = [...pairs].map((p) => p.split(':').map(Number) as [number, number]);
  const employees = new Map((pairList.length ? await em.find(Employee, { id: { $in: unique(pairList.map(([, e]) => e)) } }) : []).map((e) => [e.id, e]));
  const desired = new Map<string, Desired>();
  for (const [deviceId, employeeId] of pairList) {
    const employee = employees.get(employeeId);
    if (!employee || !employee.isActive || !employee.pin) continue;
    desired.set(key(deviceId, employeeId), {
      workspaceId: employee.workspaceId,
      pin: employee.pin,
      name: terminalName(employee),
      privilege: permissions.get(key(deviceId, employeeId)) ?? 0,
      access: levels.get(key(deviceId, employeeId))?.grants ?? null,
      validFrom: levels.get(key(deviceId, employeeId))?.validFrom ?? null,
      validUntil: levels.get(key(deviceId, employeeId))?.validUntil ?? null,
    });
  }

  const existing = await em.find(DeviceUser, { $or: pairFilter });
  if (!mayWidenDoorAccess(grantor)) {
    const rows = new Map(existing.map((row) => [key(row.deviceId, row.employeeId), row]));
    const controllers = await accessControllerIds(
      em,
      [...desired.keys()].map((pair) => Number(pair.split(':')[0])),
    );
    for (const [pair, want] of desired) {
      const [deviceId, employeeId] = pair.split(':').map(Number) as [number, number];
      if (controllers.has(deviceId) && widens(rows.get(pair), want)) {
        throw new DomainError(
          'insufficient_scope',
          `This change would let employee ${employeeId} through more doors of access controller ${deviceId} (on it, a higher privilege, or wider grants): that needs the "doors:manage" scope.`,
        );
      }
    }
  }
  const seen = new Set<string>();
  const changedDevices = new Set<number>();
  const markedPending: number[] = [];
  const ruled = await devicesWithPersonRules(em, existing);
  for (const row of existing) {
    const pair = key(row.deviceId, row.employeeId);
    seen.add(pair);
    const want = desired.get(pair);
    if (!want) {
      // Leaves the terminal; the pin snapshot stays: it names the user to delete.
      if (row.present) {
        markPending(row, { present: false }, now);
        markedPending.push(row.id);
        changedDevices.add(row.deviceId);
      }
      continue;
    }
    const sameAccess =
      sameGrants(row.access ?? null, want.access) && (row.validFrom ?? null) === want.validFrom && (row.validUntil ?? null) === want.validUntil;
    // On a controller whose doors have first-person-in or multi-person rules, a person's part in them
    // (a firstcard row, the user's multi-card Group) follows their levels, which their grants may not
    // show (a second level to the same door): their row is written again, and the build that sends it
    // brings those rows in line.
    const sameRow = row.present && row.pin === want.pin && row.name === want.name && row.privilege === want.privilege && sameAccess;
    if (sameRow && !ruled.has(row.deviceId)) continue;
    const previousPin = row.pin !== want.pin ? (row.previousPin ?? row.pin) : row.previousPin;
    const { workspaceId: _workspaceId, ...content } = want;
    // A person coming back to a terminal that deleted them (deactivated, then active again) is
    // re-created there: the terminal lost their templates and photos with the user record, the ones
    // captured on it included, so everything is sent again. A previous pin equal to the pin says so
    // (no delete is sent for it; the sequence's success forgets it like any previous pin).
    const returning = !row.present;
    markPending(row, { ...content, present: true, previousPin: returning ? (previousPin ?? want.pin) : previousPin === want.pin ? null : previousPin }, now);
    markedPending.push(row.id);
    changedDevices.add(row.deviceId);
  }
  for (const [pair, want] of desired) {
    if (seen.has(pair)) continue;
    const [deviceId, employeeId] = pair.split(':').map(Number);
    changedDevices.add(deviceId);
    em.persist(
      em.create(DeviceUser, {
        ...want,
        deviceId,
        employeeId,
        present: true,
        previousPin: null,
        // A new row: the terminal holds no authorisation of this person yet.
        sentAccess: [],
        syncStatus: SyncStatus.pending,
        returnCode: null,
        changedAt: now,
        syncedAt: null,
      } as unknown as DeviceUser),
    );
  }
  await em.flush();
  // The flush writes only the columns that differ from the row as it was read. A row read `pending`
  // whose previous version's commands completed since (another transaction marked it `synced`, for
  // that version) would keep `synced` under this new version, which would then never be built: the
  // terminal would keep the old state (a removed access level, say). So the status is written
  // explicitly, after the flush, which holds these rows' locks until the commit: the completion
  // either came before (and is overwritten here) or comes after and no longer matches the version.
  if (markedPending.length > 0) {
    await em.execute(`update device_user set sync_status = 'pending', return_code = null where id = any(?::int[])`, [intArray(markedPending)]);
  }
  // Wakes this process's heartbeat fast path for those devices; other processes see the pending rows
  // when their device cache entry is reloaded (TIMEGATE_DEVICE_CACHE_TTL_MS).
  notifyCommandsQueued(em, [...changedDevices]);
}

/** The controllers among these rows' devices with a door's first-person-in or multi-person rule. */
async function devicesWithPersonRules(em: EntityManager, rows: readonly DeviceUser[]): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const found = await em.execute<{ device_id: number }[]>(
    'select distinct device_id from door_opening_rules where device_id = any(?::int[]) and (first_person_in is not null or multi_person is not null)',
    [intArray(unique(rows.map((r) => r.deviceId)))],
  );
  return new Set(found.map((r) => r.device_id));
}

/**
 * Whether two grant lists are the same. Not by their JSON text: jsonb keeps an object's keys in its
 * own order (shorter keys first: `doorMask` before `scheduleId`), so a stored list never reads back
 * as the text it was written from, and every recompute rewrote (and made pending again) every row
 * it looked at — rows a controller was syncing at that moment included (docs/errors.md,
 * "Concurrent changes").
 */
function sameGrants(stored: AccessGrant[] | null, wanted: AccessGrant[] | null): boolean {
  if (stored === null || wanted === null) return stored === wanted;
  if (stored.length !== wanted.length) return false;
  const canonical = (grants: AccessGrant[]) =>
    grants
      .map((g) => `${g.scheduleId}:${g.doorMask}`)
      .sort()
      .join(',');
  return canonical(stored) === canonical(wanted);
}

function markPending(row: DeviceUser, change: Partial<DeviceUser>, now: Date): void {
  Object.assign(row, change, { syncStatus: SyncStatus.pending, returnCode: null, changedAt: now });
}

/** The desired-state rows of some pairs, keyed `deviceId:employeeId` (for listing sync status). */
export async function deviceUserRows(em: EntityManager, filter: { deviceId?: number; employeeId?: number }): Promise<Map<string, DeviceUser>> {
  const rows = await em.find(DeviceUser, filter);
  return new Map(rows.map((row) => [key(row.deviceId, row.employeeId), row]));
}

/** What a terminal should hold and what is still to do for it: the terminal service's work list. */
export async function pendingDeviceUsers(em: EntityManager, deviceId: number): Promise<DeviceUser[]> {
  return em.find(DeviceUser, { deviceId, syncStatus: { $ne: SyncStatus.synced } }, { orderBy: { present: 'asc', id: 'asc' } });
}
