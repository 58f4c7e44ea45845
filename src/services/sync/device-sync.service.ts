// The sync engine: turns pending `device_user` rows into terminal commands (one command sequence
// per row VERSION, the row's `changed_at`), and marks rows pending when what a terminal should
// hold changes for another reason (a new template, new algorithm versions).
//
// Commands are built when the terminal polls (the only moment they can be delivered, and the
// moment we know its latest capabilities), and by the periodic sweep for every connected terminal,
// so a queued change never depends on the process that made it. Builders of one device are
// serialised by a transaction-scoped advisory lock (a poll that finds it taken skips building:
// the holder builds); a unique constraint on (device_user_id, version, step) backs that up.
// Commands go through the command queue (commands/command-queue.ts); their outcome comes back to
// `mirrorDeviceUsers`, the outcome handler of `user_sync` and `face_photo` commands (devices/command-engines.ts).
import { LOCK_SPACES } from '../../kernel/lock-keys';
import { notifyCommandsQueued } from '../commands/command-queue-changes';
import type { EntityManager } from '@mikro-orm/postgresql';
import { countCommands, expireSupersededVersions, type CommandLane } from '../commands/command-queue';
import { queueRecords, recordTarget, type QueuedRecord } from '../commands/record-batches';
import { intArray } from '../common/sql-arrays';
import type { RequestContext } from '../../context/request-context';
import { syncCommands, templateFits, terminalOf, type SyncTemplate, type SyncTerminal, type TerminalGrant } from './sync-commands';
import { isFacePhotoCommand, loadPhotoContext, photosDue, recordFaceEnrollments, VISIBLE_FACE_TYPE } from './face-enrollment.service';
import { accTimeZoneIdsFor, releaseUnusedSchedules, timezoneIdsFor } from './access-sync.service';
import type { AccessGrant } from '../../entities/device-user.entity';
import { multiCardGroups, syncFirstCardRows } from './opening-rule-rows';

/**
 * The lane of a step of a person's sequence: a delete (the person leaving, a previous pin, an
 * authorisation taken off) is a revocation and goes ahead of every addition; the rest is bulk.
 * Inside the revocation lane a person's deletes keep their order (authorisations before the user).
 */
export function syncLane(command: string): CommandLane {
  return command.startsWith('DATA DELETE ') ? 'revocation' : 'bulk';
}

/** Advisory-lock namespace of per-device sync builds (second key: the device id). */
const SYNC_LOCK_SPACE = LOCK_SPACES.deviceSync;
/**
 * Rows turned into commands per build, so a poll of a device with thousands of changes stays short;
 * large enough that the records of one change (an access level of a few hundred people) travel in
 * a few multi-record commands (each statement of a build covers all its rows).
 */
const ROWS_PER_BUILD = 500;

export const SYNC_COMMAND_KIND = 'user_sync';
/** The face-photo step of a user's sequence: its outcome is the photo's status, not the user's (a photo without a usable face does not fail the user). */
export const FACE_PHOTO_COMMAND_KIND = 'face_photo';

/** Algorithm versions the terminal just reported on a poll (fresher than the device row). */
export interface ReportedAlgorithms {
  fpAlgorithm: string | null;
  faceAlgorithm: string | null;
}

interface DeviceRow {
  workspace_id: number;
  mode_type: string;
  fp_algorithm: string | null;
  face_algorithm: string | null;
  reported_options: Record<string, string> | null;
  access_tables_refused: boolean;
}

/** The terminal as the sync engine sees it (`reported` overrides the stored algorithm versions). */
export async function syncTerminal(
  em: EntityManager,
  deviceId: number,
  reported?: ReportedAlgorithms,
): Promise<(SyncTerminal & { workspaceId: number }) | null> {
  const [device] = await em.execute<DeviceRow[]>(
    'select workspace_id, mode_type, fp_algorithm, face_algorithm, reported_options, access_tables_refused from device where id = ?',
    [deviceId],
  );
  if (!device) return null;
  const terminal = terminalOf({
    access: device.mode_type === 'acc',
    fpAlgorithm: reported?.fpAlgorithm ?? device.fp_algorithm,
    faceAlgorithm: reported?.faceAlgorithm ?? device.face_algorithm,
    reportedOptions: device.reported_options,
    accessTablesRefused: device.access_tables_refused,
  });
  return { ...terminal, workspaceId: device.workspace_id };
}

