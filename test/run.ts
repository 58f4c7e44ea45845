// The test runner behind `npm test` and `npm run test:*` (docs/testing.md). It runs the compiled
// tests (dist/test) with mocha, in up to three passes:
//   1. the unit tests in parallel, with no database (TIMEGATE_TEST_NO_DATABASE: asking for one fails);
//   2. the integration, contract and browser tests in parallel (`--parallel`), on one embedded
//      PostgreSQL started by the global setup of ./support/shared-database and shared by the
//      workers, each suite with a database of its own;
//   3. the files of SERIAL below that time nothing (`alone: false`), two at a time (`--parallel`,
//      PAIRED workers, on one embedded PostgreSQL as in pass 2);
//   4. the files of SERIAL that time what the machine does (`alone: true`), one at a time, alone on
//      the machine.
// It ends with one summary of all passes, and exits non-zero when a test failed or a pass did not finish.
//
//   node dist/test/run.js all | unit | integration | browser | <file or folder>... [mocha options]
//
// A file or folder is given as its TypeScript path (test/integration/scim.test.ts, test/browser) or
// its compiled one (dist/test/...); one file runs in one mocha process, without parallel workers.
// Other arguments (--grep, --bail...) are handed to mocha. TIMEGATE_TEST_JOBS sets the number of
// parallel workers (default: JOBS).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');

/**
 * Parallel workers: one per core of the 2-core reference machine. Four finished a quiet run no sooner
 * (the parallel pass took 14 min with 4) and made the tests that wait on timers flaky (docs/testing.md).
 */
const JOBS = 2;

const LAYERS: Record<string, string[]> = {
  unit: ['test/unit'],
  integration: ['test/integration', 'test/contract'],
  browser: ['test/browser'],
};

/**
 * Test files that cannot run in the parallel pass, and why. Those that time what the machine does
 * (event-loop stalls, garbage collection, throttling pauses) run `alone`, one at a time, after every
 * other pass. The others start service processes, HAProxy or PostgreSQL servers of their own, or
 * hold transactions that would make many files' subscribers wait: beside the parallel pass's files
 * they would slow them and be slowed; alone, each mostly waits (on its processes, its servers, their
 * timers) with one core idle. They run two at a time (PAIRED workers) after the parallel pass, handed
 * out in this order (longest first).
 */
export const SERIAL: Record<string, { why: string; alone: boolean }> = {
  'test/unit/gc-compaction.test.ts': { why: 'times when V8 compacts the old generation while the event loop is busy or idle', alone: true },
  'test/integration/input-ranges.test.ts': { why: 'measures the longest /healthz wait during a heavy summary (event-loop stalls)', alone: true },
  'test/integration/limits.test.ts': { why: 'times the pauses of a throttled WebSocket (within 4 to 9 s)', alone: true },
  'test/integration/read-replica.test.ts': {
    why: 'starts a PostgreSQL primary and streaming standby of its own, pauses its replay, stops and restarts it',
    alone: false,
  },
  'test/integration/drill-kill-during-uploads.test.ts': { why: 'kills a service process while terminals upload', alone: false },
  'test/integration/load-balancer.test.ts': { why: 'runs three service processes behind HAProxy and kills one', alone: false },
  'test/integration/partitions.test.ts': {
    why: "migrates databases in place and holds a writer's transaction open across a partition's creation: the event feed delivers only below the oldest running transaction id of the whole server, so other files' subscribers would wait",
    alone: false,
  },
  'test/integration/events-multiprocess.test.ts': { why: 'starts and kills service processes', alone: false },
  'test/integration/drill-postgres-outage.test.ts': { why: 'stops and restarts a PostgreSQL of its own under load', alone: false },
  'test/integration/drill-postgres-outage-jobs.test.ts': { why: 'stops and restarts a PostgreSQL of its own', alone: false },
};

/** Workers of the paired pass: the files of SERIAL that time nothing run this many at a time. */
export const PAIRED = 2;

/**
 * The longest files of the parallel pass, longest first: `mocha --parallel` hands the files to its
 * workers in the order given, so these start first and the many short files fill both workers up to
 * the end, instead of one long file starting last and running on alone. After them come the browser
 * files (each drives Chromium for half a minute or more), then the rest. Measured with
 * TIMEGATE_TEST_TIMES (docs/testing.md); a file missing here is only scheduled later, never skipped.
 */
export const LONGEST_FIRST = [
  'test/integration/door-effect-scopes.test.ts',
  'test/integration/cli.test.ts',
  'test/integration/tenant-isolation.test.ts',
  'test/integration/lifecycle.test.ts',
  'test/integration/restore-drill.test.ts',
  'test/integration/device-actions.test.ts',
  'test/integration/rest-fuzz.test.ts',
  'test/integration/device-sync.test.ts',
  'test/integration/scim-list-memory.test.ts',
  'test/integration/self-service-refusals.test.ts',
  'test/integration/device-queue-bound.test.ts',
  'test/integration/sandbox.test.ts',
];

