import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Device } from './device.entity';
import { Workspace } from './workspace.entity';

/** One authorisation of a person on a terminal: a schedule and the doors it opens. */
export interface AccessGrant {
  scheduleId: number;
  /** Door n is bit n-1 (`AuthorizeDoorId`). */
  doorMask: number;
}

export enum SyncStatus {
  pending = 'pending',
  synced = 'synced',
  failed = 'failed',
}

/**
 * The DESIRED state of one employee on one terminal, kept by `recomputeDeviceUsers` and consumed
 * by the terminal service: a `pending` row is a user record the terminal must write (`present`)
 * or delete (`!present`). Snapshots (pin, name, privilege) are what the terminal should hold, so
 * the terminal service never has to re-derive them.
 */
@Entity({ tableName: 'device_user' })
@Unique({ name: 'device_user_device_employee_unique', properties: ['deviceId', 'employeeId'] })
@Index({ name: 'device_user_device_status_index', properties: ['deviceId', 'syncStatus'] })
export class DeviceUser {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  /** A deleted device takes its rows with it: its terminal is no longer ours to command. */
  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  // Deliberately no foreign key: the row of a deleted employee must outlive the employee until
  // the terminal confirms that the user under `pin` is gone.
  @Property()
  @Index({ name: 'device_user_employee_index' })
  employeeId!: number;

  /** The pin the terminal knows the user by (for `!present`: the pin to delete). */
  @Property({ length: 23 })
  pin!: string;

  /**
   * A pin the terminal may still hold for this employee after a pin change: delete the user under
   * it before writing `pin`. Cleared by the terminal service once the row is synced.
   */
  @Property({ length: 23, nullable: true })
  previousPin?: string | null;

  /** "name lastname", as shown on the terminal. */
  @Property({ length: 201 })
  name!: string;

  /** Effective terminal privilege (0 user, 2 enroller, 6 admin, 14 super admin). */
  @Property()
  privilege!: number;

  /** false: the user must be removed from the terminal (the row stays until that is confirmed). */
  @Property()
  present!: boolean;

  /**
   * Access-control terminals: the person's grants from access levels, one per schedule with the
   * doors (bitmask, door n = bit n-1) it opens; null when the person has no level on this terminal
   * (every door, always: what an assignment alone gives).
   */
  @Property({ type: 'jsonb', nullable: true })
  access?: AccessGrant[] | null;

  /** The validity window the terminal enforces (`user` StartTime/EndTime), from the levels' member dates. */
  @Property({ type: 'date', nullable: true })
  validFrom?: string | null;

  @Property({ type: 'date', nullable: true })
  validUntil?: string | null;

  /** The grants of the last version sent to the terminal: a grant no longer wanted is deleted by its row. */
  @Property({ type: 'jsonb', nullable: true })
  sentAccess?: AccessGrant[] | null;

  @Enum({ items: () => SyncStatus, default: SyncStatus.pending })
  syncStatus: SyncStatus = SyncStatus.pending;

  /** The terminal's return code of the last attempt (`failed` rows). */
  @Property({ type: 'integer', nullable: true })
  returnCode?: number | null;

  /** When the desired content last changed (set with every switch to `pending`). */
  @Property({ type: 'timestamptz' })
  changedAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  syncedAt?: Date | null;
}
