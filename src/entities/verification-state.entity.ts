import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Workspace } from './workspace.entity';

/**
 * A label for an attendance state number (ATTLOG field 3). Terminals send only the number and its
 * meaning is configurable per tenant, so punches store the raw value and these rows name it.
 */
@Entity({ tableName: 'verification_state' })
@Unique({ name: 'verification_state_workspace_value_unique', properties: ['workspaceId', 'value'] })
export class VerificationState {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @Property({ length: 100 })
  name!: string;

  /** Canonical decimal "0".."255", as the terminal sends it. */
  @Property({ length: 3 })
  value!: string;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt!: Date;
}
