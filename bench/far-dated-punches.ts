// A terminal uploads one punch a day from 2000-01-01 to 2099-12-30 (36,524 ATTLOG lines, the third
// hardening round's finding) while another workspace reads its employees over REST every 20 ms.
// Before the quarantine, the punches of the coming 73 years went into the punch table's default
// partition and into timesheets, and the days they made were computed in batches that stalled
// every workspace for 0.45-0.8 s every few seconds for two minutes.
// Target: none of B's requests over 100 ms while A's upload is stored and its days computed.
// Reports B's REST p50/p99/max, how many of B's requests took over 100 ms, the service's longest
// event-loop stall (its lag histogram, read every second from /metrics), and what A's upload
// became (punches, quarantined records, punch partitions).
// Run: npm run build && node dist/bench/far-dated-punches.js [--seconds 60]
import 'reflect-metadata';
import { Worker } from 'node:worker_threads';
import { formatDeviceTime } from '../src/simulator/wire-format';
import { benchDatabase, call, createFleet, numberArg, percentile, report, runScenario, spawnService, withClient } from './support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** B's client on a worker thread: GETs `url` every 20 ms until stopped; each request's time and start (epoch ms), in order. */
function startReader(url: string, key: string) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const latencies = []; const startedAt = []; let failures = 0; let running = true;
     parentPort.on('message', (m) => { if (m === 'count') parentPort.postMessage({ count: latencies.length }); else running = false; });
     (async () => {
       while (running) {
         const started = performance.now();
         const response = await fetch(workerData.url, { headers: { authorization: 'Bearer ' + workerData.key } }).catch(() => null);
         if (!response || !response.ok) failures += 1;
         if (response) await response.arrayBuffer();
         latencies.push(performance.now() - started);
         startedAt.push(performance.timeOrigin + started);
         await new Promise((r) => setTimeout(r, Math.max(0, 20 - (performance.now() - started))));
       }
       parentPort.postMessage({ latencies, startedAt, failures });
     })();`,
    { eval: true, workerData: { url, key } },
  );
  // A failure of the thread fails the bench (which then stops the service and the database).
  let failed: ((error: Error) => void) | null = null;
  worker.once('error', (error) => failed?.(error));
  const next = () =>
    new Promise<any>((resolve, reject) => {
      failed = reject;
      worker.once('message', resolve);
    });
  return {
    count: async (): Promise<number> => {
      const answer = next();
      worker.postMessage('count');
      return (await answer).count;
    },
    stop: async (): Promise<{ latencies: number[]; startedAt: number[]; failures: number }> => {
      const answer = next();
      worker.postMessage('stop');
      const result = await answer;
      await worker.terminate();
      return result;
    },
  };
}

const DAYS = 36_524;

function farDatedAttlog(): string {
  const lines: string[] = [];
  for (let day = 0; day < DAYS; day++) lines.push(`${1000 + (day % 50)}\t${formatDeviceTime(new Date(Date.UTC(2000, 0, 1 + day, 9)), 0)}\t0\t1\t0\t0\t0`);
  return `${lines.join('\r\n')}\r\n`;
}

runScenario(async () => {
  const seconds = numberArg('seconds', 60);
  const database = await benchDatabase('far_dated');
  // B reads at 50 requests a second, over the default per-key rate limit: raised, so that B measures latency, not 429s.
  const service = await spawnService(database.url, { TIMEGATE_RATE_LIMIT_BURST: '1000000', TIMEGATE_RATE_LIMIT_PER_MINUTE: '10000000' });
  try {
    const a = await createFleet(service.url, 1, 'FARA');
    const b = await createFleet(service.url, 1, 'FARB');
    for (let i = 0; i < 50; i++) {
      await call(service.url, a.key, 'POST', '/public/v2/employees', {
        name: 'A',
        lastname: `P${i}`,
        code: `A${i}`,
        pin: String(1000 + i),
        company_id: a.companyId,
      });
      await call(service.url, b.key, 'POST', '/public/v2/employees', {
        name: 'B',
        lastname: `P${i}`,
        code: `B${i}`,
        pin: String(1000 + i),
        company_id: b.companyId,
      });
    }
    // B reads at a steady pace: one request every 20 ms, each timed from its start, in a thread of
    // its own: the upload's body is built and sent from this thread, and B, another tenant's client,
    // must time the service, not its neighbour in the load generator.
    const reader = startReader(`${service.url}/public/v2/employees?per_page=20`, b.key);
    // The service's own event-loop stalls: prom-client's lag histogram, read (and reset) every second.
    const stalls: number[] = [];
    let running = true;
    const scraper = (async () => {
      while (running) {
        const text = await fetch(`${service.url}/metrics`).then(
          (r) => r.text(),
          () => '',
        );
        const max = /^timegate_nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text);
        if (max) stalls.push(Number(max[1]) * 1000);
        await sleep(1000);
      }
    })();
    const body = farDatedAttlog();
    await sleep(3000);
    const warmup = await reader.count();
    const stallWarmup = stalls.length;
    const started = performance.now();
    const uploadStartedAt = performance.timeOrigin + started;
    const upload = await fetch(`${service.url}/iclock/cdata?SN=${a.serials[0]}&table=ATTLOG&Stamp=1`, { method: 'POST', body });
    const reply = await upload.text();
    const uploadMs = performance.now() - started;
    await sleep(seconds * 1000 - uploadMs);
    running = false;
    const { latencies, startedAt, failures } = await reader.stop();
    await scraper;
    const loop = stalls.slice(stallWarmup);
    const measured = latencies.slice(warmup).sort((x, y) => x - y);
    // When B's slow requests started, in seconds after the upload did (the upload took uploadMs).
    const slowAtSeconds = latencies.flatMap((ms, i) => (i >= warmup && ms > 100 ? [Math.round((startedAt[i]! - uploadStartedAt) / 100) / 10] : []));
    const stored = await withClient(database.url, async (client) => {
      const punches = await client.query('select count(*)::int as n from punch');
      const partitions = await client.query(`select count(*)::int as n from pg_inherits where inhparent = 'punch'::regclass`);
      const quarantined = await client.query(`select count(*)::int as n from pg_tables where tablename = 'quarantined_punch'`);
      const inQuarantine = quarantined.rows[0].n > 0 ? (await client.query('select count(*)::int as n from quarantined_punch')).rows[0].n : null;
      const days = await client.query('select count(*)::int as n from attendance_day');
      return { punches: punches.rows[0].n, punchPartitions: partitions.rows[0].n, quarantined: inQuarantine, attendanceDays: days.rows[0].n };
    });
    const over100 = measured.filter((ms) => ms > 100).length;
    const result = {
      scenario: 'far-dated-punches',
      lines: DAYS,
      terminalReply: reply.trim(),
      uploadMs: Math.round(uploadMs),
      bRequests: measured.length,
      bFailures: failures,
      bP50Ms: Math.round(percentile(measured, 50) * 10) / 10,
      bP99Ms: Math.round(percentile(measured, 99) * 10) / 10,
      bMaxMs: Math.round(measured.at(-1)! * 10) / 10,
      bOver100Ms: over100,
      bOver100MsStartedAtSeconds: slowAtSeconds,
      eventLoopMaxStallMs: Math.round(Math.max(...loop)),
      eventLoopSecondsOver100Ms: loop.filter((ms) => ms > 100).length,
      ...stored,
    };
    report(result, [
      `A uploads ${DAYS} far-dated punches (reply "${result.terminalReply}", ${result.uploadMs} ms); B over ${seconds} s: ${result.bRequests} requests,`,
      `  p50 ${result.bP50Ms} ms, p99 ${result.bP99Ms} ms, max ${result.bMaxMs} ms, ${over100} over 100 ms (target: none)${over100 ? `, started ${slowAtSeconds.join(', ')} s after the upload` : ''}`,
      `  the service's event loop: longest stall ${result.eventLoopMaxStallMs} ms, ${result.eventLoopSecondsOver100Ms} of ${loop.length} seconds with a stall over 100 ms`,
      `  stored: ${stored.punches} punches, ${stored.quarantined ?? 'no'} quarantined, ${stored.attendanceDays} attendance days, ${stored.punchPartitions} punch partitions`,
    ]);
  } finally {
    await service.stop();
    await database.stop();
  }
});
