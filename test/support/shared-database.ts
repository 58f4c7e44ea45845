import { migratedTemplate, startTestServer, type TestServer } from './database';

/**
 * Mocha global fixtures of a parallel run (`--parallel --require dist/test/support/shared-database.js`):
 * one embedded PostgreSQL for the whole run (none when TEST_DATABASE_URL names a server already) and
 * one template database migrated on it, made in the main process before the workers start and handed
 * to them through TEST_DATABASE_URL and TEST_DATABASE_TEMPLATE (they inherit the environment). Each
 * suite still makes a database of its own, a copy of the template. The server is stopped after the
 * run, and on SIGINT/SIGTERM (see startTestServer).
 */
let shared: TestServer | null = null;

export async function mochaGlobalSetup(): Promise<void> {
  if (!process.env.TEST_DATABASE_URL) {
    shared = await startTestServer();
    process.env.TEST_DATABASE_URL = shared.url('postgres');
  }
  process.env.TEST_DATABASE_TEMPLATE ??= await migratedTemplate();
}

export async function mochaGlobalTeardown(): Promise<void> {
  if (!shared) return;
  delete process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_TEMPLATE;
  await shared.stop();
  shared = null;
}
