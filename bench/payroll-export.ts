// The month summary and the payroll export of a company of 1,000 employees (default shift 09:00–17:00,
// 30 min unpaid break; 4 punches per employee and workday of March 2026: 88,000 punches uploaded by
// 10 terminals, the attendance worker on). Once every day is stored:
//  (a) `GET /public/v2/timesheets/summary` (with pay items), per_page=1000: first read and median of 5;
//  (b) `GET /public/v2/pay_periods/{id}/export` of the open March period, CSV: first and median of 5;
//  (c) locking the period (computes and freezes its days and export rows);
//  (d) the locked export, CSV: median of 5, and that every answer is the same bytes.
// Targets: (a), (b), (d) < 1 s.
// Run: npm run build && node dist/bench/payroll-export.js [--employees 1000]
import 'reflect-metadata';
import http from 'node:http';
import { benchDatabase, call, createFleet, numberArg, report, spawnService, withClient } from './support';

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

/** Every punch of March 2026 as in bench/attendance.ts (some days run past 17:00: overtime). */
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

async function timed(url: string, key: string, accept: string): Promise<{ ms: number; text: string; status: number }> {
  const began = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept } });
  const text = await response.text();
  return { ms: performance.now() - began, text, status: response.status };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const employees = numberArg('employees', 1000);
  const db = await benchDatabase('payroll');
  const service = await spawnService(db.url, { TIMEGATE_RATE_LIMIT_BURST: '1000000', TIMEGATE_RATE_LIMIT_PER_MINUTE: '1000000' });
  try {
    const fleet = await createFleet(service.url, TERMINALS, 'PAY');
    await call(service.url, fleet.key, 'POST', '/public/v2/shifts', {
      company_id: fleet.companyId,
      name: 'Office',
      start_time: '09:00',
      end_time: '17:00',
      break_minutes: 30,
      is_default: true,
    });
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
    const lines = monthOfPunches(employees);
    const bodies: string[] = [];
    for (let i = 0; i < lines.length; i += LINES_PER_BODY) bodies.push(`${lines.slice(i, i + LINES_PER_BODY).join('\r\n')}\r\n`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: TERMINALS });
    await Promise.all(
      fleet.serials.map(async (serial, t) => {
        for (let b = t; b < bodies.length; b += TERMINALS) {
          const reply = await post(agent, `${service.url}/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=1`, bodies[b]!);
          if (!reply.startsWith('OK')) throw new Error(`upload refused: ${reply}`);
        }
      }),
    );
    agent.destroy();
    await withClient(db.url, async (c) => {
      for (;;) {
        const { rows } = await c.query(
          `select (select position from job_cursor where name = 'attendance') >= (select max(id) from event where type = 'attendance.created') as done`,
        );
        if (rows[0].done) return;
        await sleep(100);
      }
    });

    const summaryUrl = `${service.url}/public/v2/timesheets/summary?company_id=${fleet.companyId}&start_date=2026-03-01&end_date=2026-03-31&per_page=1000`;
    const summaryFirst = await timed(summaryUrl, fleet.key, 'application/json');
    if (summaryFirst.status !== 200 || JSON.parse(summaryFirst.text).length !== employees) throw new Error(`summary: ${summaryFirst.status}`);
    const summaryRuns: number[] = [];
    for (let i = 0; i < 5; i++) summaryRuns.push((await timed(summaryUrl, fleet.key, 'application/json')).ms);

    const period = await call(service.url, fleet.key, 'POST', '/public/v2/pay_periods', {
      company_id: fleet.companyId,
      start_date: '2026-03-01',
      end_date: '2026-03-31',
    });
    const exportUrl = `${service.url}/public/v2/pay_periods/${period.id}/export`;
    const exportFirst = await timed(exportUrl, fleet.key, 'text/csv');
    if (exportFirst.status !== 200) throw new Error(`export: ${exportFirst.status} ${exportFirst.text.slice(0, 200)}`);
    const exportRows = exportFirst.text.split('\r\n').length - 2;
    const exportRuns: number[] = [];
    for (let i = 0; i < 5; i++) exportRuns.push((await timed(exportUrl, fleet.key, 'text/csv')).ms);

    const lockBegan = performance.now();
    const locked = await fetch(`${service.url}/public/v2/pay_periods/${period.id}/lock`, { method: 'POST', headers: { authorization: `Bearer ${fleet.key}` } });
    if (locked.status !== 200) throw new Error(`lock: ${locked.status}`);
    const lockMs = performance.now() - lockBegan;
    const lockedRuns: { ms: number; text: string }[] = [];
    for (let i = 0; i < 6; i++) lockedRuns.push(await timed(exportUrl, fleet.key, 'text/csv'));
    const identical = lockedRuns.every((r) => r.text === lockedRuns[0]!.text) && lockedRuns[0]!.text === exportFirst.text;
    const lockedMedian = median(lockedRuns.slice(1).map((r) => r.ms));

    report(
      {
        scenario: 'payroll-export',
        employees,
        punches: lines.length,
        summaryFirstMs: Math.round(summaryFirst.ms),
        summaryMedianMs: Math.round(median(summaryRuns)),
        exportRows,
        exportBytes: Buffer.byteLength(exportFirst.text),
        exportFirstMs: Math.round(exportFirst.ms),
        exportMedianMs: Math.round(median(exportRuns)),
        lockMs: Math.round(lockMs),
        lockedExportFirstMs: Math.round(lockedRuns[0]!.ms),
        lockedExportMedianMs: Math.round(lockedMedian),
        identical,
      },
      [
        `payroll export, ${employees} employees, ${lines.length} punches (March 2026)`,
        `  (a) month summary with pay items: first ${Math.round(summaryFirst.ms)} ms, median of 5 ${Math.round(median(summaryRuns))} ms`,
        `  (b) open period export (CSV, ${exportRows} rows, ${Buffer.byteLength(exportFirst.text)} bytes): first ${Math.round(exportFirst.ms)} ms, median of 5 ${Math.round(median(exportRuns))} ms`,
        `  (c) lock: ${Math.round(lockMs)} ms`,
        `  (d) locked export: first ${Math.round(lockedRuns[0]!.ms)} ms, median of 5 ${Math.round(lockedMedian)} ms; same bytes as before the lock and every time: ${identical}`,
      ],
    );
  } finally {
    await service.stop();
    await db.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
