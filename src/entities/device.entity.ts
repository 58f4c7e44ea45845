import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Area } from './area.entity';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

export enum DeviceStatus {
  pending = 'pending',
  online = 'online',
  offline = 'offline',
}

export enum DeviceMode {
  att = 'att',
  acc = 'acc',
}

export interface DoorStateSnapshot {
  door: number;
  sensor: string;
  relay: string | null;
  alarms: string[];
  localTime: string;
}

/** A terminal. Its serial number is its identity on the wire, so it is unique across the service. */
@Entity({ tableName: 'device' })
@Index({ name: 'device_workspace_company_index', properties: ['workspaceId', 'companyId'] })
// Terminals are matched by serial without regard to case.
@Index({ name: 'device_serial_lower_index', expression: 'create index "device_serial_lower_index" on "device" (lower("serial_number"))' })
export class Device {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id' })
  companyId!: number;

  /** The area whose employees the device inherits; a device is in at most one area. */
  @ManyToOne(() => Area, { mapToPk: true, fieldName: 'area_id', nullable: true, deleteRule: 'set null' })
  @Index({ name: 'device_area_index' })
  areaId?: number | null;

  @Property({ length: 100 })
  name!: string;

  @Property({ length: 64 })
  @Unique({ name: 'device_serial_number_unique' })
  serialNumber!: string;

  /** `pending` until the terminal first connects; then `online`/`offline`, set only by the terminal service. */
  @Enum({ items: () => DeviceStatus, default: DeviceStatus.pending })
  status: DeviceStatus = DeviceStatus.pending;

  @Enum({ items: () => DeviceMode, default: DeviceMode.att })
  modeType: DeviceMode = DeviceMode.att;

  /** IANA zone of the terminal's wall clock; punch times on the wire are local to it. */
  @Property({ length: 64 })
  timeZone!: string;

  @Property({ type: 'timestamptz', nullable: true })
  lastSeenAt?: Date | null;

  // Reported by the terminal (read-only through the API).
  @Property({ length: 100, nullable: true })
  firmware?: string | null;

  @Property({ length: 64, nullable: true })
  ip?: string | null;

  @Property({ length: 100, nullable: true })
  model?: string | null;

  /** `att-push` or `acc-push`: the protocol family the terminal was last seen speaking. */
  @Property({ length: 16, nullable: true })
  protocol?: string | null;

  @Property({ type: 'integer', nullable: true })
  userCount?: number | null;

  @Property({ type: 'integer', nullable: true })
  fingerprintCount?: number | null;

  @Property({ type: 'integer', nullable: true })
  faceCount?: number | null;

  @Property({ type: 'integer', nullable: true })
  attlogCount?: number | null;

  /** Fingerprint / face algorithm versions from INFO (templates of another version are rejected). */
  @Property({ length: 32, nullable: true })
  fpAlgorithm?: string | null;

  @Property({ length: 32, nullable: true })
  faceAlgorithm?: string | null;

  /** Source address of the terminal's last request as the server saw it (usually the site's NAT). */
  @Property({ length: 64, nullable: true })
  remoteAddress?: string | null;

  /** Poll interval we advertised at the last handshake (Delay / RequestDelay): the basis of offline detection. */
  @Property({ type: 'integer', nullable: true })
  pollIntervalSeconds?: number | null;

  /** The raw `table=options` / registry key=value pairs last reported (MultiBioVersion, ~ZKFPVersion, ...). */
  @Property({ type: 'jsonb', nullable: true })
  reportedOptions?: Record<string, string> | null;

  /** The terminal's clock minus the real time, in seconds, measured on its real-time records (device-clock.service.ts). */
  @Property({ type: 'integer', nullable: true })
  clockSkewSeconds?: number | null;

  @Property({ type: 'timestamptz', nullable: true })
  clockCheckedAt?: Date | null;

  /** A `device.clock_skew` event was sent for the current excess (re-armed once the skew is back under the limit). */
  @Property({ default: false })
  clockSkewAlerted: boolean = false;

  /**
   * An attendance terminal refused the PUSH 2.x access tables (`AccTimeZone`: -1004 no such table,
   * -1002 not supported): it gets no access settings from then on and says so in its capabilities.
   */
  @Property({ default: false })
  accessTablesRefused: boolean = false;

  /** Security PUSH session: stable once issued, so the token cookie stays valid across reconnects. */
  @Property({ length: 32, nullable: true })
  registryCode?: string | null;

  @Property({ length: 32, nullable: true })
  sessionId?: string | null;

  /**
   * When the terminal first proved its session (a valid token cookie after registration). From then
   * on it is paired: a request without the token is refused, and only `resetTerminalPairing` lets
   * the serial register again (docs/security.md, terminals).
   */
  @Property({ type: 'timestamptz', nullable: true })
  pairedAt?: Date | null;

  /**
   * The `pushcommkey` the terminal sends in its handshake (ATT-DOC "Initialization information
   * exchange"), set by an admin; when set, a handshake without it or with another value is refused.
   * Never shown by the API (only whether one is set).
   */
  @Property({ length: 64, nullable: true })
  pushCommKey?: string | null;

  /** Source addresses (CIDR) the terminal's requests may come from; null: any. */
  @Property({ type: 'text[]', nullable: true })
  allowedSourceCidrs?: string[] | null;

  /** Last rtstate per door (sensor, relay, alarm flags, reported local time). */
  @Property({ type: 'jsonb', nullable: true })
  doorStates?: DoorStateSnapshot[] | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
