import type { EntityManager } from '@mikro-orm/postgresql';
import { markDaysStale } from '../attendance/day-store';
// Punches and door events from terminal uploads (ATTLOG, rtlog). Records are already parsed and
// validated by the protocol layer; here they get their employee (by pin within the device's
// company), their instant (device-local time read in the device's zone) and are stored with
// insert-on-conflict, so a re-sent history never duplicates anything. Called with a `terminal`
// principal: everything is scoped by the device row the serial resolved to.
import {
  createLocalTimeConverter,
  LOCKDOWN_REFUSAL_CODES,
  lockdownReason,
  rtlogDenialReason,
  verifyTypeName,
  type AttlogRecord,
  type RtlogEventClass,
  type RtlogRecord,
} from '../../protocol';
import { DoorEventClass } from '../../entities/door-event.entity';
import { type RequestContext, withEm } from '../../context/request-context';
import { cutToCodePoints } from '../common/validation';
import { countPunches, storeDevicePunches, type DevicePunch } from '../attendance/punch.service';
import { doorOpenedData } from '../../events/event-payloads';
import { applyRtlogDoorEvents } from '../access/door-state.service';
import { runLinkageRules } from '../access/linkage.service';
import { admitLockdownOverrides, lockedDownDoors } from '../access/lockdown.service';
import { recordEvents } from '../../events/outbox';
import type { TerminalDevice } from './terminal.service';
import { quarantinePunches, splitImpossiblePunches } from './punch-quarantine.service';

export interface IngestResult {
  /** New rows. */
  stored: number;
  /** Records already stored before (a re-sent history) or repeated in the same upload. */
  duplicates: number;
  /** Records with an impossible date, kept in the quarantine (or already there, or dropped past its bound): acknowledged all the same. */
  quarantined: number;
}

/** A record this service refuses although the parser accepted it (e.g. an index beyond 32 bits). */
export interface IngestRejection {
  line: number;
  reason: string;
}

const toInstant = createLocalTimeConverter();
const MAX_RECORD_INDEX = 2_147_483_647;

/** rtlog event classes, in API spelling: every rtlog event is stored as a door event. */
const DOOR_EVENT_CLASSES: Record<RtlogEventClass, DoorEventClass> = {
  'access-granted': DoorEventClass.granted,
  'access-denied': DoorEventClass.denied,
  door: DoorEventClass.door,
  alarm: DoorEventClass.alarm,
  // Every event is stored: a code this version does not know may be the one that matters.
  device: DoorEventClass.device,
  unknown: DoorEventClass.unknown,
};

/**
 * Door-class codes that open a door (SEC-DOC appendix 2): 8 remote open, 202 exit button, 205 remote
 * normally-open. Not 200 (the sensor saw the door open): that is the same opening as the verified
 * entry or button before it, or a forced door, which is an alarm (102), not an opening.
 */
const OPENING_DOOR_EVENTS = new Set([8, 202, 205]);
/** Remote openings (8, 205) that a door action of ours caused: its command result announces the opening. */
const REMOTE_OPENINGS = new Set([8, 205]);
/** How far back a door action counts as the cause of a terminal's remote opening. */
const ACTION_ECHO_WINDOW_MS = 5 * 60_000;

export function opensDoor(event: number, eventClass: RtlogEventClass): boolean {
  return (eventClass === 'access-granted' && event !== 232) || OPENING_DOOR_EVENTS.has(event);
}

/** Employee ids of these pins in the company (one query; pins nobody holds are absent). */
async function employeesByPin(ctx: RequestContext, companyId: number, pins: Iterable<string>): Promise<Map<string, number>> {
  const unique = [...new Set(pins)];
  if (unique.length === 0) return new Map();
  const rows = await ctx.em.execute<{ id: number; pin: string }[]>('select id, pin from employee where company_id = ? and pin in (?) and deleted_at is null', [
    companyId,
    unique,
  ]);
  return new Map(rows.map((r) => [r.pin, r.id]));
}

