import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/** A place in a company (a building, a floor): its devices inherit every employee registered in it. */
@Entity({ tableName: 'area' })
@Unique({ name: 'area_company_code_unique', properties: ['companyId', 'code'] })
@Index({ name: 'area_workspace_company_index', properties: ['workspaceId', 'companyId'] })
export class Area {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id' })
  companyId!: number;

  @Property({ length: 200 })
  name!: string;

  @Property({ length: 64 })
  code!: string;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
