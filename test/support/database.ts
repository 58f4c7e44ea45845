import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded-postgres';

/**
 * The real PostgreSQL the tests run against: TEST_DATABASE_URL's server when set, otherwise one
 * embedded server started on first use and stopped by the root hook. Each caller gets a database
 * of its own (MikroORM creates it on connect), so suites never see each other's rows.
 */
let embedded: Promise<EmbeddedDatabase> | null = null;
let dataDir: string | null = null;
let counter = 0;

async function serverUrl(database: string): Promise<string> {
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const url = new URL(external);
    url.pathname = `/${database}`;
    return url.toString();
  }
  embedded ??= (() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-test-pg-'));
    return startEmbeddedPostgres({ dataDir, port: null });
  })();
  return (await embedded).serverUrl(database);
}

/** A URL to a new, empty database on the test server. */
export async function freshDatabaseUrl(label = 'db'): Promise<string> {
  counter += 1;
  return serverUrl(`tg_${label.replace(/\W/g, '_').slice(0, 30)}_${process.pid}_${counter}`.toLowerCase());
}

export async function stopTestDatabase(): Promise<void> {
  if (!embedded) return;
  const server = await embedded;
  embedded = null;
  // The run's data is thrown away, so PostgreSQL's immediate shutdown (SIGQUIT) is enough: it skips
  // the shutdown checkpoint, which after the whole suite can outlast the hook on a busy machine.
  const pid = dataDir ? postmasterPid(dataDir) : null;
  if (pid === null) await server.stop();
  else await stopImmediately(pid);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

function postmasterPid(dir: string): number | null {
  const file = [path.join(dir, 'pg', 'postmaster.pid'), path.join(dir, 'postmaster.pid')].find((f) => fs.existsSync(f));
  if (!file) return null;
  const pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

async function stopImmediately(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return; // already gone
  }
  const gone = () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };
  while (!gone()) await new Promise((resolve) => setTimeout(resolve, 50));
}
