// What terminals report about their doors becomes door state and events: rtstate snapshots (sensor,
// relay, alarm flags) and rtlog records (alarms, their cancellation, refusals). A door's `alarms`
// is the set of active alarm kinds, and an event is written only when the set changes, so one
// physical alarm is one `door.alarm` however many records report it (the rtlog event and the
// rtstate flag of a forced door, a terminal re-sending its log), and one `door.alarm.cleared`.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  RTLOG_ALARM_CANCELLED,
  RTLOG_DOOR_CLOSED,
  classifyRtlogEvent,
  rtlogAlarmKind,
  rtlogDenialReason,
  rtstateAlarmKinds,
  type DoorState,
} from '../../protocol';
import { DoorRelay, DoorSensor } from '../../entities/door.entity';
import { recordEvents, type NewEvent } from '../../events/outbox';
import { withEm, type RequestContext } from '../../context/request-context';

export interface DoorDevice {
  id: number;
  workspaceId: number;
  companyId: number;
  serialNumber: string;
}

interface DoorRow {
  id: number;
  number: number;
  sensor: DoorSensor;
  relay: DoorRelay;
  alarms: string[];
}

/** A stored rtlog record, as the door state needs it. */
export interface StoredRtlogEvent {
  door: number | null;
  event_code: number;
  time: Date | string;
  employee_id: number | null;
  pin: string | null;
  card_no: string | null;
  verify_type: string | null;
  /** A refusal's stored reason (null: the code's). */
  reason?: string | null;
}

const iso = (at: Date | string) => new Date(at).toISOString();

/** The device's doors, locked for this transaction (two uploads of one terminal apply in turn). */
async function lockDoors(em: EntityManager, deviceId: number): Promise<DoorRow[]> {
  return em.execute<DoorRow[]>('select id, number, sensor, relay, alarms from door where device_id = ? order by number for update', [deviceId]);
}

function alarmEvent(device: DoorDevice, door: DoorRow, kind: string, at: Date | string, extra: Record<string, unknown>): NewEvent {
  return {
    workspaceId: device.workspaceId,
    type: 'door.alarm',
    data: {
      door_id: door.id,
      device_id: device.id,
      company_id: device.companyId,
      device_serial: device.serialNumber,
      door: door.number,
      kind,
      at: iso(at),
      ...extra,
    },
  };
}

function clearedEvent(device: DoorDevice, door: DoorRow, kind: string, at: Date | string): NewEvent {
  return {
    workspaceId: device.workspaceId,
    type: 'door.alarm.cleared',
    data: { door_id: door.id, device_id: device.id, company_id: device.companyId, device_serial: device.serialNumber, door: door.number, kind, at: iso(at) },
  };
}

/** Sets a door's alarms to `next`, with an event per kind raised or cleared. */
function changeAlarms(device: DoorDevice, door: DoorRow, next: string[], at: Date | string, events: NewEvent[], extra: Record<string, unknown>): void {
  const before = new Set(door.alarms);
  const after = new Set(next);
  for (const kind of [...after].sort()) if (!before.has(kind)) events.push(alarmEvent(device, door, kind, at, extra));
  for (const kind of [...before].sort()) if (!after.has(kind)) events.push(clearedEvent(device, door, kind, at));
  door.alarms = [...after].sort();
}

async function saveDoors(em: EntityManager, doors: DoorRow[], now: Date): Promise<void> {
  if (doors.length === 0) return;
  await em.execute(
    `update door d set sensor = r.sensor, relay = r.relay, alarms = array(select jsonb_array_elements_text(r.alarms)), updated_at = ?
     from jsonb_to_recordset(?::jsonb) as r(id int, sensor text, relay text, alarms jsonb) where d.id = r.id`,
    [now, JSON.stringify(doors.map((d) => ({ id: d.id, sensor: d.sensor, relay: d.relay, alarms: d.alarms })))],
  );
}

const SENSOR: Record<string, DoorSensor> = { open: DoorSensor.open, closed: DoorSensor.closed };

/**
 * What the lock relay says about the lock (docs/access-control.md, "Relay"). The Security PUSH
 * document (section 10.3, rtstate) gives the bit: 0 the relay pulled in, 1 the relay open; the
 * controller pulls the lock relay in to open the door (CONTROL DEVICE 01, section 12.4), so pulled in
 * is unlocked. A model listed in TIMEGATE_RELAY_INVERTED_MODELS reports it the other way round.
 */
