// What the /iclock adapter needs from the database about the terminal it talks to: the device row
// matched by serial, the Security PUSH session (RegistryCode/SessionID), the protocol family and
// what the terminal reports about itself. Called with a `terminal` principal; every write is keyed
// by the device id the serial resolved to.
import { DOOR_SOURCE_COLUMNS, doorSourceOf, ensureDoors, type DoorSourceRow } from '../access/door.service';
import { newRegistryCode, newSessionId } from '../../protocol';
import { DeviceMode, DeviceStatus, type DoorStateSnapshot } from '../../entities/device.entity';
import type { RequestContext } from '../../context/request-context';
import { executePrepared } from '../../db/prepared-statement';
import { boolArray, intArray, textArray } from '../common/sql-arrays';

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
  /** The terminal proved its session once (paired_at): from then on every request must carry the token. */
  paired: boolean;
  /** The vendor `pushcommkey` its handshake must carry, when an admin set one. */
  pushCommKey: string | null;
  /** Where its requests may come from (CIDRs); null: anywhere. */
  allowedSourceCidrs: string[] | null;
  pollIntervalSeconds: number | null;
  reported: ReportedInfo;
  /**
   * Whether the device had queued commands when the row was read; the adapter keeps it current
   * for this process (see TerminalCache) so that polls with nothing queued cost no query.
   */
  hasPendingCommands: boolean;
  /** Changes whenever a column above changes in the database (see changedTerminals). */
  version: string;
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

/** Columns of a TerminalDevice; `version` changes whenever one of them does (refresh, see below). */
const TERMINAL_COLUMNS = [
  'id',
  'workspace_id',
  'company_id',
  'serial_number',
  'mode_type',
  'protocol',
  'time_zone',
  'status',
  'registry_code',
  'session_id',
  'paired_at',
  'push_comm_key',
  'allowed_source_cidrs',
  'poll_interval_seconds',
  'firmware',
  'ip',
  'user_count',
  'fingerprint_count',
  'face_count',
  'attlog_count',
  'fp_algorithm',
  'face_algorithm',
  'remote_address',
];
// 64 bits of md5 over the cached columns: compared by the cache refresh instead of the whole row.
const VERSION = `left(md5(row(${TERMINAL_COLUMNS.map((c) => `d.${c}`).join(', ')})::text), 16)`;
// Pending work: queued commands, or desired-state rows the sync engine has yet to turn into commands.
const PENDING = `(exists (select 1 from device_command c where c.device_id = d.id and c.status = 'queued')
  or exists (select 1 from device_user u where u.device_id = d.id and u.sync_status = 'pending'))`;
const SELECT_TERMINAL = `select ${TERMINAL_COLUMNS.map((c) => `d.${c}`).join(', ')}, ${VERSION} as version, ${PENDING} as pending from device d`;

interface TerminalRow {
  id: number;
  workspace_id: number;
  company_id: number;
  serial_number: string;
  mode_type: DeviceMode;
  protocol: string | null;
  time_zone: string;
  status: DeviceStatus;
  registry_code: string | null;
  session_id: string | null;
  paired_at: Date | null;
  push_comm_key: string | null;
  allowed_source_cidrs: string[] | null;
  poll_interval_seconds: number | null;
  firmware: string | null;
  ip: string | null;
  user_count: number | null;
  fingerprint_count: number | null;
  face_count: number | null;
  attlog_count: number | null;
  fp_algorithm: string | null;
  face_algorithm: string | null;
  remote_address: string | null;
  version: string;
  pending: boolean;
}

// The few distinct values of these columns are stored as the same string constants, not one copy
// per cached device.
const MODES: Record<string, DeviceMode> = { att: DeviceMode.att, acc: DeviceMode.acc };
const STATUSES: Record<string, DeviceStatus> = { pending: DeviceStatus.pending, online: DeviceStatus.online, offline: DeviceStatus.offline };
const PROTOCOLS: Record<string, TerminalProtocol> = { 'att-push': 'att-push', 'acc-push': 'acc-push' };

