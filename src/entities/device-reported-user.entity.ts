import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Device } from './device.entity';
import { Workspace } from './workspace.entity';

/**
 * A user a terminal says it holds (its OPERLOG `USER` records: enrolled on its keypad, or reported
 * for a `users.reconcile`), as last reported. What Timegate says it should hold is `device_user`.
 */
@Entity({ tableName: 'device_reported_user' })
@Unique({ name: 'device_reported_user_unique', properties: ['deviceId', 'pin'] })
export class DeviceReportedUser {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  @Property({ length: 64 })
  pin!: string;

  @Property({ length: 201, nullable: true })
  name?: string | null;

  @Property({ type: 'integer', nullable: true })
  privilege?: number | null;

  @Property({ type: 'timestamptz' })
  reportedAt!: Date;
}
