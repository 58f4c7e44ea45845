import { withEm, type RequestContext } from '../../context/request-context';
import { afterCommit } from '../../db/after-commit';
import { markWorkspacesWritten, type ReplicaReadKind } from '../../db/read-replica';

/**
 * Runs a heavy read (one that only reads: the days, punches or door events a service has already
 * checked its input for) on the read replica when src/db/read-replica.ts finds it fresh enough for
 * `workspaceId`, otherwise on the caller's EntityManager. Without a replica, or inside a
 * transaction (what a transaction reads may decide what it writes: the primary's), it is `read(ctx)`.
 */
export function readFromReplica<T>(ctx: RequestContext, workspaceId: number, kind: ReplicaReadKind, read: (ctx: RequestContext) => Promise<T>): Promise<T> {
  const replica = ctx.replica;
  if (!replica || ctx.em.isInTransaction()) return read(ctx);
  return replica.read(ctx.em, workspaceId, kind, (em) => read(em === ctx.em ? ctx : withEm(ctx, em)));
}

/**
 * With a read replica configured, marks the workspace written now (after the COMMIT of what it
 * wrote): its next heavy reads go to the primary until the replica has replayed this far. Without
 * one it does nothing (no statement).
 */
export async function noteWorkspaceWrite(ctx: RequestContext, of: { workspaceIds: number[] } | { employeeIds: number[] }): Promise<void> {
  if (!ctx.config.databaseReplicaUrl) return;
  // Inside a transaction the log position is before its COMMIT (a mark the replica could pass too
  // early): the mark is written once it commits, on a connection of its own.
  if (ctx.em.isInTransaction()) {
    const em = ctx.em.fork();
    afterCommit(ctx.em, () => void markWorkspacesWritten(em, of).catch((error) => ctx.logger.warn({ err: error }, 'workspace write mark not written')));
    return;
  }
  await markWorkspacesWritten(ctx.em, of);
}
