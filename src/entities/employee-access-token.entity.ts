import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * A token that acts as one employee (`tg_emp_…`), for an integrator's own app: it reaches
 * `/public/v2/me/*` and GraphQL `me` only, as that employee. Only the SHA-256 hash of the secret is
 * stored, like an API key's.
 */
@Entity({ tableName: 'employee_access_token' })
export class EmployeeAccessToken {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  @Index({ name: 'employee_access_token_employee_index' })
  employeeId!: number;

  @Property({ length: 200, default: '' })
  name: string = '';

  /** Hex SHA-256 of the whole token; the token itself is shown once and never stored. */
  @Property({ length: 64, unique: true })
  tokenHash!: string;

  /** The public part of the token (`tg_emp_` plus a few characters), for listing. */
  @Property({ length: 32 })
  prefix!: string;

  @Property({ length: 4 })
  last4!: string;

  /** The API key that issued it (null when the issuer was a console session). */
  @Property({ type: 'integer', nullable: true })
  createdByKeyId?: number | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;
}
