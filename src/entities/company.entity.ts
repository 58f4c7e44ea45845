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

  /** Employees may punch from their phones, inside the company's geofences (docs/self-service.md). Off by default. */
  @Property({ default: false })
  mobilePunch: boolean = false;

  /** A phone punch whose position is less accurate than this many metres is refused (`location_inaccurate`). */
  @Property({ type: 'integer', default: 100 })
  mobilePunchAccuracyM: number = 100;

  /** Employees made approvers of areas decide those areas' requests in the self-service app. Off by default. */
  @Property({ default: false })
  managerApprovals: boolean = false;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
