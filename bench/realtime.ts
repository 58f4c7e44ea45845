// `npm run bench:realtime`: latency from a punch upload to 100 graphql-ws subscribers at 200 punches/s,
// and webhook deliveries per second to a local receiver. Prints figures; asserts nothing.
// Uses DATABASE_URL when set, otherwise a throw-away embedded PostgreSQL.
import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createClient } from 'graphql-ws';
import pino from 'pino';
import WebSocket from 'ws';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { PunchRecordType } from '../src/entities/punch.entity';
import { recordPunches } from '../src/services/attendance/punch.service';
import { formatDeviceTime } from '../src/simulator/wire-format';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../test/support/factories';
import { rest } from '../test/support/http';
import { MASTER_KEY } from '../test/support/test-app';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Sent first at the same rate and not measured, as every scenario warms up (JIT, pool connections, prepared statements). */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 2000);
/**
 * `terminal`: what a terminal in realtime mode does, one ATTLOG line per `POST /iclock/cdata` over
 * keep-alive HTTP (the real upload path, storeDevicePunches); `record`: recordPunches called
 * in-process, one record per call; `rest`: POST /public/v2/punches.
 */
const SOURCE = process.env.BENCH_SOURCE ?? 'terminal';
const SOURCES: Record<string, string> = { terminal: 'terminal ATTLOG uploads over HTTP, one line each', record: 'recordPunches in-process', rest: 'REST' };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  let dataDir: string | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  let pg: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
  if (!databaseUrl) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-bench-'));
    pg = await startEmbeddedPostgres({ dataDir, port: null });
    databaseUrl = pg.serverUrl(`bench_${Date.now()}`);
  }
  // TIMEGATE_* settings of the environment apply (e.g. TIMEGATE_EVENT_BATCH_MS=0 to compare).
  const settings = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('TIMEGATE_'))) as Record<string, string>;
  // One key sends every REST punch: the per-key rate limit (20/s by default) would be what is measured.
  const config = loadConfig({
    TIMEGATE_RATE_LIMIT_BURST: '1000000',
    TIMEGATE_RATE_LIMIT_PER_MINUTE: '10000000',
    ...settings,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    TIMEGATE_MASTER_KEY: MASTER_KEY,
    TIMEGATE_WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const app = await createApp(config, { logger: pino({ level: 'silent' }) });
  try {
    const ws = await createWorkspace(app.url, { maxEmployees: 10 });
    const company = await createCompany(app.url, ws.key);
    const device = await createDevice(app.url, ws.key, company.id, { time_zone: 'UTC' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
    await fetch(`${app.url}/iclock/cdata?SN=${device.serial_number}&options=all&pushver=2.4.1`);
    const employee = await createEmployee(app.url, ws.key, company.id, { pin: '1' });

    // --- subscription latency: the subscribers run in a worker thread, as remote clients would not share the server's CPU ---
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    const subscribers = new Worker(__filename, { workerData: { url: app.url, key: ws.key, count: SUBSCRIBERS } });
    subscribers.on('message', (batch: Array<[string, number]>) => {
      for (const [punchTime, at] of batch) {
        const sent = sentAt.get(punchTime);
        if (sent !== undefined) latencies.push(at - sent);
      }
    });
    while (app.events.subscriberCount(ws.id) < SUBSCRIBERS) await sleep(20);

    const ctx = {
      principal: { kind: 'terminal' as const, serialNumber: '*' },
      em: app.database.orm.em.fork(),
      requestId: 'bench',
      logger: app.logger,
      now: () => new Date(),
      config,
    };
    const line = (punchTime: Date) => ({
      companyId: company.id,
      employeeId: employee.id,
      deviceId: device.id,
      deviceSerial: device.serial_number,
      pin: '1',
      punchTime,
      localTime: punchTime.toISOString().slice(0, 19).replace('T', ' '),
      timeZone: 'UTC',
      punchState: '0',
      verifyType: 'fingerprint',
      verifyCode: 1,
      recordType: PunchRecordType.device,
      workCode: null,
      deviceRecordIndex: null,
      receivedAt: new Date(),
    });
    const total = RATE * SECONDS;
    const base = Date.UTC(2026, 0, 1);
    /** Punch request -> its commit acknowledged: the write side of the latency, without the fan-out. */
    const writeLatencies: number[] = [];
    let failures = 0;
    /** `count` punches at RATE from punch time `base + first` seconds; measured ones are timed. Returns when all are answered, with the rate achieved. */
    const send = async (count: number, first: number, measured: boolean): Promise<number> => {
      const started = performance.now();
      const requests: Promise<unknown>[] = [];
      const written = (sent: number) => () => measured && writeLatencies.push(performance.timeOrigin + performance.now() - sent);
      for (let i = 0; i < count; i++) {
        const due = started + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        const punchTime = new Date(base + (first + i) * 1000).toISOString();
        const sent = performance.timeOrigin + performance.now();
        if (measured) sentAt.set(punchTime, sent);
        const failed = () => measured && failures++;
        if (SOURCE === 'terminal') {
          const body = `1\t${formatDeviceTime(new Date(punchTime), 0)}\t0\t1\t0\t0\t0\r\n`;
          requests.push(
            upload(agent, `${app.url}/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=9999`, body).then(
              (ok) => (ok ? written(sent)() : failed()),
              failed,
            ),
          );
          continue;
        }
        if (SOURCE === 'record') {
          requests.push(recordPunches({ ...ctx, em: app.database.orm.em.fork() }, ws.id, [line(new Date(punchTime))]).then(written(sent), failed));
          continue;
        }
        requests.push(
          rest(app.url, 'POST', '/public/v2/punches', {
            key: ws.key,
            body: { employee_id: employee.id, device_id: device.id, company_id: company.id, punch_time: punchTime, punch_state: '0' },
          }).then((r) => (r.status === 201 ? written(sent)() : failed()), failed),
        );
      }
      await Promise.all(requests);
      return count / ((performance.now() - started) / 1000);
    };
    await send(RATE * WARMUP_SECONDS, -1_000_000, false);
    await sleep(500);
    // Every garbage-collection pause of the service (it runs in this process) while measured.
    const gcPauses: number[] = [];
    const gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcPauses.push(entry.duration);
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    const achieved = await send(total, 0, true);
    const expected = total * SUBSCRIBERS;
    const deadline = Date.now() + 30_000;
    while (latencies.length < expected && Date.now() < deadline) await sleep(50);
    gcObserver.disconnect();
    gcPauses.sort((a, b) => a - b);
    latencies.sort((a, b) => a - b);
    writeLatencies.sort((a, b) => a - b);
    if (latencies.length === 0) latencies.push(NaN);
    if (writeLatencies.length === 0) writeLatencies.push(NaN);
    console.log(
      `subscriptions: ${total} punches (${SOURCES[SOURCE]}, after ${WARMUP_SECONDS} s of warm-up) at ${achieved.toFixed(0)}/s (target ${RATE}/s, ${failures} failed) to ${SUBSCRIBERS} subscribers`,
    );
    console.log(
      `  received ${latencies.length}/${expected}; latency punch request -> subscriber: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    console.log(`  tail: p99.9 ${percentile(latencies, 99.9).toFixed(1)} ms`);
    console.log(
      `  GC pauses while measured: ${gcPauses.length}, ${gcPauses.reduce((a, b) => a + b, 0).toFixed(0)} ms in all; p50 ${(gcPauses.length ? percentile(gcPauses, 50) : 0).toFixed(1)} ms, p99 ${(gcPauses.length ? percentile(gcPauses, 99) : 0).toFixed(1)} ms, max ${(gcPauses.at(-1) ?? 0).toFixed(1)} ms; over 10 ms: ${gcPauses.filter((d) => d > 10).length}, over 50 ms: ${gcPauses.filter((d) => d > 50).length}`,
    );
    console.log(
      `  of which the write (request -> committed): p50 ${percentile(writeLatencies, 50).toFixed(1)} ms, p99 ${percentile(writeLatencies, 99).toFixed(1)} ms (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    await subscribers.terminate();
    agent.destroy();

    // --- webhook throughput ---
    let received = 0;
    let firstAt = 0;
    let lastAt = 0;
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        firstAt ||= performance.now();
        lastAt = performance.now();
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    await rest(app.url, 'POST', '/public/v2/webhooks', {
      key: ws.key,
      body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, event_types: ['attendance.created'] },
    });
    const lines = Array.from({ length: WEBHOOKS }, (_, i) => line(new Date(base + 10_000_000 + i * 1000)));
    const queuedAt = performance.now();
    for (let i = 0; i < lines.length; i += 500) await recordPunches({ ...ctx, em: app.database.orm.em.fork() }, ws.id, lines.slice(i, i + 500));
    const webhookDeadline = Date.now() + 120_000;
    while (received < WEBHOOKS && Date.now() < webhookDeadline) await sleep(20);
    console.log(
      `webhooks: ${received}/${WEBHOOKS} delivered to a local receiver at ${(received / ((lastAt - firstAt) / 1000)).toFixed(0)}/s (concurrency ${config.webhookConcurrency}); all done ${((lastAt - queuedAt) / 1000).toFixed(1)} s after the first commit`,
    );
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  } finally {
    await app.stop();
    await pg?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One terminal upload; true when the service stored the line (`OK: 1`). */
function upload(agent: http.Agent, url: string, body: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'iClock Proxy/1.09' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          if (text !== 'OK: 1') console.error('upload failed:', res.statusCode, text);
          resolve(res.statusCode === 200 && text === 'OK: 1');
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Worker thread: `count` graphql-ws clients; reports (punchTime, absolute receive time) in batches. */
async function subscriberThread(): Promise<void> {
  const { url, key, count } = workerData as { url: string; key: string; count: number };
  let batch: Array<[string, number]> = [];
  setInterval(() => {
    if (batch.length === 0) return;
    parentPort!.postMessage(batch);
    batch = [];
  }, 20);
  for (let i = 0; i < count; i++) {
    const client = createClient({ url: `${url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey: key }, retryAttempts: 0 });
    client.subscribe<{ punchCreated: { punch: { punchTime: string } } }>(
      { query: 'subscription { punchCreated { cursor punch { id punchTime } } }' },
      {
        next: (value) => batch.push([value.data!.punchCreated.punch.punchTime, performance.timeOrigin + performance.now()]),
        error: (error) => console.error('subscription ended:', (error as { code?: number }).code ?? error),
        complete: () => undefined,
      },
    );
  }
}

if (!isMainThread) void subscriberThread();
else
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
