import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/**
 * A company's holiday. Attendance treats every holiday alike (no one is absent; work is overtime);
 * `holidayType` (1–3) is for the door schedules of the access-control work, which keep separate
 * opening hours per type.
 */
@Entity({ tableName: 'holiday' })
@Unique({ name: 'holiday_company_date_unique', properties: ['companyId', 'date'] })
export class Holiday {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  /** `YYYY-MM-DD`, a local date. */
  @Property({ type: 'date' })
  date!: string;

  @Property({ length: 200 })
  name!: string;

  @Property({ type: 'smallint', default: 1 })
  holidayType!: number;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
