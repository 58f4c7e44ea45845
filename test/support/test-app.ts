import pino from 'pino';
import { createApp, type App } from '../../src/app';
import { loadConfig, type Config } from '../../src/config/config';
import { migratedDatabaseUrl } from './database';

export const MASTER_KEY = 'test-master-key-0123456789abcdefghijklmnopqrstuvwxyz';

export interface TestApp {
  app: App;
  url: string;
  config: Config;
  /** Admin key of the default workspace created on first start. */
  adminKey: string;
  stop(): Promise<void>;
}

/** Starts the real service on a free port against a new database of its own (the migrations applied: see migratedDatabaseUrl). */
export async function startTestApp(
  env: Record<string, string> = {},
  label = 'app',
  options: { now?: () => Date; logger?: pino.Logger } = {},
): Promise<TestApp> {
  const config = loadConfig({
    DATABASE_URL: env.DATABASE_URL ?? (await migratedDatabaseUrl(label)),
    PORT: '0',
    HOST: '127.0.0.1',
    TIMEGATE_MASTER_KEY: MASTER_KEY,
    LOG_LEVEL: 'silent',
    // Suites send hundreds of requests (and megabytes of bodies) with one key; the rate-limit and
    // byte-budget suites set their own small limits.
    TIMEGATE_RATE_LIMIT_BURST: '1000000',
    TIMEGATE_RATE_LIMIT_BURST_BYTES: String(1024 ** 3),
    ...env,
  });
  const app = await createApp(config, { logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), now: options.now });
  if (!app.bootstrapKey) throw new Error('expected a fresh database to create the default workspace');
  return { app, url: app.url, config, adminKey: app.bootstrapKey, stop: () => app.stop() };
}
