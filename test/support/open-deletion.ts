import pg from 'pg';
import { waitUntil } from './wait-until';

/**
 * A deletion left in progress on its own connection, in a transaction the test commits when it
 * chooses: the row deleted and its punches nulled, as the service's deleteDevice and deleteEmployee
 * (of an employee without history) do, or with `soft` the employee marked deleted, as deleteEmployee
 * does to an employee with history. It stands for a delete that runs while a punch naming the row is
 * being stored.
 */
export async function openDeletion(databaseUrl: string, table: 'employee' | 'device', id: number, options: { soft?: boolean } = {}) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('begin');
  if (options.soft && table === 'employee') {
    await client.query(`select 1 from employee where id = $1 for update`, [id]);
    await client.query(`update employee set deleted_at = now(), is_active = false where id = $1`, [id]);
  } else {
    await client.query(`delete from ${table} where id = $1`, [id]);
    await client.query(`update punch set ${table}_id = null where ${table}_id = $1`, [id]);
  }
  return {
    /**
     * Whether `work` waits for this transaction: true once another session is blocked by this
     * transaction's locks while `work` is still pending; false when `work` finished first. Tests
     * use `blocksThenCommit`: a failed check must not leave the locks held for the next tests.
     */
    async blocks(work: Promise<unknown>): Promise<boolean> {
      let settled = false;
      work.then(
        () => (settled = true),
        () => (settled = true),
      );
      const waiting = async () =>
        (await client.query(`select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))`)).rows[0].n > 0;
      await waitUntil("the work waits for the transaction's locks or finished", async () => settled || (await waiting()));
      return !settled;
    },
    /** `blocks(work)`, then `commit()` whatever the check found: whether `work` waited for this transaction. */
    async blocksThenCommit(work: Promise<unknown>): Promise<boolean> {
      try {
        return await this.blocks(work);
      } finally {
        await this.commit();
      }
    },
    async commit(): Promise<void> {
      try {
        await client.query('commit');
      } finally {
        await client.end();
      }
    },
  };
}
