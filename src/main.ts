// First: the OpenTelemetry SDK patches http and pg before anything loads them (when tracing is configured).
import { shutdownTracing } from './observability/tracing-setup';
import 'reflect-metadata';
import net from 'node:net';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { dataFolderOwner } from './db/embedded-postgres';
import { StartupError } from './errors/startup-error';
import { compactWhenWorthIt } from './gc-compaction';
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
  // One service per data folder (the CLI may share it): a second copy would only fight over the port.
  const owner = config.databaseUrl ? null : dataFolderOwner(config.dataDir);
  if (owner !== null) {
    throw new StartupError(
      `another Timegate is already running on the data folder ${config.dataDir} (process ${owner}): stop it first, or give this copy its own TIMEGATE_DATA_DIR or a DATABASE_URL.`,
    );
  }
  await checkPortFree(config.port, config.host);
  const logger = createLogger(config);
  const app = await createApp(config, { logger });
  compactWhenWorthIt(config.gcCompactionSeconds, () => app.clientActivity());
  if (app.bootstrapKey) {
    process.stdout.write(`\nFirst start: created the default workspace. Its admin API key (shown only now, store it safely):\n\n  ${app.bootstrapKey}\n\n`);
  }
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    app
      .stop()
      .then(() => shutdownTracing())
      .then(
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

/** Fails with one sentence when the port is taken, before anything (the database) starts. */
async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(`port ${port} on ${host} is already in use: stop the process that holds it or set PORT to a free one.`)
          : error,
      ),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

main().catch((error) => {
  if (error instanceof StartupError) process.stderr.write(`timegate: ${error.message}\n`);
  else process.stderr.write(`timegate failed to start: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