/** The parallel pass's files in the order the workers take them: LONGEST_FIRST, then the browser files, then the rest (each group sorted as found). */
export function longestFirst(files: string[]): string[] {
  const rank = (file: string) => {
    const source = sourceOf(file);
    const listed = LONGEST_FIRST.indexOf(source);
    if (listed >= 0) return listed;
    return source.startsWith(`test${path.sep}browser${path.sep}`) ? LONGEST_FIRST.length : LONGEST_FIRST.length + 1;
  };
  return files
    .map((file, i) => ({ file, i, rank: rank(file) }))
    .sort((x, y) => x.rank - y.rank || x.i - y.i)
    .map((x) => x.file);
}

export interface Pass {
  name: string;
  files: string[];
  parallel: boolean;
  /** No database may be asked for: every file is a unit test. */
  noDatabase: boolean;
  /** Parallel workers of this pass (undefined: TIMEGATE_TEST_JOBS, or JOBS). */
  jobs?: number;
}

interface Outcome {
  pass: Pass;
  seconds: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  summary: { passes: number; failures: number; pending: number; failed: { title: string; file?: string }[] } | null;
}

/** Mocha options followed by a value (which is then not taken for a path). */
const TAKES_VALUE = new Set([
  '--grep',
  '-g',
  '--fgrep',
  '-f',
  '--timeout',
  '-t',
  '--slow',
  '-s',
  '--retries',
  '--require',
  '-r',
  '--ui',
  '-u',
  '--file',
  '--ignore',
]);

function usage(message: string): never {
  console.error(`${message}\nusage: node dist/test/run.js all | unit | integration | browser | <file or folder>... [mocha options]`);
  process.exit(2);
}

/** The compiled test files (dist/test/**\/*.test.js) under a source or compiled path, sorted. */
function testFiles(target: string): string[] {
  const relative = path.relative(ROOT, path.resolve(target));
  if (relative.startsWith('..')) usage(`${target} is outside the project`);
  const compiled = relative.startsWith(`dist${path.sep}`) ? relative : path.join('dist', relative.replace(/\.ts$/, '.js'));
  const full = path.join(ROOT, compiled);
  if (!fs.existsSync(full)) usage(`${target}: ${compiled} does not exist (is it built? npm run build)`);
  if (fs.statSync(full).isFile()) return [full];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const at = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(at);
      else if (entry.name.endsWith('.test.js')) found.push(at);
    }
  };
  walk(full);
  return found;
}

/** The source path of a compiled test file: dist/test/x.test.js -> test/x.test.ts. */
const sourceOf = (file: string) => path.relative(DIST, file).replace(/\.js$/, '.ts');
const isUnit = (file: string) => sourceOf(file).startsWith(`test${path.sep}unit${path.sep}`);

/** The passes that run `files` (compiled paths), in order. */
export function plan(files: string[]): Pass[] {
  if (files.length === 1) return [{ name: 'one file', files, parallel: false, noDatabase: isUnit(files[0]!) }];
  const serialOrder = Object.keys(SERIAL);
  const inOrder = (list: string[]) => list.sort((a, b) => serialOrder.indexOf(sourceOf(a)) - serialOrder.indexOf(sourceOf(b)));
  const serial = files.filter((f) => sourceOf(f) in SERIAL);
  const alone = inOrder(serial.filter((f) => SERIAL[sourceOf(f)]!.alone));
  const paired = inOrder(serial.filter((f) => !SERIAL[sourceOf(f)]!.alone));
  const unit = files.filter((f) => isUnit(f) && !serial.includes(f));
  const rest = files.filter((f) => !isUnit(f) && !serial.includes(f));
  const passes: Pass[] = [];
  if (unit.length) passes.push({ name: 'unit', files: unit, parallel: unit.length > 1, noDatabase: true });
  if (rest.length) passes.push({ name: 'parallel', files: longestFirst(rest), parallel: rest.length > 1, noDatabase: false });
  if (paired.length) passes.push({ name: 'paired', files: paired, parallel: paired.length > 1, noDatabase: paired.every(isUnit), jobs: PAIRED });
  if (alone.length) passes.push({ name: 'serial', files: alone, parallel: false, noDatabase: alone.every(isUnit) });
  return passes;
}

let current: ReturnType<typeof spawn> | null = null;
let interrupted: NodeJS.Signals | null = null;

