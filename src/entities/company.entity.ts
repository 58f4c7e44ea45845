import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Workspace } from './workspace.entity';

/** The enterprise that owns devices, employees and areas. */
@Entity({ tableName: 'company' })
@Unique({ name: 'company_workspace_code_unique', properties: ['workspaceId', 'code'] })
export class Company {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @Property({ length: 200 })
  name!: string;

  @Property({ length: 64 })
  code!: string;

  /** The company's overtime and premium policy (only the keys it sets; the rest are defaults, pay-rules.ts). */
  @Property({ type: 'json', default: '{}' })
  payPolicy: Record<string, unknown> = {};

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
