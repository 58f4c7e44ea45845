// `npm run bench`: every scenario of bench/, each with its baseline in the same run, one after the
// other (each scenario is its own process: `node dist/bench/<name>.js`, runnable alone). Reads each
// scenario's JSON line, prints its figures as it finishes, and writes bench/results/latest.json and
// latest.md with the machine, the date and the git commit. Asserts nothing about time.
// Run: npm run bench   (BENCH_ONLY=heartbeat,ingest to run some scenarios only)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');

interface Figure {
  scenario: string;
  measure: string;
  value: number | null;
  unit: string;
  baseline?: { what: string; value: number | null };
  ratio?: number | null;
  target?: string;
  met?: boolean | null;
}

interface Scenario {
  name: string;
  script: string;
  args?: string[];
  env?: Record<string, string>;
  figures(output: ScenarioOutput): Figure[];
}

interface ScenarioOutput {
  json: Record<string, any>;
  text: string;
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** bench/realtime.ts prints readable lines (and may print a JSON line later): read both. */
function realtimeFigures(out: ScenarioOutput): { p50: number | null; p99: number | null; received: string | null; webhooks: number | null } {
  const latency = /p50 ([\d.]+) ms, p99 ([\d.]+) ms/.exec(out.text);
  const received = /received (\d+\/\d+)/.exec(out.text);
  const webhooks = /webhooks: \d+\/\d+ delivered to a local receiver at (\d+)\/s/.exec(out.text);
  const j = out.json;
  return {
    p50: num(j.p50Ms ?? j.latencyP50Ms) ?? (latency ? Number(latency[1]) : null),
    p99: num(j.p99Ms ?? j.latencyP99Ms) ?? (latency ? Number(latency[2]) : null),
    received: received?.[1] ?? null,
    webhooks: num(j.webhooksPerSecond ?? j.webhookDeliveriesPerSecond) ?? (webhooks ? Number(webhooks[1]) : null),
  };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'heartbeat',
    script: 'heartbeat.js',
    figures: ({ json: j }) => [
      {
        scenario: '1 terminal heartbeats (getrequest, nothing queued)',
        measure: 'requests/s',
        value: j.timegateRequestsPerSecond,
        unit: 'req/s',
        baseline: { what: "bare node:http answering 'OK'", value: j.bareRequestsPerSecond },
        ratio: j.ratio,
        target: '>= 50% of bare',
        met: j.met,
      },
    ],
  },
  {
    name: 'ingest',
    script: 'ingest.js',
    figures: ({ json: j }) => [
      {
        scenario: `2 ATTLOG ingestion (${j.terminals} terminals, ${j.linesPerBody}-line bodies)`,
        measure: 'punches stored/s',
        value: j.punchesPerSecond,
        unit: 'punches/s',
        target: '>= 20000/s',
        met: j.met,
      },
      {
        scenario: `2b ATTLOG ingestion against the physical limit`,
        measure: 'punches stored/s',
        value: j.punchesPerSecond,
        unit: 'punches/s',
        baseline: { what: 'node:http + pg, one multi-row INSERT per body', value: j.baseline.punchesPerSecond },
        ratio: j.ratio,
        target: '>= 80% of baseline',
        met: j.ratioMet,
      },
    ],
  },
  {
    name: 'history',
    script: 'history.js',
    figures: ({ json: j }) => [
      {
        scenario: `10a a device's day of punches, REST, on ${(j.punches / 1e6).toFixed(0)}M punches (${j.devices} terminals, ${j.months} months)`,
        measure: 'p99 latency',
        value: j.deviceDay.p99Ms,
        unit: 'ms',
        target: '< 50 ms',
        met: j.deviceDay.p99Ms < 50,
      },
      {
        scenario: `10b a company's week of punches, REST, on ${(j.punches / 1e6).toFixed(0)}M punches`,
        measure: 'p99 latency',
        value: j.companyWeek.p99Ms,
        unit: 'ms',
        target: '< 50 ms',
        met: j.companyWeek.p99Ms < 50,
      },
    ],
  },
  {
    name: 'rest-read',
    script: 'rest-read.js',
    figures: ({ json: j }) => [
      {
        scenario: '3a REST GET /public/v2/employees/{id}',
        measure: 'requests/s',
        value: j.single.timegate.requestsPerSecond,
        unit: 'req/s',
        baseline: { what: 'Express 5 + pg, same queries', value: j.single.baseline.requestsPerSecond },
        ratio: j.single.ratio,
        target: '>= 70% of baseline',
        met: j.single.met,
      },
      {
        scenario: '3b REST GET /public/v2/employees?per_page=100',
        measure: 'requests/s',
        value: j.list.timegate.requestsPerSecond,
        unit: 'req/s',
        baseline: { what: 'Express 5 + pg, same queries', value: j.list.baseline.requestsPerSecond },
        ratio: j.list.ratio,
        target: '>= 70% of baseline',
        met: j.list.met,
      },
      {
        scenario: '4 GraphQL employees(first: 100)',
        measure: 'requests/s',
        value: j.graphqlList.timegate.requestsPerSecond,
        unit: 'req/s',
        baseline: { what: 'the Express 5 + pg list (3b)', value: j.list.baseline.requestsPerSecond },
        ratio: j.graphqlList.ratioToBaseline,
        target: '>= 70% of baseline',
        met: j.graphqlList.met,
      },
      {
        scenario: '4b REST punches of a date range (first 100 of 3 days)',
        measure: 'requests/s',
        value: j.punchList.timegate.requestsPerSecond,
        unit: 'req/s',
        baseline: { what: 'Express 5 + pg, same query', value: j.punchList.baseline.requestsPerSecond },
        ratio: j.punchList.ratio,
        target: '>= 70% of baseline',
        met: j.punchList.met,
      },
      {
        scenario: '4c GraphQL punches(startDate, endDate, first: 100)',
        measure: 'requests/s',
        value: j.graphqlPunchList.timegate.requestsPerSecond,
        unit: 'req/s',
        baseline: { what: 'the Express 5 + pg punch list (4b)', value: j.punchList.baseline.requestsPerSecond },
        ratio: j.graphqlPunchList.ratioToBaseline,
        target: '>= 70% of baseline',
        met: j.graphqlPunchList.met,
      },
    ],
  },
  {
    name: 'realtime',
    script: 'realtime.js',
    figures: (out) => {
      const r = realtimeFigures(out);
      return [
        { scenario: `5 punch -> subscriber latency p50 (100 subscribers, received ${r.received ?? '?'})`, measure: 'p50', value: r.p50, unit: 'ms' },
        {
          scenario: '5 punch -> subscriber latency p99',
          measure: 'p99',
          value: r.p99,
          unit: 'ms',
          target: '< 100 ms',
          met: r.p99 === null ? null : r.p99 < 100,
        },
        { scenario: '6 webhook deliveries to a local receiver', measure: 'deliveries/s', value: r.webhooks, unit: 'deliveries/s', target: '(none)', met: null },
      ];
    },
  },
  {
    name: 'remote-open',
    script: 'remote-open.js',
    figures: ({ json: j }) => [
      {
        scenario: `remote open, unlock -> delivered, 1 s poll, ${j.bulkWaiting} bulk commands waiting`,
        measure: 'p99 latency',
        value: j.bulkP99Ms,
        unit: 'ms',
        baseline: { what: 'same, empty queue', value: j.emptyP99Ms },
        target: 'within one poll interval (1000 ms) of the empty queue',
        met: j.met,
      },
    ],
  },
  {
    name: 'fleet-memory',
    script: 'fleet-memory.js',
    figures: ({ json: j }) => [
      { scenario: `7 service RSS idle`, measure: 'RSS', value: Math.round(j.idleRssBytes / 1024), unit: 'KB' },
      {
        scenario: `7 service RSS with ${j.online}/${j.terminals} terminals polling every ${j.pollIntervalSeconds} s (${j.pollsPerSecond} polls/s)`,
        measure: 'RSS',
        value: Math.round(j.loadedRssBytes / 1024),
        unit: 'KB',
      },
      {
        scenario: '7 RSS per polling terminal beyond idle',
        measure: 'bytes/terminal',
        value: j.rssBytesPerTerminal,
        unit: 'B',
        baseline: { what: 'bare node:http polled at the same rate, B per terminal', value: j.bareRssBytesPerTerminal ?? null },
        ratio: j.bareRssBytesPerTerminal ? j.rssBytesPerTerminal / j.bareRssBytesPerTerminal : null,
        target: '< 2048 B',
        met: j.met,
      },
      { scenario: '7 of which anonymous memory (V8 heap, malloc) per terminal', measure: 'bytes/terminal', value: j.anonBytesPerTerminal ?? null, unit: 'B' },
      { scenario: "7 of which mapped files (node's code pages) per terminal", measure: 'bytes/terminal', value: j.fileBytesPerTerminal ?? null, unit: 'B' },
      { scenario: '7 heap used per polling terminal beyond idle', measure: 'bytes/terminal', value: j.heapBytesPerTerminal, unit: 'B' },
    ],
  },
  {
    name: 'punch-latency',
    script: 'punch-latency.js',
    figures: ({ json: j }) => [
      { scenario: 'extra: terminal punch -> row visible in the database, p50', measure: 'p50', value: j.p50Ms, unit: 'ms' },
      { scenario: 'extra: terminal punch -> row visible in the database, p99', measure: 'p99', value: j.p99Ms, unit: 'ms' },
    ],
  },
  {
    name: 'access-level-sync',
    script: 'access-level-sync.js',
    figures: ({ json: j }) => [
      {
        scenario: `extra: ${j.people} people x ${j.doors} doors onto one controller, commands`,
        measure: 'commands',
        value: num(j.add?.commands),
        unit: 'commands',
      },
      { scenario: `extra: ${j.people} people x ${j.doors} doors onto one controller, bytes`, measure: 'bytes', value: num(j.add?.bytes), unit: 'bytes' },
      {
        scenario: `extra: ${j.people} people x ${j.doors} doors taken off one controller, commands`,
        measure: 'commands',
        value: num(j.remove?.commands),
        unit: 'commands',
      },
      {
        scenario: `extra: ${j.people} people x ${j.doors} doors taken off one controller, bytes`,
        measure: 'bytes',
        value: num(j.remove?.bytes),
        unit: 'bytes',
      },
    ],
  },
  {
    name: 'attendance',
    script: 'attendance.js',
    figures: ({ json: j }) => [
      {
        scenario: `9a ATTLOG ingestion with the attendance worker (${j.employees} employees, one month)`,
        measure: 'punches/s',
        value: j.ingestWithWorkerPerSecond,
        unit: 'punches/s',
        baseline: { what: 'the same ingestion with the worker off', value: j.ingestWithoutWorkerPerSecond },
        ratio: j.ingestRatio,
        target: '>= 0.8 of baseline',
        met: j.ingestRatio >= 0.8,
      },
      {
        scenario: '9b month summary of the company through REST (median of 5)',
        measure: 'latency',
        value: j.summaryMedianMs,
        unit: 'ms',
        target: '< 1000 ms',
        met: j.summaryMedianMs < 1000 && j.summaryFirstMs < 1000,
      },
      {
        scenario: `9c punch upload -> attendanceDayUpdated, p99 (${j.dayEventsReceived} received)`,
        measure: 'p99',
        value: j.dayEventP99Ms,
        unit: 'ms',
        target: '< 1000 ms',
        met: j.dayEventP99Ms !== null && j.dayEventP99Ms < 1000,
      },
    ],
  },
  {
    name: 'fleet',
    script: 'fleet.js',
    figures: ({ json: j }) => {
      const s = j.steadyState ?? {};
      const scaled = `${s.terminals} terminals (${s.clocks} clocks, ${s.controllers} controllers; scale ${j.scale}), 3 processes behind HAProxy`;
      return [
        {
          scenario: `fleet: ${scaled}, CPU per terminal (services, HAProxy, PostgreSQL)`,
          measure: 'CPU',
          value: s.totalCpuMicrosPerTerminalSecond,
          unit: 'µs/s',
        },
        { scenario: 'fleet: service RSS per terminal beyond idle', measure: 'RSS', value: s.serviceRssBytesPerTerminal, unit: 'B' },
        {
          scenario: 'fleet: heartbeat p99 through HAProxy while the fleet polls',
          measure: 'p99',
          value: s.heartbeatLoaded?.p99Ms ?? null,
          unit: 'ms',
          baseline: { what: 'same probe before the fleet started', value: s.heartbeatIdle?.p99Ms ?? null },
        },
        {
          scenario: `fleet: lockdown of ${j.lockdown?.doors} doors at the shipped ${j.accDelaySeconds} s poll, per door p95`,
          measure: 'p95',
          value: j.lockdown?.doorP95Ms ?? null,
          unit: 'ms',
          target: '<= 2000 ms',
          met: j.lockdown?.met ?? null,
        },
        {
          scenario: `fleet: remote open while every controller syncs ${j.remoteOpen?.peoplePerController} people, p99 (${j.remoteOpen?.opensDuringSync} opens)`,
          measure: 'p99',
          value: j.remoteOpen?.p99Ms ?? null,
          unit: 'ms',
          target: `within one poll (${j.accDelaySeconds * 1000} ms) + round trip`,
          met: null,
        },
        {
          scenario: `fleet: morning burst, ${j.morningBurst?.punches} punches in ${j.morningBurst?.windowSeconds} s, punch -> day p95`,
          measure: 'p95',
          value: j.morningBurst?.punchToDayP95Ms ?? null,
          unit: 'ms',
        },
      ];
    },
  },
  {
    name: 'noisy-neighbour',
    script: 'noisy-neighbour.js',
    figures: ({ json: j }) => [
      {
        scenario: '8 noisy neighbour: B REST p99 while A misbehaves',
        measure: 'p99',
        value: j.bRest?.p99Ms ?? null,
        unit: 'ms',
        target: '< 200 ms',
        met: j.bRest ? j.bRest.p99Ms < 200 && j.bRest.failures === 0 : null,
      },
      {
        scenario: `8 noisy neighbour: B events within 2 s (of ${j.bEvents?.total ?? '?'}, max ${j.bEvents?.maxMs ?? '?'} ms)`,
        measure: 'within 2 s',
        value: j.bEvents?.within2s ?? null,
        unit: 'events',
        target: 'all',
        met: j.bEvents ? j.bEvents.within2s === j.bEvents.total : null,
      },
      {
        scenario: `8 noisy neighbour: B webhooks within 2 s (of ${j.bWebhooks?.total ?? '?'}, max ${j.bWebhooks?.maxMs ?? '?'} ms)`,
        measure: 'within 2 s',
        value: j.bWebhooks?.within2s ?? null,
        unit: 'webhooks',
        target: 'all',
        met: j.bWebhooks ? j.bWebhooks.within2s === j.bWebhooks.total : null,
      },
    ],
  },
];

