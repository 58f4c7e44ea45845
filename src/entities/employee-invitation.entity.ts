import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * A one-time link that signs an employee in to the self-service app (`/me`): opening it once, within
 * its seven days, starts a session in that browser. Only the SHA-256 hash of its secret is stored.
 */
@Entity({ tableName: 'employee_invitation' })
export class EmployeeInvitation {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  @Index({ name: 'employee_invitation_employee_index' })
  employeeId!: number;

  /** Hex SHA-256 of the link's secret. */
  @Property({ length: 64, unique: true })
  tokenHash!: string;

  /** The API key that made it (null when a console session did). */
  @Property({ type: 'integer', nullable: true })
  createdByKeyId?: number | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  /** When the link was opened (it works once). */
  @Property({ type: 'timestamptz', nullable: true })
  usedAt?: Date | null;
}
