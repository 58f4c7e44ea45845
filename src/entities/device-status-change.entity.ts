import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Device, DeviceStatus } from './device.entity';
import { Workspace } from './workspace.entity';

/** One online/offline transition of a terminal, written once by whichever process saw it first. */
@Entity({ tableName: 'device_status_change' })
@Index({ name: 'device_status_change_device_index', properties: ['deviceId', 'at'] })
export class DeviceStatusChange {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  @Enum({ items: () => DeviceStatus })
  status!: DeviceStatus;

  @Property({ type: 'timestamptz' })
  at!: Date;
}
