import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Area } from './area.entity';
import { Employee } from './employee.entity';

/**
 * An employee who decides the requests of an area's employees in the self-service app (a manager),
 * when their company has manager approvals on.
 */
@Entity({ tableName: 'area_approver' })
@Unique({ name: 'area_approver_area_employee_unique', properties: ['areaId', 'employeeId'] })
export class AreaApprover {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Area, { mapToPk: true, fieldName: 'area_id', deleteRule: 'cascade' })
  areaId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  @Index({ name: 'area_approver_employee_index' })
  employeeId!: number;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;
}
