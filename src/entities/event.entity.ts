import { Check, Entity, Index, ManyToOne, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { Workspace } from './workspace.entity';

/**
 * The outbox: one row per event (or per batch of a terminal upload's punches,
 * src/events/event-batch.ts), written in the transaction of the change that caused it (see
 * src/events/outbox.ts). `id` is the writing transaction's id shifted left plus the event's rank in
 * it, so ids grow in the order readers may deliver them (below the oldest running transaction).
 */
@Entity({ tableName: 'event' })
@Index({ name: 'event_workspace_id_index', properties: ['workspaceId', 'id'] })
@Check({ name: 'event_span_check', expression: 'span >= 1 and span <= 256' })
export class Event {
  [PrimaryKeyProp]?: ['id', 'createdAt'];

  /** bigint: read as a string (node-pg), exposed as the `String` cursor. Set by the outbox, not a sequence. */
  @PrimaryKey({ type: 'bigint', autoincrement: false })
  id!: string;

  /** No foreign-key constraint, as on punch.workspace_id: every event writer would lock the workspace row. */
  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', createForeignKeyConstraint: false })
  workspaceId!: number;

  @Property({ length: 64 })
  type!: string;

  /** How many events the row holds: ids `id` to `id + span - 1` (src/events/event-batch.ts). */
  @Property({ default: 1 })
  span!: number;

  /** The payload as webhooks send it (snake_case field names); for a span above 1, the batch form. */
  @Property({ type: 'jsonb' })
  data!: Record<string, unknown>;

  /**
   * The W3C traceparent of the span that caused the event (null without tracing): the workers that
   * take the event (attendance, webhooks) link their spans to it (src/observability/tracing.ts).
   */
  @Property({ length: 55, nullable: true })
  trace?: string | null;

  /** Part of the primary key: the table is partitioned by month on it (src/db/partitions.ts). */
  @PrimaryKey({ type: 'timestamptz' })
  createdAt!: Date;
}
