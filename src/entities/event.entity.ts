import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Workspace } from './workspace.entity';

/**
 * The outbox: one row per event, written in the transaction of the change that caused it (see
 * src/events/outbox.ts). `id` is global; `sequence` counts 1, 2, 3... per workspace without gaps.
 * Both grow in commit order inside a workspace because the per-workspace counter row is locked
 * from the event's insert until the transaction ends.
 */
@Entity({ tableName: 'event' })
@Unique({ name: 'event_workspace_sequence_unique', properties: ['workspaceId', 'sequence'] })
@Index({ name: 'event_workspace_id_index', properties: ['workspaceId', 'id'] })
@Index({ name: 'event_created_at_index', properties: ['createdAt'] })
export class Event {
  /** bigint: read as a string (node-pg), exposed as the `String` cursor. */
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @Property({ type: 'bigint' })
  sequence!: string;

  @Property({ length: 64 })
  type!: string;

  /** The payload as webhooks send it (snake_case field names). */
  @Property({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;
}
