import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/db/embedded-postgres';
import { waitUntil } from './wait-until';
import { MASTER_KEY } from './test-app';

const root = path.resolve(__dirname, '..', '..', '..');

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Resolves with the signal (or exit code) the process ended with. */
  exited: Promise<NodeJS.Signals | number | null>;
  kill(signal: NodeJS.Signals): Promise<NodeJS.Signals | number | null>;
}

/**
 * `npm start`'s entry point as a real child process on `databaseUrl`, ready (healthz 200) when this
 * resolves. `startMs`: how long its start may take (the first start on an empty database migrates
 * it); `logFile`: where its output goes (set LOG_LEVEL in `env`), else nowhere.
 */
export async function startServiceProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: { port?: number; startMs?: number; logFile?: string } = {},
): Promise<ServiceProcess> {
  const listen = options.port ?? (await freePort());
  const log = options.logFile ? fs.openSync(options.logFile, 'a') : 'ignore';
  const child = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(listen),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      TIMEGATE_MASTER_KEY: MASTER_KEY,
      TIMEGATE_RATE_LIMIT_BURST: '1000000',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  if (typeof log === 'number') fs.closeSync(log);
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const url = `http://127.0.0.1:${listen}`;
  try {
    await waitUntil(
      `the service process at ${url} is healthy`,
      async () => {
        if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it was ready (a refused setting?)`);
        return (await fetch(`${url}/healthz`).catch(() => null))?.ok;
      },
      options.startMs ?? 30_000,
    );
  } catch (error) {
    // Not started in time: it must not outlive the test that gave up on it.
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    child,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs one query on its own connection (the test's view of the database, independent of the service). */
export async function query<T extends pg.QueryResultRow = any>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Waits until a statement of the service matching `queryLike` (SQL `ilike`) waits on a row lock:
 * how the race tests let a concurrent change in at the right moment. Asked on a connection of its
 * own: inside a transaction, pg_stat_activity is read once and kept.
 */
export async function waitForLockWait(databaseUrl: string, queryLike: string): Promise<void> {
  const waiting = "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike $1";
  await waitUntil(
    `a query like ${queryLike} waits for a lock`,
    async () => (await query(databaseUrl, waiting, [queryLike])).length,
    (v) => v > 0,
  );
}

/**
 * A terminal's punch history as ATTLOG batches: `batches` bodies of `perBatch` lines, each line a
 * distinct (pin, time), so every stored punch can be counted by its key.
 */
export function attlogHistory(batches: number, perBatch: number, start = Date.UTC(2026, 2, 2, 6, 0, 0)): { lines: string[]; body: string }[] {
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = (ms: number) => {
    const d = new Date(ms);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  };
  return Array.from({ length: batches }, (_, b) => {
    const lines = Array.from({ length: perBatch }, (_, i) => `${100 + (i % 7)}\t${local(start + (b * perBatch + i) * 61_000)}\t${i % 2}\t1\t\t0\t0`);
    return { lines, body: `${lines.join('\r\n')}\r\n` };
  });
}

/** The (pin, local time) keys of a device's stored punches, with how often each is stored. */
export async function storedPunchKeys(databaseUrl: string, serial: string): Promise<Map<string, number>> {
  const rows = await query<{ key: string; n: string }>(
    databaseUrl,
    `select pin || '\t' || local_time as key, count(*) as n from punch where device_serial = $1 group by 1`,
    [serial],
  );
  return new Map(rows.map((r) => [r.key, Number(r.n)]));
}

/** `pin\tlocal time` of an ATTLOG line, the key `storedPunchKeys` counts by. */
export const lineKey = (line: string) => line.split('\t').slice(0, 2).join('\t');
