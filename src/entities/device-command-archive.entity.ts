import { Entity, Index, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';

/**
 * A finished device command, moved out of the live queue (`device_command`) once it is older than
 * the archive age (docs/history.md): the command log's history, partitioned by month of
 * `completed_at` and dropped by its retention. It keeps what the command list shows, not the
 * command's text, which can carry a person's name, a biometric template or a photo: `verb` is the
 * text's first words (`DATA UPDATE USERINFO`, `CONTROL DEVICE 01010105`). No foreign keys: a
 * partitioned log references nothing and nothing references it; ids are those of the live table.
 */
@Entity({ tableName: 'device_command_archive' })
@Index({ name: 'device_command_archive_device_index', properties: ['deviceId', 'id'] })
export class DeviceCommandArchive {
  [PrimaryKeyProp]?: ['id', 'completedAt'];

  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Property({ type: 'integer' })
  workspaceId!: number;

  @Property({ type: 'integer' })
  deviceId!: number;

  @Property({ length: 16 })
  commandId!: string;

  @Property({ length: 64 })
  verb!: string;

  @Property({ length: 32 })
  kind!: string;

  /** succeeded, failed or expired. */
  @Property({ length: 16 })
  status!: string;

  @Property({ type: 'integer', nullable: true })
  returnCode?: number | null;

  @Property({ type: 'integer' })
  attempts!: number;

  @Property({ length: 64, nullable: true })
  reference?: string | null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  sentAt?: Date | null;

  /** Part of the primary key: the table is partitioned by month on it (src/db/partitions.ts). */
  @PrimaryKey({ type: 'timestamptz' })
  completedAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;
}
