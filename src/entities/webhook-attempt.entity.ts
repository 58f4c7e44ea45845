import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { WebhookDelivery } from './webhook-delivery.entity';

/** One HTTP request of a delivery, as sent and answered (or why it could not be). */
@Entity({ tableName: 'webhook_attempt' })
export class WebhookAttempt {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => WebhookDelivery, { mapToPk: true, fieldName: 'delivery_id', deleteRule: 'cascade', index: true })
  deliveryId!: number;

  @Property({ type: 'timestamptz' })
  attemptedAt!: Date;

  /** HTTP status; null when no response came (timeout, refused connection, refused address). */
  @Property({ type: 'integer', nullable: true })
  statusCode?: number | null;

  @Property({ type: 'integer' })
  durationMs!: number;

  /** First 1 KB of the response body. */
  @Property({ type: 'text', nullable: true })
  responseExcerpt?: string | null;

  @Property({ type: 'text', nullable: true })
  error?: string | null;

  @Property()
  succeeded!: boolean;
}
