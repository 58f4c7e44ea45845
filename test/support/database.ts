import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';

/**
 * The real PostgreSQL the tests run against: the server of TEST_DATABASE_URL when set (an outside
 * server, or the one the global setup of a parallel run started for all its workers:
 * ./shared-database), otherwise an embedded server this process starts on first use and the root
 * hook stops after the run. Each caller gets a database of its own, so suites never see each
 * other's rows. Unit tests get none: the unit layer runs with TIMEGATE_TEST_NO_DATABASE set, and a
 * unit test that asks for a database fails, saying it belongs in test/integration.
 */
let lazyServer: Promise<TestServer> | null = null;
let counter = 0;

export interface TestServer {
  /** The URL of database `name` on this server. */
  url(name: string): string;
  /** Stops the server at once (its data is thrown away) and removes its data folder. */
  stop(): Promise<void>;
}

/** A URL to a new, empty database on the test server (MikroORM creates it on connect). */
export async function freshDatabaseUrl(label = 'db'): Promise<string> {
  return (await server()).url(databaseName(label));
}

/**
 * A new database holding the committed migrations already, for a service started on it: a copy
 * (`CREATE DATABASE ... TEMPLATE`) of the migrated template (migratedTemplate), which costs a
 * fraction of migrating each suite's database from scratch. The service still runs its migrator at
 * start and finds nothing to apply; tests of the migrations themselves use freshDatabaseUrl.
 */
export async function migratedDatabaseUrl(label = 'db'): Promise<string> {
  const test = await server();
  const name = databaseName(label);
  const client = new Client({ connectionString: test.url('postgres') });
  await client.connect();
  try {
    await client.query(`create database "${name}" template "${await migratedTemplate()}"`);
  } finally {
    await client.end();
  }
  return test.url(name);
}

let template: Promise<string> | null = null;

/**
 * The name of the migrated template database on the test server: the one named by
 * TEST_DATABASE_TEMPLATE (a parallel run's global setup migrates it once, before the workers
 * start), else one this process migrates on first use.
 */
export async function migratedTemplate(): Promise<string> {
  const named = process.env.TEST_DATABASE_TEMPLATE;
  template ??= named ? Promise.resolve(named) : server().then(migrateTemplate);
  return template;
}

async function migrateTemplate(test: TestServer): Promise<string> {
  // Loaded here, not at the top: the root hook loads this module in unit runs too.
  const [{ MikroORM }, { ormOptions }] = await Promise.all([import('@mikro-orm/postgresql'), import('../../src/db/orm-config.js')]);
  const name = databaseName('template');
  const orm = await MikroORM.init(ormOptions(test.url(name)));
  try {
    await orm.migrator.up();
  } finally {
    await orm.close(true);
  }
  return name;
}

function databaseName(label: string): string {
  counter += 1;
  return `tg_${label.replace(/\W/g, '_').slice(0, 30)}_${process.pid}_${counter}`.toLowerCase();
}

async function server(): Promise<TestServer> {
  if (process.env.TIMEGATE_TEST_NO_DATABASE) {
    throw new Error('a unit test asked for a database: unit tests run without PostgreSQL; move this test to test/integration');
  }
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    return {
      url: (name) => {
        const url = new URL(external);
        url.pathname = `/${name}`;
        return url.toString();
      },
      stop: async () => undefined,
    };
  }
  lazyServer ??= startTestServer();
  return lazyServer;
}

/** Stops the embedded server this process started on first use, if it did (the root hook, after the run). */
export async function stopTestDatabase(): Promise<void> {
  if (!lazyServer) return;
  const started = lazyServer;
  lazyServer = null;
  template = null;
  await (await started).stop();
}

/**
 * Starts an embedded PostgreSQL in a new folder under the system's temporary folder. It is stopped
 * by `stop()`, and also when this process gets SIGINT or SIGTERM (Ctrl-C, a CI timeout): then the
 * server is stopped and its folder removed before the process ends with that signal.
 */
export async function startTestServer(): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-test-pg-'));
  // The run's data is thrown away: no fsync and no full-page images. A PostgreSQL process that
  // crashes (the drills stop it at once) still loses nothing: what it wrote is in the kernel's page
  // cache; only a crash of the machine would, and then the run is lost anyway. Every commit still
  // waits for its WAL write (synchronous_commit stays on), so an acknowledged write is a written one.
  const starting = startEmbeddedPostgres({ dataDir, port: null, settings: ['fsync=off', 'full_page_writes=off'] });
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      const server = await starting.catch(() => null);
      // The run's data is thrown away, so PostgreSQL's immediate shutdown (SIGQUIT) is enough: it
      // skips the shutdown checkpoint, which after the whole suite can outlast the hook on a busy machine.
      const pid = postmasterPid(dataDir);
      if (pid !== null) await stopImmediately(pid);
      else await server?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      running.delete(stop);
      if (running.size === 0 && !exiting) listenForSignals(false);
    })());
  running.add(stop);
  listenForSignals(true);
  try {
    const server = await starting;
    return { url: (name) => server.serverUrl(name), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Stops of the servers this process started and has not stopped yet. */
const running = new Set<() => Promise<void>>();

let exiting = false;

function onSignal(signal: NodeJS.Signals): void {
  // A second signal (Ctrl-C reaches every process of the terminal's group, and a runner forwards
  // it too) must not end the process before the servers are stopped.
  if (exiting) return;
  exiting = true;
  void Promise.allSettled([...running].map((stop) => stop())).then(() => {
    // With our listeners gone, the signal's default action ends the process as the signal meant;
    // if another listener keeps it alive, it exits anyway, with the shell's code for that signal.
    listenForSignals(false);
    setTimeout(() => process.exit(128 + os.constants.signals[signal]), 2000).unref();
    process.kill(process.pid, signal);
  });
}
const onSigint = () => onSignal('SIGINT');
const onSigterm = () => onSignal('SIGTERM');

function listenForSignals(on: boolean): void {
  process.removeListener('SIGINT', onSigint);
  process.removeListener('SIGTERM', onSigterm);
  if (on) {
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
  }
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
