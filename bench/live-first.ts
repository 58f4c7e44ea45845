// Live first: punch -> recomputed day (the `attendanceDayUpdated` event received over graphql-ws)
// for clock-ins made now, on a quiet service and while a 100,000-punch backfill (a terminal history
// of January 2026 for 800 employees, ATTLOG bodies of 500 lines from 10 terminals at once) is being
// ingested and then worked off by the attendance worker. Each live punch is one new (employee,
// today) made at the moment it is sent, from an 11th terminal, timed from the upload's start.
// Target: p95 <= 1 s during the backfill.
// Run: npm run build && node dist/bench/live-first.js [--punches 100000] [--quiet 50]
import 'reflect-metadata';
import http from 'node:http';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { benchDatabase, call, createFleet, numberArg, percentile, report, runScenario, spawnService, withClient } from './support';

const TERMINALS = 10;
const LINES_PER_BODY = 500;
const HISTORY_EMPLOYEES = 800;
const LIVE_EMPLOYEES = 200;
const LIVE_INTERVAL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pad = (n: number) => String(n).padStart(2, '0');

/** POST a body; a kept-alive socket the service closed meanwhile (ECONNRESET) is retried on a new one. */
async function post(agent: http.Agent, url: string, body: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await postOnce(agent, url, body);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET' || attempt === 3) throw error;
    }
  }
}

