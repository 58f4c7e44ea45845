import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Workspace } from './workspace.entity';

/**
 * A person signed in to the console with single sign-on. The browser holds the session token in an
 * HttpOnly cookie; only its SHA-256 hash is stored. The roles and scopes are those the provider's
 * claims gave at sign-in and stay fixed for the session's life.
 */
@Entity({ tableName: 'console_session' })
export class ConsoleSession {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Workspace, { mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  @Index()
  workspaceId!: number;

  /** Hex SHA-256 of the session token. */
  @Property({ length: 64, unique: true })
  tokenHash!: string;

  /** The provider's `sub` claim: who the person is at the provider. */
  @Property({ length: 255 })
  subject!: string;

  @Property({ length: 320, nullable: true })
  email?: string | null;

  @Property({ length: 200, nullable: true })
  name?: string | null;

  @Property({ type: 'text[]' })
  roles!: string[];

  @Property({ type: 'text[]' })
  scopes!: string[];

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz' })
  @Index()
  expiresAt!: Date;

  /** Set by a sign-out: the token stops working at once, in every process. */
  @Property({ type: 'timestamptz', nullable: true })
  endedAt?: Date | null;
}
