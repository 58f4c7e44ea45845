import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Device } from './device.entity';
import { Workspace } from './workspace.entity';

/**
 * Which process plays a sandbox's virtual terminals (docs/sandbox.md): one row per sandbox, a lease
 * taken and renewed with one statement, so that of several processes on one database exactly one
 * runs each sandbox's terminals.
 */
@Entity({ tableName: 'sandbox_lease' })
export class SandboxLease {
  @ManyToOne(() => Workspace, { primary: true, mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  /** The process holding the lease (a random id of each process), null when none does. */
  @Property({ length: 64, nullable: true })
  holder?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  leaseUntil?: Date | null;
}

/**
 * The settings of a virtual terminal (a device of a sandbox) and what it keeps between processes.
 * A device without a row plays the defaults. Times of day of `dailyPattern` are local to the device.
 */
@Entity({ tableName: 'virtual_terminal' })
export class VirtualTerminal {
  @ManyToOne(() => Device, { primary: true, mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  @Index({ name: 'virtual_terminal_workspace_index' })
  workspaceId!: number;

  /** Whether the schedule plays (a stopped terminal still polls and answers commands). */
  @Property({ default: true })
  enabled: boolean = true;

  /** Punches (badges on a controller) per simulated hour; null when `dailyPattern` is the schedule. */
  @Property({ type: 'integer', nullable: true })
  punchesPerHour?: number | null;

  /** `[{ time: 'HH:MM', punchState }]`, each employee punching at each time of each simulated day. */
  @Property({ type: 'jsonb', nullable: true })
  dailyPattern?: Array<{ time: string; punchState: number }> | null;

  /** Simulated seconds per real second. */
  @Property({ type: 'double', default: 1 })
  speed: number = 1;

  /** When the schedule was last set: the simulated clock starts there, at the real time. */
  @Property({ type: 'timestamptz' })
  scheduleStartedAt!: Date;

  /**
   * What the terminal keeps in its own memory (users, access tables, parameters) and the schedule's
   * progress, saved by the process that plays it so that the next one carries on.
   */
  @Property({ type: 'jsonb', nullable: true })
  snapshot?: Record<string, unknown> | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}

/**
 * Something to happen at a virtual terminal now (a punch, a stranger's badge, a door alarm), asked
 * through the API and carried out by the process that plays the terminal, which takes (deletes) it.
 */
@Entity({ tableName: 'virtual_terminal_trigger' })
@Index({ name: 'virtual_terminal_trigger_device_index', properties: ['deviceId', 'id'] })
export class VirtualTerminalTrigger {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  /** `punch`, `unknown_badge`, `forced_open`, `held_open` or `close_door`. */
  @Property({ length: 16 })
  action!: string;

  /** Whose punch or badge (`punch`); null: the next employee of the schedule's turn. */
  @Property({ length: 23, nullable: true })
  pin?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;
}
