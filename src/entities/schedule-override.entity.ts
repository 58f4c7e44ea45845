import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Employee } from './employee.entity';
import { Shift } from './shift.entity';
import { Workspace } from './workspace.entity';

/**
 * One date of one employee whose shift is not the usual one (a swap, an extra day, a day off): it
 * wins over every assignment, roster and default shift on that date. `shiftId` null: a day off.
 */
@Entity({ tableName: 'schedule_override' })
@Unique({ name: 'schedule_override_employee_date_unique', properties: ['employeeId', 'date'] })
export class ScheduleOverride {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  employeeId!: number;

  /** `YYYY-MM-DD`, a local date. */
  @Property({ type: 'date' })
  date!: string;

  @ManyToOne(() => Shift, { mapToPk: true, fieldName: 'shift_id', nullable: true, deleteRule: 'cascade' })
  shiftId?: number | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
