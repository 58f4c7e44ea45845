import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config';
import fs from 'node:fs';
import path from 'node:path';
import { hasEmbeddedData } from '../db/embedded-postgres';
import { StartupError } from '../errors/startup-error';
import { DomainError } from '../errors/domain-error';
import { createLogger } from '../logger';
import { runSimulateCommand } from '../simulator';
import type { RequestContext } from '../context/request-context';
import { SCOPES } from '../kernel/scopes';

/** The scopes a key may have, as the help lists them (`read,write[,admin,...]`). */
const SCOPE_LIST = `${SCOPES.slice(0, 2).join(',')}[,${SCOPES.slice(2).join(',')}]`;

export const USAGE = `Usage: timegate <command> [options]

Workspaces and keys (acts on the database of DATABASE_URL, or the embedded one in TIMEGATE_DATA_DIR):
  workspace create --name <name> [--time-zone <IANA zone>]   create a workspace and print its admin key
  workspace create --sandbox [--name <name>]                 create a sandbox (virtual terminals, tg_test_ key)
  workspace list                                             list workspaces and their plan limits
  workspace plan --id <n> [--max-companies <n>] [--max-devices <n>] [--max-employees <n>]
  key create --workspace <n> --scopes ${SCOPE_LIST} [--company-id <n>] [--name <name>]
  key list --workspace <n>
  key revoke --id <n>

Terminals:
  simulate --url <server> [options]                          play terminals against a server (simulate --help)

Add --json for machine-readable output; --help after a command explains it; --version prints the version.
Exit codes: 0 done, 1 unexpected failure, 2 bad usage or refused (unknown workspace or key, invalid value).
`;

/** One line per command, for `timegate <command> --help`. */
const COMMAND_HELP: Record<string, string> = {
  'workspace create':
    'timegate workspace create --name <name> [--time-zone <IANA zone>] [--sandbox] [--json]\n  Creates a workspace (plan: 1 company, 10 devices, 5,000 employees) and prints its admin API key, once.\n  --sandbox: a sandbox instead (docs/sandbox.md): seeded with a company, four employees, a virtual clock\n  and a virtual controller, on the sandbox plan (1 company, 5 devices, 50 employees), with a tg_test_ key;\n  --name is then optional ("Sandbox").',
  'workspace list': 'timegate workspace list [--json]\n  Lists the workspaces with their time zone and plan limits.',
  'workspace plan':
    'timegate workspace plan --id <n> [--max-companies <n>] [--max-devices <n>] [--max-employees <n>] [--json]\n  Changes the plan limits of a workspace.',
  'key create': `timegate key create --workspace <n> --scopes ${SCOPE_LIST} [--company-id <n>] [--name <name>] [--json]\n  Creates an API key of the workspace and prints it, once. A scim key (--scopes scim, no other scope) serves one company's directory: give --company-id.`,
  'key list': 'timegate key list --workspace <n> [--json]\n  Lists the keys of a workspace by prefix and last four characters (never the secret).',
  'key revoke': 'timegate key revoke --id <n> [--json]\n  Revokes a key: requests with it are refused from now on.',
};

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
}

