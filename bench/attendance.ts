// The attendance engine under a real month: a company of 1,000 employees (default shift 09:00–17:00,
// 30 min unpaid break) and 10 terminals upload one month of punches (4 per employee and workday,
// March 2026: 22 workdays, 88,000 punches) as ATTLOG bodies of 500 lines, 10 terminals at once.
//  (a) ingestion with the attendance worker on, as a ratio to the same ingestion with it off
//      (TIMEGATE_ATTENDANCE_WORKER=false), each on its own fresh database and service, two of each
//      in turn in the same run (the ratio of the totals);
//      also how long the worker needs after the last upload to have every day stored;
//  (b) the month's summary for the company through REST (`/public/v2/timesheets/summary`,
//      per_page=1000), first read and median of 5;
//  (c) punch upload -> `attendanceDayUpdated` received over graphql-ws: 400 single-punch uploads at
//      20 per second, each for a new (employee, date), timed from the upload's start.
// Targets: (a) >= 0.8, (b) < 1 s, (c) p99 < 1 s.
// Run: npm run build && node dist/bench/attendance.js [--employees 1000]
import 'reflect-metadata';
import http from 'node:http';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { benchDatabase, call, createFleet, numberArg, percentile, report, runScenario, spawnService, withClient, type ServiceProcess } from './support';

const TERMINALS = 10;
const LINES_PER_BODY = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pad = (n: number) => String(n).padStart(2, '0');

function post(agent: http.Agent, url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every punch of March 2026: workdays, 4 per employee (in ~09:00, lunch out 12:30, in 13:00, out ~17:30). */
function monthOfPunches(employees: number): string[] {
  const lines: string[] = [];
  for (let day = 1; day <= 31; day++) {
    const weekday = new Date(Date.UTC(2026, 2, day)).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const date = `2026-03-${pad(day)}`;
    for (let e = 1; e <= employees; e++) {
      const jitter = (e * 7 + day) % 20;
      lines.push(`${e}\t${date} 08:${pad(45 + (jitter % 15))}:00\t0\t1\t0`);
      lines.push(`${e}\t${date} 12:30:${pad(jitter)}\t0\t1\t0`);
      lines.push(`${e}\t${date} 13:00:${pad(jitter)}\t0\t1\t0`);
      lines.push(`${e}\t${date} 17:${pad(20 + jitter)}:00\t1\t1\t0`);
    }
  }
  return lines;
}

interface Setup {
  service: ServiceProcess;
  key: string;
  companyId: number;
  serials: string[];
  stop(): Promise<void>;
  databaseUrl: string;
}

async function setUp(label: string, employees: number, worker: boolean): Promise<Setup> {
  const db = await benchDatabase(label);
  const service = await spawnService(db.url, {
    TIMEGATE_ATTENDANCE_WORKER: String(worker),
    TIMEGATE_RATE_LIMIT_BURST: '1000000',
    TIMEGATE_RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const fleet = await createFleet(service.url, TERMINALS, label.toUpperCase().slice(0, 3));
  await call(service.url, fleet.key, 'POST', '/public/v2/shifts', {
    company_id: fleet.companyId,
    name: 'Office',
    start_time: '09:00',
    end_time: '17:00',
    break_minutes: 30,
    is_default: true,
  });
  // Employees with pins 1..N, 20 requests at a time.
  for (let first = 1; first <= employees; first += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, employees - first + 1) }, (_, i) =>
        call(service.url, fleet.key, 'POST', '/public/v2/employees', {
          name: 'Employee',
          lastname: String(first + i),
          code: `E${first + i}`,
          pin: String(first + i),
          company_id: fleet.companyId,
        }),
      ),
    );
  }
  for (const serial of fleet.serials) await fetch(`${service.url}/iclock/cdata?SN=${serial}&options=all&pushver=2.4.1`);
  return {
    service,
    key: fleet.key,
    companyId: fleet.companyId,
    serials: fleet.serials,
    databaseUrl: db.url,
    stop: async () => (await service.stop(), await db.stop()),
  };
}