function run(pass: Pass, mochaOptions: string[], jobs: number): Promise<Outcome> {
  const summaryFile = path.join(os.tmpdir(), `timegate-test-summary-${process.pid}-${pass.name.replace(/\W/g, '-')}.json`);
  fs.rmSync(summaryFile, { force: true });
  const args = [
    require.resolve('mocha/bin/mocha.js'),
    '--reporter',
    path.join(DIST, 'test', 'support', 'summary-reporter.js'),
    ...(pass.parallel ? ['--parallel', '--jobs', String(jobs)] : []),
    ...(pass.parallel && !pass.noDatabase ? ['--require', path.join(DIST, 'test', 'support', 'shared-database.js')] : []),
    ...mochaOptions,
    ...pass.files.map((f) => path.relative(ROOT, f)),
  ];
  // TIMEGATE_TEST_TIMES (a file name) is passed on: each file's wall time is appended to it (./support/root-hooks).
  const env: NodeJS.ProcessEnv = { ...process.env, TIMEGATE_TEST_SUMMARY: summaryFile };
  if (pass.noDatabase) env.TIMEGATE_TEST_NO_DATABASE = '1';
  const started = Date.now();
  console.log(
    `\n=== ${pass.name}: ${pass.files.length} file(s)${pass.parallel ? `, ${jobs} parallel workers` : ', one at a time'}${pass.noDatabase ? ', no database' : ''}`,
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit' });
    current = child;
    child.on('exit', (exitCode, signal) => {
      current = null;
      let summary: Outcome['summary'] = null;
      try {
        summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
        fs.rmSync(summaryFile, { force: true });
      } catch {
        // The pass ended before mocha's end of run (a crash, a signal): no counts.
      }
      resolve({ pass, seconds: (Date.now() - started) / 1000, exitCode, signal, summary });
    });
  });
}

const duration = (seconds: number) => (seconds < 60 ? `${seconds.toFixed(0)} s` : `${Math.floor(seconds / 60)} min ${(seconds % 60).toFixed(0)} s`);

function report(outcomes: Outcome[], seconds: number): boolean {
  let ok = interrupted === null;
  const total = { passes: 0, failures: 0, pending: 0 };
  const lines: string[] = [];
  const failed: string[] = [];
  for (const o of outcomes) {
    const s = o.summary;
    const finished = s !== null && o.signal === null;
    if (!finished || o.exitCode !== 0) ok = false;
    if (s) {
      total.passes += s.passes;
      total.failures += s.failures;
      total.pending += s.pending;
      failed.push(...s.failed.map((f) => `  ${f.file ? `${path.relative(DIST, f.file).replace(/\.js$/, '.ts')}: ` : ''}${f.title}`));
    }
    const counts = s ? `${s.passes} passing, ${s.failures} failing${s.pending ? `, ${s.pending} pending` : ''}` : 'did not finish';
    const end = o.signal ? ` (ended by ${o.signal})` : !finished || o.exitCode === 0 ? '' : ` (exit code ${o.exitCode})`;
    lines.push(`  ${o.pass.name.padEnd(9)} ${String(o.pass.files.length).padStart(3)} file(s)  ${duration(o.seconds).padStart(12)}  ${counts}${end}`);
  }
  console.log(`\n=== summary (${duration(seconds)})`);
  for (const line of lines) console.log(line);
  if (failed.length) console.log(`failed:\n${failed.join('\n')}`);
  if (interrupted) console.log(`interrupted by ${interrupted}`);
  console.log(`${total.passes} passing, ${total.failures} failing${total.pending ? `, ${total.pending} pending` : ''}: ${ok ? 'all passed' : 'FAILED'}`);
  return ok;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const targets: string[] = [];
  const mochaOptions: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (TAKES_VALUE.has(arg) && i + 1 < argv.length) mochaOptions.push(arg, argv[++i]!);
    else if (arg === 'all') targets.push(...Object.values(LAYERS).flat());
    else if (arg in LAYERS) targets.push(...LAYERS[arg]!);
    else if (!arg.startsWith('-') && fs.existsSync(path.resolve(arg))) targets.push(arg);
    else mochaOptions.push(arg);
  }
  if (targets.length === 0) usage('nothing to run');
  const files = [...new Set(targets.flatMap(testFiles))];
  if (files.length === 0) usage(`no *.test.ts file in ${targets.join(', ')}`);
  const jobs = Number(process.env.TIMEGATE_TEST_JOBS ?? JOBS);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) usage(`TIMEGATE_TEST_JOBS must be a whole number from 1 to 64, not ${process.env.TIMEGATE_TEST_JOBS}`);

  // Ctrl-C or SIGTERM: the running pass gets the signal (its mocha stops its database, ./support/database)
  // and no further pass starts.
  const forward = (signal: NodeJS.Signals) => {
    interrupted ??= signal;
    current?.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);

  const started = Date.now();
  const outcomes: Outcome[] = [];
  for (const pass of plan(files)) {
    if (interrupted) break;
    // Unit tests wait for nothing: more workers than cores would only take turns.
    outcomes.push(await run(pass, mochaOptions, pass.jobs ?? (pass.noDatabase ? Math.min(jobs, os.availableParallelism()) : jobs)));
  }
  const ok = report(outcomes, (Date.now() - started) / 1000);
  process.exitCode = interrupted ? 128 + os.constants.signals[interrupted] : ok ? 0 : 1;
}

// Imported (by its unit test) it only defines.
if (require.main === module) void main();