function toTerminalDevice(r: TerminalRow): TerminalDevice {
  return {
    hasPendingCommands: r.pending,
    version: r.version,
    id: r.id,
    workspaceId: r.workspace_id,
    companyId: r.company_id,
    serialNumber: r.serial_number,
    modeType: MODES[r.mode_type] ?? r.mode_type,
    protocol: r.protocol === null ? null : (PROTOCOLS[r.protocol] ?? (r.protocol as TerminalProtocol)),
    timeZone: r.time_zone === 'UTC' ? 'UTC' : r.time_zone,
    status: STATUSES[r.status] ?? r.status,
    registryCode: r.registry_code,
    sessionId: r.session_id,
    paired: r.paired_at !== null,
    pushCommKey: r.push_comm_key,
    allowedSourceCidrs: r.allowed_source_cidrs,
    pollIntervalSeconds: r.poll_interval_seconds,
    reported: {
      firmware: r.firmware,
      ip: r.ip,
      userCount: r.user_count,
      fingerprintCount: r.fingerprint_count,
      faceCount: r.face_count,
      attlogCount: r.attlog_count,
      fpAlgorithm: r.fp_algorithm,
      faceAlgorithm: r.face_algorithm,
      remoteAddress: r.remote_address,
    },
  };
}

/** The device registered with this serial (any case), or null when no workspace has claimed it. */
export async function findTerminal(ctx: RequestContext, serialNumber: string): Promise<TerminalDevice | null> {
  const rows = await ctx.em.execute<TerminalRow[]>(`${SELECT_TERMINAL} where lower(d.serial_number) = lower(?)`, [serialNumber]);
  return rows.length === 0 ? null : toTerminalDevice(rows[0]!);
}

/** These devices as the adapter caches them (ids that no longer exist are left out). */
export async function findTerminalsById(ctx: RequestContext, ids: readonly number[]): Promise<TerminalDevice[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.em.execute<TerminalRow[]>(`${SELECT_TERMINAL} where d.id = any(?::int[])`, [intArray(ids)]);
  return rows.map(toTerminalDevice);
}

/**
 * The devices among `known` (what the cache holds: the version of the cached columns and whether
 * the device has pending work) where the database says otherwise: their current version and
 * pending flag, or a null version when the device no longer exists. The cache refresh reloads only
 * the devices whose version changed.
 */
export async function changedTerminals(
  ctx: RequestContext,
  known: ReadonlyArray<{ id: number; version: string | null; pending: boolean }>,
): Promise<Array<{ id: number; version: string | null; pending: boolean }>> {
  if (known.length === 0) return [];
  // Bound array parameters in a prepared statement: the cache sends thousands of devices every
  // few seconds, and gets back only those that differ.
  return executePrepared(
    ctx,
    `select k.id, cur.version, coalesce(cur.pending, false) as pending
     from unnest(?::int[], ?::text[], ?::bool[]) as k(id, version, pending)
     left join lateral (select ${VERSION} as version, ${PENDING} as pending from device d where d.id = k.id) cur on true
     where cur.version is null or cur.version <> k.version or cur.pending <> k.pending`,
    [intArray(known.map((k) => k.id)), textArray(known.map((k) => k.version)), boolArray(known.map((k) => k.pending))],
  );
}

/**
 * Records the family the terminal speaks and the poll interval we advertised. `mode_type` follows
 * the family (an acc-push terminal is an access-control device), because a terminal switched
 * between T&A and A&C mode in its menu changes both (src/protocol/PROTOCOL.md, protocol families).
 */
export async function recordProtocol(ctx: RequestContext, deviceId: number, protocol: TerminalProtocol, pollIntervalSeconds: number): Promise<void> {
  const mode = protocol === 'acc-push' ? DeviceMode.acc : DeviceMode.att;
  const [row] = await ctx.em.execute<DoorSourceRow[]>(
    `update device set protocol = ?, mode_type = ?, poll_interval_seconds = ?, updated_at = ? where id = ?
     returning ${DOOR_SOURCE_COLUMNS}`,
    [protocol, mode, pollIntervalSeconds, ctx.now(), deviceId],
  );
  // The family decides the doors: one lock output, or an access-control terminal's reported count.
  if (row) await ensureDoors(ctx.em, deviceId, doorSourceOf(row));
}

