import { ArrayType, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/**
 * A circle on the map where a company's employees may punch from their phones (a depot, a site, a
 * home office). Without areas or employees it applies to every employee of the company; with them,
 * to the employees of those areas and those employees only.
 */
@Entity({ tableName: 'geofence' })
@Index({ name: 'geofence_workspace_company_index', properties: ['workspaceId', 'companyId'] })
export class Geofence {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ length: 200 })
  name!: string;

  /** WGS 84 degrees, -90 to 90. */
  @Property({ type: 'double' })
  latitude!: number;

  /** WGS 84 degrees, -180 to 180. */
  @Property({ type: 'double' })
  longitude!: number;

  @Property({ type: 'integer' })
  radiusM!: number;

  /** The areas whose employees it applies to (with employeeIds); both empty: every employee of the company. */
  @Property({ type: new ArrayType((id) => Number(id)), columnType: 'int[]', default: '{}' })
  areaIds: number[] = [];

  @Property({ type: new ArrayType((id) => Number(id)), columnType: 'int[]', default: '{}' })
  employeeIds: number[] = [];

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