/** Takes the device's build lock for the rest of the transaction; `wait: false` gives up at once. */
export async function lockDeviceSync(em: EntityManager, deviceId: number, wait: boolean): Promise<boolean> {
  if (wait) {
    await em.execute('select pg_advisory_xact_lock(?, ?)', [SYNC_LOCK_SPACE, deviceId]);
    return true;
  }
  const [row] = await em.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(?, ?) as locked', [SYNC_LOCK_SPACE, deviceId]);
  return row!.locked;
}

/** A stored template, and the terminal it was captured on (null: enrolled through the API). */
type StoredTemplate = SyncTemplate & { sourceDeviceId: number | null };

/** The stored templates of some employees, as the command builders want them. */
export async function templatesOf(em: EntityManager, employeeIds: number[]): Promise<Map<number, StoredTemplate[]>> {
  const byEmployee = new Map<number, StoredTemplate[]>();
  if (employeeIds.length === 0) return byEmployee;
  const rows = await em.execute<(SyncTemplate & { employee_id: number; sub_index: number; source_device_id: number | null })[]>(
    `select employee_id, type, no, sub_index, version, format, valid, duress, data, source_device_id from employee_template where employee_id in (${employeeIds.map(() => '?').join(', ')})`,
    employeeIds,
  );
  for (const r of rows) {
    const list = byEmployee.get(r.employee_id) ?? [];
    list.push({
      type: r.type,
      no: r.no,
      subIndex: r.sub_index,
      version: r.version,
      format: r.format,
      valid: r.valid,
      duress: r.duress,
      data: r.data,
      sourceDeviceId: r.source_device_id,
    });
    byEmployee.set(r.employee_id, list);
  }
  return byEmployee;
}

/**
 * The templates to send to `deviceId` for a user: never one captured on that same terminal (it has
 * it, and writing it back can overwrite a newer enrolment there), unless the user is re-created
 * under a new pin, which deletes the terminal's copy.
 */
function templatesFor(deviceId: number, row: PendingRow, templates: StoredTemplate[]): SyncTemplate[] {
  return row.previous_pin !== null ? templates : templates.filter((t) => t.sourceDeviceId !== deviceId);
}

interface PendingRow {
  id: number;
  employee_id: number;
  pin: string;
  previous_pin: string | null;
  name: string;
  privilege: number;
  present: boolean;
  access: AccessGrant[] | null;
  sent_access: TerminalGrant[] | null;
  valid_from: string | null;
  valid_until: string | null;
  /** `changed_at` as text: copied into the commands exactly (no rounding through a JS Date). */
  version: string;
}

/**
 * Builds the commands of the device's pending rows that have none for their current version yet
 * (deletes first), and expires still-queued commands of their older versions (superseded). Returns how many
 * rows were built; 0 also when another process holds the device's build lock.
 */