type Printer = (value: unknown, text: string) => void;

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const [group, action, ...rest] = argv;
  if (group === 'simulate') return runSimulateCommand(argv.slice(1));
  if (group === '--version' || group === '-V' || group === 'version') {
    out(packageVersion());
    return 0;
  }
  if (!group || group === '--help' || group === '-h' || group === 'help') {
    out(USAGE);
    return group ? 0 : 2;
  }
  if (group.startsWith('-')) throw new UsageError(`unknown option "${group}"`);
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  const command = [group, action].filter((word) => word !== undefined && !word.startsWith('-')).join(' ');
  // `timegate workspace --help`: the group's commands.
  const groupHelp = Object.entries(COMMAND_HELP).filter(([name]) => name.startsWith(`${group} `));
  if (command === group && wantsHelp && groupHelp.length > 0) {
    out(groupHelp.map(([, help]) => help).join('\n\n'));
    return 0;
  }
  if (!COMMAND_HELP[command]) {
    throw new UsageError(
      groupHelp.length > 0 ? `unknown command "${command}": ${group} has ${groupHelp.map(([name]) => `"${name}"`).join(', ')}` : `unknown command "${command}"`,
    );
  }
  if (wantsHelp) {
    out(COMMAND_HELP[command]!);
    return 0;
  }
  const { values } = asUsageError(() =>
    parseArgs({
      args: rest,
      options: {
        name: { type: 'string' },
        'time-zone': { type: 'string' },
        sandbox: { type: 'boolean', default: false },
        id: { type: 'string' },
        workspace: { type: 'string' },
        scopes: { type: 'string' },
        'max-companies': { type: 'string' },
        'max-devices': { type: 'string' },
        'max-employees': { type: 'string' },
        'company-id': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    }),
  );
  const print: Printer = (value, text) => out(values.json ? JSON.stringify(value) : text);
  const int = (name: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
    return Number(value);
  };
  const required = (name: string, value: string | undefined): string => {
    if (value === undefined) throw new UsageError(`--${name} is required`);
    return value;
  };

  const config = loadConfig();
  // Never a new, empty database by mistake: without DATABASE_URL the data folder must hold the service's.
  if (!config.databaseUrl && !hasEmbeddedData(config.dataDir)) {
    throw new StartupError(
      `there is no Timegate database in ${path.resolve(config.dataDir)}: run this where the service keeps its data (or set TIMEGATE_DATA_DIR to that folder), or set DATABASE_URL.`,
    );
  }
  process.stderr.write(
    `timegate: using ${config.databaseUrl ? `the database of DATABASE_URL (${databaseName(config.databaseUrl)})` : `the embedded PostgreSQL in ${path.resolve(config.dataDir)}`}\n`,
  );
  const logger = createLogger({ logLevel: process.env.LOG_LEVEL ?? 'warn' });
  // The database and the services are loaded by the commands that use them: --version, --help and
  // usage errors answer without loading them (most of a second of start-up each).
  const { openDatabase } = require('../db/database') as typeof import('../db/database');
  const { createApiKey, listApiKeys, revokeApiKey } = require('../services/identity/api-key.service') as typeof import('../services/identity/api-key.service');
  const { listWorkspaces, setWorkspacePlan } = require('../services/directory/workspace.service') as typeof import('../services/directory/workspace.service');
  const { createWorkspace } = require('../services/sandbox/sandbox.service') as typeof import('../services/sandbox/sandbox.service');
  const database = await openDatabase(config, logger);
  const ctx: RequestContext = {
    principal: { kind: 'operator' },
    em: database.orm.em.fork(),
    requestId: 'cli',
    config,
    logger,
    now: () => new Date(),
  };
  try {
    switch (`${group} ${action ?? ''}`.trim()) {
      case 'workspace create': {
        const sandbox = values.sandbox === true;
        const {
          workspace,
          issued,
          sandbox: seed,
        } = await createWorkspace(ctx, {
          name: sandbox ? values.name : required('name', values.name),
          timeZone: values['time-zone'],
          sandbox,
        });
        print(
          {
            workspace: { id: workspace.id, name: workspace.name, timeZone: workspace.timeZone, sandbox: workspace.sandbox },
            apiKey: { key: issued.key, scopes: issued.apiKey.scopes },
            ...(seed ? { sandbox: seed } : {}),
          },
          `${sandbox ? 'sandbox' : 'workspace'} ${workspace.id} "${workspace.name}" created\nadmin API key (shown only now): ${issued.key}` +
            (seed ? `\nvirtual clock: device ${seed.clockId}, virtual controller: device ${seed.controllerId} (docs/sandbox.md)` : ''),
        );
        return 0;
      }
      case 'workspace list': {
        const workspaces = await listWorkspaces(ctx);
        print(
          workspaces.map((w) => ({
            id: w.id,
            name: w.name,
            timeZone: w.timeZone,
            maxCompanies: w.maxCompanies,
            maxDevices: w.maxDevices,
            maxEmployees: w.maxEmployees,
            sandbox: w.sandbox,
          })),
          workspaces
            .map(
              (w) =>
                `${w.id}\t${w.name}\t${w.timeZone}\tcompanies<=${w.maxCompanies} devices<=${w.maxDevices} employees<=${w.maxEmployees}${w.sandbox ? '\tsandbox' : ''}`,
            )
            .join('\n'),
        );
        return 0;
      }
      case 'workspace plan': {
        const w = await setWorkspacePlan(ctx, int('id', required('id', values.id))!, {
          maxCompanies: int('max-companies', values['max-companies']),
          maxDevices: int('max-devices', values['max-devices']),
          maxEmployees: int('max-employees', values['max-employees']),
        });
        print(
          { id: w.id, maxCompanies: w.maxCompanies, maxDevices: w.maxDevices, maxEmployees: w.maxEmployees },
          `workspace ${w.id}: companies<=${w.maxCompanies} devices<=${w.maxDevices} employees<=${w.maxEmployees}`,
        );
        return 0;
      }
      case 'key create': {
        const issued = await createApiKey(ctx, {
          workspaceId: int('workspace', required('workspace', values.workspace)),
          companyId: int('company-id', values['company-id']),
          name: values.name,
          scopes: required('scopes', values.scopes)
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        });
        print(
          { id: issued.apiKey.id, key: issued.key, scopes: issued.apiKey.scopes, companyId: issued.apiKey.companyId ?? null },
          `key ${issued.apiKey.id} created (shown only now): ${issued.key}`,
        );
        return 0;
      }
      case 'key list': {
        const keys = await listApiKeys(ctx, int('workspace', required('workspace', values.workspace)));
        print(
          keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, last4: k.last4, scopes: k.scopes, revokedAt: k.revokedAt ?? null })),
          keys
            .map(
              (k) =>
                `${k.id}\t${k.prefix}…${k.last4}\t${k.scopes.join(',')}\t${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'}\t${k.name || '(no name)'}`,
            )
            .join('\n'),
        );
        return 0;
      }
      case 'key revoke': {
        const key = await revokeApiKey(ctx, int('id', required('id', values.id))!);
        print({ id: key.id, revokedAt: key.revokedAt }, `key ${key.id} revoked`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await database.close();
  }
}

