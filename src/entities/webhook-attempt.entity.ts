import { BigIntType, Entity, ManyToOne, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { WebhookDelivery } from './webhook-delivery.entity';

/**
 * One HTTP request of a delivery, as sent and answered (or why it could not be). An append-only log,
 * partitioned by month of `attempted_at` (docs/history.md): the key holds the partition column.
 */
@Entity({ tableName: 'webhook_attempt' })
export class WebhookAttempt {
  [PrimaryKeyProp]?: ['id', 'attemptedAt'];

  /** 64-bit in the database, a JavaScript number here (exact up to 2^53; GraphQL `SafeInt`). */
  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  @ManyToOne(() => WebhookDelivery, { mapToPk: true, fieldName: 'delivery_id', deleteRule: 'cascade', index: true })
  deliveryId!: number;

  @PrimaryKey({ type: 'timestamptz' })
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