/** ATTLOG: every record is a punch; dedupe on (workspace, serial, pin, punch time). */
export async function ingestAttlog(ctx: RequestContext, device: TerminalDevice, records: readonly AttlogRecord[]): Promise<IngestResult> {
  if (records.length === 0) return { stored: 0, duplicates: 0, quarantined: 0 };
  const all = records.map((r): DevicePunch => ({
    pin: r.pin,
    punchTime: toInstant(r.localTime, device.timeZone),
    localTime: r.localTime,
    // Non-numeric values are kept as sent (the state as its raw text, the mode as its name); a
    // line without a verify mode has none (null), not an invented one.
    punchState: r.status === null ? cutToCodePoints(r.statusRaw, 16) : String(r.status),
    verifyType: r.verify !== null ? verifyTypeName(r.verify) : r.verifyRaw === '' ? null : cutToCodePoints(r.verifyRaw, 64),
    verifyCode: r.verify,
    workCode: r.workCode === '' ? null : cutToCodePoints(r.workCode, 32),
    deviceRecordIndex: null,
  }));
  // One statement per chunk: each chunk's punches and their attendance.created events commit
  // together. A 200,000-line upload is 200 short statements, not one that holds a connection and its
  // locks for seconds while every other workspace waits. A failure after some chunks committed is
  // harmless: the terminal re-sends the batch and the stored punches are duplicates (not counted twice).
  const receivedAt = ctx.now();
  // Impossible dates go to the quarantine: no punch, no day, no partition (docs/punches.md, "Quarantine").
  const { kept: punches, quarantined } = await splitImpossiblePunches(ctx, device, all);
  await quarantinePunches(ctx, device, quarantined, receivedAt);
  let stored = 0;
  for (let start = 0; start < punches.length; start += ATTLOG_CHUNK) {
    const inserted = await storeDevicePunches(ctx, { device, receivedAt }, punches.slice(start, start + ATTLOG_CHUNK));
    countPunches(ctx, 'device', inserted);
    stored += inserted;
  }
  return { stored, duplicates: punches.length - stored, quarantined: quarantined.length };
}

/** Punches written by one statement of an ATTLOG upload. */
export const ATTLOG_CHUNK = 500;

export interface RtlogIngestResult {
  punches: IngestResult;
  doorEvents: IngestResult;
  rejected: IngestRejection[];
}

/**
 * rtlog: every event becomes a door event (granted, denied, door, alarm, device, unknown); granted
 * events of a person (`pin` not 0) also become punches. Both dedupe on (workspace, serial, index).
 * Denied attempts (not registered, expired, ...) are door events only: nobody entered.
 */
