import type { EntityManager } from '@mikro-orm/postgresql';
import { Workspace } from '../../entities';
import { DomainError } from '../../errors/domain-error';

/**
 * Locks the workspace row for the rest of the transaction and returns it, so that a plan-limit
 * count and the insert it guards cannot interleave with another request's.
 *
 * FOR NO KEY UPDATE, not FOR UPDATE: two writers still wait for each other, but the foreign-key
 * checks of other transactions (FOR KEY SHARE on the workspace row) do not wait for this one. With
 * FOR UPDATE, an employee creation that then waited for the attendance lock deadlocked with the
 * attendance worker, which held that lock while its day insert checked its workspace key.
 */
export async function lockWorkspace(em: EntityManager, workspaceId: number): Promise<Workspace> {
  const [row] = await em.execute<Record<string, unknown>[]>('select * from workspace where id = ? for no key update', [workspaceId]);
  if (!row) throw DomainError.notFound('Workspace', workspaceId);
  return em.map(Workspace, row);
}
