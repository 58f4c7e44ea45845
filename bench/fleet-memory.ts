// Memory of the service per polling terminal: the service (its own process) idle, then with N
// simulated attendance terminals (TerminalFleet in this process, one shared keep-alive agent)
// handshaking and polling every 10 s. The devices are registered first with one SQL insert. RSS and
// heap are read from the service's own /metrics (timegate_process_resident_memory_bytes,
// timegate_nodejs_heap_size_used_bytes), several samples each, median. Loaded memory is sampled in
// the steady state only: after `--settle` seconds AND once a whole poll interval has seen at least
// 95 % of the expected polls (the first round of handshakes, option uploads and INFO polls writes to
// the database and can take longer than the settle time on a busy machine).
// Baseline: a bare node:http server polled at the same rate (bareServerGrowth), before the service starts.
// Run: npm run build && node dist/bench/fleet-memory.js [--terminals 10000] [--poll 10] [--settle 40] [--samples 20] [--max-wait 180]
import fs from 'node:fs';
import http from 'node:http';
import 'reflect-metadata';
import { TerminalFleet } from '../src/simulator';
import { benchDatabase, createFleet, numberArg, report, spawnServer, spawnService, withClient, runScenario } from './support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Memory {
  rssBytes: number;
  heapUsedBytes: number;
  /** The parts of the RSS (Linux /proc/<pid>/status): private anonymous memory (heap, malloc) and mapped files (the node binary's code, libraries). */
  anonBytes: number;
  fileBytes: number;
}

const statusField = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024;

async function memoryOf(url: string, pid: number): Promise<Memory> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    rssBytes: gauge('timegate_process_resident_memory_bytes'),
    heapUsedBytes: gauge('timegate_nodejs_heap_size_used_bytes'),
    anonBytes: statusField(status, 'RssAnon'),
    fileBytes: statusField(status, 'RssFile'),
  };
}

interface Sampled extends Memory {
  rssMinBytes: number;
  rssMaxBytes: number;
}