function relayReading(invertedModels: readonly string[], model: string | null): (relay: DoorState['relay']) => DoorRelay {
  const inverted = model !== null && invertedModels.includes(model.trim().toLowerCase());
  return (relay) => {
    if (relay === null) return DoorRelay.unknown;
    return (relay === 'energised') !== inverted ? DoorRelay.unlocked : DoorRelay.locked;
  };
}

/**
 * An rtstate snapshot: each door's sensor, relay and alarm flags (a terminal that sends no alarm
 * field keeps the alarms as they were). Doors the terminal does not have are ignored: the sensor
 * field always describes four doors per byte.
 */
export async function applyDoorStates(ctx: RequestContext, device: DoorDevice, states: readonly DoorState[], at: Date): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const doors = await lockDoors(em, device.id);
    const [reported] = await em.execute<{ model: string | null }[]>('select model from device where id = ?', [device.id]);
    const lockOf = relayReading(ctx.config.relayInvertedModels, reported?.model ?? null);
    const events: NewEvent[] = [];
    const changed: DoorRow[] = [];
    for (const door of doors) {
      const state = states.find((s) => s.door === door.number);
      if (!state) continue;
      const before = JSON.stringify(door);
      door.sensor = SENSOR[state.sensor] ?? DoorSensor.unknown;
      door.relay = lockOf(state.relay);
      if (state.alarmByte !== null)
        changeAlarms(device, door, rtstateAlarmKinds(state.alarms), at, events, { source: 'rtstate', event_code: null, employee_id: null, pin: null });
      if (JSON.stringify(door) !== before) changed.push(door);
    }
    await saveDoors(em, changed, ctx.now());
    await recordEvents(withEm(ctx, em), events);
  });
}

/**
 * Newly stored rtlog records (in the ingestion's transaction, `ctx.em`): alarm codes raise their
 * kind on the door, 7 (alarms cancelled) clears the door's (door 0: every door's), 201 (door
 * closed) ends a held-open alarm, and refusals become `access.denied` with their reason.
 */
export async function applyRtlogDoorEvents(ctx: RequestContext, device: DoorDevice, records: readonly StoredRtlogEvent[]): Promise<void> {
  const relevant = records.filter((r) => {
    const cls = classifyRtlogEvent(r.event_code);
    return cls === 'alarm' || cls === 'access-denied' || r.event_code === RTLOG_ALARM_CANCELLED || r.event_code === RTLOG_DOOR_CLOSED;
  });
  if (relevant.length === 0) return;
  const em = ctx.em;
  const doors = await lockDoors(em, device.id);
  const byNumber = new Map(doors.map((d) => [d.number, d]));
  const changed = new Set<DoorRow>();
  const events: NewEvent[] = [];
  for (const r of relevant) {
    const door = r.door === null ? undefined : byNumber.get(r.door);
    const person = { employee_id: r.employee_id, pin: r.pin };
    if (classifyRtlogEvent(r.event_code) === 'access-denied') {
      events.push({
        workspaceId: device.workspaceId,
        type: 'access.denied',
        data: {
          door_id: door?.id ?? null,
          device_id: device.id,
          company_id: device.companyId,
          device_serial: device.serialNumber,
          door: r.door,
          reason: r.reason ?? rtlogDenialReason(r.event_code),
          event_code: r.event_code,
          ...person,
          card_no: r.card_no,
          verify_type: r.verify_type,
          at: iso(r.time),
        },
      });
      continue;
    }
    const targets = r.event_code === RTLOG_ALARM_CANCELLED && (r.door === null || r.door === 0) ? doors : door ? [door] : [];
    for (const target of targets) {
      const kind = rtlogAlarmKind(r.event_code);
      const next =
        r.event_code === RTLOG_ALARM_CANCELLED
          ? []
          : r.event_code === RTLOG_DOOR_CLOSED
            ? target.alarms.filter((k) => k !== 'held_open')
            : kind
              ? [...target.alarms, kind]
              : target.alarms;
      const before = target.alarms.join();
      changeAlarms(device, target, next, r.time, events, { source: 'rtlog', event_code: r.event_code, ...person });
      if (target.alarms.join() !== before) changed.add(target);
    }
  }
  await saveDoors(em, [...changed], ctx.now());
  await recordEvents(ctx, events);
}
