import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * An employee provisioned by a company's directory over SCIM: the SCIM resource as the directory
 * last wrote it (the attributes Timegate does not model are kept here and returned), and its
 * `userName`, unique in the company whatever the case. The SCIM id is the employee id.
 */
@Entity({ tableName: 'scim_user' })
@Unique({
  name: 'scim_user_company_user_name_unique',
  expression: 'create unique index "scim_user_company_user_name_unique" on "scim_user" ("company_id", lower("user_name"))',
})
// Lists filter in SQL (services/provisioning/scim-filter-sql.ts): `userName eq` and `externalId eq`
// find their user through these.
@Index({
  name: 'scim_user_company_search_user_name_index',
  expression: `create index "scim_user_company_search_user_name_index" on "scim_user" ("company_id", ("search" ->> 'username'))`,
})
@Index({ name: 'scim_user_company_external_id_index', properties: ['companyId', 'externalId'] })
export class ScimUser {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade', unique: 'scim_user_employee_unique' })
  employeeId!: number;

  @Property({ length: 256 })
  userName!: string;

  @Property({ type: 'text', nullable: true })
  externalId?: string | null;

  /** The resource without `id`, `meta` and `password` (never stored). */
  @Property({ type: 'jsonb' })
  document!: Record<string, unknown>;

  /**
   * The document as filters read it (src/scim/search-document.ts): attribute names in lower case,
   * strings in lower case except those of `caseExact` attributes, `active` left out (the employee's
   * flag is read instead).
   */
  @Property({ type: 'jsonb' })
  search!: Record<string, unknown>;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
