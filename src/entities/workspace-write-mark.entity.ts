import { Entity, ManyToOne, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { Workspace } from './workspace.entity';

/**
 * Where the primary's write-ahead log stood just after a workspace's last write (`lsn`, bytes since
 * 0/0): a read replica that has replayed that far holds every change the workspace's own callers
 * made (src/db/read-replica.ts). Written only when DATABASE_REPLICA_URL is set, once per mutation
 * request and per attendance batch that changed days, after their COMMIT.
 */
@Entity({ tableName: 'workspace_write_mark' })
export class WorkspaceWriteMark {
  [PrimaryKeyProp]?: 'workspaceId';

  @ManyToOne(() => Workspace, { primary: true, mapToPk: true, fieldName: 'workspace_id', deleteRule: 'cascade' })
  workspaceId!: number;

  @Property({ type: 'bigint' })
  lsn!: string;

  @Property({ type: 'timestamptz' })
  writtenAt!: Date;
}