class UsageError extends Error {}

/** node:util's parseArgs refusals (an unknown option, a missing value) as usage errors: exit 2. */
function asUsageError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

/** `host:port/database` of a connection URL, without the credentials. */
function databaseName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

/** Process entry (bin/timegate.js): runs the command and exits with its code. */
export function main(argv: string[]): void {
  runCli(argv).then(
    (code) => process.exit(code),
    (error) => {
      if (error instanceof UsageError) {
        process.stderr.write(`timegate: ${error.message}\n\n${USAGE}`);
      } else if (error instanceof DomainError) {
        // A one-field error's message is its detail's: said once. Fields are named as the options are (--company-id).
        const option = (field: string) => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/^workspace-id$/, 'workspace')}`;
        const named = (text: string) =>
          error.details.filter((d) => /[A-Z]/.test(d.field)).reduce((said, d) => said.replace(new RegExp(`\\b${d.field}\\b`, 'g'), option(d.field)), text);
        const details = error.details
          .filter((d) => d.message !== error.message)
          .map((d) => `\n  ${option(d.field)}: ${named(d.message)}`)
          .join('');
        process.stderr.write(`timegate: ${named(error.message)}${details}\n`);
      } else if (error instanceof ConfigError) {
        process.stderr.write(`${error.message}\n`);
      } else if (error instanceof StartupError) {
        process.stderr.write(`timegate: ${error.message}\n`);
      } else {
        process.stderr.write(`timegate: ${error instanceof Error ? error.stack : error}\n`);
      }
      process.exit(error instanceof UsageError || error instanceof DomainError || error instanceof ConfigError || error instanceof StartupError ? 2 : 1);
    },
  );
}

if (require.main === module) main(process.argv.slice(2));
