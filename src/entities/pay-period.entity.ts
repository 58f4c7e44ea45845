import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/**
 * A company's pay period (`startDate` to `endDate`, inclusive local dates). An admin locks it when
 * payroll is run: from then on its attendance days never change (a late punch is stored and
 * flagged), until an admin unlocks it.
 */
@Entity({ tableName: 'pay_period' })
@Index({ name: 'pay_period_company_index', properties: ['companyId', 'startDate'] })
export class PayPeriod {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ type: 'date' })
  startDate!: string;

  @Property({ type: 'date' })
  endDate!: string;

  @Property({ type: 'timestamptz', nullable: true })
  lockedAt?: Date | null;

  /**
   * The payroll export's rows as of the lock (src/services/payroll/): a locked period exports these,
   * byte for byte the same whatever changes later (an employee renamed, a punch re-sent); null while
   * unlocked.
   */
  @Property({ type: 'json', nullable: true, lazy: true })
  exportRows?: unknown[] | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
