import { BigIntType, Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Device } from './device.entity';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/** Coarse kind of an access-control event (`classifyRtlogEvent`), in API spelling. */
export enum DoorEventClass {
  granted = 'granted',
  denied = 'denied',
  door = 'door',
  alarm = 'alarm',
  /** Events of the terminal itself (start-up, tamper, firmware...), not of a door. */
  device = 'device',
  /** Codes Timegate does not know (newer firmware): kept with their raw code, never dropped. */
  unknown = 'unknown',
}

/**
 * One access-control event of a terminal's real-time log (rtlog) concerning a door: verified
 * openings, refusals, remote/exit-button openings, door open/close and door alarms. Written only by
 * the terminal ingestion (insert-on-conflict on the device's record index); read-only in the API.
 */
@Entity({ tableName: 'door_event' })
// A terminal re-sends its log after reconnects: its record index identifies the event (SEC-DOC on rtlog; src/protocol/PROTOCOL.md).
@Unique({ name: 'door_event_record_key', properties: ['workspaceId', 'deviceSerial', 'deviceRecordIndex'] })
@Index({ name: 'door_event_device_time_index', properties: ['deviceId', 'time', 'id'] })
// The workspace-wide door events list (newest first, any device) walks this one.
@Index({ name: 'door_event_workspace_time_index', properties: ['workspaceId', 'time', 'id'] })
@Index({
  name: 'door_event_unattached_pin_index',
  expression: 'create index "door_event_unattached_pin_index" on "door_event" ("company_id", "pin") where "employee_id" is null and "pin" is not null',
})
export class DoorEvent {
  /** 64-bit in the database, a JavaScript number here (exact up to 2^53; GraphQL `SafeInt`). */
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  /** The device's company when the event arrived (pins are resolved in it). */
  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  /** Null after the device record is deleted; `deviceSerial` still says where it happened. */
  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', nullable: true, deleteRule: 'set null' })
  deviceId?: number | null;

  @Property({ length: 64 })
  deviceSerial!: string;

  /** Door / reader address (`eventaddr`). */
  @Property({ type: 'integer', nullable: true })
  door?: number | null;

  /** Raw rtlog event code (SEC-DOC appendix 2). */
  @Property({ type: 'integer' })
  eventCode!: number;

  @Enum({ items: () => DoorEventClass })
  eventClass!: DoorEventClass;

  /** True when the event opened the door (verified opening, remote open, exit button, door opened...). */
  @Property({ type: 'boolean' })
  opened!: boolean;

  /** The person's pin; null for events without one (`pin=0`). */
  @Property({ length: 64, nullable: true })
  pin?: string | null;

  /** Null for an event without a person, a pin unknown in the company (attached later), or after the employee was deleted. */
  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', nullable: true, deleteRule: 'set null' })
  employeeId?: number | null;

  /** The instant (device local time read in the device's zone). */
  @Property({ type: 'timestamptz' })
  time!: Date;

  @Property({ length: 19 })
  localTime!: string;

  @Property({ length: 64 })
  timeZone!: string;

  /** `inoutstatus`: 0 in, 1 out, 2 none. */
  @Property({ type: 'integer', nullable: true })
  inOutStatus?: number | null;

  @Property({ length: 64, nullable: true })
  verifyType?: string | null;

  /** Raw `verifytype` as sent (a code, or a NewVFStyles bit string). */
  @Property({ length: 32, nullable: true })
  verifyCode?: string | null;

  @Property({ length: 64, nullable: true })
  cardNo?: string | null;

  /** The terminal's record index (`index`): the dedupe key with the serial. */
  @Property({ type: 'integer' })
  deviceRecordIndex!: number;

  /**
   * A refusal's reason as decided when it arrived (null for other events, and for refusals stored
   * before reasons were stored: theirs is the code's). It differs from the code's reason when the
   * service knew more: `lockdown` for a generic refusal at a door locked down at that moment.
   */
  @Property({ length: 40, nullable: true })
  reason?: string | null;

  @Property({ type: 'timestamptz' })
  receivedAt!: Date;
}
