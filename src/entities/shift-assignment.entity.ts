import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Area } from './area.entity';
import { Employee } from './employee.entity';
import { Shift } from './shift.entity';
import { Workspace } from './workspace.entity';

/**
 * A shift for an employee, or for an area (its employees), from `startDate` to an optional
 * `endDate` (inclusive local dates). An employee's own assignment wins over an area's, which wins
 * over the company's default shift (`effectiveShift` in shift-assignment.service.ts).
 */
@Entity({ tableName: 'shift_assignment' })
@Index({ name: 'shift_assignment_employee_index', properties: ['employeeId', 'startDate'] })
@Index({ name: 'shift_assignment_area_index', properties: ['areaId', 'startDate'] })
export class ShiftAssignment {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Shift, { mapToPk: true, fieldName: 'shift_id', deleteRule: 'cascade' })
  shiftId!: number;

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
