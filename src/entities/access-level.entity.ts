import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { AccessSchedule } from './access-schedule.entity';
import { Area } from './area.entity';
import { Company } from './company.entity';
import { Door } from './door.entity';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/** Who may open which doors when: the level's doors, during its schedule, for its members. */
@Entity({ tableName: 'access_level' })
export class AccessLevel {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ length: 100 })
  name!: string;

  /** A schedule in use is not deleted (409 resource_in_use). */
  @ManyToOne(() => AccessSchedule, { mapToPk: true, fieldName: 'schedule_id', deleteRule: 'no action' })
  @Index({ name: 'access_level_schedule_index' })
  scheduleId!: number;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}

/** A door of a level. A door its terminal no longer reports stays in its levels, absent (door.present), and counts again when it is back. */
@Entity({ tableName: 'access_level_door' })
@Unique({ name: 'access_level_door_unique', properties: ['accessLevelId', 'doorId'] })
export class AccessLevelDoor {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => AccessLevel, { mapToPk: true, fieldName: 'access_level_id', deleteRule: 'cascade' })
  accessLevelId!: number;

  @ManyToOne(() => Door, { mapToPk: true, fieldName: 'door_id', deleteRule: 'cascade' })
  @Index({ name: 'access_level_door_door_index' })
  doorId!: number;
}

/** An employee's membership of a level, valid from `startDate` to `endDate` (inclusive; null: open). */
@Entity({ tableName: 'access_level_employee' })
@Unique({ name: 'access_level_employee_unique', properties: ['accessLevelId', 'employeeId'] })
export class AccessLevelEmployee {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => AccessLevel, { mapToPk: true, fieldName: 'access_level_id', deleteRule: 'cascade' })
  accessLevelId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  @Index({ name: 'access_level_employee_employee_index' })
  employeeId!: number;

  @Property({ type: 'date', nullable: true })
  startDate?: string | null;

  @Property({ type: 'date', nullable: true })
  endDate?: string | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;
}

/** An area's membership of a level: its employees are members (without a validity window). */
@Entity({ tableName: 'access_level_area' })
@Unique({ name: 'access_level_area_unique', properties: ['accessLevelId', 'areaId'] })
export class AccessLevelArea {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => AccessLevel, { mapToPk: true, fieldName: 'access_level_id', deleteRule: 'cascade' })
  accessLevelId!: number;

  @ManyToOne(() => Area, { mapToPk: true, fieldName: 'area_id', deleteRule: 'cascade' })
  @Index({ name: 'access_level_area_area_index' })
  areaId!: number;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;
}
