// The `data` of each event type, built from the row that changed. Field names are snake_case and
// times ISO 8601 strings: the payload is stored once and sent as is by webhooks; GraphQL renames it.
import type { Punch } from '../entities';

const iso = (value: Date | string | null | undefined) => (value == null ? null : new Date(value).toISOString());

export function punchData(punch: Punch): Record<string, unknown> {
  return {
    id: punch.id,
    company_id: punch.companyId,
    employee_id: punch.employeeId ?? null,
    device_id: punch.deviceId ?? null,
    device_serial: punch.deviceSerial,
    pin: punch.pin,
    punch_time: iso(punch.punchTime),
    local_time: punch.localTime,
    time_zone: punch.timeZone,
    punch_state: punch.punchState,
    verify_type: punch.verifyType ?? null,
    verify_code: punch.verifyCode ?? null,
    record_type: punch.recordType,
    work_code: punch.workCode ?? null,
    device_record_index: punch.deviceRecordIndex ?? null,
    received_at: iso(punch.receivedAt),
    // Where it came from; a phone punch names its geofence, never the position (docs/self-service.md).
    source: punchSource(punch),
    geofence_id: punch.geofenceId ?? null,
    offline_queued: punch.offlineQueued ?? null,
  };
}

/**
 * Where a punch came from: `terminal` (a terminal sent it), `manual` (entered through the API),
 * `correction` (made by an approved punch correction) or `mobile` (an employee's phone).
 */
export function punchSource(punch: Pick<Punch, 'recordType' | 'correctionId'>): 'terminal' | 'manual' | 'correction' | 'mobile' {
  if (punch.recordType === 'mobile') return 'mobile';
  if (punch.recordType === 'device') return 'terminal';
  return punch.correctionId != null ? 'correction' : 'manual';
}

export interface DeviceStatusRow {
  device_id: number;
  company_id: number;
  serial_number: string;
  status: string;
  at: Date | string;
}

export function deviceStatusData(row: DeviceStatusRow): Record<string, unknown> {
  return { device_id: row.device_id, company_id: row.company_id, serial_number: row.serial_number, status: row.status, at: iso(row.at) };
}

/** A door_action row joined with its device (serial, company). */
export interface DoorActionRow {
  action_id: string;
  action: string;
  status: string;
  device_id: number;
  company_id: number;
  serial_number: string;
  device_status: string;
  door: number;
  duration: number;
  return_code: number | null;
  /** Shown detail (stored, or what a queued action waits for). */
  status_detail?: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  completed_at: Date | string | null;
  expires_at: Date | string;
}

export function doorActionData(row: DoorActionRow): Record<string, unknown> {
  return {
    action_id: row.action_id,
    action: row.action,
    status: row.status,
    status_detail: row.status_detail ?? null,
    device_id: row.device_id,
    company_id: row.company_id,
    device_serial: row.serial_number,
    device_status: row.device_status,
    door: row.door,
    duration: row.duration,
    return_code: row.return_code,
    created_at: iso(row.created_at),
    timestamp: iso(row.created_at),
    sent_at: iso(row.sent_at),
    completed_at: iso(row.completed_at),
    expires_at: iso(row.expires_at),
  };
}

/** A door that opened: by a remote unlock now, by a terminal's door event (door_event table) later. */
export interface DoorOpening {
  workspaceId: number;
  deviceId: number;
  companyId: number;
  deviceSerial: string;
  door: number;
  openedAt: Date;
  /** `remote_unlock` (an API door action), or what the terminal reported (`card`, `fingerprint`, `button`, ...). */
  source: string;
  /** The door action that opened it, for `remote_unlock`. */
  actionId?: string | null;
  /** The employee the terminal identified, if any. */
  employeeId?: number | null;
  pin?: string | null;
}

export function doorOpenedData(o: DoorOpening): Record<string, unknown> {
  return {
    device_id: o.deviceId,
    company_id: o.companyId,
    device_serial: o.deviceSerial,
    door: o.door,
    opened_at: iso(o.openedAt),
    source: o.source,
    action_id: o.actionId ?? null,
    employee_id: o.employeeId ?? null,
    pin: o.pin ?? null,
  };
}
