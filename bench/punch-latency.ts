// Time from a punch made on a (simulated) terminal to its row being visible in the database:
// the simulator uploads it at once (Realtime=1); a separate connection polls for the row.
// Run: npm run build && node dist/bench/punch-latency.js [--samples 300]
import 'reflect-metadata';
import { once } from 'node:events';
import { SimulatedTerminal } from '../src/simulator';
import { benchDatabase, createFleet, percentile, report, spawnService, withClient, numberArg, runScenario } from './support';

async function main(): Promise<void> {
  const samples = numberArg('samples', 300);
  const db = await benchDatabase('latency');
  const service = await spawnService(db.url);
  const fleet = await createFleet(service.url, 1, 'LAT', 'Asia/Kolkata');
  const terminal = new SimulatedTerminal({
    serverUrl: service.url,
    serialNumber: fleet.serials[0]!,
    family: 'att',
    pollIntervalMs: 1000,
    connection: 'keep-alive',
  });
  try {
    terminal.start();
    await once(terminal, 'handshake');
    const latencies = await withClient(db.url, async (client) => {
      const measured: number[] = [];
      const start = Date.UTC(2026, 0, 5, 6, 0, 0);
      for (let i = 0; i < samples; i++) {
        const at = new Date(start + i * 1000);
        const began = process.hrtime.bigint();
        terminal.punch({ pin: String((i % 20) + 1), at });
        for (;;) {
          const found = await client.query('select 1 from punch where device_serial = $1 and punch_time = $2', [fleet.serials[0], at]);
          if (found.rowCount === 1) break;
        }
        measured.push(Number(process.hrtime.bigint() - began) / 1e6);
      }
      return measured.sort((a, b) => a - b);
    });
    const result = {
      bench: 'punch-latency',
      samples,
      p50Ms: Number(percentile(latencies, 50).toFixed(2)),
      p99Ms: Number(percentile(latencies, 99).toFixed(2)),
      maxMs: Number(latencies[latencies.length - 1]!.toFixed(2)),
    };
    report(result, [
      `punch latency (simulated terminal upload -> row visible to another connection), ${samples} punches one at a time:`,
      `  p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms`,
    ]);
  } finally {
    await terminal.stop();
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
