import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Device } from './device.entity';
import { Door } from './door.entity';
import { Workspace } from './workspace.entity';

/** First-person-in as the operator set it: inside the schedule, the first valid verification of a member of one of the levels leaves the door open. */
export interface StoredFirstPersonIn {
  scheduleId: number;
  accessLevelIds: number[];
}

/** The multi-person rule: the door opens once `count` members of the levels have verified within the controller's interval. */
export interface StoredMultiPerson {
  count: number;
  accessLevelIds: number[];
}

/** What the controller was last sent for a door's first-person-in: its time zone and the pins of its `firstcard` rows. */
export interface SentFirstCard {
  timezoneId: number;
  pins: string[];
}

/**
 * Rules that decide when one door of an access controller opens (first-person-in, multi-person), as
 * set through the API, with what was written to the controller (`firstcard` rows, the door's
 * `Door{N}FirstCardOpenDoor` and `Door{N}MultiCardOpenDoor` parameters) and the outcome of the parameter's `SET OPTIONS`
 * (services/access/door-opening-rules.service.ts). One row per door, created by the first setting.
 */
@Entity({ tableName: 'door_opening_rules' })
@Unique({ name: 'door_opening_rules_door_unique', properties: ['doorId'] })
export class DoorOpeningRules {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade', index: true })
  deviceId!: number;

  @ManyToOne(() => Door, { mapToPk: true, fieldName: 'door_id', deleteRule: 'cascade' })
  doorId!: number;

  @Property({ type: 'jsonb', nullable: true })
  firstPersonIn?: StoredFirstPersonIn | null;

  /** The `Door{N}FirstCardOpenDoor` value written (0 off, 1 first-card normal open). */
  @Property({ type: 'smallint', default: 0 })
  firstCardValue: number = 0;

  @Property({ type: 'jsonb', nullable: true })
  multiPerson?: StoredMultiPerson | null;

  /** The `Door{N}MultiCardOpenDoor` value written (0 off, 1 on). */
  @Property({ type: 'smallint', default: 0 })
  multiCardValue: number = 0;

  /** The `firstcard` rows the controller holds for this door, as last queued (null: none). */
  @Property({ type: 'jsonb', nullable: true })
  sentFirstCard?: SentFirstCard | null;

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
