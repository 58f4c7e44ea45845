import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Device } from './device.entity';
import { Workspace } from './workspace.entity';

/** Why a terminal punch was quarantined instead of stored (docs/punches.md, "Quarantine"). */
export enum QuarantineReason {
  /** Dated before 2000-01-01 (in the terminal's zone): no terminal of this service punched then. */
  before_2000 = 'before_2000',
  /** More than a day ahead of the terminal's own clock (as measured on its real-time records). */
  ahead_of_terminal_clock = 'ahead_of_terminal_clock',
  /** More than a day ahead of the server's time, the terminal's clock being unknown. */
  ahead_of_server_time = 'ahead_of_server_time',
}

/**
 * A terminal record (ATTLOG or rtlog punch) whose time cannot be true: it is kept here, shown by the
 * API, and never becomes a punch, a timesheet day or a partition of the punch table. One row per
 * (workspace, serial, pin, raw time): a terminal re-sending it changes nothing.
 */
@Entity({ tableName: 'quarantined_punch' })
@Unique({ name: 'quarantined_punch_record_key', properties: ['workspaceId', 'deviceSerial', 'pin', 'localTime'] })
@Index({ name: 'quarantined_punch_workspace_index', properties: ['workspaceId', 'id'] })
@Index({ name: 'quarantined_punch_device_index', properties: ['deviceId'] })
export class QuarantinedPunch {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  /** Null once the device record is deleted; `deviceSerial` still names the terminal. */
  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', nullable: true, deleteRule: 'set null' })
  deviceId?: number | null;

  @Property({ length: 64 })
  deviceSerial!: string;

  @Property({ length: 64 })
  pin!: string;

  /** The terminal's wall-clock time exactly as it sent it (`YYYY-MM-DD HH:MM:SS`). */
  @Property({ length: 19 })
  localTime!: string;

  /** The device's zone when the record arrived. */
  @Property({ length: 64 })
  timeZone!: string;

  /** `localTime` read in `timeZone`. */
  @Property({ type: 'timestamptz' })
  punchTime!: Date;

  @Enum({ items: () => QuarantineReason })
  reason!: QuarantineReason;

  /** The terminal's clock minus the real time when the record arrived (seconds); null when unknown. */
  @Property({ type: 'integer', nullable: true })
  clockSkewSeconds?: number | null;

  @Property({ length: 16 })
  punchState!: string;

  @Property({ length: 64, nullable: true })
  verifyType?: string | null;

  @Property({ type: 'integer', nullable: true })
  verifyCode?: number | null;

  @Property({ length: 32, nullable: true })
  workCode?: string | null;

  /** Access-control rtlog record index; null for ATTLOG. */
  @Property({ type: 'integer', nullable: true })
  deviceRecordIndex?: number | null;

  /** When the terminal first sent it. */
  @Property({ type: 'timestamptz' })
  receivedAt!: Date;
}