/** Runs one scenario as its own process, echoing its output; the first JSON object line is its result. */
function runScenario(s: Scenario): Promise<ScenarioOutput & { seconds: number; exitCode: number | null }> {
  const began = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'bench', s.script), ...(s.args ?? [])], {
      env: { ...process.env, ...s.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      text += chunk;
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => {
      const line = text.split('\n').find((l) => l.startsWith('{') && l.endsWith('}'));
      let json: Record<string, any> = {};
      try {
        json = line ? JSON.parse(line) : {};
      } catch {
        json = {};
      }
      resolve({ json, text, seconds: Math.round((Date.now() - began) / 1000), exitCode: code });
    });
  });
}

function machine() {
  const cpus = os.cpus();
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return null;
    }
  };
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
    gitCommit: git(['rev-parse', 'HEAD']),
    gitDirty: (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL started by each scenario',
  };
}

const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const metCell = (met: boolean | null | undefined) => (met === true ? 'met' : met === false ? '**NOT met**' : '');

function markdown(result: {
  machine: ReturnType<typeof machine>;
  scenarios: Array<{ name: string; seconds: number; exitCode: number | null; figures: Figure[] }>;
}): string {
  const m = result.machine;
  const lines = [
    '# Timegate benchmark results (`npm run bench`)',
    '',
    `- Date: ${m.date}`,
    `- Commit: ${m.gitCommit ?? 'unknown'}${m.gitDirty ? ' (with uncommitted changes)' : ''}`,
    `- Machine: ${m.cpuModel}, ${m.cores} cores, ${(m.memoryBytes / 1024 ** 3).toFixed(1)} GB memory, Node ${m.node}, ${m.platform}`,
    `- Database: ${m.database}. Server and load generator in separate processes; autocannon -c 10, 2 s warm-up, then 10 s measured: two runs of each side, interleaved, where a figure has a baseline (heartbeats, REST), one run otherwise.`,
    '- Method and scenario descriptions: docs/benchmarks.md.',
    '',
    '| scenario | figure | baseline | ratio | target | result |',
    '|---|---|---|---|---|---|',
  ];
  for (const s of result.scenarios) {
    if (s.exitCode !== 0) lines.push(`| ${s.name} | **failed** (exit ${s.exitCode}) | | | | |`);
    for (const f of s.figures) {
      const baseline = f.baseline ? `${cell(f.baseline.value)} ${f.unit} (${f.baseline.what})` : '';
      const ratio = f.ratio === null || f.ratio === undefined ? '' : `${(f.ratio * 100).toFixed(1)}%`;
      lines.push(`| ${f.scenario} | ${cell(f.value)} ${f.unit} | ${baseline} | ${ratio} | ${cell(f.target)} | ${metCell(f.met)} |`);
    }
  }
  lines.push('', `Scenario run times: ${result.scenarios.map((s) => `${s.name} ${s.seconds} s`).join(', ')}.`, '');
  return lines.join('\n');
}