export async function ingestRtlog(ctx: RequestContext, device: TerminalDevice, records: readonly RtlogRecord[]): Promise<RtlogIngestResult> {
  const rejected: IngestRejection[] = [];
  const kept: RtlogRecord[] = [];
  for (const r of records) {
    if (r.index < 0 || r.index > MAX_RECORD_INDEX) rejected.push({ line: r.line, reason: `record index ${r.index} is out of range (0..${MAX_RECORD_INDEX})` });
    else kept.push(r);
  }
  const punchRecords = kept.filter((r) => r.eventClass === 'access-granted' && !r.deviceEvent);
  const employees = await employeesByPin(
    ctx,
    device.companyId,
    kept.filter((r) => !r.deviceEvent).map((r) => r.pin),
  );
  const receivedAt = ctx.now();
  const instant = (r: RtlogRecord) => toInstant(r.localTime, device.timeZone);
  const verifyName = (r: RtlogRecord) => (r.verifyType === null ? null : verifyTypeName(r.verifyType));

  // Punches, door events and their events (attendance.created, door.opened) commit together.
  const result = await ctx.em.transactional(async (em): Promise<RtlogIngestResult> => {
    const tx = withEm(ctx, em);
    // Door events first: their unique key (workspace, serial, index) decides which records are new.
    // A punch's partitioned table can only key the index together with the time, and a terminal
    // that re-numbers its clock re-sends an index with another time; only records whose door event
    // is new become punches, so each index is one punch whatever time it comes back with.
    let doorStored = 0;
    const newIndexes = new Set<number>();
    if (kept.length > 0) {
      // A generic refusal arriving while its door is locked down is a `lockdown` refusal: the code
      // cannot say it (docs/access-control-operations.md, "Refusal reasons").
      const generic = kept.some((r) => r.eventClass === 'access-denied' && LOCKDOWN_REFUSAL_CODES.includes(r.event));
      const locked = generic ? await lockedDownDoors(em, device.id) : [];
      const reasonOf = (r: RtlogRecord): string | null => {
        if (r.eventClass !== 'access-denied') return null;
        const at = instant(r).getTime();
        return locked.some((l) => l.door === r.eventAddr && l.since.getTime() <= at) ? lockdownReason(r.event) : rtlogDenialReason(r.event);
      };
      const rows = kept.map((r) => ({
        workspace_id: device.workspaceId,
        company_id: device.companyId,
        device_id: device.id,
        device_serial: device.serialNumber,
        door: r.eventAddr,
        event_code: r.event,
        event_class: DOOR_EVENT_CLASSES[r.eventClass]!,
        opened: opensDoor(r.event, r.eventClass),
        pin: r.deviceEvent ? null : cutToCodePoints(r.pin, 64),
        employee_id: r.deviceEvent ? null : (employees.get(r.pin) ?? null),
        time: instant(r),
        local_time: r.localTime,
        time_zone: device.timeZone,
        in_out_status: r.inOutStatus,
        verify_type: verifyName(r),
        verify_code: r.verifyTypeRaw === null ? null : cutToCodePoints(r.verifyTypeRaw, 32),
        card_no: r.cardNo === null || r.cardNo === '' || r.cardNo === '0' ? null : cutToCodePoints(r.cardNo, 64),
        device_record_index: r.index,
        received_at: receivedAt,
        reason: reasonOf(r),
      }));
      // Index order: overlapping concurrent uploads take their index locks in the same order.
      rows.sort((a, b) => a.device_record_index - b.device_record_index);
      const query = em
        .getKnex()('door_event')
        .insert(rows)
        .onConflict(['workspace_id', 'device_serial', 'device_record_index'])
        .ignore()
        .returning(['id', 'opened', 'door', 'time', 'employee_id', 'pin', 'card_no', 'event_code', 'verify_type', 'device_record_index', 'reason']);
      const stored = await em.execute<
        {
          id: number;
          opened: boolean;
          door: number;
          time: Date;
          employee_id: number | null;
          pin: string | null;
          card_no: string | null;
          event_code: number;
          verify_type: string | null;
          device_record_index: number;
          reason: string | null;
        }[]
      >(query);
      doorStored = stored.length;
      for (const row of stored) newIndexes.add(row.device_record_index);
      stored.sort((a, b) => a.id - b.id);
      const echoed = await remoteOpeningsOfActions(em, device.id, stored);
      await recordEvents(
        tx,
        stored
          .filter((row) => row.opened && !echoed.has(row.id))
          .map((row) => ({
            workspaceId: device.workspaceId,
            type: 'door.opened' as const,
            data: doorOpenedData({
              workspaceId: device.workspaceId,
              deviceId: device.id,
              companyId: device.companyId,
              deviceSerial: device.serialNumber,
              door: row.door,
              openedAt: new Date(row.time),
              source: openingSource(row.event_code, row.verify_type),
              employeeId: row.employee_id,
              pin: row.pin,
            }),
          })),
      );
      await applyRtlogDoorEvents(tx, device, stored);
      await admitLockdownOverrides(tx, device, stored);
      await runLinkageRules(tx, device, stored);
    }

    // newIndexes.delete: a body repeating an index stores its first record, as its door event does.
    const newPunches = punchRecords
      .filter((r) => newIndexes.delete(r.index))
      .map((r): DevicePunch => ({
        pin: r.pin,
        punchTime: instant(r),
        localTime: r.localTime,
        // inoutstatus (0 in, 1 out) matches the default check-in/check-out states; 2 = none.
        punchState: String(r.inOutStatus ?? 0),
        verifyType: verifyName(r),
        verifyCode: r.verifyType,
        workCode: null,
        deviceRecordIndex: r.index,
      }));
    // The door event of an impossible date is kept (the access log says what the terminal said); its punch is quarantined.
    const split = await splitImpossiblePunches(tx, device, newPunches);
    await quarantinePunches(tx, device, split.quarantined, receivedAt);
    const punchesStored = await storeDevicePunches(tx, { device, receivedAt }, split.kept);

    return {
      punches: { stored: punchesStored, duplicates: punchRecords.length - punchesStored - split.quarantined.length, quarantined: split.quarantined.length },
      doorEvents: { stored: doorStored, duplicates: kept.length - doorStored, quarantined: 0 },
      rejected,
    };
  });
  countPunches(ctx, 'device', result.punches.stored);
  return result;
}

