import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Device } from './device.entity';
import { DeviceUser } from './device-user.entity';
import { Workspace } from './workspace.entity';

export enum DeviceCommandStatus {
  queued = 'queued',
  sent = 'sent',
  succeeded = 'succeeded',
  failed = 'failed',
  /** Never delivered: past `expiresAt`, or (sync commands) the row changed again before it went out. */
  expired = 'expired',
}

/**
 * A `device_command` row's status: a command's, or `batched` for a record carried by the
 * multi-record command `batchId` (never delivered itself; it concludes with that command, and is
 * queued on its own when that command is refused).
 */
export const DeviceCommandRowStatus = { ...DeviceCommandStatus, batched: 'batched' } as const;
export type DeviceCommandRowStatus = (typeof DeviceCommandRowStatus)[keyof typeof DeviceCommandRowStatus];

/**
 * A command waiting for, or delivered to, a terminal (`C:<commandId>:<command>` on a poll). The
 * terminal echoes `commandId` in its result, so results are matched by (device, commandId).
 */
@Entity({ tableName: 'device_command' })
@Unique({ name: 'device_command_device_command_id_unique', properties: ['deviceId', 'commandId'] })
// Serves the delivery query: a device's queued commands by lane priority, then in queue order.
@Index({ name: 'device_command_delivery_index', properties: ['deviceId', 'status', 'priority', 'id'] })
// One command per step of one version of a desired-state row: two processes building the same
// change cannot both queue it.
@Unique({ name: 'device_command_sync_step_unique', properties: ['deviceUserId', 'deviceUserVersion', 'step'] })
export class DeviceCommand {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  /** Letters and digits, at most 16 (ATT-DOC §12); never reused on a device. */
  @Property({ length: 16 })
  commandId!: string;

  @Property({ type: 'text' })
  command!: string;

  /** What the command does (`door_unlock`, later `user_sync`, ...), for logs and the sync engine. */
  @Property({ length: 32 })
  kind!: string;

  /**
   * Its lane at delivery (src/services/commands/command-queue.ts): 0 door actions, 1 other interactive
   * commands, 2 revocations, 3 bulk. Lower goes first; within one, queue order.
   */
  @Property({ type: 'smallint', default: 3 })
  priority: number = 3;

  @Enum({ items: () => DeviceCommandRowStatus, default: DeviceCommandRowStatus.queued })
  status: DeviceCommandRowStatus = DeviceCommandRowStatus.queued;

  @Property({ type: 'integer', nullable: true })
  returnCode?: number | null;

  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  /** What the command is for, e.g. `door_action:da_...` or `assignment:12`; free-form. */
  @Property({ length: 64, nullable: true })
  reference?: string | null;

  /** Sync commands: the `device_user` row this command brings to the terminal ... */
  @ManyToOne(() => DeviceUser, { mapToPk: true, fieldName: 'device_user_id', nullable: true, deleteRule: 'cascade' })
  deviceUserId?: number | null;

  /** ... the row's `changed_at` it was built from (its version) ... */
  @Property({ type: 'timestamptz', nullable: true })
  deviceUserVersion?: Date | null;

  /** ... and its position in that row's command sequence (0 first). */
  @Property({ type: 'smallint', nullable: true })
  step?: number | null;

  /**
   * A record packed into a multi-record command: that command (the records keep their own text,
   * step and row, and are retried one by one when the command is refused). Null: sent as itself.
   */
  @ManyToOne(() => DeviceCommand, { mapToPk: true, fieldName: 'batch_id', nullable: true, deleteRule: 'set null', index: 'device_command_batch_index' })
  batchId?: number | null;

  /** The result's extra fields as the terminal sent them (`AttlogSum`, INFO lines...), when it sent any. */
  @Property({ type: 'jsonb', nullable: true })
  resultFields?: Record<string, string> | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  sentAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  /** Its deadline: not delivered by then, never sent (`expired`). Null: kept until delivered. */
  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;
}
