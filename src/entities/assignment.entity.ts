import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Device } from './device.entity';
import { Employee } from './employee.entity';

/** Terminal privileges an assignment may grant: user, enroller, admin, super admin. */
export const PERMISSIONS = [0, 2, 6, 14] as const;

/**
 * A DIRECT assignment of an employee to a device. Area-derived assignments are not stored: they
 * follow from `area_employee` and `device.area_id`, so leaving an area can never touch these rows.
 */
@Entity({ tableName: 'assignment' })
@Unique({ name: 'assignment_device_employee_unique', properties: ['deviceId', 'employeeId'] })
export class Assignment {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  @Index({ name: 'assignment_employee_index' })
  employeeId!: number;

  /** One of PERMISSIONS. */
  @Property()
  permission!: number;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
