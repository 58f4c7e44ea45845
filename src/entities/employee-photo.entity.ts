import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * An employee's face photo, as Timegate stores it: the upload normalised to a JPEG terminals take
 * (EXIF orientation applied, at most 640 px on a side, metadata removed). Terminals with face-photo
 * support enrol the face from it (BIOPHOTO) and show it (USERPIC). One per employee; deleted with
 * the employee. The bytes are never written to logs or returned in lists.
 */
@Entity({ tableName: 'employee_photo' })
@Unique({ name: 'employee_photo_employee_unique', properties: ['employeeId'] })
export class EmployeePhoto {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  employeeId!: number;

  /** The normalised JPEG. */
  @Property({ type: 'blob', lazy: true })
  data!: Buffer;

  @Property()
  size!: number;

  @Property({ type: 'smallint' })
  width!: number;

  @Property({ type: 'smallint' })
  height!: number;

  /** SHA-256 of `data`, hex: which photo a terminal's enrolment is about. */
  @Property({ length: 64 })
  sha256!: string;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz' })
  updatedAt!: Date;
}
