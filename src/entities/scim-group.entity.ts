import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { AccessLevel } from './access-level.entity';
import { Area } from './area.entity';
import { Company } from './company.entity';
import { Employee } from './employee.entity';
import { Workspace } from './workspace.entity';

/**
 * A group of a company's directory (SCIM). Mapped to an area and/or access levels, its members are
 * members of that area and holders of those levels for as long as they are in the group
 * (docs/identity.md, "Group mapping").
 */
@Entity({ tableName: 'scim_group' })
@Index({ name: 'scim_group_company_index', properties: ['companyId'] })
@Index({
  name: 'scim_group_company_search_display_name_index',
  expression: `create index "scim_group_company_search_display_name_index" on "scim_group" ("company_id", ("search" ->> 'displayname'))`,
})
export class ScimGroup {
  /** The SCIM id (a UUID). */
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ length: 256 })
  displayName!: string;

  @Property({ type: 'text', nullable: true })
  externalId?: string | null;

  /** Attributes other than id, meta and members, as the directory wrote them. */
  @Property({ type: 'jsonb' })
  document!: Record<string, unknown>;

  /** The document with its `displayName`, as filters read it (src/scim/search-document.ts). */
  @Property({ type: 'jsonb' })
  search!: Record<string, unknown>;

  /** The area its members belong to; null: none. */
  @ManyToOne(() => Area, { mapToPk: true, fieldName: 'area_id', nullable: true, deleteRule: 'set null' })
  areaId?: number | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}

/** A member of a directory group. */
@Entity({ tableName: 'scim_group_member' })
@Unique({ name: 'scim_group_member_unique', properties: ['groupId', 'employeeId'] })
export class ScimGroupMember {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => ScimGroup, { mapToPk: true, fieldName: 'group_id', deleteRule: 'cascade' })
  groupId!: string;

  @ManyToOne(() => Employee, { mapToPk: true, fieldName: 'employee_id', deleteRule: 'cascade' })
  @Index({ name: 'scim_group_member_employee_index' })
  employeeId!: number;
}

/** An access level a directory group's members hold. */
@Entity({ tableName: 'scim_group_access_level' })
@Unique({ name: 'scim_group_access_level_unique', properties: ['groupId', 'accessLevelId'] })
export class ScimGroupAccessLevel {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => ScimGroup, { mapToPk: true, fieldName: 'group_id', deleteRule: 'cascade' })
  groupId!: string;

  @ManyToOne(() => AccessLevel, { mapToPk: true, fieldName: 'access_level_id', deleteRule: 'cascade' })
  @Index({ name: 'scim_group_access_level_level_index' })
  accessLevelId!: number;
}
