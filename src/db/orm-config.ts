import path from 'node:path';
import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { entities } from '../entities';
import { afterCommitHooks } from './after-commit';

/** Folder of the TypeScript migration sources (migrations are generated here and committed). */
export const migrationsSourceDir = path.resolve(__dirname, '..', '..', '..', 'src', 'db', 'migrations');

/** Connections of a Timegate process to PostgreSQL (docs/deployment.md sizes max_connections from it). */
export const DATABASE_POOL_SIZE = 10;

export function ormOptions(databaseUrl: string, overrides: Partial<Options> = {}): Options {
  return defineConfig({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    forceUtcTimezone: true,
    // Notices that must wait for the COMMIT of the change they announce (after-commit.ts).
    subscribers: [afterCommitHooks],
    // Every request works on its own fork; touching the global context is a bug.
    allowGlobalContext: false,
    // The `live` filter of Employee hides deleted employees from lookups; it must not reach through
    // references: a punch or a day of a deleted employee still names them (their history).
    autoJoinRefsForFilters: false,
    debug: false,
    pool: { min: 0, max: DATABASE_POOL_SIZE },
    migrations: {
      path: path.join(__dirname, 'migrations'),
      pathTs: migrationsSourceDir,
      glob: '!(*.d).js',
      emit: 'ts',
      silent: true,
      snapshot: false,
      transactional: true,
      allOrNothing: true,
    },
    ...overrides,
  });
}