/**
 * Stores a terminal's reported template algorithm versions at once; its other INFO values wait for
 * the next presence batch. Every build without versions of its own (the sweep, another process, a
 * poll served from a cache entry reloaded before that batch) reads them from the row, and a build
 * without them marks users synced without their templates.
 */
export async function recordTemplateAlgorithms(
  ctx: RequestContext,
  deviceId: number,
  reported: { fpAlgorithm?: string | null; faceAlgorithm?: string | null },
): Promise<void> {
  await ctx.em.execute('update device set fp_algorithm = coalesce(?, fp_algorithm), face_algorithm = coalesce(?, face_algorithm) where id = ?', [
    reported.fpAlgorithm ?? null,
    reported.faceAlgorithm ?? null,
    deviceId,
  ]);
}

/**
 * The device's Security PUSH RegistryCode and SessionID, created on first use and then stable (the
 * token cookie depends on both). Atomic, so two processes registering the same terminal agree.
 */
export async function ensureAccessSession(ctx: RequestContext, deviceId: number): Promise<{ registryCode: string; sessionId: string }> {
  const rows = await ctx.em.execute<{ registry_code: string; session_id: string }[]>(
    `update device set registry_code = coalesce(registry_code, ?), session_id = coalesce(session_id, ?) where id = ? returning registry_code, session_id`,
    [newRegistryCode(), newSessionId(), deviceId],
  );
  return { registryCode: rows[0]!.registry_code, sessionId: rows[0]!.session_id };
}

/**
 * A registration of a registered serial that has not proved its session yet (docs/security.md,
 * "Terminals: who may speak for a serial"): new RegistryCode and SessionID, so the earlier ones stop
 * working and only the party that registered last can pair. Null when the device was paired
 * meanwhile (then a registration needs proof).
 */
export async function reissueAccessSession(ctx: RequestContext, deviceId: number): Promise<{ registryCode: string; sessionId: string } | null> {
  const rows = await ctx.em.execute<{ registry_code: string; session_id: string }[]>(
    'update device set registry_code = ?, session_id = ? where id = ? and paired_at is null returning registry_code, session_id',
    [newRegistryCode(), newSessionId(), deviceId],
  );
  return rows[0] ? { registryCode: rows[0].registry_code, sessionId: rows[0].session_id } : null;
}

/**
 * The terminal proved its session (a valid token after registration): it is paired from now on.
 * Idempotent; a pairing reset in between (registry_code cleared) is not undone.
 */
export async function confirmPairing(ctx: RequestContext, deviceId: number, registryCode: string): Promise<void> {
  await ctx.em.execute('update device set paired_at = ? where id = ? and paired_at is null and registry_code = ?', [ctx.now(), deviceId, registryCode]);
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
  const [row] = await ctx.em.execute<DoorSourceRow[]>(
    `update device set reported_options = coalesce(reported_options, '{}'::jsonb) || ?::jsonb,
       model = coalesce(?, model), firmware = coalesce(?, firmware), updated_at = ? where id = ?
     returning ${DOOR_SOURCE_COLUMNS}`,
    [JSON.stringify(options), known.model?.slice(0, 100) ?? null, known.firmware?.slice(0, 100) ?? null, ctx.now(), deviceId],
  );
  if (row && Object.keys(options).some((key) => /^~?lockcount$/i.test(key))) await ensureDoors(ctx.em, deviceId, doorSourceOf(row));
}

/** Latest rtstate per door (sensor, relay, alarms), replacing the previous snapshot. */
export async function recordDoorStates(ctx: RequestContext, deviceId: number, doors: DoorStateSnapshot[]): Promise<void> {
  await ctx.em.execute('update device set door_states = ?::jsonb where id = ?', [JSON.stringify(doors), deviceId]);
}
