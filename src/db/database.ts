import { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres';
import { ormOptions } from './orm-config';

export interface Database {
  orm: MikroORM;
  url: string;
  close(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL, then applies the committed migrations.
 * `close()` closes the pool and stops the embedded server if this process started it.
 */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, logger });
    url = embedded.serverUrl('timegate');
    logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL started');
  }
  try {
    const orm = await MikroORM.init(ormOptions(url));
    await orm.migrator.up();
    return {
      orm,
      url,
      close: async () => {
        await orm.close(true);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
