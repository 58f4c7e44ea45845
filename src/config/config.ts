import path from 'node:path';

/**
 * Every setting of the service, described once: the environment variable, its default and what it
 * means. `loadConfig` validates them all and reports every bad value in one message; the README's
 * configuration table is checked against this list by a test.
 */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  embeddedPgPort: number | null;
  masterKey: string | null;
  logLevel: string;
  nodeEnv: string;
  restBodyLimitBytes: number;
  idempotencyTtlHours: number;
  defaultWorkspaceName: string;
}

export interface SettingDescription {
  env: string;
  default: string;
  meaning: string;
}

const projectRoot = path.resolve(__dirname, '..', '..', '..');

export const settings: Record<keyof Config, SettingDescription> = {
  port: { env: 'PORT', default: '8080', meaning: 'HTTP port for the API, GraphQL and the terminal endpoints (0 = any free port).' },
  host: { env: 'HOST', default: '0.0.0.0', meaning: 'Address to listen on.' },
  databaseUrl: {
    env: 'DATABASE_URL',
    default: '(unset)',
    meaning: 'PostgreSQL connection URL. When unset, an embedded PostgreSQL is started in TIMEGATE_DATA_DIR.',
  },
  dataDir: {
    env: 'TIMEGATE_DATA_DIR',
    default: '.data (inside the project)',
    meaning: 'Folder of the embedded PostgreSQL data (used only without DATABASE_URL); kept across restarts.',
  },
  embeddedPgPort: {
    env: 'TIMEGATE_PG_PORT',
    default: '(a free port)',
    meaning: 'Port of the embedded PostgreSQL on 127.0.0.1. Unset: a free port is chosen at each start.',
  },
  masterKey: {
    env: 'TIMEGATE_MASTER_KEY',
    default: '(unset)',
    meaning: 'Operator key (at least 32 characters) allowed to create workspaces and keys for any workspace through GraphQL.',
  },
  logLevel: { env: 'LOG_LEVEL', default: 'info', meaning: 'pino log level: fatal, error, warn, info, debug, trace or silent.' },
  nodeEnv: { env: 'NODE_ENV', default: 'development', meaning: '`production` hides internal error details and stack traces.' },
  restBodyLimitBytes: {
    env: 'TIMEGATE_REST_BODY_LIMIT',
    default: '1048576',
    meaning: 'Largest accepted REST/GraphQL request body in bytes; larger bodies get 413.',
  },
  idempotencyTtlHours: {
    env: 'TIMEGATE_IDEMPOTENCY_TTL_HOURS',
    default: '24',
    meaning: 'How long a response stored under an Idempotency-Key is replayed.',
  },
  defaultWorkspaceName: {
    env: 'TIMEGATE_DEFAULT_WORKSPACE',
    default: 'Default workspace',
    meaning: 'Name of the workspace created on first start of an empty database.',
  },
};

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates the configuration; throws one ConfigError listing every bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const int = (key: keyof Config, fallback: number, min: number, max: number): number => {
    const raw = env[settings[key].env];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${settings[key].env} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const str = (key: keyof Config): string | null => {
    const raw = env[settings[key].env];
    return raw === undefined || raw === '' ? null : raw;
  };

  const databaseUrl = str('databaseUrl');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL must start with postgres:// or postgresql:// (got "${databaseUrl.replace(/:[^:@/]*@/, ':***@')}")`);
  }
  const masterKey = str('masterKey');
  if (masterKey !== null && masterKey.length < 32) problems.push('TIMEGATE_MASTER_KEY must be at least 32 characters long');
  const logLevel = str('logLevel') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  const embeddedPgPortRaw = str('embeddedPgPort');

  const config: Config = {
    port: int('port', 8080, 0, 65535),
    host: str('host') ?? '0.0.0.0',
    databaseUrl,
    dataDir: path.resolve(str('dataDir') ?? path.join(projectRoot, '.data')),
    embeddedPgPort: embeddedPgPortRaw === null ? null : int('embeddedPgPort', 0, 1, 65535),
    masterKey,
    logLevel,
    nodeEnv: str('nodeEnv') ?? 'development',
    restBodyLimitBytes: int('restBodyLimitBytes', 1048576, 1024, 100 * 1048576),
    idempotencyTtlHours: int('idempotencyTtlHours', 24, 1, 24 * 30),
    defaultWorkspaceName: str('defaultWorkspaceName') ?? 'Default workspace',
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}
