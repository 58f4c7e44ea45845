// What the /iclock adapter needs from the database about the terminal it talks to: the device row
// matched by serial, the Security PUSH session (RegistryCode/SessionID), the protocol family and
// what the terminal reports about itself. Called with a `terminal` principal; every write is keyed
// by the device id the serial resolved to.
import { randomBytes } from 'node:crypto';
import { Device } from '../entities';
import { DeviceMode, type DeviceStatus, type DoorStateSnapshot } from '../entities/device.entity';
import type { RequestContext } from './context';

export type TerminalProtocol = 'att-push' | 'acc-push';

/** The slice of a device row the adapter works with (cached per process by serial). */
export interface TerminalDevice {
  id: number;
  workspaceId: number;
  companyId: number;
  serialNumber: string;
  modeType: DeviceMode;
  protocol: TerminalProtocol | null;
  timeZone: string;
  status: DeviceStatus;
  registryCode: string | null;
  sessionId: string | null;
  pollIntervalSeconds: number | null;
  reported: ReportedInfo;
  /**
   * Whether the device had queued commands when the row was read; the adapter keeps it current
   * for this process (see TerminalCache) so that polls with nothing queued cost no query.
   */
  hasPendingCommands: boolean;
}

/** Values the terminal reports on polls (INFO) and where it connects from; written only when they change. */
export interface ReportedInfo {
  firmware: string | null;
  ip: string | null;
  userCount: number | null;
  fingerprintCount: number | null;
  faceCount: number | null;
  attlogCount: number | null;
  fpAlgorithm: string | null;
  faceAlgorithm: string | null;
  remoteAddress: string | null;
}

export const REPORTED_COLUMNS: Record<keyof ReportedInfo, string> = {
  firmware: 'firmware',
  ip: 'ip',
  userCount: 'user_count',
  fingerprintCount: 'fingerprint_count',
  faceCount: 'face_count',
  attlogCount: 'attlog_count',
  fpAlgorithm: 'fp_algorithm',
  faceAlgorithm: 'face_algorithm',
  remoteAddress: 'remote_address',
};

function toTerminalDevice(d: Device, hasPendingCommands: boolean): TerminalDevice {
  return {
    hasPendingCommands,
    id: d.id,
    workspaceId: d.workspaceId,
    companyId: d.companyId,
    serialNumber: d.serialNumber,
    modeType: d.modeType,
    protocol: (d.protocol as TerminalProtocol | null | undefined) ?? null,
    timeZone: d.timeZone,
    status: d.status,
    registryCode: d.registryCode ?? null,
    sessionId: d.sessionId ?? null,
    pollIntervalSeconds: d.pollIntervalSeconds ?? null,
    reported: {
      firmware: d.firmware ?? null,
      ip: d.ip ?? null,
      userCount: d.userCount ?? null,
      fingerprintCount: d.fingerprintCount ?? null,
      faceCount: d.faceCount ?? null,
      attlogCount: d.attlogCount ?? null,
      fpAlgorithm: d.fpAlgorithm ?? null,
      faceAlgorithm: d.faceAlgorithm ?? null,
      remoteAddress: d.remoteAddress ?? null,
    },
  };
}

/** The device registered with this serial (any case), or null when no workspace has claimed it. */
export async function findTerminal(ctx: RequestContext, serialNumber: string): Promise<TerminalDevice | null> {
  // Pending work: queued commands, or desired-state rows the sync engine has yet to turn into commands.
  const rows = await ctx.em.execute<{ id: number; pending: boolean }[]>(
    `select d.id,
            exists (select 1 from device_command c where c.device_id = d.id and c.status = 'queued')
            or exists (select 1 from device_user u where u.device_id = d.id and u.sync_status = 'pending') as pending
     from device d where lower(d.serial_number) = lower(?)`,
    [serialNumber],
  );
  if (rows.length === 0) return null;
  const device = await ctx.em.findOne(Device, { id: rows[0]!.id }, { disableIdentityMap: true });
  return device ? toTerminalDevice(device, rows[0]!.pending) : null;
}

/**
 * Records the family the terminal speaks and the poll interval we advertised. `mode_type` follows
 * the family (an acc-push terminal is an access-control device), because a terminal switched
 * between T&A and A&C mode in its menu changes both (reference §1).
 */
export async function recordProtocol(ctx: RequestContext, deviceId: number, protocol: TerminalProtocol, pollIntervalSeconds: number): Promise<void> {
  const mode = protocol === 'acc-push' ? DeviceMode.acc : DeviceMode.att;
  await ctx.em
    .getConnection()
    .execute('update device set protocol = ?, mode_type = ?, poll_interval_seconds = ?, updated_at = ? where id = ?', [protocol, mode, pollIntervalSeconds, ctx.now(), deviceId]);
}

/**
 * The device's Security PUSH RegistryCode and SessionID, created on first use and then stable (the
 * token cookie depends on both). Atomic, so two processes registering the same terminal agree.
 */
export async function ensureAccessSession(ctx: RequestContext, deviceId: number): Promise<{ registryCode: string; sessionId: string }> {
  const rows = await ctx.em.execute<{ registry_code: string; session_id: string }[]>(
    `update device set registry_code = coalesce(registry_code, ?), session_id = coalesce(session_id, ?) where id = ? returning registry_code, session_id`,
    [randomBytes(8).toString('hex'), randomBytes(16).toString('hex').toUpperCase(), deviceId],
  );
  return { registryCode: rows[0]!.registry_code, sessionId: rows[0]!.session_id };
}

/**
 * Stores what the terminal reported about itself through `table=options` or `/iclock/registry`:
 * every raw pair (merged into `reported_options`, later read to check template algorithm versions)
 * plus model/firmware when given.
 */
export async function recordReportedOptions(
  ctx: RequestContext,
  deviceId: number,
  options: Record<string, string>,
  known: { model?: string | null; firmware?: string | null },
): Promise<void> {
  await ctx.em.execute(
    `update device set reported_options = coalesce(reported_options, '{}'::jsonb) || ?::jsonb,
       model = coalesce(?, model), firmware = coalesce(?, firmware), updated_at = ? where id = ?`,
    [JSON.stringify(options), known.model?.slice(0, 100) ?? null, known.firmware?.slice(0, 100) ?? null, ctx.now(), deviceId],
  );
}

/** Latest rtstate per door (sensor, relay, alarms), replacing the previous snapshot. */
export async function recordDoorStates(ctx: RequestContext, deviceId: number, doors: DoorStateSnapshot[]): Promise<void> {
  await ctx.em.execute('update device set door_states = ?::jsonb where id = ?', [JSON.stringify(doors), deviceId]);
}
