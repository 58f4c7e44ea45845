import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Device } from './device.entity';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * A biometric template a terminal uploaded for an employee (attendance OPERLOG `FP`/`FACE`,
 * `BIODATA`; access tabledata `templatev10`/`biodata`). Keyed by EMPLOYEE, not by pin, so the
 * templates follow a pin change; a template for a pin no employee of the device's company has is
 * not stored. Deleting the employee deletes its templates (biometric data is not kept longer than
 * the person it identifies).
 */
@Entity({ tableName: 'employee_template' })
@Unique({ name: 'employee_template_slot_unique', properties: ['employeeId', 'type', 'no', 'subIndex'] })
export class EmployeeTemplate {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  @Index({ name: 'employee_template_workspace_index' })
  workspaceId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  employeeId!: number;

  /** Biometric type index (the biometric type table of ATT-DOC; src/protocol/PROTOCOL.md): 1 fingerprint, 2 NIR face, 9 visible-light face, ... */
  @Property({ type: 'smallint' })
  type!: number;

  /** Finger number 0-9 (fingerprints, finger vein), 0 for faces; BIODATA `No`. */
  @Property({ type: 'smallint' })
  no!: number;

  /** Part of a multi-template biometric (BIODATA `Index`, FACE `FID`); 0 for fingerprints. */
  @Property({ type: 'smallint', default: 0 })
  subIndex: number = 0;

  /** Algorithm version `major.minor` (e.g. `10.0`, `12.0`, `58.0`); null when the terminal did not say. */
  @Property({ length: 16, nullable: true })
  version?: string | null;

  /** 0 ZK, 1 ISO, 2 ANSI. */
  @Property({ type: 'smallint', default: 0 })
  format: number = 0;

  @Property({ default: true })
  valid: boolean = true;

  /** A duress finger: verifying with it raises a silent alarm. */
  @Property({ default: false })
  duress: boolean = false;

  /** Base64 template as uploaded. Never exposed through the APIs. */
  @Property({ type: 'text' })
  data!: string;

  /** Length of `data` (the protocol's `Size`). */
  @Property()
  size!: number;

  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'source_device_id', nullable: true, deleteRule: 'set null' })
  sourceDeviceId?: number | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz' })
  updatedAt!: Date;
}
