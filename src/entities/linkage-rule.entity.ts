import { ArrayType, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Area } from './area.entity';
import { Company } from './company.entity';
import { Device } from './device.entity';
import { Door } from './door.entity';
import { Workspace } from './workspace.entity';

/**
 * A linkage rule: when a controller (or one of its doors) reports the trigger event, the service
 * runs the actions (src/services/access/linkage.service.ts).
 */
@Entity({ tableName: 'linkage_rule' })
// The ingestion looks up the rules of the device that sent the events.
@Index({ name: 'linkage_rule_device_index', properties: ['deviceId'] })
export class LinkageRule {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' })
  companyId!: number;

  @Property({ length: 100 })
  name!: string;

  /** `forced_open`, `held_open`, `duress` or `refusals`. */
  @Property({ length: 16 })
  trigger!: string;

  /** The controller whose events trigger it (the door's controller for a door rule). */
  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: number;

  /** One door of it, or null for any door of the controller. */
  @ManyToOne(() => Door, { mapToPk: true, fieldName: 'door_id', nullable: true, deleteRule: 'cascade' })
  doorId?: number | null;

  @Property({ type: 'smallint', nullable: true })
  doorNumber?: number | null;

  /** `refusals`: this many refusals ... */
  @Property({ type: 'integer', nullable: true })
  refusalCount?: number | null;

  /** ... within this many minutes. */
  @Property({ type: 'integer', nullable: true })
  refusalWindowMinutes?: number | null;

  /** Action: start a lockdown of this mode (`lockdown` or `evacuate`), or null. */
  @Property({ length: 16, nullable: true })
  lockdownMode?: string | null;

  /** Its scope: an area, these doors, or (both null) the rule's company. */
  @ManyToOne(() => Area, { mapToPk: true, fieldName: 'lockdown_area_id', nullable: true, deleteRule: 'set null' })
  lockdownAreaId?: number | null;

  /** Door ids, stored as integers (they were text, and a lockdown compared them with the numeric ids it found). */
  @Property({ type: new ArrayType((id) => Number(id)), columnType: 'int[]', nullable: true })
  lockdownDoorIds?: number[] | null;

  /** Action: pulse this auxiliary output of the controller, for `auxOutputSeconds`, or null. */
  @Property({ type: 'smallint', nullable: true })
  auxOutput?: number | null;

  @Property({ type: 'smallint', nullable: true })
  auxOutputSeconds?: number | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastTriggeredAt?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;
}
