import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { AccessLevel } from './access-level.entity';
import { ApiKey } from './api-key.entity';
import { Area } from './area.entity';
import { Company } from './company.entity';
import { DeviceCommand } from './device-command.entity';
import { Device } from './device.entity';
import { Door } from './door.entity';
import { Workspace } from './workspace.entity';

/**
 * A lockdown (doors locked, credentials refused) or an evacuation (doors held open) of a set of
 * doors of one company, from its request to its release (src/services/access/lockdown.service.ts).
 */
@Entity({ tableName: 'lockdown' })
@Index({ name: 'lockdown_workspace_index', properties: ['workspaceId', 'id'] })
export class Lockdown {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  /** `company`, `area` or `doors`: how the doors were chosen. */
  @Property({ length: 16 })
  scope!: string;

  @ManyToOne(() => Area, { mapToPk: true, fieldName: 'area_id', nullable: true, deleteRule: 'set null' })
  areaId?: number | null;

  /** `lockdown` or `evacuate`. */
  @Property({ length: 16 })
  mode!: string;

  @Property({ length: 500 })
  reason!: string;

  /** `active` until released, then `released`. */
  @Property({ length: 16, default: 'active' })
  status: string = 'active';

  @ManyToOne(() => ApiKey, { mapToPk: true, fieldName: 'requested_by_key_id', nullable: true, deleteRule: 'set null' })
  requestedByKeyId?: number | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  releasedAt?: Date | null;

  /** Mode `lockdown`: members of this access level are still let through (a remote opening after their refusal). */
  @ManyToOne(() => AccessLevel, { mapToPk: true, fieldName: 'override_access_level_id', nullable: true, deleteRule: 'set null' })
  overrideAccessLevelId?: number | null;
}

/** One door of a lockdown and where its controller is with it. */
@Entity({ tableName: 'lockdown_door' })
@Unique({ name: 'lockdown_door_unique', properties: ['lockdownId', 'doorId'] })
// A new lockdown looks up its doors' active lockdowns; the remote-unlock guard a device's door.
@Index({ name: 'lockdown_door_door_index', properties: ['doorId'] })
@Index({ name: 'lockdown_door_device_index', properties: ['deviceId', 'doorNumber'] })
export class LockdownDoor {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Lockdown, { mapToPk: true, fieldName: 'lockdown_id', deleteRule: 'cascade' })
  lockdownId!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Door, { mapToPk: true, fieldName: 'door_id', deleteRule: 'cascade' })
  doorId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  /** The door's number on its controller. */
  @Property({ type: 'smallint' })
  doorNumber!: number;

  /** `pending`, `confirmed`, `failed`; after a release `releasing`, `released`, `release_failed`. */
  @Property({ length: 16 })
  state!: string;

  /** Why it failed (or why it waits): `unsupported_by_device`, `device_refused`, `expired`... */
  @Property({ length: 200, nullable: true })
  detail?: string | null;

  @Property({ type: 'integer', nullable: true })
  returnCode?: number | null;

  /** The command of the current step (lock, then release). */
  @ManyToOne(() => DeviceCommand, { mapToPk: true, fieldName: 'command_id', nullable: true, deleteRule: 'set null' })
  @Index()
  commandId?: number | null;

  @Property({ type: 'timestamptz', nullable: true })
  confirmedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  updatedAt!: Date;
}
