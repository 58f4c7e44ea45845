// Doors: the locks of a terminal, named and addressed by id, with the state the terminal last
// reported and the actions an operator takes on them. Which doors a terminal has follows what it
// reports (ensureDoors); what it reports about them (rtstate, rtlog alarms) is door-state.service.ts.
import { reportedOption } from '../../protocol';
import { raw, type EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import { Device, Door } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import { DOOR_ACTION_KINDS, queueDoorAction, type DoorActionKind, type DoorActionView } from './door-action.service';
import { terminalOf } from '../sync/sync-commands';
import { recomputeDeviceUsers } from '../sync/device-user.service';
import { FieldChecker, limits } from '../common/validation';
import type { Page, PageRequest } from '../common/pagination';
import { doorRuleSupport } from './door-rule-support';

/** How many doors the terminal has: an access-control terminal's reported `LockCount` (1–8), else one lock output. */
export function doorCountOf(device: { modeType: string; reportedOptions?: Record<string, string> | null }): number {
  if (device.modeType !== DeviceMode.acc) return 1;
  return terminalOf({ access: true, reportedOptions: device.reportedOptions ?? {} }).doors;
}

export interface DeviceCapabilities {
  doors: number;
  accessLevels: boolean;
  fingerprint: boolean;
  face: boolean;
  facePhoto: boolean;
  userPhoto: boolean;
  attendanceBackfill: boolean;
  /** Door rules the terminal enforces itself (services/access/door-rule-support.ts). */
  antiPassback: boolean;
  interlock: boolean;
  firstPersonIn: boolean;
  multiPerson: boolean;
  capacity: { users: number | null; fingerprints: number | null; faces: number | null; records: number | null; userPhotos: number | null };
}

/**
 * What the terminal supports, from its family and what it reported (options, registry, INFO): its
 * doors, whether it enforces access levels (the access-control tables, or an attendance terminal's
 * PUSH 2.x access settings until it refused them), biometrics, photos, record queries, and capacities.
 */
export function deviceCapabilities(device: {
  modeType: string;
  reportedOptions?: Record<string, string> | null;
  fpAlgorithm?: string | null;
  accessTablesRefused?: boolean;
}): DeviceCapabilities {
  const options = device.reportedOptions ?? {};
  const terminal = terminalOf({ access: device.modeType === DeviceMode.acc, reportedOptions: options, accessTablesRefused: device.accessTablesRefused });
  const on = (name: string) => reportedOption(options, name) === '1';
  const count = (name: string) => {
    const value = reportedOption(options, name);
    return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : null;
  };
  const doors = doorCountOf(device);
  return {
    doors,
    accessLevels: terminal.access || terminal.accessTables,
    fingerprint:
      on('FingerFunOn') ||
      reportedOption(options, 'FPVersion') !== undefined ||
      reportedOption(options, 'ZKFPVersion') !== undefined ||
      Boolean(device.fpAlgorithm),
    face: on('FaceFunOn'),
    facePhoto: terminal.facePhoto,
    userPhoto: terminal.userPhoto,
    attendanceBackfill: device.modeType !== DeviceMode.acc,
    ...doorRuleSupport(device.modeType, doors),
    capacity: {
      users: count('MaxUserCount'),
      fingerprints: count('MaxFingerCount') ?? count('MaxUserFingerCount'),
      faces: count('MaxFaceCount'),
      records: count('MaxAttLogCount'),
      userPhotos: count('MaxUserPhotoCount'),
    },
  };
}

/** What decides a device's doors; a caller that has just written the row passes it and saves the read. */
export interface DoorSource {
  workspaceId: number;
  modeType: string;
  reportedOptions: Record<string, string> | null;
}

/** The device columns a DoorSource is read from: a write that changes them returns them (`returning …`). */
export const DOOR_SOURCE_COLUMNS = 'workspace_id, mode_type, reported_options';
export type DoorSourceRow = { workspace_id: number; mode_type: string; reported_options: Record<string, string> | null };
export const doorSourceOf = (row: DoorSourceRow): DoorSource => ({
  workspaceId: row.workspace_id,
  modeType: row.mode_type,
  reportedOptions: row.reported_options,
});

/**
 * Brings the device's doors in line with what it has: missing ones are created (`Door N`), doors
 * past its count are marked absent (a terminal that reports fewer locks: kept with their id, name
 * and access levels, left out of the compiled access tables), and absent doors within the count are
 * present again. A door is never deleted here: a `LockCount` is what a request claims, and a lower
 * one must not cost the customer the door's configuration. When presence changes, the people the
 * levels reach on this terminal get their new rights. One statement when the caller passes the
 * device's DoorSource (a terminal's handshake and option upload do) and nothing changes, one read
 * more without it; runs in the caller's transaction.
 */
export async function ensureDoors(em: EntityManager, deviceId: number, known?: DoorSource): Promise<void> {
  const device = known ?? (await readDoorSource(em, deviceId));
  if (!device) return;
  const count = doorCountOf(device);
  // The parts run to completion whatever the outer select reads (PostgreSQL, "Data-Modifying
  // Statements in WITH"); they touch different door rows, so the shared snapshot is harmless.
  const [{ changed }] = await em.execute<{ changed: number }[]>(
    `with added as (
       insert into door (workspace_id, device_id, number, name, created_at, updated_at)
       select ?, ?, n, 'Door ' || n, now(), now() from generate_series(1, ?::int) n
       on conflict (device_id, number) do update set present = true, absent_since = null, updated_at = now()
         where not door.present
       returning id, xmax <> 0 as returned
     ), gone as (
       update door set present = false, absent_since = now(), updated_at = now()
       where device_id = ? and number > ? and present returning id
     )
     select ((select count(*) from added where returned) + (select count(*) from gone))::int as changed`,
    [device.workspaceId, deviceId, count, deviceId, count],
  );
  // Levels' doors went away or came back: the people they reach on this terminal get their new rights.
  if (changed > 0) await recomputeDeviceUsers(em, { deviceIds: [deviceId] }, new Date(), 'terminal-report');
}

async function readDoorSource(em: EntityManager, deviceId: number): Promise<DoorSource | undefined> {
  const [row] = await em.execute<DoorSourceRow[]>(`select ${DOOR_SOURCE_COLUMNS} from device where id = ?`, [deviceId]);
  return row && doorSourceOf(row);
}

export async function getDoor(ctx: RequestContext, id: number): Promise<Door> {
  const door = await ctx.em.findOne(Door, { id, workspaceId: workspaceOf(ctx) }, { disableIdentityMap: true });
  if (!door) throw DomainError.notFound('Door', id);
  return door;
}

/** The doors of a device of the caller's workspace, by number. */
export async function listDeviceDoors(ctx: RequestContext, deviceId: number): Promise<Door[]> {
  const where: FilterQuery<Device> = { id: deviceId, workspaceId: workspaceOf(ctx) };
  if (!(await ctx.em.count(Device, where))) throw DomainError.notFound('Device', deviceId);
  return ctx.em.find(Door, { deviceId }, { orderBy: { number: 'asc' }, disableIdentityMap: true });
}

export interface DoorFilter {
  deviceId?: number;
  /** true: doors with an active alarm; false: doors without one. */
  alarmed?: boolean;
}

/** The workspace's doors, by device then number. */
export async function listDoors(ctx: RequestContext, filter: DoorFilter, page: PageRequest): Promise<Page<Door>> {
  const where: FilterQuery<Door>[] = [{ workspaceId: workspaceOf(ctx) }];
  if (filter.deviceId != null) where.push({ deviceId: filter.deviceId });
  if (filter.alarmed != null) where.push({ [raw('cardinality(alarms)')]: filter.alarmed ? { $gt: 0 } : 0 });
  const [items, totalCount] = await ctx.em.findAndCount(
    Door,
    { $and: where },
    { orderBy: [{ deviceId: 'asc' }, { number: 'asc' }], offset: page.offset, limit: page.limit, disableIdentityMap: true },
  );
  return { items, totalCount, offset: page.offset };
}

export interface DoorInput {
  name?: string | null;
}

/** Renames a door; its number and device are the terminal's. */
export async function updateDoor(ctx: RequestContext, id: number, input: DoorInput): Promise<Door> {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.doorName, required: true });
  check.done();
  const door = await ctx.em.findOne(Door, { id, workspaceId: workspaceOf(ctx) });
  if (!door) throw DomainError.notFound('Door', id);
  door.name = input.name!;
  await ctx.em.flush();
  return door;
}

