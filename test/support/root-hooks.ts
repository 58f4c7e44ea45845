import 'reflect-metadata';
import fs from 'node:fs';
import { stopTestDatabase } from './database';
import { runProcessCleanups } from './process-cleanup';

// Stack traces point into the TypeScript sources (what `node --enable-source-maps` does; set here so
// that mocha runs in one process, where signals reach the database cleanup of ./database directly).
process.setSourceMapsEnabled(true);

let startedAt = 0;

// Mocha root hooks: the embedded test database is started lazily by the suites that need it
// (./database) and stopped once after the run (in a parallel run's worker, after each file: there
// the server is the run's shared one, which this does not stop). What support modules keep for the
// whole process (the Chromium of ./browser) is closed after the run; a parallel run's worker keeps it
// for its next file, and playwright closes it when the worker exits.
export const mochaHooks = {
  beforeAll() {
    startedAt = Date.now();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await stopTestDatabase();
    if (process.env.MOCHA_WORKER_ID === undefined) await runProcessCleanups();
    const out = process.env.TIMEGATE_TEST_TIMES;
    if (out) {
      const files = [...new Set((this.test?.parent?.suites ?? []).map((s) => s.file))];
      fs.appendFileSync(out, `${((Date.now() - startedAt) / 1000).toFixed(1)}\t${files.join(' ')}\n`);
    }
  },
};