/**
 * Between scenarios: the previous one's PostgreSQL files (a data folder of WAL and tables, just
 * removed) are flushed and a moment passes, so that its write-back does not take CPU from the next
 * scenario's measurement (an absolute figure such as ingestion has no baseline to share it with).
 */
async function settle(): Promise<void> {
  try {
    execFileSync('sync');
  } catch {
    // no sync(1) on this system: the pause alone
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const selected = only ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;
  const scenarios: Array<{ name: string; seconds: number; exitCode: number | null; figures: Figure[]; raw: Record<string, any> }> = [];
  for (const [index, s] of selected.entries()) {
    if (index > 0) await settle();
    process.stdout.write(`\n=== ${s.name} ===\n`);
    const out = await runScenario(s);
    let figures: Figure[] = [];
    try {
      figures = out.exitCode === 0 ? s.figures(out) : [];
    } catch (error) {
      process.stderr.write(`could not read the figures of ${s.name}: ${error}\n`);
    }
    scenarios.push({ name: s.name, seconds: out.seconds, exitCode: out.exitCode, figures, raw: out.json });
    for (const f of figures) {
      const ratio = f.ratio === null || f.ratio === undefined ? '' : `, ${(f.ratio * 100).toFixed(1)}% of baseline`;
      process.stdout.write(`>> ${f.scenario}: ${cell(f.value)} ${f.unit}${ratio}${f.target ? ` (target ${f.target}: ${metCell(f.met) || '-'})` : ''}\n`);
    }
  }
  const result = { machine: machine(), scenarios };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'latest.md'), markdown(result));
  process.stdout.write(`\nwritten: bench/results/latest.json, bench/results/latest.md\n`);
  if (scenarios.some((s) => s.exitCode !== 0)) process.exitCode = 1;
}

void main();
