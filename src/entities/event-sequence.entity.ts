import { Entity, OneToOne, Property } from '@mikro-orm/core';
import { Workspace } from './workspace.entity';

/**
 * The per-workspace event counter. Incrementing it takes its row lock until commit, which orders
 * the events of one workspace by commit (a later event waits for the earlier transaction to end).
 */
@Entity({ tableName: 'event_sequence' })
export class EventSequence {
  @OneToOne(() => Workspace, { primary: true, mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @Property({ type: 'bigint' })
  lastSequence!: string;
}
