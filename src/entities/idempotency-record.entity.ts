import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Workspace } from './workspace.entity';

/**
 * The first response to a POST sent with an `Idempotency-Key`, replayed to later requests of the
 * same API key with the same Idempotency-Key (another API key's record is never seen: no replay of
 * an admin's response to a read key). `status` is null while the first request is still running;
 * `leaseUntil` is when a retry may take over a record left running by a crashed process.
 */
@Entity({ tableName: 'idempotency_record' })
@Unique({ name: 'idempotency_record_api_key_key_unique', properties: ['workspaceId', 'apiKeyId', 'key'] })
export class IdempotencyRecord {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @Property({ type: 'integer' })
  apiKeyId!: number;

  @Property({ length: 255 })
  key!: string;

  /** SHA-256 of method, path and body: a reused key with another request is refused. */
  @Property({ length: 64 })
  requestHash!: string;

  @Property({ type: 'integer', nullable: true })
  status?: number | null;

  @Property({ type: 'jsonb', nullable: true })
  responseBody?: unknown;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  leaseUntil?: Date | null;
}
