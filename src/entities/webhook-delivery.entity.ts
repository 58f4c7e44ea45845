import { BigIntType, Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { Workspace } from './workspace.entity';

export enum WebhookDeliveryStatus {
  pending = 'pending',
  succeeded = 'succeeded',
  failed = 'failed',
}

/** One event to send to one endpoint: created with the event (same transaction), retried until it succeeds or gives up. */
@Entity({ tableName: 'webhook_delivery' })
@Index({ name: 'webhook_delivery_due_index', properties: ['status', 'nextAttemptAt'] })
@Index({ name: 'webhook_delivery_endpoint_index', properties: ['endpointId', 'id'] })
// The worker's fair claim asks each endpoint for its oldest due pending deliveries.
@Index({
  name: 'webhook_delivery_pending_endpoint_index',
  expression: `create index "webhook_delivery_pending_endpoint_index" on "webhook_delivery" ("endpoint_id", "next_attempt_at", "id") where "status" = 'pending'`,
})
export class WebhookDelivery {
  /** 64-bit in the database (one per event and endpoint), a JavaScript number here (GraphQL `SafeInt`). */
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @ManyToOne(() => WebhookEndpoint, { mapToPk: true, fieldName: 'endpoint_id', deleteRule: 'cascade' })
  endpointId!: number;

  /**
   * The event delivered. No foreign key: `event` is partitioned, and a key can only reference its
   * (id, created_at) pair; dropping an event partition (retention) deletes its deliveries first
   * (src/db/partitions.ts).
   */
  @Property({ type: 'bigint' })
  @Index()
  eventId!: string;

  @Enum({ items: () => WebhookDeliveryStatus, default: WebhookDeliveryStatus.pending })
  status: WebhookDeliveryStatus = WebhookDeliveryStatus.pending;

  @Property({ type: 'integer', default: 0 })
  attemptCount: number = 0;

  /** Due time while pending; while a process sends it, the end of that process's lease. */
  @Property({ type: 'timestamptz' })
  nextAttemptAt!: Date;

  /** Retries stop after this (created + the retry window; a manual redelivery opens a new window). */
  @Property({ type: 'timestamptz' })
  giveUpAt!: Date;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  completedAt?: Date | null;
}
