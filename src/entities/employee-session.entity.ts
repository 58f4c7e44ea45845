import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * An employee signed in to the self-service app (`/me`) in one browser, through an invitation link
 * or the company's single sign-on. The browser holds the token in an HttpOnly cookie; only its
 * SHA-256 hash is stored.
 */
@Entity({ tableName: 'employee_session' })
export class EmployeeSession {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  @Index({ name: 'employee_session_employee_index' })
  employeeId!: number;

  /** Hex SHA-256 of the session token. */
  @Property({ length: 64, unique: true })
  tokenHash!: string;

  /** How the person signed in: `invitation` or `single_sign_on`. */
  @Property({ length: 16 })
  via!: string;

  /** The provider's `sub` of a single sign-on; null for an invitation. */
  @Property({ length: 255, nullable: true })
  subject?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz' })
  @Index({ name: 'employee_session_expires_index' })
  expiresAt!: Date;

  /** Set by a sign-out: the token stops working at once, in every process. */
  @Property({ type: 'timestamptz', nullable: true })
  endedAt?: Date | null;
}
