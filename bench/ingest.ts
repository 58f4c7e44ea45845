// ATTLOG ingestion in punches per second: 50 terminals (distinct serials) each upload 100-line
// bodies with distinct punch times (so nothing dedupes), concurrently, over keep-alive connections;
// the punches stored are counted in the database afterwards. Pins 1..18 belong to employees of the
// terminals' company and 19..20 to nobody, so both paths run: a punch attached to its employee
// (the usual case) and one kept for an unknown pin.
// Run: npm run build && node dist/bench/ingest.js [--terminals 50] [--bodies 40] [--lines 100]
import 'reflect-metadata';
import http from 'node:http';
import { formatDeviceTime } from '../src/simulator/wire-format';
import { benchDatabase, call, createFleet, report, spawnService, withClient, numberArg, runScenario } from './support';

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

async function main(): Promise<void> {
  const terminals = numberArg('terminals', 50);
  const bodies = numberArg('bodies', 40);
  const lines = numberArg('lines', 100);
  const db = await benchDatabase('ingest');
  const service = await spawnService(db.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: terminals });
  try {
    const fleet = await createFleet(service.url, terminals, 'ING', 'Europe/Berlin');
    for (let pin = 1; pin <= KNOWN_PINS; pin++) {
      await call(service.url, fleet.key, 'POST', '/public/v2/employees', { name: 'Employee', lastname: String(pin), code: `E${pin}`, pin: String(pin), company_id: fleet.companyId });
    }
    for (const serial of fleet.serials) await fetch(`${service.url}/iclock/cdata?SN=${serial}&options=all&pushver=2.4.1`);
    const start = Date.UTC(2026, 0, 5, 6, 0, 0);
    // Warm-up on separate times (not counted), then the measured run.
    await Promise.all(fleet.serials.map((serial, t) => post(agent, `${service.url}/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=9999`, attlogBody(0, lines, start - 86_400_000 * (t + 1)))));
    const COUNT = 'select count(*)::int as count, (count(*) filter (where employee_id is not null))::int as attached from punch';
    const [{ count: before, attached: attachedBefore }] = await withClient(db.url, async (c) => (await c.query(COUNT)).rows);

    let failures = 0;
    const began = process.hrtime.bigint();
    await Promise.all(
      fleet.serials.map(async (serial) => {
        for (let b = 0; b < bodies; b++) {
          const r = await post(agent, `${service.url}/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=9999`, attlogBody(b, lines, start));
          if (r.status !== 200 || r.text !== `OK: ${lines}`) failures++;
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - began) / 1e9;
    const [{ count: after, attached: attachedAfter }] = await withClient(db.url, async (c) => (await c.query(COUNT)).rows);
    const stored = after - before;
    const attached = attachedAfter - attachedBefore;
    const sent = terminals * bodies * lines;
    const perSecond = stored / seconds;
    report(
      {
        bench: 'ingest',
        terminals,
        bodiesPerTerminal: bodies,
        linesPerBody: lines,
        punchesSent: sent,
        punchesStored: stored,
        punchesWithEmployee: attached,
        failedUploads: failures,
        seconds: Number(seconds.toFixed(2)),
        punchesPerSecond: Math.round(perSecond),
        uploadsPerSecond: Math.round((terminals * bodies) / seconds),
        target: 20000,
        met: perSecond >= 20000 && stored === sent,
      },
      [
        `ATTLOG ingestion: ${terminals} terminals x ${bodies} bodies x ${lines} lines (distinct times, device zone Europe/Berlin)`,
        `  stored ${stored} of ${sent} punches in ${seconds.toFixed(2)} s (counted in the database; ${attached} attached to their employee), ${failures} failed uploads`,
        `  ${Math.round(perSecond)} punches/s, ${Math.round((terminals * bodies) / seconds)} uploads/s (target >= 20000 punches/s: ${perSecond >= 20000 ? 'met' : 'NOT met'})`,
      ],
    );
  } finally {
    agent.destroy();
    await service.stop();
    await db.stop();
  }
}

runScenario(main);
