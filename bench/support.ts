// Shared pieces of the terminal benchmarks: a PostgreSQL (DATABASE_URL's server, or an embedded one
// in a temporary folder), the service started as its own process (`node dist/src/main.js`), and a
// workspace with devices made through the public API. The load generator runs in the bench process.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded-postgres';

export const MASTER_KEY = 'bench-master-key-0123456789abcdefghijklmnopqrstuvwxyz';
const ROOT = path.resolve(__dirname, '..', '..');

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

/** A fresh database: on DATABASE_URL's server when set, else on an embedded PostgreSQL. */
export async function benchDatabase(label: string): Promise<BenchDatabase> {
  const name = `tg_bench_${label}_${process.pid}`;
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    return { url: url.toString(), stop: async () => {} };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-bench-pg-'));
  const server: EmbeddedDatabase = await startEmbeddedPostgres({ dataDir, port: null });
  return {
    url: server.serverUrl(name),
    stop: async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The node flags and environment of `npm start`, read from package.json so the service is measured
 * exactly as it runs in production (docs/decisions.md, "Memory per terminal"): a script of the form
 * `NAME=value ... node --flag ... dist/src/main.js`, where a value may be `${NAME:-default}`.
 */
export function startCommand(): { env: Record<string, string>; nodeFlags: string[] } {
  const script: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let at = 0;
  for (let m; (m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(words[at] ?? '')); at++) env[m[1]!] = /^\$\{\w+:-(.*)\}$/.exec(m[2]!)?.[1] ?? m[2]!;
  if (words[at] !== 'node' || words.at(-1) !== 'dist/src/main.js') throw new Error(`unexpected start script: ${script}`);
  return { env, nodeFlags: words.slice(at + 1, -1) };
}

const START = startCommand();

/**
 * `node <script>` with env; resolves once `/healthz` (or `readyPath`) answers 200. BENCH_NODE_ARGS (e.g. `--cpu-prof`) go to the service's node only.
 * `logFile`: the process's standard output (where its logs go) is appended there instead of discarded.
 */
export async function spawnServer(script: string, env: Record<string, string>, readyPath = '/healthz', logFile?: string): Promise<ServiceProcess> {
  const port = await freePort();
  const out = logFile ? fs.openSync(logFile, 'a') : 'ignore';
  const service = script.includes('main.js');
  const nodeArgs = service ? [...START.nodeFlags, ...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [])] : [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, script)], {
    env: { ...(service ? START.env : {}), ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', out, 'inherit'],
  });
  // The child holds its own descriptor of the file.
  if (typeof out === 'number') fs.closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    const ok = await fetch(url + readyPath).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      // Not left running behind the failed scenario.
      child.kill('SIGTERM');
      throw new Error(`${script} did not start`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The Timegate service as its own process against `databaseUrl`. */
export function spawnService(databaseUrl: string, env: Record<string, string> = {}, logFile?: string): Promise<ServiceProcess> {
  return spawnServer(
    'dist/src/main.js',
    { DATABASE_URL: databaseUrl, TIMEGATE_MASTER_KEY: MASTER_KEY, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    '/healthz',
    logFile,
  );
}

/** A JSON request with a bearer key; throws unless the answer is 2xx. */
export async function call(url: string, key: string, method: string, pathName: string, body?: unknown): Promise<any> {
  const response = await fetch(url + pathName, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  // A balancer's own answer (503 without a healthy process, 504 past its timeout) is HTML, not JSON.
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${pathName}: ${response.status} ${text.slice(0, 200)}`);
  }
  if (!response.ok) throw new Error(`${method} ${pathName}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

export interface BenchFleet {
  key: string;
  companyId: number;
  serials: string[];
  deviceIds: number[];
}

/** A workspace (plan raised) with one company and `count` devices `<prefix>0001...` in `timeZone`. */
export async function createFleet(url: string, count: number, prefix: string, timeZone = 'UTC'): Promise<BenchFleet> {
  const gql = async (key: string, query: string, variables: Record<string, unknown>) => {
    const r = await call(url, key, 'POST', '/graphql', { query, variables });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return r.data;
  };
  const created = await gql(MASTER_KEY, 'mutation ($name: String!) { createWorkspace(input: { name: $name }) { workspace { id } apiKey { key } } }', {
    name: `bench ${prefix}`,
  });
  const key: string = created.createWorkspace.apiKey.key;
  await gql(MASTER_KEY, 'mutation ($id: Int!, $input: WorkspacePlanInput!) { setWorkspacePlan(workspaceId: $id, input: $input) { id } }', {
    id: created.createWorkspace.workspace.id,
    input: { maxDevices: count + 10, maxEmployees: 1000 },
  });
  const company = await call(url, key, 'POST', '/public/v2/companies', { name: 'Bench', code: `B${prefix}` });
  const serials: string[] = [];
  const deviceIds: number[] = [];
  for (let i = 1; i <= count; i++) {
    const serial = `${prefix}${String(i).padStart(4, '0')}`;
    const device = await call(url, key, 'POST', '/public/v2/devices', { name: serial, serial_number: serial, company_id: company.id, time_zone: timeZone });
    serials.push(serial);
    deviceIds.push(device.id);
  }
  return { key, companyId: company.id, serials, deviceIds };
}

export async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Prints the machine-readable line first, then the readable summary. */
export function report(result: Record<string, unknown>, summary: string[]): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  for (const line of summary) process.stdout.write(`${line}\n`);
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** `--name <number>` from the command line, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

export interface Throughput {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** Requests answered over all measured runs. */
  requests: number;
  /** Requests/s of each measured run (requestsPerSecond is their mean). */
  runs: number[];
}

type AutocannonOptions = Parameters<typeof autocannon>[0];

function throughput(results: Awaited<ReturnType<typeof autocannon>>[]): Throughput {
  const runs = results.map((r) => Math.round(r.requests.average));
  return {
    requestsPerSecond: Math.round(runs.reduce((a, b) => a + b, 0) / runs.length),
    p50Ms: Math.max(...results.map((r) => r.latency.p50)),
    p99Ms: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0),
    requests: results.reduce((n, r) => n + r.requests.total, 0),
    runs,
  };
}

/** The benchmark method (docs/benchmarks.md) for a figure without a baseline: a 2 s warm-up at the same settings, then one measured run. */
export async function measure(options: AutocannonOptions, duration: number): Promise<Throughput> {
  await autocannon({ ...options, duration: 2 });
  return throughput([await autocannon({ ...options, duration })]);
}

/**
 * The benchmark method (docs/benchmarks.md: 2 runs x 10 s) for a figure and its baseline: both warmed up 2 s, then
 * `runs` measured runs of each, interleaved (ours, baseline, ours, baseline), so that whatever else
 * the shared machine does (a checkpoint, the page cache writing back the previous scenario's
 * files) falls on both sides. Figures are the mean of the runs; latencies the worst run's.
 */
export async function measureSideBySide(
  ours: AutocannonOptions,
  baseline: AutocannonOptions,
  duration: number,
  runs = 2,
): Promise<{ ours: Throughput; baseline: Throughput }> {
  await autocannon({ ...ours, duration: 2 });
  await autocannon({ ...baseline, duration: 2 });
  const results = { ours: [] as Awaited<ReturnType<typeof autocannon>>[], baseline: [] as Awaited<ReturnType<typeof autocannon>>[] };
  for (let i = 0; i < runs; i++) {
    results.ours.push(await autocannon({ ...ours, duration }));
    results.baseline.push(await autocannon({ ...baseline, duration }));
  }
  return { ours: throughput(results.ours), baseline: throughput(results.baseline) };
}

/** Runs a scenario's `main`; a failure prints its stack and exits 1 (bench/run.ts reports the scenario as failed). */
export function runScenario(main: () => Promise<void>): void {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
    process.exit(1);
  });
}
