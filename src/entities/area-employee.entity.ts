import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Area } from './area.entity';
import { Employee } from './employee.entity';

/** An employee registered in an area (an employee may be in several areas of its company). */
@Entity({ tableName: 'area_employee' })
@Unique({ name: 'area_employee_area_employee_unique', properties: ['areaId', 'employeeId'] })
export class AreaEmployee {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Area, { mapToPk: true, fieldName: 'area_id', deleteRule: 'cascade' })
  areaId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  @Index({ name: 'area_employee_employee_index' })
  employeeId!: number;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;
}
