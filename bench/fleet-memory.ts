// Memory of the service per polling terminal: the service (its own process) idle, then with N
// simulated attendance terminals (TerminalFleet in this process, one shared keep-alive agent)
// handshaking and polling every 10 s. The devices are registered first with one SQL insert. RSS and
// heap are read from the service's own /metrics (timegate_process_resident_memory_bytes,
// timegate_nodejs_heap_size_used_bytes), several samples each, median.
// Run: npm run build && node dist/bench/fleet-memory.js [--terminals 10000] [--poll 10] [--settle 40]
import 'reflect-metadata';
import { TerminalFleet } from '../src/simulator';
import { benchDatabase, createFleet, numberArg, report, spawnService, withClient } from './support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Memory {
  rssBytes: number;
  heapUsedBytes: number;
}

async function memoryOf(url: string): Promise<Memory> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { rssBytes: gauge('timegate_process_resident_memory_bytes'), heapUsedBytes: gauge('timegate_nodejs_heap_size_used_bytes') };
}

/** Median of `count` samples one second apart. */
async function sampleMemory(url: string, count: number): Promise<Memory> {
  const samples: Memory[] = [];
  for (let i = 0; i < count; i++) {
    samples.push(await memoryOf(url));
    await sleep(1000);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { rssBytes: median(samples.map((s) => s.rssBytes)), heapUsedBytes: median(samples.map((s) => s.heapUsedBytes)) };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const terminals = numberArg('terminals', 10_000);
  const pollSeconds = numberArg('poll', 10);
  const settleSeconds = numberArg('settle', 40);
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
    const idle = await sampleMemory(service.url, 5);

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
      const before = fleet.counters();
      const loaded = await sampleMemory(service.url, 10);
      const after = fleet.counters();
      const pollsPerSecond = (after.polls - before.polls) / 10;
      const online = after.online;
      const perTerminal = (loaded.rssBytes - idle.rssBytes) / Math.max(online, 1);
      const heapPerTerminal = (loaded.heapUsedBytes - idle.heapUsedBytes) / Math.max(online, 1);
      const result = {
        bench: 'fleet-memory',
        terminals,
        online,
        pollIntervalSeconds: pollSeconds,
        measuredAfterSeconds: Math.round((Date.now() - began) / 1000),
        pollsPerSecond: Math.round(pollsPerSecond),
        expectedPollsPerSecond: Math.round(terminals / pollSeconds),
        fleetErrors: after.errors,
        idleRssBytes: idle.rssBytes,
        loadedRssBytes: loaded.rssBytes,
        idleHeapUsedBytes: idle.heapUsedBytes,
        loadedHeapUsedBytes: loaded.heapUsedBytes,
        rssBytesPerTerminal: Math.round(perTerminal),
        heapBytesPerTerminal: Math.round(heapPerTerminal),
        target: 2048,
        met: perTerminal < 2048 && online === terminals,
      };
      report(result, [
        `service memory with ${terminals} simulated terminals polling every ${pollSeconds} s (shared keep-alive agent, ${online} online):`,
        `  polls ${result.pollsPerSecond}/s (expected ${result.expectedPollsPerSecond}/s), ${after.errors} fleet errors`,
        `  RSS  idle ${mb(idle.rssBytes)}, loaded ${mb(loaded.rssBytes)}: ${result.rssBytesPerTerminal} B per terminal (target < 2048 B: ${result.met ? 'met' : 'NOT met'})`,
        `  heap idle ${mb(idle.heapUsedBytes)}, loaded ${mb(loaded.heapUsedBytes)}: ${result.heapBytesPerTerminal} B per terminal`,
      ]);
    } finally {
      await fleet.stop();
    }
  } finally {
    await service.stop();
    await db.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