export interface DoorActionInput {
  action?: string | null;
  /** Seconds, for `unlock` (1–254). */
  duration?: number | null;
  /** Undo an active lockdown of the door (an `admin` key only). */
  override?: boolean | null;
}

/** `POST /public/v2/doors/{id}/actions`: unlock (with a duration), hold open, close or cancel the alarm. */
export async function performDoorAction(ctx: RequestContext, doorId: number, input: DoorActionInput): Promise<DoorActionView> {
  const check = new FieldChecker();
  const action = input.action as DoorActionKind;
  if (input.action == null) check.add('action', 'required', 'action is required.');
  else if (!DOOR_ACTION_KINDS.includes(action)) check.add('action', 'invalid_action', `action must be one of ${DOOR_ACTION_KINDS.join(', ')}.`);
  if (action === 'unlock') {
    if (input.duration == null) check.add('duration', 'required', 'duration is required to unlock.');
    else if (!Number.isInteger(input.duration) || input.duration < 1 || input.duration > 254) {
      check.add('duration', 'out_of_range', 'duration must be an integer from 1 to 254 seconds (the terminal takes one byte; hold_open keeps the door open).');
    }
  } else if (input.duration != null) {
    check.add('duration', 'not_allowed', 'duration applies to unlock only.');
  }
  check.done();
  const door = await getDoor(ctx, doorId);
  if (!door.present) {
    throw DomainError.field(
      'doorId',
      'door_absent',
      `Door ${door.number} is absent: its terminal reports fewer locks (LockCount) and would refuse the command.`,
    );
  }
  const device = await ctx.em.findOneOrFail(Device, { id: door.deviceId });
  return queueDoorAction(ctx, device, door.number, action, action === 'unlock' ? input.duration! : 0, input.override ?? false);
}