/** Median of each figure (and the RSS range) over `count` samples one second apart. */
async function sampleMemory(url: string, pid: number, count: number): Promise<Sampled> {
  const samples: Memory[] = [];
  for (let i = 0; i < count; i++) {
    samples.push(await memoryOf(url, pid));
    await sleep(1000);
  }
  const median = (pick: (m: Memory) => number) => samples.map(pick).sort((a, b) => a - b)[Math.floor(count / 2)]!;
  const rss = samples.map((m) => m.rssBytes).sort((a, b) => a - b);
  return {
    rssBytes: median((m) => m.rssBytes),
    heapUsedBytes: median((m) => m.heapUsedBytes),
    anonBytes: median((m) => m.anonBytes),
    fileBytes: median((m) => m.fileBytes),
    rssMinBytes: rss[0]!,
    rssMaxBytes: rss[count - 1]!,
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/**
 * The baseline: how much a bare node:http server answering `OK` (bench/bare-server.ts) grows when
 * polled at the same rate over the same 64 keep-alive sockets. It holds no per-terminal state, so its
 * growth is what serving that request rate costs Node itself.
 */
async function bareServerGrowth(requestsPerSecond: number, seconds: number): Promise<{ idleRssBytes: number; loadedRssBytes: number; requests: number }> {
  const bare = await spawnServer('dist/bench/bare-server.js', {}, '/');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  try {
    await sleep(1000);
    const idleRssBytes = rssOf(bare.child.pid!);
    let requests = 0;
    const perTick = requestsPerSecond / 100;
    let owed = 0;
    const timer = setInterval(() => {
      for (owed += perTick; owed >= 1; owed--) {
        http
          .get(`${bare.url}/iclock/getrequest?SN=BARE`, { agent }, (res) => {
            res.resume();
            requests++;
          })
          .on('error', () => undefined); // requests in flight when the server stops
      }
    }, 10);
    await sleep(seconds * 1000);
    const samples: number[] = [];
    for (let i = 0; i < 10; i++, await sleep(500)) samples.push(rssOf(bare.child.pid!));
    clearInterval(timer);
    samples.sort((a, b) => a - b);
    return { idleRssBytes, loadedRssBytes: samples[5]!, requests };
  } finally {
    agent.destroy();
    await bare.stop();
  }
}

async function main(): Promise<void> {
  const terminals = numberArg('terminals', 10_000);
  const pollSeconds = numberArg('poll', 10);
  const settleSeconds = numberArg('settle', 40);
  // Samples one second apart: two poll intervals by default, so a whole cycle of polls, flushes and cache refreshes is covered.
  const samples = numberArg('samples', Math.max(20, 2 * pollSeconds));
  const maxWaitSeconds = numberArg('max-wait', 180);
  const baseline = await bareServerGrowth(terminals / pollSeconds, 30);
  const db = await benchDatabase('memory');
  // The handshake tells each terminal its poll delay: the service's, so it is set to the poll interval.
  const service = await spawnService(db.url, { TIMEGATE_ATT_DELAY: String(pollSeconds) });
  try {
    const { companyId } = await createFleet(service.url, 0, 'MEM');
    await withClient(db.url, (c) =>
      c.query(
        `insert into device (workspace_id, company_id, name, serial_number, time_zone, created_at, updated_at)
         select c.workspace_id, c.id, 'MEM' || lpad(i::text, 5, '0'), 'MEM' || lpad(i::text, 5, '0'), 'UTC', now(), now()
         from company c, generate_series(1, $2::int) i where c.id = $1`,
        [companyId, terminals],
      ),
    );
    const idle = await sampleMemory(service.url, service.child.pid!, 10);

    const fleet = new TerminalFleet({
      serverUrl: service.url,
      count: terminals,
      family: 'att',
      serialPrefix: 'MEM',
      pollIntervalMs: pollSeconds * 1000,
      startSpreadMs: pollSeconds * 1000,
      maxSockets: 64,
    });
    const began = Date.now();
    fleet.start();
    try {
      await sleep(settleSeconds * 1000);
      // Steady state: one whole poll interval with >= 95 % of the expected polls (checked every second).
      const history: number[] = [];
      let steady = false;
      while (!steady && Date.now() - began < (settleSeconds + maxWaitSeconds) * 1000) {
        history.push(fleet.counters().polls);
        if (history.length > pollSeconds) steady = history.at(-1)! - history.at(-1 - pollSeconds)! >= 0.95 * terminals;
        if (!steady) await sleep(1000);
      }
      const before = fleet.counters();
      const sampleStart = Date.now();
      const loaded = await sampleMemory(service.url, service.child.pid!, samples);
      const after = fleet.counters();
      const pollsPerSecond = (after.polls - before.polls) / ((Date.now() - sampleStart) / 1000);
      const online = after.online;
      const perTerminal = (loaded.rssBytes - idle.rssBytes) / Math.max(online, 1);
      const heapPerTerminal = (loaded.heapUsedBytes - idle.heapUsedBytes) / Math.max(online, 1);
      const result = {
        bench: 'fleet-memory',
        terminals,
        online,
        pollIntervalSeconds: pollSeconds,
        steady,
        samples,
        measuredAfterSeconds: Math.round((sampleStart - began) / 1000),
        pollsPerSecond: Math.round(pollsPerSecond),
        expectedPollsPerSecond: Math.round(terminals / pollSeconds),
        fleetErrors: after.errors,
        idleRssBytes: idle.rssBytes,
        loadedRssBytes: loaded.rssBytes,
        loadedRssMinBytes: loaded.rssMinBytes,
        loadedRssMaxBytes: loaded.rssMaxBytes,
        idleHeapUsedBytes: idle.heapUsedBytes,
        loadedHeapUsedBytes: loaded.heapUsedBytes,
        idleAnonBytes: idle.anonBytes,
        loadedAnonBytes: loaded.anonBytes,
        idleFileBytes: idle.fileBytes,
        loadedFileBytes: loaded.fileBytes,
        rssBytesPerTerminal: Math.round(perTerminal),
        anonBytesPerTerminal: Math.round((loaded.anonBytes - idle.anonBytes) / Math.max(online, 1)),
        fileBytesPerTerminal: Math.round((loaded.fileBytes - idle.fileBytes) / Math.max(online, 1)),
        heapBytesPerTerminal: Math.round(heapPerTerminal),
        target: 2048,
        met: perTerminal < 2048 && online === terminals && steady,
        bareIdleRssBytes: baseline.idleRssBytes,
        bareLoadedRssBytes: baseline.loadedRssBytes,
        bareRssBytesPerTerminal: Math.round((baseline.loadedRssBytes - baseline.idleRssBytes) / terminals),
        loadavg: fs.readFileSync('/proc/loadavg', 'utf8').trim(),
      };
      report(result, [
        `service memory with ${terminals} simulated terminals polling every ${pollSeconds} s (shared keep-alive agent, ${online} online):`,
        `  ${steady ? 'steady' : 'NOT steady'} after ${result.measuredAfterSeconds} s; polls ${result.pollsPerSecond}/s while sampling (expected ${result.expectedPollsPerSecond}/s), ${after.errors} fleet errors`,
        `  RSS  idle ${mb(idle.rssBytes)}, loaded ${mb(loaded.rssBytes)} (median of ${samples}, range ${mb(loaded.rssMinBytes)}-${mb(loaded.rssMaxBytes)}): ${result.rssBytesPerTerminal} B per terminal (target < 2048 B: ${result.met ? 'met' : 'NOT met'})`,
        `  of which anonymous (heap, malloc) ${mb(idle.anonBytes)} -> ${mb(loaded.anonBytes)}: ${result.anonBytesPerTerminal} B per terminal; mapped files (node's code) ${mb(idle.fileBytes)} -> ${mb(loaded.fileBytes)}: ${result.fileBytesPerTerminal} B`,
        `  heap idle ${mb(idle.heapUsedBytes)}, loaded ${mb(loaded.heapUsedBytes)}: ${result.heapBytesPerTerminal} B per terminal`,
        `  baseline: bare node:http polled at the same rate: RSS ${mb(baseline.idleRssBytes)} -> ${mb(baseline.loadedRssBytes)}, ${result.bareRssBytesPerTerminal} B per terminal (no per-terminal state)`,
      ]);
    } finally {
      await fleet.stop();
    }
  } finally {
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