/** Uploads the month from the terminals (each its share of the bodies, all at once); punches per second. */
async function ingestMonth(setup: Setup, lines: string[]): Promise<{ seconds: number; perSecond: number; stored: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: TERMINALS });
  const bodies: string[] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_BODY) bodies.push(`${lines.slice(i, i + LINES_PER_BODY).join('\r\n')}\r\n`);
  const began = process.hrtime.bigint();
  await Promise.all(
    setup.serials.map(async (serial, t) => {
      for (let b = t; b < bodies.length; b += TERMINALS) {
        const reply = await post(agent, `${setup.service.url}/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=1`, bodies[b]!);
        if (!reply.startsWith('OK')) throw new Error(`upload refused: ${reply}`);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  agent.destroy();
  const [{ n }] = await withClient(setup.databaseUrl, async (c) => (await c.query('select count(*)::int as n from punch')).rows);
  return { seconds, perSecond: n / seconds, stored: n };
}

async function main(): Promise<void> {
  const employees = numberArg('employees', 1000);
  const lines = monthOfPunches(employees);

  // (a) the same month into fresh services, worker off and on, twice in turn (one upload lasts a few
  // seconds, so a single pair moves with the machine); the ratio is of the totals.
  const offRuns: Array<{ seconds: number; stored: number }> = [];
  const onRuns: Array<{ seconds: number; stored: number }> = [];
  for (let round = 0; round < 2; round++) {
    const off = await setUp(`attoff${round}`, employees, false);
    offRuns.push(await ingestMonth(off, lines).finally(() => off.stop()));
    if (round === 0) {
      const on = await setUp(`atton${round}`, employees, true);
      onRuns.push(await ingestMonth(on, lines).finally(() => on.stop()));
    }
  }
  const on = await setUp('atton1', employees, true);
  try {
    onRuns.push(await ingestMonth(on, lines));
    const ingestEnd = Date.now();
    // Caught up: the worker's cursor is at the outbox's end and nothing is stale.
    await withClient(on.databaseUrl, async (c) => {
      for (;;) {
        const { rows } = await c.query(
          `select (select position from job_cursor where name = 'attendance') >= (select max(id) from event where type = 'attendance.created') as done`,
        );
        if (rows[0].done) return;
        await sleep(50);
      }
    });
    const catchUpSeconds = (Date.now() - ingestEnd) / 1000;
    const [{ days }] = await withClient(on.databaseUrl, async (c) => (await c.query('select count(*)::int as days from attendance_day')).rows);

    // (b) the month's summary, first read then median of 5.
    const summaryPath = `/public/v2/timesheets/summary?company_id=${on.companyId}&start_date=2026-03-01&end_date=2026-03-31&per_page=1000`;
    const timeSummary = async () => {
      const began = performance.now();
      const response = await fetch(on.service.url + summaryPath, { headers: { authorization: `Bearer ${on.key}` } });
      const rows = (await response.json()) as Array<{ days_present: number }>;
      if (response.status !== 200 || rows.length !== employees) throw new Error(`summary: ${response.status}, ${rows.length} rows`);
      return { ms: performance.now() - began, present: rows[0]!.days_present };
    };
    const first = await timeSummary();
    const repeats: number[] = [];
    for (let i = 0; i < 5; i++) repeats.push((await timeSummary()).ms);
    repeats.sort((a, b) => a - b);

    // (c) upload -> attendanceDayUpdated.
    const sent = new Map<string, number>();
    const latencies: number[] = [];
    const client = createClient({
      url: `${on.service.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${on.key}` },
      retryAttempts: 0,
    });
    await new Promise<void>((resolve, reject) => {
      client.subscribe<{ attendanceDayUpdated: { day: { employeeId: number; date: string } } }>(
        { query: 'subscription { attendanceDayUpdated { day { employeeId date } } }' },
        {
          next: (value) => {
            const day = value.data?.attendanceDayUpdated.day;
            const key = day && `${day.employeeId}:${day.date}`;
            const at = key ? sent.get(key) : undefined;
            if (key && at !== undefined) {
              latencies.push(performance.now() - at);
              sent.delete(key);
            }
          },
          error: reject,
          complete: () => undefined,
        },
      );
      client.on('connected', () => setTimeout(resolve, 200));
    });
    const employeeIds = (await withClient(on.databaseUrl, async (c) => (await c.query('select id, pin from employee order by id')).rows)) as Array<{
      id: number;
      pin: string;
    }>;
    const agent = new http.Agent({ keepAlive: true });
    const uploads = 400;
    for (let i = 0; i < uploads; i++) {
      const employee = employeeIds[i % employeeIds.length]!;
      const date = `2026-04-${pad(1 + Math.floor(i / employeeIds.length))}`;
      sent.set(`${employee.id}:${date}`, performance.now());
      void post(
        agent,
        `${on.service.url}/iclock/cdata?SN=${on.serials[i % TERMINALS]}&table=ATTLOG&Stamp=1`,
        `${employee.pin}\t${date} 09:0${i % 10}:00\t0\t1\t0\r\n`,
      );
      await sleep(50);
    }
    const deadline = Date.now() + 10_000;
    while (sent.size > 0 && Date.now() < deadline) await sleep(50);
    await client.dispose();
    agent.destroy();
    latencies.sort((a, b) => a - b);

    const rate = (runs: Array<{ seconds: number; stored: number }>) => runs.reduce((n, r) => n + r.stored, 0) / runs.reduce((t, r) => t + r.seconds, 0);
    const withWorker = { perSecond: rate(onRuns) };
    const withoutWorker = { perSecond: rate(offRuns) };
    const ratio = withWorker.perSecond / withoutWorker.perSecond;
    const p50 = percentile(latencies, 50);
    const p99 = latencies.length === uploads ? percentile(latencies, 99) : Infinity;
    report(
      {
        bench: 'attendance',
        employees,
        punches: lines.length,
        ingestWithoutWorkerPerSecond: Math.round(withoutWorker.perSecond),
        ingestWithWorkerPerSecond: Math.round(withWorker.perSecond),
        ingestRatio: Number(ratio.toFixed(3)),
        workerCatchUpSeconds: Number(catchUpSeconds.toFixed(2)),
        daysStored: days,
        summaryFirstMs: Math.round(first.ms),
        summaryMedianMs: Math.round(repeats[2]!),
        dayEventsReceived: latencies.length,
        dayEventP50Ms: Math.round(p50),
        dayEventP99Ms: Number.isFinite(p99) ? Math.round(p99) : null,
        met: ratio >= 0.8 && first.ms < 1000 && repeats[2]! < 1000 && p99 < 1000,
      },
      [
        `Attendance: ${employees} employees, March 2026, ${lines.length} punches from ${TERMINALS} terminals`,
        `  (a) ingestion ${Math.round(withWorker.perSecond)} punches/s with the worker, ${Math.round(withoutWorker.perSecond)} without: ratio ${ratio.toFixed(2)} (target >= 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'}); every day stored ${catchUpSeconds.toFixed(2)} s after the last upload (${days} days)`,
        `  (b) month summary through REST: first ${Math.round(first.ms)} ms, median of 5 ${Math.round(repeats[2]!)} ms (target < 1000 ms: ${first.ms < 1000 && repeats[2]! < 1000 ? 'met' : 'NOT met'})`,
        `  (c) upload -> attendanceDayUpdated: ${latencies.length}/${uploads} received, p50 ${Math.round(p50)} ms, p99 ${Number.isFinite(p99) ? Math.round(p99) : 'n/a'} ms (target < 1000 ms: ${p99 < 1000 ? 'met' : 'NOT met'})`,
      ],
    );
  } finally {
    await on.stop();
  }
}

runScenario(main);
