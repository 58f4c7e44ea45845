import { BigIntType, Entity, Enum, Index, ManyToOne, PrimaryKey, PrimaryKeyProp, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Device } from './device.entity';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

export enum PunchRecordType {
  device = 'device',
  manual = 'manual',
  mobile = 'mobile',
}

/**
 * One attendance record. Written only through `recordPunches` and, for terminals,
 * `storeDevicePunches` (both insert-on-conflict on the idempotence keys), and never updated or
 * deleted through the API.
 */
@Entity({ tableName: 'punch' })
// The idempotence key: a terminal re-sending a record after a reconnect must not duplicate it. The
// serial (not device_id) is used because it outlives the device record and is what the wire carries.
@Unique({ name: 'punch_idempotence_key', properties: ['workspaceId', 'deviceSerial', 'pin', 'punchTime'] })
@Index({ name: 'punch_workspace_time_index', properties: ['workspaceId', 'punchTime', 'id'] })
@Index({ name: 'punch_company_time_index', properties: ['companyId', 'punchTime'] })
@Index({ name: 'punch_employee_time_index', properties: ['employeeId', 'punchTime'] })
@Index({ name: 'punch_device_time_index', properties: ['deviceId', 'punchTime'] })
// Access-control records are identified by the terminal's record index (SEC-DOC on rtlog; src/protocol/PROTOCOL.md),
// with their time: a partitioned table's unique keys must hold the partition column, and a re-sent
// record carries the same time.
@Index({
  name: 'punch_record_index_key',
  expression:
    'create unique index "punch_record_index_key" on "punch" ("workspace_id", "device_serial", "device_record_index", "punch_time") where "device_record_index" is not null',
})
// Punches of pins nobody holds yet, found again when an employee gets that pin.
@Index({
  name: 'punch_unattached_pin_index',
  expression: 'create index "punch_unattached_pin_index" on "punch" ("company_id", "pin") where "employee_id" is null',
})
// Phone punches whose position is still kept: the erasure after TIMEGATE_PUNCH_LOCATION_DAYS finds them here.
@Index({
  name: 'punch_located_time_index',
  expression: 'create index "punch_located_time_index" on "punch" ("punch_time") where "latitude" is not null',
})
export class Punch {
  [PrimaryKeyProp]?: ['id', 'punchTime'];

  /**
   * 64-bit in the database (a sequence that outlives 2^31 rows), a JavaScript number here: ids stay
   * below 2^53 for as long as anyone will run this (a million punches a second for 285 years).
   */
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  /**
   * No foreign-key constraint: every concurrent upload of a workspace would lock this one parent row
   * (FOR KEY SHARE, turned into multixacts), which cost ingestion about a tenth of its throughput.
   * The service always copies it from the device or company it checked; workspaces are never deleted.
   */
  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', createForeignKeyConstraint: false })
  workspaceId!: number;

  // Company, employee and device: no foreign-key constraints either. A constraint is checked, and
  // its parent row locked, once per inserted punch; the terminal statement locks each parent once
  // per upload instead, and deleting a parent nulls its punches in the service (storeDevicePunches,
  // lockPunchReferences, deleteEmployee, deleteDevice; docs/decisions.md).

  /** Deleting a company that has punches is refused (attendance history is kept). */
  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', createForeignKeyConstraint: false })
  companyId!: number;

  /** Null for a pin the service does not know yet (attached later) or after the employee is deleted. */
  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', nullable: true, createForeignKeyConstraint: false })
  employeeId?: number | null;

  /** Null after the device record is deleted; `deviceSerial` still says where the punch was made. */
  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', nullable: true, createForeignKeyConstraint: false })
  deviceId?: number | null;

  @Property({ length: 64 })
  deviceSerial!: string;

  /** The pin as the terminal knows it (alphanumeric pins exist). */
  @Property({ length: 64 })
  pin!: string;

  /** The instant, in whole seconds (terminal clocks have no finer resolution). */
  /** Part of the primary key: the table is partitioned by month on it (src/db/partitions.ts). */
  @PrimaryKey({ type: 'timestamptz' })
  punchTime!: Date;

  /** The terminal's wall-clock time, `YYYY-MM-DD HH:MM:SS`, kept as the terminal said it. */
  @Property({ length: 19 })
  localTime!: string;

  /** IANA zone used to turn `localTime` into `punchTime` (the device's zone at the time). */
  @Property({ length: 64 })
  timeZone!: string;

  /** Raw attendance state value (see VerificationState). */
  @Property({ length: 16 })
  punchState!: string;

  /** Name of the verify mode (`fingerprint`, `face`, `card+fingerprint`, ...); `manual` for manual punches. */
  @Property({ length: 64, nullable: true })
  verifyType?: string | null;

  /** Raw verify-mode code as the terminal sent it; null for manual punches. */
  @Property({ type: 'integer', nullable: true })
  verifyCode?: number | null;

  @Enum({ items: () => PunchRecordType })
  recordType!: PunchRecordType;

  @Property({ length: 32, nullable: true })
  workCode?: string | null;

  /** Access-control rtlog record index; unique per (workspace, serial) when present (`punch_record_index_key`). */
  @Property({ type: 'integer', nullable: true })
  deviceRecordIndex?: number | null;

  @Property({ type: 'timestamptz' })
  receivedAt!: Date;

  /** Set when the punch was voided: it stays stored and listed, but no longer counts in attendance. */
  @Property({ type: 'timestamptz', nullable: true })
  voidedAt?: Date | null;

  @Property({ length: 500, nullable: true })
  voidReason?: string | null;

  /** The approved punch correction that created this manual punch (its approver is on the correction); null otherwise. */
  @Property({ type: 'integer', nullable: true })
  correctionId?: number | null;

  // A punch from a phone (`recordType` mobile, docs/self-service.md): where the phone was, how sure
  // it was, and the geofence it was inside. The position is erased after
  // TIMEGATE_PUNCH_LOCATION_DAYS; the geofence stays. Null for every other punch.

  /** WGS 84 degrees; null for terminal and manual punches, and once erased. */
  @Property({ type: 'double', nullable: true })
  latitude?: number | null;

  @Property({ type: 'double', nullable: true })
  longitude?: number | null;

  /** The phone's stated accuracy of the position, in metres (a 68 % radius). */
  @Property({ type: 'integer', nullable: true })
  accuracyM?: number | null;

  /** The geofence the position was inside when the punch was stored. No foreign key: a deleted fence leaves its id. */
  @Property({ type: 'integer', nullable: true })
  geofenceId?: number | null;

  /** True when the phone was offline and sent the punch later with the time it was made. */
  @Property({ type: 'boolean', nullable: true })
  offlineQueued?: boolean | null;
}
