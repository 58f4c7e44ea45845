import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Device } from './device.entity';
import { Workspace } from './workspace.entity';

/** The door sensor: `unknown` before the terminal reports it, or when the door has no sensor. */
export enum DoorSensor {
  open = 'open',
  closed = 'closed',
  unknown = 'unknown',
}

/** The lock relay: released = `locked`, energised = `unlocked` (a fail-secure lock opens when its relay pulls in). */
export enum DoorRelay {
  locked = 'locked',
  unlocked = 'unlocked',
  unknown = 'unknown',
}

/**
 * One door of a terminal: an access-control terminal has as many as it reports (`LockCount`), an
 * attendance terminal one (its lock output). Kept by the service (door.service.ts `ensureDoors`);
 * its state comes from the terminal's rtstate and rtlog.
 */
@Entity({ tableName: 'door' })
@Unique({ name: 'door_device_number_unique', properties: ['deviceId', 'number'] })
// The workspace's doors (the door board, the alarms open now), in the order they are listed.
@Index({ name: 'door_workspace_device_number_index', properties: ['workspaceId', 'deviceId', 'number'] })
export class Door {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  /** The door's number on its terminal (1 …), as commands and events address it. */
  @Property({ type: 'smallint' })
  number!: number;

  @Property({ length: 100 })
  name!: string;

  @Enum({ items: () => DoorSensor, default: DoorSensor.unknown })
  sensor: DoorSensor = DoorSensor.unknown;

  @Enum({ items: () => DoorRelay, default: DoorRelay.unknown })
  relay: DoorRelay = DoorRelay.unknown;

  /** Active alarm kinds (`forced_open`, `held_open`, `tamper`, `duress`, `power`, `battery`), sorted. */
  @Property({ type: 'text[]', default: '{}' })
  alarms: string[] = [];

  /**
   * Whether the terminal has this door now: a door past a lower `LockCount` is kept, absent (left
   * out of the compiled access tables), and comes back with its id and levels when the count rises.
   */
  @Property({ default: true })
  present: boolean = true;

  @Property({ type: 'timestamptz', nullable: true })
  absentSince?: Date | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
