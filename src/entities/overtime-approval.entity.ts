import { Embedded, Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Decision } from './decision.embeddable';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * The approval of one employee's overtime on one local date, for a company whose pay policy has
 * `overtimeRequiresApproval`: pending, then approved (the day's overtime counts, up to `minutes` when
 * given) or rejected (it is not paid). An approver may change the decision while the date is not in
 * a locked pay period. One per employee and date.
 */
@Entity({ tableName: 'overtime_approval' })
@Unique({ name: 'overtime_approval_employee_date_unique', properties: ['employeeId', 'date'] })
@Index({ name: 'overtime_approval_company_date_index', properties: ['companyId', 'date'] })
export class OvertimeApproval {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  employeeId!: number;

  /** The local date of the attendance day. */
  @Property({ type: 'date' })
  date!: string;

  /** `pending`, `approved` or `rejected`; who filed and last decided it. */
  @Embedded(() => Decision, { prefix: false })
  decision!: Decision;

  /** Approved: the most overtime minutes that count; null: all of the day's overtime. */
  @Property({ type: 'integer', nullable: true })
  minutes?: number | null;

  @Property({ length: 1000, nullable: true })
  note?: string | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
