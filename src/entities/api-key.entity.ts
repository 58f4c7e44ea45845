import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Company } from './company.entity';
import { Workspace } from './workspace.entity';

/** An API key of a workspace. Only the SHA-256 hash of the secret is stored. */
@Entity({ tableName: 'api_key' })
export class ApiKey {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  @Index()
  workspaceId!: number;

  @Property({ length: 200, default: '' })
  name: string = '';

  /** Hex SHA-256 of the whole key; the key itself is shown once and never stored. */
  @Property({ length: 64, unique: true })
  keyHash!: string;

  /** The public part of the key (`tg_live_` plus a few characters), for listing. */
  @Property({ length: 32 })
  prefix!: string;

  @Property({ length: 4 })
  last4!: string;

  @Property({ type: 'text[]' })
  scopes!: string[];

  /** A `scim` key's company: the directory it serves provisions this company's people, and only them. */
  @ManyToOne(() => Company, { mapToPk: true, fieldName: 'company_id', nullable: true, deleteRule: 'cascade' })
  companyId?: number | null;

  @Property({ type: 'timestamptz', onCreate: () => new Date() })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;
}
