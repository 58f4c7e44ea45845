import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { AccessSchedule } from './access-schedule.entity';
import { Device } from './device.entity';
import { Workspace } from './workspace.entity';

/**
 * A schedule an access-control terminal holds, under the time-zone id allocated to it on that
 * terminal (access-sync.service.ts): the id its `userauthorize` rows refer to.
 */
@Entity({ tableName: 'device_access_schedule' })
@Unique({ name: 'device_access_schedule_schedule_unique', properties: ['deviceId', 'scheduleId'] })
@Unique({ name: 'device_access_schedule_timezone_unique', properties: ['deviceId', 'timezoneId'] })
export class DeviceAccessSchedule {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  @ManyToOne(() => AccessSchedule, { mapToPk: true, fieldName: 'schedule_id', deleteRule: 'cascade' })
  scheduleId!: number;

  @Property({ type: 'smallint' })
  timezoneId!: number;
}
