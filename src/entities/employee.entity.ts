import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/** A person who uses terminals; `pin` is the number under which the terminal knows them. */
@Entity({ tableName: 'employee' })
@Unique({ name: 'employee_workspace_code_unique', properties: ['workspaceId', 'code'] })
@Unique({ name: 'employee_company_pin_unique', properties: ['companyId', 'pin'] })
@Index({ name: 'employee_workspace_company_index', properties: ['workspaceId', 'companyId'] })
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

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
