import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Device } from './device.entity';
import { DeviceCommand } from './device-command.entity';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

export const FACE_ENROLLMENT_STATUSES = ['pending', 'enrolled', 'failed', 'not_supported'] as const;
export type FaceEnrollmentStatus = (typeof FACE_ENROLLMENT_STATUSES)[number];

/** How the face reached the terminal: enrolled there from the photo, or a stored template of its version. */
export type FaceEnrollmentMethod = 'photo' | 'template';

/**
 * Where an employee's face photo stands on one terminal the employee is on: written by the sync
 * engine when it builds the terminal's commands, concluded by the result of the command that
 * carries the face (BIOPHOTO or the template), see face-enrollment.service.ts.
 */
@Entity({ tableName: 'face_enrollment' })
@Unique({ name: 'face_enrollment_unique', properties: ['employeeId', 'deviceId'] })
export class FaceEnrollment {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  employeeId!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  /** The photo (its SHA-256) this status is about. */
  @Property({ length: 64 })
  photoSha256!: string;

  @Property({ length: 16 })
  status!: FaceEnrollmentStatus;

  @Property({ length: 16, nullable: true })
  method?: FaceEnrollmentMethod | null;

  /** The command carrying the face; its result concludes the status. */
  @ManyToOne(() => DeviceCommand, { mapToPk: true, fieldName: 'command_id', nullable: true, deleteRule: 'set null' })
  @Index({ name: 'face_enrollment_command_index' })
  commandId?: number | null;

  /** The terminal's return code of a failure (photo codes `D01E000n` as their signed 32-bit value). */
  @Property({ type: 'integer', nullable: true })
  returnCode?: number | null;

  @Property({ type: 'timestamptz' })
  updatedAt!: Date;
}
