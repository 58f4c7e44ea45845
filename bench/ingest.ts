// ATTLOG ingestion in punches per second: 50 terminals (distinct serials) each upload 100-line
// bodies with distinct punch times (so nothing dedupes), concurrently, over keep-alive connections;
// the punches stored are counted in the database afterwards. Pins 1..18 belong to employees of the
// terminals' company and 19..20 to nobody, so both paths run: a punch attached to its employee
// (the usual case) and one kept for an unknown pin.
//
// The baseline (bench/baseline-ingest-server.ts) takes the same bodies from the same terminals into
// the same punch table with one multi-row INSERT ... ON CONFLICT DO NOTHING and nothing else: the
// physical limit of this machine and PostgreSQL for these rows. Two runs of each, interleaved
// (Timegate, baseline, Timegate, baseline), each on its own day of the current month (so the rows
// land in the month's partition, as live punches do); the ratio is of the totals.
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
    const req = http.request(url, { method: 'POST', agent, headers: { 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'iClock Proxy/1.09' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Pins 1..KNOWN_PINS of the 20 that bodies use belong to employees. */
const KNOWN_PINS = 18;

/** Body `b` of terminal `t`: `lines` ATTLOG records, each at its own second (pins 1..20). */
function attlogBody(b: number, lines: number, start: number): string {
  const records: string[] = [];
  for (let i = 0; i < lines; i++) {
    const at = new Date(start + (b * lines + i) * 1000);
    records.push(`${(i % 20) + 1}\t${formatDeviceTime(at, 0)}\t${i % 2}\t${i % 3 === 0 ? 15 : 1}\t0\t0\t0`);
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
  return { postgres: postgres / TICKS_PER_SECOND, server: ticks(String(serverPid)) / TICKS_PER_SECOND, generator: ticks(String(process.pid)) / TICKS_PER_SECOND };
}

async function main(): Promise<void> {
  const terminals = numberArg('terminals', 50);
  const bodies = numberArg('bodies', 40);
  const lines = numberArg('lines', 100);
  const runs = numberArg('runs', 2);
  const db = await benchDatabase('ingest');
  const service = await spawnService(db.url);
  let baseline: Awaited<ReturnType<typeof spawnServer>> | null = null;
  try {
    const fleet = await createFleet(service.url, terminals, 'ING', 'Europe/Berlin');
    for (let pin = 1; pin <= KNOWN_PINS; pin++) {
      await call(service.url, fleet.key, 'POST', '/public/v2/employees', { name: 'Employee', lastname: String(pin), code: `E${pin}`, pin: String(pin), company_id: fleet.companyId });
    }
    for (const serial of fleet.serials) await fetch(`${service.url}/iclock/cdata?SN=${serial}&options=all&pushver=2.4.1`);
    baseline = await spawnServer('dist/bench/baseline-ingest-server.js', { DATABASE_URL: db.url });
    const now = new Date();
    // Day d of this month, 06:00 UTC; a run's 4,000 seconds per terminal stay inside it.
    const day = (d: number) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), d, 6, 0, 0);
    const COUNT = 'select count(*)::int as count, (count(*) filter (where employee_id is not null))::int as attached from punch';
    const counts = () => withClient(db.url, async (c) => (await c.query(COUNT)).rows[0] as { count: number; attached: number });

    const upload = async (server: { url: string; child: { pid?: number } }, start: number): Promise<Run> => {
      const url = server.url;
      const before = await counts();
      // Fresh keep-alive connections per run: a socket left idle while the other server ran would
      // have been closed by its server (keep-alive timeout) and fail the next request.
      const agent = new http.Agent({ keepAlive: true, maxSockets: terminals });
      let failures = 0;
      const cpuBefore = cpuSeconds(server.child.pid!);
      const began = process.hrtime.bigint();
      await Promise.all(
        fleet.serials.map(async (serial) => {
          for (let b = 0; b < bodies; b++) {
            const r = await post(agent, `${url}/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=9999`, attlogBody(b, lines, start));
            if (r.status !== 200 || r.text !== `OK: ${lines}`) failures++;
          }
        }),
      );
      const seconds = Number(process.hrtime.bigint() - began) / 1e9;
      const cpuAfter = cpuSeconds(server.child.pid!);
      agent.destroy();
      const after = await counts();
      const cpu = { postgres: cpuAfter.postgres - cpuBefore.postgres, server: cpuAfter.server - cpuBefore.server, generator: cpuAfter.generator - cpuBefore.generator };
      return { seconds, stored: after.count - before.count, attached: after.attached - before.attached, failures, cpu };
    };

    // Warm-up of both on separate times (not counted), then the measured runs, interleaved.
    await upload(service, day(1) - 86_400_000 * 2);
    await upload(baseline, day(1) - 86_400_000);
    const ours: Run[] = [];
    const theirs: Run[] = [];
    for (let r = 0; r < runs; r++) {
      ours.push(await upload(service, day(2 + 2 * r)));
      theirs.push(await upload(baseline!, day(3 + 2 * r)));
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
        cpuMicrosecondsPerPunch: perPunch(mine),
        baseline: { punchesStored: base.stored, failedUploads: base.failures, punchesPerSecond: Math.round(basePerSecond), runsPerSecond: theirs.map(rate), cpuMicrosecondsPerPunch: perPunch(base) },
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
      ],
    );
  } finally {
    await baseline?.stop();
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
