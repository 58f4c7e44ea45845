import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ApiKey } from './api-key.entity';
import { DeviceCommand, DeviceCommandStatus } from './device-command.entity';
import { Device } from './device.entity';
import { Workspace } from './workspace.entity';

/** A remote door opening requested through the API; its status follows its terminal command. */
@Entity({ tableName: 'door_action' })
@Index({ name: 'door_action_workspace_index', properties: ['workspaceId'] })
// The per-terminal bound counts a device's pending actions (src/services/commands/pending-action-bound.ts).
@Index({
  name: 'door_action_pending_index',
  expression: `create index "door_action_pending_index" on "door_action" ("device_id") where "status" in ('queued', 'sent')`,
})
export class DoorAction {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  /** Public id (`da_<random>`): not guessable, not sequential. */
  @Property({ length: 40, unique: true })
  actionId!: string;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  @ManyToOne(() => DeviceCommand, { mapToPk: true, fieldName: 'command_id', deleteRule: 'cascade' })
  @Index()
  commandId!: number;

  @Property({ type: 'integer' })
  door!: number;

  /** `unlock`, `hold_open`, `close` or `cancel_alarm`. */
  @Property({ length: 16, default: 'unlock' })
  action: string = 'unlock';

  @Property({ type: 'integer' })
  duration!: number;

  @Enum({ items: () => DeviceCommandStatus, default: DeviceCommandStatus.queued })
  status: DeviceCommandStatus = DeviceCommandStatus.queued;

  @Property({ type: 'integer', nullable: true })
  returnCode?: number | null;

  /** Why it is where it is once concluded or retried (src/services/commands/action-status-detail.ts); null otherwise. */
  @Property({ length: 32, nullable: true })
  statusDetail?: string | null;

  @ManyToOne(() => ApiKey, { mapToPk: true, fieldName: 'requested_by_key_id', nullable: true, deleteRule: 'set null' })
  requestedByKeyId?: number | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  sentAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}