/**
 * The stored records that echo one of our door actions (a remote opening of a door that an unlock or
 * hold-open was sent to shortly before): one physical opening is one `door.opened`, and the action's
 * success already announces it, with the action id.
 */
async function remoteOpeningsOfActions(
  em: EntityManager,
  deviceId: number,
  rows: readonly { id: number; door: number; time: Date; event_code: number }[],
): Promise<Set<number>> {
  const remote = rows.filter((r) => REMOTE_OPENINGS.has(r.event_code));
  if (remote.length === 0) return new Set();
  const actions = await em.execute<{ door: number; sent_at: Date }[]>(
    `select door, coalesce(sent_at, created_at) as sent_at from door_action
     where device_id = ? and action in ('unlock', 'hold_open') and status in ('sent', 'succeeded') and created_at > ?`,
    [deviceId, new Date(Math.min(...remote.map((r) => new Date(r.time).getTime())) - ACTION_ECHO_WINDOW_MS)],
  );
  const echoed = new Set<number>();
  for (const r of remote) {
    const at = new Date(r.time).getTime();
    if (actions.some((a) => a.door === r.door && Math.abs(new Date(a.sent_at).getTime() - at) <= ACTION_ECHO_WINDOW_MS)) echoed.add(r.id);
  }
  return echoed;
}

/** What opened the door, as reported by the terminal: a remote command, the exit button, or the verification used. */
function openingSource(eventCode: number, verifyType: string | null): string {
  if (eventCode === 8 || eventCode === 205) return 'remote';
  if (eventCode === 202) return 'exit_button';
  return verifyType ?? 'door';
}

/**
 * An employee now holds `pin` in `companyId` (created, pin changed, moved company): the punches and
 * door events of that pin in that company that belong to nobody are attached to them. A record's
 * company is the company of the device that sent it, when it arrived.
 */
export async function attachRecordsOfPin(ctx: RequestContext, employee: { id: number; companyId: number; pin?: string | null }): Promise<void> {
  if (employee.pin == null) return;
  // Records made while a deleted employee held the pin are not the new holder's: only those after
  // the last such deletion are attached (a reused pin never inherits another person's history).
  const since = `coalesce((select max(deleted_at) from employee where company_id = ? and pin = ? and deleted_at is not null), '-infinity')`;
  const params = [employee.id, employee.companyId, employee.pin, employee.companyId, employee.pin];
  // em.execute: part of the caller's transaction.
  await ctx.em.execute(`update punch set employee_id = ? where company_id = ? and pin = ? and employee_id is null and punch_time > ${since}`, params);
  await ctx.em.execute(`update door_event set employee_id = ? where company_id = ? and pin = ? and employee_id is null and time > ${since}`, params);
  // Days computed before these punches were attached are computed again.
  await markDaysStale(ctx.em, { employeeIds: [employee.id] }, null, null);
}
