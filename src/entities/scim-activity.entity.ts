import { Entity, OneToOne, Property } from '@mikro-orm/core';
import { ApiKey } from './api-key.entity';

/**
 * What a directory last did with its `scim` key: when it last called, its last change and its last
 * refused or failed request. One row per key, written by every request the key makes to /scim/v2,
 * so an administrator can tell whether the directory is syncing (docs/identity.md, "Last sync").
 */
@Entity({ tableName: 'scim_activity' })
export class ScimActivity {
  @OneToOne(() => ApiKey, { primary: true, mapToPk: true, fieldName: 'api_key_id', deleteRule: 'cascade' })
  apiKeyId!: number;

  @Property({ type: 'timestamptz' })
  lastRequestAt!: Date;

  /** Method and path of the last request, e.g. `GET /Users`. */
  @Property({ length: 300 })
  lastRequest!: string;

  @Property({ type: 'integer', default: 0 })
  requestCount!: number;

  /** The last request that changed something (a successful POST, PUT, PATCH or DELETE). */
  @Property({ type: 'timestamptz', nullable: true })
  lastChangeAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastErrorAt?: Date | null;

  /** Method and path of the last request answered with an error. */
  @Property({ length: 300, nullable: true })
  lastErrorRequest?: string | null;

  @Property({ type: 'smallint', nullable: true })
  lastErrorStatus?: number | null;

  /** The SCIM error's `scimType` and detail, as the directory was told. */
  @Property({ type: 'text', nullable: true })
  lastError?: string | null;
}
