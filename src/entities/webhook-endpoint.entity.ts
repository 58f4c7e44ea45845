import { Entity, ManyToOne, PrimaryKey, Property, Index } from '@mikro-orm/core';
import { Workspace } from './workspace.entity';

/** A URL of the customer that receives the workspace's events of the chosen types. */
@Entity({ tableName: 'webhook_endpoint' })
@Index({ name: 'webhook_endpoint_workspace_index', properties: ['workspaceId'] })
export class WebhookEndpoint {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @Property({ length: 2048 })
  url!: string;

  @Property({ length: 500, default: '' })
  description: string = '';

  @Property({ type: 'text[]' })
  eventTypes!: string[];

  /** `whsec_<base64>`; the signing key is the base64-decoded part. Shown on create and rotate only. */
  @Property({ length: 100, hidden: true })
  secret!: string;

  @Property({ default: true })
  enabled: boolean = true;

  /** Why the service disabled it (null when enabled, or disabled by the customer). */
  @Property({ type: 'text', nullable: true })
  disabledReason?: string | null;

  /** Start of the current run of failed attempts; null after a success. */
  @Property({ type: 'timestamptz', nullable: true })
  failingSince?: Date | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz' })
  updatedAt!: Date;
}