export async function buildSyncCommands(ctx: RequestContext, deviceId: number, reported?: ReportedAlgorithms): Promise<number> {
  let queued = 0;
  let superseded = 0;
  const built = await ctx.em.transactional(async (em) => {
    if (!(await lockDeviceSync(em, deviceId, false))) return 0;
    const rows = await em.execute<PendingRow[]>(
      `select du.id, du.employee_id, du.pin, du.previous_pin, du.name, du.privilege, du.present, du.access, du.sent_access,
         du.valid_from::text as valid_from, du.valid_until::text as valid_until, du.changed_at::text as version
       from device_user du
       where du.device_id = ? and du.sync_status = 'pending'
         and not exists (select 1 from device_command c where c.device_user_id = du.id and c.device_user_version = du.changed_at)
       order by du.present, du.id limit ?`,
      [deviceId, ROWS_PER_BUILD],
    );
    if (rows.length === 0) return 0;
    const terminal = await syncTerminal(em, deviceId, reported);
    const target = await recordTarget(em, deviceId, ctx.config.commandBatchSize);
    if (!terminal || !target) return 0;
    const presentEmployees = rows.filter((r) => r.present).map((r) => r.employee_id);
    const templates = await templatesOf(em, presentEmployees);
    const photos = await loadPhotoContext(em, deviceId, presentEmployees);
    const now = ctx.now();
    // Access control: the terminal's time-zone ids of the schedules these rows use (each new one's
    // timezone row is queued here, before the authorisations that refer to it).
    const device = { id: deviceId, workspaceId: terminal.workspaceId };
    // Attendance terminals: each schedule is 1-3 AccTimeZone ids (one per interval of a day).
    const scheduleIds = rows.filter((r) => r.present).flatMap((r) => (r.access ?? []).map((g) => g.scheduleId));
    const timezones = terminal.access
      ? new Map([...(await timezoneIdsFor(em, device, scheduleIds, now))].map(([schedule, id]) => [schedule, [id]]))
      : terminal.accessTables
        ? await accTimeZoneIdsFor(em, device, scheduleIds, now)
        : new Map<number, number[]>();
    // Access control: the multi-card group of each person (the controller's multi-person doors).
    const groups = terminal.access ? await multiCardGroups(em, deviceId, presentEmployees) : new Map<number, number>();
    const onTerminal = (grants: AccessGrant[] | null): TerminalGrant[] | null =>
      grants === null ? null : grants.flatMap((g) => (timezones.get(g.scheduleId) ?? []).map((timezoneId) => ({ timezoneId, doorMask: g.doorMask })));
    // Older versions' commands still queued are superseded (one statement for the build).
    superseded += await expireSupersededVersions(
      em,
      rows.map((r) => ({ deviceUserId: r.id, version: r.version })),
      now,
    );
    const built = rows.map((row) => {
      const stored = templates.get(row.employee_id) ?? [];
      const due = row.present ? photosDue(terminal, photos, row.employee_id, row.previous_pin !== null, stored) : { facePhoto: null, userPhoto: null };
      const commands = syncCommands(
        terminal,
        {
          pin: row.pin,
          previousPin: row.previous_pin,
          name: row.name,
          privilege: row.privilege,
          present: row.present,
          access: onTerminal(row.access),
          sentAccess: row.sent_access,
          group: groups.get(row.employee_id) ?? 0,
          validFrom: row.valid_from,
          validUntil: row.valid_until,
          ...due,
        },
        templatesFor(deviceId, row, stored),
      );
      const records: QueuedRecord[] = commands.map((command, step) => ({
        command,
        kind: isFacePhotoCommand(command) ? FACE_PHOTO_COMMAND_KIND : SYNC_COMMAND_KIND,
        lane: syncLane(command),
        reference: `device_user:${row.id}`,
        deviceUserId: row.id,
        deviceUserVersion: row.version,
        step,
      }));
      return { row, stored, commands, records };
    });
    // Every row's sequence at once: the records of one table travel together, each row's order kept.
    await queueRecords(
      em,
      target,
      built.map((b) => b.records),
      now,
    );
    queued += built.reduce((n, b) => n + b.records.length, 0);
    const leaving = built.filter((b) => !b.row.present).map((b) => b.row.employee_id);
    if (leaving.length > 0) await em.execute('delete from face_enrollment where device_id = ? and employee_id = any(?::int[])', [deviceId, intArray(leaving)]);
    for (const { row, stored, commands, records } of built) {
      if (!row.present || !photos.photos.has(row.employee_id)) continue;
      const holdsFace = stored.some((t) => t.type === VISIBLE_FACE_TYPE && templateFits(terminal, t));
      await recordFaceEnrollments(
        em,
        device,
        photos,
        { employeeId: row.employee_id, present: row.present, commands, commandIds: records.map((r) => r.id!), holdsFace },
        now,
      );
    }
    if (terminal.access || terminal.accessTables) {
      // What the terminal holds once these commands ran: the next version's deletes start from it.
      const sent = built.map(({ row }) => ({ id: row.id, sent: row.present ? (onTerminal(row.access) ?? null) : [] }));
      await em.execute(`update device_user du set sent_access = s.sent from jsonb_to_recordset(?::jsonb) as s(id int, sent jsonb) where du.id = s.id`, [
        JSON.stringify(sent),
      ]);
    }
    // People who joined or left the levels of a door's first-person-in: the controller's firstcard rows follow.
    if (terminal.access) await syncFirstCardRows(em, device, now);
    if (terminal.access || terminal.accessTables) await releaseUnusedSchedules(em, device, now, terminal.access ? 'access' : 'attendance');
    notifyCommandsQueued(em, [deviceId]);
    return rows.length;
  });
  countCommands(ctx, 'queued', queued);
  countCommands(ctx, 'expired', superseded);
  return built;
}

