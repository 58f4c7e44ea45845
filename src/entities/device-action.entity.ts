import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ApiKey } from './api-key.entity';
import { DeviceCommandStatus } from './device-command.entity';
import { Device } from './device.entity';
import { Workspace } from './workspace.entity';

/**
 * An operation on a terminal (device-action.service.ts): one or more terminal commands
 * (`device_command.reference` = `device_action:<actionId>`) whose statuses make the action's
 * (`queued` → `sent` → `succeeded` | `failed` | `expired`), and a result when it succeeded.
 */
@Entity({ tableName: 'device_action' })
@Index({ name: 'device_action_device_index', properties: ['deviceId', 'id'] })
// The per-terminal bound counts a device's pending actions; clock.sync checks find the ones waiting.
@Index({
  name: 'device_action_pending_index',
  expression: `create index "device_action_pending_index" on "device_action" ("device_id", "type") where "status" in ('queued', 'sent')`,
})
export class DeviceAction {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  /** Public id (`dact_<random>`). */
  @Property({ length: 40, unique: true })
  actionId!: string;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  @Property({ length: 40 })
  type!: string;

  @Property({ type: 'jsonb' })
  options!: Record<string, unknown>;

  @Enum({ items: () => DeviceCommandStatus, default: DeviceCommandStatus.queued })
  status: DeviceCommandStatus = DeviceCommandStatus.queued;

  /** What the terminal answered, once it succeeded (per type); the failing return code otherwise. */
  @Property({ type: 'jsonb', nullable: true })
  result?: Record<string, unknown> | null;

  /** Why it is where it is once concluded, retried or verifying (src/services/commands/action-status-detail.ts); null otherwise. */
  @Property({ length: 32, nullable: true })
  statusDetail?: string | null;

  @ManyToOne(() => ApiKey, { mapToPk: true, fieldName: 'requested_by_key_id', nullable: true, deleteRule: 'set null' })
  requestedByKeyId?: number | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}
