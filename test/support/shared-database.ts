import { startTestServer, type TestServer } from './database';

/**
 * Mocha global fixtures of a parallel run (`--parallel --require dist/test/support/shared-database.js`):
 * one embedded PostgreSQL for the whole run, started in the main process before the workers and
 * handed to them through TEST_DATABASE_URL (they inherit the environment); each suite still makes a
 * database of its own on it. Nothing is started when TEST_DATABASE_URL names a server already. The
 * server is stopped after the run, and on SIGINT/SIGTERM (see startTestServer).
 */
let shared: TestServer | null = null;

export async function mochaGlobalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  shared = await startTestServer();
  process.env.TEST_DATABASE_URL = shared.url('postgres');
}

export async function mochaGlobalTeardown(): Promise<void> {
  if (!shared) return;
  delete process.env.TEST_DATABASE_URL;
  await shared.stop();
  shared = null;
}
