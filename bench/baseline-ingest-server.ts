// The reference for bench/ingest.ts: the smallest honest node:http + `pg` server that takes the same
// ATTLOG uploads. It finds the terminal by serial (cached after the first upload, as Timegate caches
// devices), parses the body's tab-separated lines, and writes them with one multi-row
// `INSERT ... ON CONFLICT DO NOTHING` into the same punch table (same partitions and indexes),
// turning the terminal's wall-clock time into an instant in PostgreSQL. It has no employee lookup,
// no outbox event, no webhook deliveries, no metrics and no protocol checks beyond the line shape.
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => undefined);

interface Terminal {
  id: number;
  workspaceId: number;
  companyId: number;
  timeZone: string;
}
const terminals = new Map<string, Terminal>();

async function terminalOf(serial: string): Promise<Terminal | null> {
  const cached = terminals.get(serial);
  if (cached) return cached;
  const { rows } = await pool.query('select id, workspace_id, company_id, time_zone from device where serial_number = $1', [serial]);
  if (rows.length === 0) return null;
  const terminal = { id: rows[0].id, workspaceId: rows[0].workspace_id, companyId: rows[0].company_id, timeZone: rows[0].time_zone };
  terminals.set(serial, terminal);
  return terminal;
}

const INSERT = `insert into punch (workspace_id, company_id, device_id, device_serial, pin, punch_time, local_time, time_zone,
    punch_state, verify_code, record_type, work_code, received_at)
  select $1, $2, $3, $4, r.pin, r.local_time::timestamp at time zone $5, r.local_time, $5, r.state, r.verify, 'device', r.work_code, now()
  from unnest($6::text[], $7::text[], $8::text[], $9::int[], $10::text[]) as r(pin, local_time, state, verify, work_code)
  on conflict do nothing`;

async function storeAttlog(terminal: Terminal, serial: string, body: string): Promise<number> {
  const pins: string[] = [];
  const times: string[] = [];
  const states: string[] = [];
  const verifies: number[] = [];
  const workCodes: string[] = [];
  for (const line of body.split('\n')) {
    const fields = line.replace(/\r$/, '').split('\t');
    if (fields.length < 2 || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(fields[1]!)) continue;
    pins.push(fields[0]!);
    times.push(fields[1]!);
    states.push(fields[2] || '0');
    verifies.push(Number(fields[3] || 0));
    workCodes.push(fields[4] || '0');
  }
  if (pins.length > 0) {
    await pool.query(INSERT, [terminal.workspaceId, terminal.companyId, terminal.id, serial, terminal.timeZone, pins, times, states, verifies, workCodes]);
  }
  return pins.length;
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    void (async () => {
      if (url.pathname === '/healthz') return void res.end('ok');
      const serial = url.searchParams.get('SN') ?? '';
      if (req.method !== 'POST' || url.pathname !== '/iclock/cdata' || url.searchParams.get('table') !== 'ATTLOG') return void res.writeHead(404).end();
      const terminal = await terminalOf(serial);
      if (!terminal) return void res.writeHead(401).end();
      const stored = await storeAttlog(terminal, serial, Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`OK: ${stored}`);
    })().catch(() => res.writeHead(500).end());
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
