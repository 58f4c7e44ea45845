// ATTLOG ingestion in punches per second: 50 terminals (distinct serials) each upload 100-line
// bodies with distinct punch times (so nothing dedupes), concurrently, over keep-alive connections;
// the punches stored are counted in the database afterwards. Each terminal has its own 20 pins, 18
// of them employees of the terminals' company and 2 nobody's, so both paths run: a punch attached to
// its employee (the usual case) and one kept for an unknown pin. A run spreads each terminal's
// punches over 20 days, 10 a day for each pin, as a fleet uploading weeks of history after an
// outage does (earlier versions of this scenario put all of a run on one day: 10,000 punches per
// person and day, which only made the attendance worker recompute enormous days).
//
// The baseline (bench/baseline-ingest-server.ts) takes the same bodies from the same terminals into
// the same punch table with one multi-row INSERT ... ON CONFLICT DO NOTHING and nothing else: the
// physical limit of this machine and PostgreSQL for these rows. Two runs of each, interleaved
// (Timegate, baseline, Timegate, baseline), each on its own 20 days from the first of last month on
// (so the rows land in the monthly partitions the service keeps ready); the ratio is of the totals.
// Where the time goes: the CPU of PostgreSQL (all its processes), of the HTTP server and of this
// load generator during each run (Linux /proc), per punch stored.
// Run: npm run build && node dist/bench/ingest.js [--terminals 50] [--bodies 40] [--lines 100] [--runs 2]
import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import { formatDeviceTime } from '../src/simulator/wire-format';
import { benchDatabase, call, createFleet, report, spawnServer, spawnService, withClient, numberArg, runScenario } from './support';

function post(agent: http.Agent, url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'iClock Proxy/1.09' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Pins of terminal t: t * PINS + 1 .. t * PINS + PINS; the first KNOWN_PINS belong to employees. */
const PINS = 20;
const KNOWN_PINS = 18;
/** Days one run's punches are spread over. */
const DAYS_PER_RUN = 20;
const DAY_MS = 86_400_000;

/**
 * Body `b` of terminal `t` in the run starting at `start` (midnight UTC): `lines` ATTLOG records on
 * day `b % DAYS_PER_RUN` from 06:00, a minute apart, pins in turn; the bodies that share a day follow
 * each other, so every (pin, time) is distinct.
 */
function attlogBody(t: number, b: number, lines: number, start: number): string {
  const records: string[] = [];
  const first = start + (b % DAYS_PER_RUN) * DAY_MS + 6 * 3_600_000 + Math.floor(b / DAYS_PER_RUN) * lines * 60_000;
  for (let i = 0; i < lines; i++) {
    const at = new Date(first + i * 60_000);
    records.push(`${t * PINS + (i % PINS) + 1}\t${formatDeviceTime(at, 0)}\t${i % 2}\t${i % 3 === 0 ? 15 : 1}\t0\t0\t0`);
  }
  return `${records.join('\r\n')}\r\n`;
}

interface Run {
  seconds: number;
  stored: number;
  attached: number;
  failures: number;
  /** CPU seconds during the run: PostgreSQL's processes, the server's, this process's. */
  cpu: { postgres: number; server: number; generator: number };
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * CPU seconds used so far by `pid`, by all PostgreSQL processes, and by this process. PostgreSQL's
 * count includes its ended backends (a pool closes idle connections): the postmaster's waited-for
 * children's time.
 */
function cpuSeconds(serverPid: number): Run['cpu'] {
  const ticks = (pid: string, withChildren = false) => {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime; then cutime, cstime (ended children that were waited for).
    return Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  };
  let postgres = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) postgres += ticks(pid, true);
    } catch {
      // The process ended meanwhile.
    }
  }
  return {
    postgres: postgres / TICKS_PER_SECOND,
    server: ticks(String(serverPid)) / TICKS_PER_SECOND,
    generator: ticks(String(process.pid)) / TICKS_PER_SECOND,
  };
}

