// Which process plays which sandbox (docs/sandbox.md, "Several processes"). One lease row per
// sandbox; a process takes the free and expired ones and renews its own in one statement, timed by
// the database's clock, so processes with skewed clocks still agree. Row locks order two processes
// that claim together: the second re-reads the row after the first committed and finds it held.
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Renews this process's leases and takes the sandboxes no live process holds; returns every sandbox
 * this process holds now (a lease it lost, by stalling longer than the lease, is not among them).
 */
export async function claimSandboxes(em: EntityManager, holder: string, leaseSeconds: number): Promise<number[]> {
  const rows = await em.execute<{ workspace_id: number }[]>(
    `update sandbox_lease set holder = ?, lease_until = clock_timestamp() + make_interval(secs => ?)
      where holder = ? or holder is null or lease_until < clock_timestamp()
      returning workspace_id`,
    [holder, leaseSeconds, holder],
  );
  return rows.map((r) => r.workspace_id).sort((a, b) => a - b);
}

/** Gives up this process's leases (it stops): another process takes them at its next claim. */
export async function releaseSandboxes(em: EntityManager, holder: string): Promise<void> {
  await em.execute('update sandbox_lease set holder = null, lease_until = null where holder = ?', [holder]);
}

/** The lease row of a new sandbox: nobody holds it, the first process to claim takes it. */
export async function openSandboxLease(em: EntityManager, workspaceId: number): Promise<void> {
  await em.execute('insert into sandbox_lease (workspace_id, holder, lease_until) values (?, null, null) on conflict (workspace_id) do nothing', [workspaceId]);
}

/** Who holds a sandbox now (null: nobody, or a lease that ran out). */
export async function sandboxHolder(em: EntityManager, workspaceId: number): Promise<string | null> {
  const [row] = await em.execute<{ holder: string | null }[]>('select holder from sandbox_lease where workspace_id = ? and lease_until >= clock_timestamp()', [
    workspaceId,
  ]);
  return row?.holder ?? null;
}
