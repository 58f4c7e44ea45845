import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/**
 * A company's rotating shift pattern: `days[0]` applies on `startDate`, `days[1]` the day after, and
 * so on, repeating (in both directions from `startDate`); a null entry is a day off. A shift
 * assignment names a roster instead of a shift (src/services/attendance/schedule.ts resolves it).
 */
@Entity({ tableName: 'roster' })
@Index({ name: 'roster_company_index', properties: ['companyId'] })
export class Roster {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ length: 200 })
  name!: string;

  /** `YYYY-MM-DD`: the local date of `days[0]`. */
  @Property({ type: 'date' })
  startDate!: string;

  /** Shift ids of the company, or null for a day off; 1 to 366 entries. */
  @Property({ type: 'json' })
  days!: (number | null)[];

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