async function main(): Promise<void> {
  const terminals = numberArg('terminals', 50);
  const bodies = numberArg('bodies', 40);
  const lines = numberArg('lines', 100);
  const runs = numberArg('runs', 2);
  const db = await benchDatabase('ingest');
  // The set-up creates 900 employees with one key: no rate limit in the way.
  const service = await spawnService(db.url, { TIMEGATE_RATE_LIMIT_BURST: '1000000', TIMEGATE_RATE_LIMIT_PER_MINUTE: '1000000' });
  let baseline: Awaited<ReturnType<typeof spawnServer>> | null = null;
  try {
    // createFleet's plan allows 1,000 employees.
    if (terminals * KNOWN_PINS > 1000)
      throw new Error(`--terminals ${terminals} needs ${terminals * KNOWN_PINS} employees; at most ${Math.floor(1000 / KNOWN_PINS)} terminals`);
    const fleet = await createFleet(service.url, terminals, 'ING', 'Europe/Berlin');
    // The employees, ten requests at a time.
    const pins = fleet.serials.flatMap((_, t) => Array.from({ length: KNOWN_PINS }, (_, p) => t * PINS + p + 1));
    for (let i = 0; i < pins.length; i += 10) {
      await Promise.all(
        pins.slice(i, i + 10).map((pin) =>
          call(service.url, fleet.key, 'POST', '/public/v2/employees', {
            name: 'Employee',
            lastname: String(pin),
            code: `E${pin}`,
            pin: String(pin),
            company_id: fleet.companyId,
          }),
        ),
      );
    }
    for (const serial of fleet.serials) await fetch(`${service.url}/iclock/cdata?SN=${serial}&options=all&pushver=2.4.1`);
    baseline = await spawnServer('dist/bench/baseline-ingest-server.js', { DATABASE_URL: db.url });
    const now = new Date();
    // Run k's 20 days, all in the past and none shared with another run: the last run ends
    // yesterday. (Punches more than a day ahead of a terminal's clock are quarantined, never
    // ingested, so runs laid forward from last month stopped measuring once they reached the future.)
    // Days before last month land in the punch table's default partition, as a fleet's old history does.
    const totalRuns = 2 + 2 * runs;
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const runStart = (k: number) => today - (totalRuns - k) * DAYS_PER_RUN * DAY_MS;
    const COUNT = 'select count(*)::int as count, (count(*) filter (where employee_id is not null))::int as attached from punch';
    const counts = () => withClient(db.url, async (c) => (await c.query(COUNT)).rows[0] as { count: number; attached: number });

    // The attendance worker computes the days of a run's punches after the burst (it yields to
    // queued uploads): each run starts when the worker has caught up, so neither side's run carries
    // the other's after-work. How long that took is reported.
    const CAUGHT_UP = `select coalesce((select position from job_cursor where name = 'attendance'), 0)
        >= coalesce((select max(id + span - 1) from event where type = 'attendance.created'), 0) as done`;
    const catchUps: number[] = [];
    const workerOn = process.env.TIMEGATE_ATTENDANCE_WORKER !== 'false';
    const waitForWorker = async () => {
      if (!workerOn) return;
      const began = Date.now();
      while (!(await withClient(db.url, async (c) => (await c.query(CAUGHT_UP)).rows[0].done as boolean))) {
        if (Date.now() - began > 300_000) throw new Error('the attendance worker did not catch up within 300 s');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      catchUps.push(Number(((Date.now() - began) / 1000).toFixed(1)));
    };

    const upload = async (server: { url: string; child: { pid?: number } }, start: number): Promise<Run> => {
      await waitForWorker();
      const url = server.url;
      const before = await counts();
      // Fresh keep-alive connections per run: a socket left idle while the other server ran would
      // have been closed by its server (keep-alive timeout) and fail the next request.
      const agent = new http.Agent({ keepAlive: true, maxSockets: terminals });
      let failures = 0;
      const cpuBefore = cpuSeconds(server.child.pid!);
      const began = process.hrtime.bigint();
      await Promise.all(
        fleet.serials.map(async (serial, t) => {
          for (let b = 0; b < bodies; b++) {
            const r = await post(agent, `${url}/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=9999`, attlogBody(t, b, lines, start));
            if (r.status !== 200 || r.text !== `OK: ${lines}`) failures++;
          }
        }),
      );
      const seconds = Number(process.hrtime.bigint() - began) / 1e9;
      const cpuAfter = cpuSeconds(server.child.pid!);
      agent.destroy();
      const after = await counts();
      const cpu = {
        postgres: cpuAfter.postgres - cpuBefore.postgres,
        server: cpuAfter.server - cpuBefore.server,
        generator: cpuAfter.generator - cpuBefore.generator,
      };
      return { seconds, stored: after.count - before.count, attached: after.attached - before.attached, failures, cpu };
    };

    // Warm-up of both on separate times (not counted), then the measured runs, interleaved.
    await upload(service, runStart(0));
    await upload(baseline, runStart(1));
    const ours: Run[] = [];
    const theirs: Run[] = [];
    for (let r = 0; r < runs; r++) {
      ours.push(await upload(service, runStart(2 + 2 * r)));
      theirs.push(await upload(baseline!, runStart(3 + 2 * r)));
    }
    const total = (list: Run[]) => ({
      seconds: list.reduce((n, r) => n + r.seconds, 0),
      stored: list.reduce((n, r) => n + r.stored, 0),
      attached: list.reduce((n, r) => n + r.attached, 0),
      failures: list.reduce((n, r) => n + r.failures, 0),
      cpu: {
        postgres: list.reduce((n, r) => n + r.cpu.postgres, 0),
        server: list.reduce((n, r) => n + r.cpu.server, 0),
        generator: list.reduce((n, r) => n + r.cpu.generator, 0),
      },
    });
    /** CPU microseconds per punch stored: PostgreSQL, server, load generator. */
    const perPunch = (run: Run) => ({
      postgres: Math.round((run.cpu.postgres * 1e6) / run.stored),
      server: Math.round((run.cpu.server * 1e6) / run.stored),
      generator: Math.round((run.cpu.generator * 1e6) / run.stored),
    });
    const mine = total(ours);
    const base = total(theirs);
    const sent = terminals * bodies * lines * runs;
    const perSecond = mine.stored / mine.seconds;
    const basePerSecond = base.stored / base.seconds;
    const ratio = Number((perSecond / basePerSecond).toFixed(3));
    const rate = (run: Run) => Math.round(run.stored / run.seconds);
    report(
      {
        bench: 'ingest',
        terminals,
        bodiesPerTerminal: bodies,
        linesPerBody: lines,
        runs,
        punchesSent: sent,
        punchesStored: mine.stored,
        punchesWithEmployee: mine.attached,
        failedUploads: mine.failures,
        seconds: Number(mine.seconds.toFixed(2)),
        punchesPerSecond: Math.round(perSecond),
        runsPerSecond: ours.map(rate),
        uploadsPerSecond: Math.round((terminals * bodies * runs) / mine.seconds),
        attendanceWorker: workerOn,
        attendanceCatchUpSeconds: catchUps,
        cpuMicrosecondsPerPunch: perPunch(mine),
        baseline: {
          punchesStored: base.stored,
          failedUploads: base.failures,
          punchesPerSecond: Math.round(basePerSecond),
          runsPerSecond: theirs.map(rate),
          cpuMicrosecondsPerPunch: perPunch(base),
        },
        ratio,
        target: 20000,
        ratioTarget: 0.8,
        met: perSecond >= 20000 && mine.stored === sent,
        ratioMet: ratio >= 0.8 && mine.stored === sent && base.stored === sent,
      },
      [
        `ATTLOG ingestion: ${terminals} terminals x ${bodies} bodies x ${lines} lines (distinct times, device zone Europe/Berlin), ${runs} runs each, interleaved with the baseline`,
        `  Timegate: stored ${mine.stored} of ${sent} punches in ${mine.seconds.toFixed(2)} s (${mine.attached} attached to their employee), ${mine.failures} failed uploads`,
        `  Timegate: ${Math.round(perSecond)} punches/s (runs ${ours.map(rate).join(', ')}) (target >= 20000 punches/s: ${perSecond >= 20000 ? 'met' : 'NOT met'})`,
        `  baseline (node:http + pg, one INSERT per body): ${Math.round(basePerSecond)} punches/s (runs ${theirs.map(rate).join(', ')}), ${base.failures} failed uploads`,
        `  ratio ${ratio} (target >= 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'})`,
        `  CPU per punch (µs): Timegate ${JSON.stringify(perPunch(mine))}, baseline ${JSON.stringify(perPunch(base))}`,
        workerOn
          ? `  attendance worker caught up ${catchUps.join(', ')} s before each run in turn (before a baseline run: its work on Timegate's run before)`
          : '  attendance worker off',
      ],
    );
  } finally {
    await baseline?.stop();
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
