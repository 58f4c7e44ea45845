import { Entity, Index, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';

/** One write made through the API (GraphQL mutation, or the REST route that ran it). */
@Entity({ tableName: 'audit_event' })
@Index({ name: 'audit_event_workspace_id_index', properties: ['workspaceId', 'id'] })
export class AuditEvent {
  [PrimaryKeyProp]?: ['id', 'createdAt'];

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  /** Null for operator actions, which belong to no workspace. */
  @Property({ type: 'integer', nullable: true })
  workspaceId?: number | null;

  /** The key that made the change; null for the operator key. */
  @Property({ type: 'integer', nullable: true })
  apiKeyId?: number | null;

  /** The person behind a change made in a console session (the provider's `sub`); null for API keys. */
  @Property({ length: 255, nullable: true })
  actorSubject?: string | null;

  /** That person's email at sign-in, as the provider gave it. */
  @Property({ length: 320, nullable: true })
  actorEmail?: string | null;

  /** The mutation, e.g. `createEmployee`. */
  @Property({ length: 100 })
  operation!: string;

  @Property({ type: 'jsonb' })
  arguments!: unknown;

  /** `ok`, or the error code the caller got. */
  @Property({ length: 64 })
  outcome!: string;

  @Property({ length: 128 })
  requestId!: string;

  /** Part of the primary key: the table is partitioned by month on it (src/db/partitions.ts). */
  @PrimaryKey({ type: 'timestamptz' })
  createdAt!: Date;
}
