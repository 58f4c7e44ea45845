import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { startEmbeddedPostgres } from '../db/embedded-postgres';
import { migrationsSourceDir, ormOptions } from '../db/orm-config';

/**
 * `npm run migration:create`: applies the committed migrations to a scratch embedded PostgreSQL,
 * then writes a new migration into src/db/migrations with whatever the entities add to them.
 * (@mikro-orm/cli is not used: its TypeScript mode needs a runtime loader that TS 7 lacks.)
 */
async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-migration-'));
  const pg = await startEmbeddedPostgres({ dataDir, port: null });
  try {
    const orm = await MikroORM.init(ormOptions(pg.serverUrl('timegate_migration')));
    await orm.migrator.up();
    const result = await orm.migrator.createMigration(migrationsSourceDir);
    process.stdout.write(result.fileName ? `created ${path.join(migrationsSourceDir, result.fileName)}\n` : 'no changes: the migrations match the entities\n');
    await orm.close(true);
  } finally {
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
