import 'reflect-metadata';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { createLogger } from './logger';

/** Process entry: load the configuration, start the service, stop it cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config);
  const app = await createApp(config, { logger });
  if (app.bootstrapKey) {
    process.stdout.write(
      `\nFirst start: created the default workspace. Its admin API key (shown only now, store it safely):\n\n  ${app.bootstrapKey}\n\n`,
    );
  }
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    app.stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write(`timegate failed to start: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
