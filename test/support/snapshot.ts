import pg from 'pg';

/**
 * Every row of every table that belongs to a workspace (has a `workspace_id` column), ordered by id:
 * comparing two snapshots proves a refused request changed nothing of that workspace.
 */
export async function workspaceSnapshot(databaseUrl: string, workspaceId: number): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      // The audit log records refused writes too: that is its purpose, not a change of the workspace's data.
      // Partitions are read through their parent table.
      `select table_name from information_schema.columns where column_name = 'workspace_id' and table_schema = 'public' and table_name <> 'audit_event'
         and table_name not in (select inhrelid::regclass::text from pg_inherits) order by table_name`,
    );
    const snapshot: Record<string, unknown[]> = {};
    for (const { table_name } of tables.rows) {
      const rows = await client.query(`select * from "${table_name}" where workspace_id = $1 order by 1`, [workspaceId]);
      snapshot[table_name] = rows.rows;
    }
    const workspace = await client.query('select * from workspace where id = $1', [workspaceId]);
    snapshot.workspace = workspace.rows;
    return snapshot;
  } finally {
    await client.end();
  }
}

/** The tables whose rows differ between two snapshots, with the rows on each side: a failed comparison names what changed. */
export function snapshotChanges(before: Record<string, unknown[]>, after: Record<string, unknown[]>): string {
  const tables = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = tables.filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]));
  return changed.map((table) => `${table}: ${JSON.stringify(before[table])} -> ${JSON.stringify(after[table])}`).join('\n') || 'no table changed';
}

/** Row counts of every public table: a refused request must not add or remove rows anywhere. */
export async function tableCounts(databaseUrl: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{
      tablename: string;
    }>(`select tablename from pg_tables where schemaname = 'public' and tablename not like 'mikro_orm%' and tablename <> 'audit_event'
         and tablename not in (select inhrelid::regclass::text from pg_inherits) order by 1`);
    const counts: Record<string, number> = {};
    for (const { tablename } of tables.rows) {
      counts[tablename] = Number((await client.query(`select count(*) from "${tablename}"`)).rows[0].count);
    }
    return counts;
  } finally {
    await client.end();
  }
}
