import { ArrayType, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * A visitor's time-limited access to some doors without becoming an employee: a `user` row on each
 * controller of its doors whose StartTime/EndTime make the controller itself refuse the pass outside
 * its window (also offline), removed from the controllers once the window ended or the pass is
 * revoked (services/access/visitor-pass.service.ts).
 */
@Entity({ tableName: 'visitor_pass' })
@Index({ name: 'visitor_pass_company_pin_index', properties: ['companyId', 'pin'] })
@Index({ name: 'visitor_pass_due_index', expression: 'create index "visitor_pass_due_index" on "visitor_pass" ("valid_until") where "removed_at" is null' })
export class VisitorPass {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ length: 100 })
  name!: string;

  /** The employee the visitor comes to see (null once that employee is deleted). */
  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'host_employee_id', nullable: true, deleteRule: 'set null' })
  hostEmployeeId?: number | null;

  @Property({ type: 'timestamptz' })
  validFrom!: Date;

  @Property({ type: 'timestamptz' })
  validUntil!: Date;

  /** The doors it opens (doors of access controllers of the company). */
  @Property({ type: new ArrayType((id) => Number(id)), columnType: 'int[]' })
  doorIds!: number[];

  /** The terminal user id of the visitor (generated when not given). */
  @Property({ length: 24 })
  pin!: string;

  @Property({ length: 20, nullable: true })
  cardNo?: string | null;

  /** When the pass was revoked before its end (DELETE). */
  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  /** When its removal from the controllers was queued (after its end, or at revocation). */
  @Property({ type: 'timestamptz', nullable: true })
  removedAt?: Date | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
