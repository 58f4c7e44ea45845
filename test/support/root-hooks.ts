import 'reflect-metadata';
import { stopTestDatabase } from './database';

// Mocha root hooks: the embedded test database is started lazily by the suites that need it
// (./database) and stopped once after the whole run.
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await stopTestDatabase();
  },
};