function postOnce(agent: http.Agent, url: string, body: string): Promise<string> {
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

/** `count` history punches from 2026-01-05 on, 4 per employee and day, day after day. */
function backfill(count: number): string[] {
  const lines: string[] = [];
  for (let day = 0; lines.length < count; day++) {
    const date = new Date(Date.UTC(2026, 0, 5 + day)).toISOString().slice(0, 10);
    for (let e = 1; e <= HISTORY_EMPLOYEES && lines.length < count; e++) {
      const jitter = (e * 7 + day) % 20;
      for (const time of [`08:${pad(45 + (jitter % 15))}:00`, `12:30:${pad(jitter)}`, `13:00:${pad(jitter)}`, `17:${pad(20 + jitter)}:00`]) {
        if (lines.length < count) lines.push(`${e}\t${date} ${time}\t${time.startsWith('17') ? 1 : 0}\t1\t0`);
      }
    }
  }
  return lines;
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? { samples: 0, p50Ms: null, p95Ms: null, p99Ms: null, maxMs: null }
    : {
        samples: sorted.length,
        p50Ms: Math.round(percentile(sorted, 50)),
        p95Ms: Math.round(percentile(sorted, 95)),
        p99Ms: Math.round(percentile(sorted, 99)),
        maxMs: Math.round(sorted.at(-1)!),
      };
};

async function main(): Promise<void> {
  const punches = numberArg('punches', 100_000);
  const quietSamples = numberArg('quiet', 50);
  const db = await benchDatabase('livefirst');
  const service = await spawnService(db.url, { TIMEGATE_RATE_LIMIT_BURST: '1000000', TIMEGATE_RATE_LIMIT_PER_MINUTE: '1000000' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: TERMINALS + 2 });
  try {
    const fleet = await createFleet(service.url, TERMINALS + 1, 'LIV');
    await call(service.url, fleet.key, 'POST', '/public/v2/shifts', {
      company_id: fleet.companyId,
      name: 'Office',
      start_time: '09:00',
      end_time: '17:00',
      break_minutes: 30,
      is_default: true,
    });
    const total = HISTORY_EMPLOYEES + LIVE_EMPLOYEES;
    for (let first = 1; first <= total; first += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, total - first + 1) }, (_, i) =>
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
    const idOfPin = new Map(
      ((await withClient(db.url, async (c) => (await c.query('select id, pin from employee')).rows)) as Array<{ id: number; pin: string }>).map((e) => [
        e.pin,
        e.id,
      ]),
    );

    // Every day event received, by "employee:date", with the time it arrived.
    const arrived = new Map<string, number>();
    const client = createClient({
      url: `${service.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${fleet.key}` },
      retryAttempts: 0,
    });
    await new Promise<void>((resolve, reject) => {
      client.subscribe<{ attendanceDayUpdated: { day: { employeeId: number; date: string } } }>(
        { query: 'subscription { attendanceDayUpdated { day { employeeId date } } }' },
        {
          next: (value) => {
            const day = value.data?.attendanceDayUpdated.day;
            if (day && !arrived.has(`${day.employeeId}:${day.date}`)) arrived.set(`${day.employeeId}:${day.date}`, performance.now());
          },
          error: reject,
          complete: () => undefined,
        },
      );
      client.on('connected', () => setTimeout(resolve, 200));
    });

    const liveSerial = fleet.serials[TERMINALS]!;
    let nextLive = HISTORY_EMPLOYEES + 1;
    const sent: Array<{ key: string; at: number; phase: string; storedAt?: number }> = [];
    /** One clock-in now by the next live employee. */
    const clockIn = (phase: string) => {
      const pin = String(nextLive++);
      const now = new Date();
      const local = now.toISOString().slice(0, 19).replace('T', ' ');
      const entry = { key: `${idOfPin.get(pin)}:${local.slice(0, 10)}`, at: performance.now(), phase, storedAt: undefined as number | undefined };
      sent.push(entry);
      // The terminal's reply: the punch is stored (the rest of the latency is the day's recompute and its event).
      post(agent, `${service.url}/iclock/cdata?SN=${liveSerial}&table=ATTLOG&Stamp=1`, `${pin}\t${local}\t0\t1\t0\r\n`).then(
        () => (entry.storedAt = performance.now()),
        (error) => process.stderr.write(`clock-in ${pin} failed: ${error}\n`),
      );
    };
    const waitForAll = async () => {
      const deadline = Date.now() + 60_000;
      while (sent.some((s) => !arrived.has(s.key)) && Date.now() < deadline) await sleep(50);
    };

    // Quiet: nothing else happening.
    for (let i = 0; i < quietSamples; i++) {
      clockIn('quiet');
      await sleep(LIVE_INTERVAL_MS);
    }
    await waitForAll();

    // Backfill: the history uploaded by 10 terminals at once; clock-ins go on meanwhile, and on
    // after the last upload while the worker works off the backlog, until every day is stored.
    const lines = backfill(punches);
    const bodies: string[] = [];
    for (let i = 0; i < lines.length; i += LINES_PER_BODY) bodies.push(`${lines.slice(i, i + LINES_PER_BODY).join('\r\n')}\r\n`);
    let phase = 'ingesting';
    const began = Date.now();
    const ingest = Promise.all(
      fleet.serials.slice(0, TERMINALS).map(async (serial, t) => {
        for (let b = t; b < bodies.length; b += TERMINALS) {
          const reply = await post(agent, `${service.url}/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=1`, bodies[b]!);
          if (!reply.startsWith('OK')) throw new Error(`upload refused: ${reply}`);
        }
      }),
    ).then(() => (phase = 'catching up'));
    let ingestSeconds = 0;
    void ingest.then(() => (ingestSeconds = (Date.now() - began) / 1000));
    const caughtUp = async () =>
      withClient(db.url, async (c) => {
        const { rows } = await c.query(
          `select (select position from job_cursor where name = 'attendance') >= (select max(id) from event where type = 'attendance.created') as done`,
        );
        return rows[0].done === true;
      });
    let catchUpSeconds = 0;
    while (nextLive <= total) {
      clockIn(phase);
      await sleep(LIVE_INTERVAL_MS);
      if (phase === 'catching up' && (await caughtUp())) {
        catchUpSeconds = (Date.now() - began) / 1000 - ingestSeconds;
        break;
      }
    }
    await ingest;
    // The clock-ins ran out first: the backlog's catch-up time is still wanted (what sizing the
    // worker's batches by time costs the backfill).
    for (const deadline = Date.now() + 600_000; catchUpSeconds === 0 && Date.now() < deadline; await sleep(250)) {
      if (await caughtUp()) catchUpSeconds = (Date.now() - began) / 1000 - ingestSeconds;
    }
    await waitForAll();
    await client.dispose();

    const latencies = (p: string[]) => sent.filter((s) => p.includes(s.phase)).map((s) => (arrived.has(s.key) ? arrived.get(s.key)! - s.at : Infinity));
    const quiet = stats(latencies(['quiet']));
    const during = stats(latencies(['ingesting', 'catching up']));
    const ingesting = stats(latencies(['ingesting']));
    const catching = stats(latencies(['catching up']));
    const during_ = sent.filter((s) => s.phase !== 'quiet');
    const stored = stats(during_.map((s) => (s.storedAt ?? Infinity) - s.at));
    const computed = stats(during_.filter((s) => s.storedAt !== undefined && arrived.has(s.key)).map((s) => arrived.get(s.key)! - s.storedAt!));
    const lost = sent.filter((s) => !arrived.has(s.key)).length;
    const met = lost === 0 && during.p95Ms !== null && during.p95Ms <= 1000;
    report(
      {
        bench: 'live-first',
        punches,
        ingestSeconds: Number(ingestSeconds.toFixed(1)),
        catchUpSeconds: Number(catchUpSeconds.toFixed(1)),
        quiet,
        duringBackfill: during,
        ingesting,
        catchingUp: catching,
        duringBackfillStored: stored,
        duringBackfillStoredToEvent: computed,
        lost,
        met,
      },
      [
        `Live first: punch -> attendanceDayUpdated for clock-ins made now (one every ${LIVE_INTERVAL_MS} ms)`,
        `  quiet:           ${quiet.samples} punches, p50 ${quiet.p50Ms} ms, p95 ${quiet.p95Ms} ms, p99 ${quiet.p99Ms} ms, max ${quiet.maxMs} ms`,
        `  during backfill: ${during.samples} punches, p50 ${during.p50Ms} ms, p95 ${during.p95Ms} ms, p99 ${during.p99Ms} ms, max ${during.maxMs} ms (target p95 <= 1000 ms: ${met ? 'met' : 'NOT met'})`,
        `    of which while uploading (${ingestSeconds.toFixed(1)} s for ${punches} punches): ${ingesting.samples}, p50 ${ingesting.p50Ms}, p95 ${ingesting.p95Ms}, p99 ${ingesting.p99Ms} ms`,
        `    and after the last upload (the worker caught up ${catchUpSeconds.toFixed(1)} s after it): ${catching.samples}, p50 ${catching.p50Ms}, p95 ${catching.p95Ms}, p99 ${catching.p99Ms} ms`,
        `    split: send -> stored (the terminal's OK) p50 ${stored.p50Ms}, p95 ${stored.p95Ms} ms; stored -> event p50 ${computed.p50Ms}, p95 ${computed.p95Ms} ms`,
        `  events never received: ${lost}`,
      ],
    );
  } finally {
    agent.destroy();
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
