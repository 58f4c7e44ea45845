import { Check, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Area } from './area.entity';
import { Employee } from './employee.entity';
import { Roster } from './roster.entity';
import { Shift } from './shift.entity';
import { Workspace } from './workspace.entity';

/**
 * A shift (or a roster of shifts) for an employee, or for an area (its employees), from `startDate`
 * to an optional `endDate` (inclusive local dates). An employee's own assignment wins over an area's, which wins
 * over the company's default shift (`effectiveShift` in shift-assignment.service.ts).
 */
@Entity({ tableName: 'shift_assignment' })
@Index({ name: 'shift_assignment_employee_index', properties: ['employeeId', 'startDate'] })
@Index({ name: 'shift_assignment_area_index', properties: ['areaId', 'startDate'] })
@Index({ name: 'shift_assignment_roster_index', properties: ['rosterId'] })
@Check({ name: 'shift_assignment_shift_or_roster', expression: '(shift_id is null) <> (roster_id is null)' })
export class ShiftAssignment {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  /** Exactly one of shiftId and rosterId is set. */
  @ManyToOne(() => Shift, { mapToPk: true, fieldName: 'shift_id', nullable: true, deleteRule: 'cascade' })
  shiftId?: number | null;

  @ManyToOne(() => Roster, { mapToPk: true, fieldName: 'roster_id', nullable: true, deleteRule: 'cascade' })
  rosterId?: number | null;

  /** Exactly one of employeeId and areaId is set. */
  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', nullable: true, deleteRule: 'cascade' })
  employeeId?: number | null;

  @ManyToOne(() => Area, { mapToPk: true, fieldName: 'area_id', nullable: true, deleteRule: 'cascade' })
  areaId?: number | null;

  @Property({ type: 'date' })
  startDate!: string;

  @Property({ type: 'date', nullable: true })
  endDate?: string | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
