import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Device } from './device.entity';
import { Workspace } from './workspace.entity';

/** A door-id anti-passback rule as the operator set it (docs/access-control.md, "Door rules"). */
export interface StoredAntiPassback {
  type: 'in_out' | 'between_doors';
  mode: 'hard';
  dailyReset: false;
  /** in_out: the doors whose in and out readers alternate. */
  doorIds?: number[];
  /** between_doors: the sides a person alternates between. */
  pairs?: Array<{ entryDoorIds: number[]; exitDoorIds: number[] }>;
}

/**
 * The rules an access controller enforces across its doors (anti-passback, interlock), as set
 * through the API, with the parameter values compiled from them and the outcome of the
 * `SET OPTIONS` command that wrote them (services/access/controller-rules.service.ts). One row per
 * controller, created by the first setting.
 */
@Entity({ tableName: 'device_door_rules' })
@Unique({ name: 'device_door_rules_device_unique', properties: ['deviceId'] })
export class DeviceDoorRules {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  @Property({ type: 'jsonb', nullable: true })
  antiPassback?: StoredAntiPassback | null;

  /** Groups of door ids of which only one may be open at a time. */
  @Property({ type: 'jsonb', nullable: true })
  interlock?: { groups: number[][] } | null;

  /** The controller's `AntiPassback` value written (0 off). */
  @Property({ type: 'smallint', default: 0 })
  antiPassbackValue: number = 0;

  /** The controller's `InterLock` value written (0 none). */
  @Property({ type: 'smallint', default: 0 })
  interlockValue: number = 0;

  /** The `device_command` row of the last `SET OPTIONS` queued for these rules. */
  @Property({ type: 'integer', nullable: true })
  commandRowId?: number | null;

  /** `pending` until the controller answers the command, then `applied` or `failed`. */
  @Property({ length: 16, default: 'pending' })
  deliveryStatus: string = 'pending';

  /** The controller's Return for the command, once answered. */
  @Property({ type: 'integer', nullable: true })
  deliveryReturnCode?: number | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
