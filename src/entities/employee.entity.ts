import { Entity, Filter, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/**
 * The text the employee search (`employees(search:)`, `GET /public/v2/employees?search=`) looks in:
 * the five searched columns joined by U+0001, a character no text field may hold, so that a search
 * (which may not hold it either) matches within one column, as five `ilike`s would. One trigram
 * index over it (the pg_trgm extension, created by the migration) serves `ilike '%text%'`; with five
 * column indexes PostgreSQL estimated five index scans dearer than reading every row, and read every
 * row (seconds for a long search over 100,000 employees).
 */
export const EMPLOYEE_SEARCH_TEXT = `("name" || E'\\x01' || "lastname" || E'\\x01' || "code" || E'\\x01' || coalesce("pin", '') || E'\\x01' || coalesce("email", ''))`;

/**
 * A person who uses terminals; `pin` is the number under which the terminal knows them.
 *
 * An employee with history (punches or stored attendance days) is never removed: deleting them sets
 * `deletedAt` (docs/attendance.md, "Deleting an employee"). A deleted employee is invisible to every
 * lookup through the ORM (the default `live` filter), and their code and pin are free for a new
 * employee (the unique indexes cover live rows only); their punches and days stay theirs.
 */
@Entity({ tableName: 'employee' })
@Filter({ name: 'live', cond: { deletedAt: null }, default: true })
@Unique({
  name: 'employee_workspace_code_unique',
  expression: 'create unique index "employee_workspace_code_unique" on "employee" ("workspace_id", "code") where "deleted_at" is null',
})
@Unique({
  name: 'employee_company_pin_unique',
  expression: 'create unique index "employee_company_pin_unique" on "employee" ("company_id", "pin") where "deleted_at" is null',
})
@Index({ name: 'employee_workspace_company_index', properties: ['workspaceId', 'companyId'] })
@Index({
  name: 'employee_search_trgm_index',
  expression: `create index "employee_search_trgm_index" on "employee" using gin (${EMPLOYEE_SEARCH_TEXT} gin_trgm_ops)`,
})
export class Employee {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id' })
  companyId!: number;

  @Property({ length: 100 })
  name!: string;

  @Property({ length: 100 })
  lastname!: string;

  @Property({ length: 64 })
  code!: string;

  /** Null until assigned; unique per company (PostgreSQL unique constraints ignore nulls). */
  @Property({ length: 23, nullable: true })
  pin?: string | null;

  @Property({ length: 254, nullable: true })
  email?: string | null;

  @Property({ default: true })
  isActive: boolean = true;

  /** First and last day of employment (inclusive; null: open). Days outside are `not_employed`. */
  @Property({ type: 'date', nullable: true })
  employmentStartDate?: string | null;

  @Property({ type: 'date', nullable: true })
  employmentEndDate?: string | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;

  /** When the employee was deleted; null while they exist. Their history stays attached to this row. */
  @Property({ type: 'timestamptz', nullable: true })
  deletedAt?: Date | null;
}