/** Sweep: builds for every connected device with pending rows that have no commands yet. */
export async function buildAllSyncCommands(ctx: RequestContext): Promise<void> {
  const devices = await ctx.em.execute<{ device_id: number }[]>(
    `select distinct du.device_id from device_user du join device d on d.id = du.device_id
     where du.sync_status = 'pending' and d.protocol is not null
       and not exists (select 1 from device_command c where c.device_user_id = du.id and c.device_user_version = du.changed_at)`,
  );
  for (const { device_id } of devices) await buildSyncCommands(ctx, device_id);
}

/**
 * New or changed templates of these employees: their rows on the OTHER terminals become pending,
 * so the templates follow the user. Whether a terminal can take a template is decided when its
 * commands are built (with the versions it reported last, which may not be stored yet).
 */
export async function markTemplatesChanged(em: EntityManager, employeeIds: number[], sourceDeviceId: number, now: Date): Promise<void> {
  if (employeeIds.length === 0) return;
  const rows = await em.execute<{ device_id: number }[]>(
    `update device_user set sync_status = 'pending', return_code = null, changed_at = ?
     where present and device_id <> ? and employee_id in (${employeeIds.map(() => '?').join(', ')})
     returning device_id`,
    [now, sourceDeviceId, ...employeeIds],
  );
  notifyCommandsQueued(
    em,
    rows.map((r) => r.device_id),
  );
}

/** The terminal reports new algorithm versions (recordTemplateAlgorithms): its users that have templates are sent again. */
export async function markDeviceTemplatesPending(ctx: RequestContext, deviceId: number): Promise<number> {
  const marked = await ctx.em.execute<{ id: number }[]>(
    `update device_user du set sync_status = 'pending', return_code = null, changed_at = ?
     where du.device_id = ? and du.present and exists (select 1 from employee_template t where t.employee_id = du.employee_id)
     returning du.id`,
    [ctx.now(), deviceId],
  );
  return marked.length;
}

/**
 * Concludes the `device_user` rows whose commands these are, but only for the version the commands
 * were built from (a row changed since stays `pending`): any failed step makes the row `failed`
 * with the first failing step's return code; all steps succeeded makes it `synced` (and forgets a
 * previous pin, which the sequence deleted). Anything still queued or sent leaves it alone. A
 * refused face photo does not fail the user: the photo's own status reports it.
 */
export async function mirrorDeviceUsers(ctx: RequestContext, commandIds: number[]): Promise<void> {
  if (commandIds.length === 0) return;
  // Inside the caller's transaction: it must see the command statuses it just wrote.
  await ctx.em.execute(
    `with touched as (
       select distinct device_user_id, device_user_version from device_command
       where id in (${commandIds.map(() => '?').join(', ')}) and device_user_id is not null),
     outcome as (
       select c.device_user_id, c.device_user_version,
              bool_or(c.status = 'failed' and c.kind <> 'face_photo') as failed,
              bool_and(c.status = 'succeeded' or (c.status = 'failed' and c.kind = 'face_photo')) as succeeded,
              (array_agg(c.return_code order by c.step) filter (where c.status = 'failed' and c.kind <> 'face_photo'))[1] as return_code
       from device_command c join touched t using (device_user_id, device_user_version)
       group by c.device_user_id, c.device_user_version)
     update device_user du set
       sync_status = case when o.failed then 'failed' else 'synced' end,
       return_code = case when o.failed then o.return_code else null end,
       synced_at = case when o.failed then du.synced_at else ?::timestamptz end,
       previous_pin = case when o.failed then du.previous_pin else null end
     from outcome o
     where du.id = o.device_user_id and du.changed_at = o.device_user_version and (o.failed or o.succeeded)`,
    [...commandIds, ctx.now()],
  );
}
