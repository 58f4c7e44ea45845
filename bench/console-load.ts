// Time to a usable console on localhost: the service (as `npm start` runs it), a real Chromium signed
// in with a key, timed from navigation to the page showing everything it is for:
//  (a) the overview with 50 terminals on the status board;
//  (b) the door board with 10 simulated access-control terminals (the plan allows 60 devices): every
//      door listed with its state, and the held-open alarm one of them raised before the page loads;
//  (c) a month timesheet of 1,000 employees (March 2026, 2 punches per employee and workday, 44,000
//      punches): the windowed grid drawn with its 1,000 rows counted (the rows in view drawn), and
//      then how long its last row takes to be drawn when the grid is scrolled to its end.
// Cold: the first load in a fresh browser context (an empty HTTP cache, nothing the page has read
// before). Warm: full loads of the page after it in the same context, each a new document (from
// about:blank, so not a change of the address's hash) with the browser's cache warm; the bench
// counts how many of the console's assets each warm load took from the cache, so a warm figure that
// is not one shows. For each load it also notes when the last API answer arrived, which splits the
// time into reading and drawing.
// Run: `npm run bench:console` (not part of `npm run bench`: it needs Chromium).
import http from 'node:http';
import os from 'node:os';
import type { Page } from 'playwright-core';
import { SimulatedTerminal } from '../src/simulator';
import { closeProcessChromium, launchBrowser } from '../test/support/browser';
import { benchDatabase, call, createFleet, report, spawnService, withClient } from './support';

const TERMINALS = 50;
const CONTROLLERS = 10;
const EMPLOYEES = 1000;
const WARM_LOADS = 5;
const pad = (n: number) => String(n).padStart(2, '0');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function post(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Load {
  ms: number;
  /** When the page's last API answer arrived, from navigation. */
  lastAnswerMs: number;
  /** When the first part of the page was in the document (for the timesheet: its first rows), from navigation start, if the page marks one. */
  firstMs: number | null;
  /** API requests (GraphQL over HTTP) the load made. */
  apiRequests: number;
  /** The console's own assets (script, stylesheet) loaded, and how many of them came from the browser's cache. */
  assets: number;
  assetsFromCache: number;
}

/** One API request of a load: its operation, when its answer was complete (from the load's start), its time on the wire and its size. */
interface ApiCall {
  operation: string;
  doneMs: number;
  /** From the request sent to its answer's headers: the service's time plus the wait for a connection's turn. */
  waitMs: number;
  bytes: number;
}

interface Timed {
  cold: Load;
  warm: Load[];
  /** The cold load's API requests, in the order their answers completed. */
  coldCalls: ApiCall[];
  coldStatements: string[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One cold load in a fresh context, then WARM_LOADS full loads of the same page in it. */
async function timeLoads(page: Page, load: (markFirst: (ms: number) => void) => Promise<void>, statements?: StatementCounter): Promise<Timed> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let started = 0;
  let lastAnswer = 0;
  let apiRequests = 0;
  const assets = new Map<string, boolean>();
  const pending = new Map<string, { operation: string; waitMs: number }>();
  let calls: ApiCall[] = [];
  cdp.on('Network.requestWillBeSent', (event: { requestId: string; request: { url: string; postData?: string } }) => {
    if (event.request.url.includes('/console/assets/')) assets.set(event.requestId, false);
    if (new URL(event.request.url).pathname === '/graphql') {
      apiRequests += 1;
      let operation = '?';
      try {
        const body = JSON.parse(event.request.postData ?? '{}') as { operationName?: string; query?: string };
        operation = body.operationName ?? /(?:query|mutation)\s+(\w+)/.exec(body.query ?? '')?.[1] ?? '?';
      } catch {
        // A body too large for the event: the name stays unknown.
      }
      pending.set(event.requestId, { operation, waitMs: 0 });
    }
  });
  cdp.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
    const call = pending.get(event.requestId);
    if (!call) return;
    pending.delete(event.requestId);
    calls.push({ ...call, doneMs: performance.now() - started, bytes: event.encodedDataLength });
  });
  cdp.on('Network.requestServedFromCache', (event: { requestId: string }) => {
    if (assets.has(event.requestId)) assets.set(event.requestId, true);
  });
  cdp.on('Network.responseReceived', (event: { requestId: string; response: { url: string; fromDiskCache?: boolean } }) => {
    if (assets.has(event.requestId) && event.response.fromDiskCache) assets.set(event.requestId, true);
    if (new URL(event.response.url).pathname === '/graphql') lastAnswer = performance.now();
    const call = pending.get(event.requestId);
    const timing = (event.response as { timing?: { sendEnd: number; receiveHeadersEnd: number } }).timing;
    if (call && timing) call.waitMs = timing.receiveHeadersEnd - timing.sendEnd;
  });
  const timed = async (): Promise<Load> => {
    assets.clear();
    apiRequests = 0;
    calls = [];
    started = performance.now();
    lastAnswer = started;
    let first: number | null = null;
    await load((ms) => (first = ms));
    const ms = performance.now() - started;
    return {
      ms,
      lastAnswerMs: lastAnswer - started,
      firstMs: first,
      apiRequests,
      assets: assets.size,
      assetsFromCache: [...assets.values()].filter(Boolean).length,
    };
  };
  await statements?.reset();
  const cold = await timed();
  const coldCalls = calls;
  const coldStatements = (await statements?.read()) ?? [];
  const warm: Load[] = [];
  for (let i = 0; i < WARM_LOADS; i++) warm.push(await timed());
  await cdp.detach();
  return { cold, warm, coldCalls, coldStatements };
}

/**
 * The SQL statements the service ran during a load (BENCH_SQL_STATEMENTS=1, on a DATABASE_URL server
 * started with shared_preload_libraries=pg_stat_statements): the simulated controllers' polls and the
 * service's jobs run meanwhile and are counted too.
 */
interface StatementCounter {
  reset(): Promise<void>;
  read(): Promise<string[]>;
}

function statementCounter(databaseUrl: string): StatementCounter {
  return {
    reset: () =>
      withClient(databaseUrl, async (c) => {
        await c.query('create extension if not exists pg_stat_statements');
        await c.query('select pg_stat_statements_reset()');
      }),
    read: () =>
      withClient(databaseUrl, async (c) => {
        const { rows } = await c.query<{ calls: string; ms: number; rows: string; query: string }>(
          `select calls, total_exec_time as ms, rows, regexp_replace(query, '\\s+', ' ', 'g') as query from pg_stat_statements
           where dbid = (select oid from pg_database where datname = current_database()) and query not like '%pg_stat_statements%'
           order by total_exec_time desc`,
        );
        const total = rows.reduce((n, r) => n + Number(r.calls), 0);
        return [
          `${total} statements, ${Math.round(rows.reduce((n, r) => n + r.ms, 0))} ms in PostgreSQL; the longest:`,
          ...rows.slice(0, 12).map((r) => `  ${r.calls}× ${r.ms.toFixed(1)} ms ${r.rows} rows: ${r.query.slice(0, 160)}`),
        ];
      }),
  };
}

/** The cold load's API requests by operation: how many, the longest wait for an answer, the bytes. */
function callTable(rows: Array<{ what: string; timed: Timed }>): string[] {
  const lines = ['| page | operation | requests | longest wait | bytes (all) | last answer |', '|---|---|---:|---:|---:|---:|'];
  for (const { what, timed } of rows) {
    const byOperation = new Map<string, ApiCall[]>();
    for (const call of timed.coldCalls) byOperation.set(call.operation, [...(byOperation.get(call.operation) ?? []), call]);
    for (const [operation, calls] of byOperation) {
      lines.push(
        `| ${what} | ${operation} | ${calls.length} | ${Math.round(Math.max(...calls.map((c) => c.waitMs)))} ms | ${calls.reduce((n, c) => n + c.bytes, 0).toLocaleString('en')} | ${Math.round(Math.max(...calls.map((c) => c.doneMs)))} ms |`,
      );
    }
  }
  return lines;
}

/** The figures as a table (Markdown, so it can go into docs/console.md as printed). */
function table(rows: Array<{ what: string; timed: Timed }>): string[] {
  const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
  const lines = [
    '| page, usable when | cold | of which reading | warm median | warm max | warm: reading (median) | API requests | warm: assets from cache |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { what, timed } of rows) {
    const warm = timed.warm;
    const cached = warm.reduce((n, l) => n + l.assetsFromCache, 0);
    const total = warm.reduce((n, l) => n + l.assets, 0);
    lines.push(
      `| ${what} | ${ms(timed.cold.ms)} | ${ms(timed.cold.lastAnswerMs)} | ${ms(median(warm.map((l) => l.ms)))} | ${ms(Math.max(...warm.map((l) => l.ms)))} | ${ms(median(warm.map((l) => l.lastAnswerMs)))} | ${timed.cold.apiRequests} | ${cached} of ${total} |`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const database = await benchDatabase('console');
  const statements = process.env.BENCH_SQL_STATEMENTS === '1' ? statementCounter(database.url) : undefined;
  const service = await spawnService(database.url, { TIMEGATE_RATE_LIMIT_BURST: '1000000', TIMEGATE_RATE_LIMIT_PER_MINUTE: '1000000' });
  const browser = await launchBrowser();
  try {
    const fleet = await createFleet(service.url, TERMINALS, 'CON');
    const { key, companyId } = fleet;
    // Simulated controllers: a controller's doors exist once it has reported them; one holds an alarm.
    const controllers: SimulatedTerminal[] = [];
    for (let i = 1; i <= CONTROLLERS; i++) {
      const device = await call(service.url, key, 'POST', '/public/v2/devices', {
        name: `Controller ${i}`,
        serial_number: `ACC${pad(i)}BENCH`,
        company_id: companyId,
        mode_type: 'acc',
      });
      const sim = new SimulatedTerminal({ serverUrl: service.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 1000 });
      sim.start();
      controllers.push(sim);
      for (;;) {
        const doors = await call(service.url, key, 'POST', '/graphql', {
          query: 'query ($d: Int!) { deviceDoors(deviceId: $d) { id } }',
          variables: { d: device.id },
        });
        if (doors.data?.deviceDoors.length > 0) break;
        await sleep(200);
      }
    }
    controllers[0]!.doorAlarm('held_open');
    await call(service.url, key, 'POST', '/public/v2/shifts', {
      company_id: companyId,
      name: 'Office',
      start_time: '09:00',
      end_time: '17:00',
      break_minutes: 30,
      is_default: true,
    });
    for (let first = 1; first <= EMPLOYEES; first += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, EMPLOYEES - first + 1) }, (_, i) =>
          call(service.url, key, 'POST', '/public/v2/employees', {
            name: 'Employee',
            lastname: String(first + i),
            code: `E${first + i}`,
            pin: String(first + i),
            company_id: companyId,
          }),
        ),
      );
    }
    // March 2026 from the first terminal: in at ~09:00, out at ~17:00 on every workday.
    const serial = fleet.serials[0]!;
    await fetch(`${service.url}/iclock/cdata?SN=${serial}&options=all&pushver=2.4.1`);
    const lines: string[] = [];
    for (let day = 1; day <= 31; day++) {
      const weekday = new Date(Date.UTC(2026, 2, day)).getUTCDay();
      if (weekday === 0 || weekday === 6) continue;
      for (let e = 1; e <= EMPLOYEES; e++) {
        lines.push(`${e}\t2026-03-${pad(day)} 08:${pad(50 + ((e + day) % 15))}:00\t0\t1\t0`);
        lines.push(`${e}\t2026-03-${pad(day)} 17:${pad((e * 7 + day) % 30)}:00\t1\t1\t0`);
      }
    }
    for (let i = 0; i < lines.length; i += 500) {
      const reply = await post(`${service.url}/iclock/cdata?SN=${serial}&table=ATTLOG&Stamp=1`, `${lines.slice(i, i + 500).join('\r\n')}\r\n`);
      if (!reply.startsWith('OK')) throw new Error(`upload refused: ${reply}`);
    }
    await withClient(database.url, async (c) => {
      for (;;) {
        const { rows } = await c.query(
          `select (select position from job_cursor where name = 'attendance') >= (select max(id) from event where type = 'attendance.created') as done`,
        );
        if (rows[0].done) return;
        await sleep(100);
      }
    });

    const measure = async (path: string, ready: (page: Page, markFirst: (ms: number) => void) => Promise<void>) => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      await context.addInitScript(`sessionStorage.setItem('timegate.apiKey', ${JSON.stringify(key)})`);
      // The page notes when its first timesheet row is in the document (from navigation start): a
      // check from here would wait for the page's next task, which can be the drawing of the rest.
      await context.addInitScript(`new MutationObserver((_, observer) => {
        if (document.querySelector('tr[data-employee]')) { window.firstRowAt = performance.now(); observer.disconnect(); }
      }).observe(document, { childList: true, subtree: true });`);
      const page = await context.newPage();
      const result = await timeLoads(
        page,
        async (markFirst) => {
          // A new document each time: from about:blank (which takes no time) to the page's address.
          await page.goto('about:blank');
          await page.goto(`${service.url}/console${path}`, { waitUntil: 'commit' });
          await ready(page, markFirst);
        },
        statements,
      );
      await context.close();
      return result;
    };
    const overview = await measure('', (page) =>
      page
        .locator('.tile')
        .nth(TERMINALS + CONTROLLERS - 1)
        .waitFor(),
    );
    const doorBoard = await measure('#/doors', async (page) => {
      await page
        .locator('tr[data-door]')
        .nth(CONTROLLERS - 1)
        .waitFor();
      await page.getByRole('list', { name: 'Alarms open now' }).getByText('held open', { exact: true }).waitFor();
    });
    // The grid is windowed: usable once every day is read and the grid is drawn counting all its
    // rows (it draws the rows in view); then the time to draw its last row when scrolled to the end.
    const lastRowMs: number[] = [];
    const timesheet = await measure('#/timesheets/2026-03', async (page, markFirst) => {
      await page
        .locator(`table.sheet[aria-rowcount="${EMPLOYEES + 1}"] tr[data-employee]`)
        .first()
        .waitFor({ timeout: 300_000 });
      markFirst((await page.evaluate('window.firstRowAt')) as number);
      lastRowMs.push(
        (await page.evaluate(`new Promise((done) => {
          const box = document.querySelector('.sheet-scroll');
          const started = performance.now();
          box.scrollTop = box.scrollHeight;
          const drawn = () => (document.querySelector('tr[aria-rowindex="${EMPLOYEES + 1}"]') ? done(performance.now() - started) : requestAnimationFrame(drawn));
          drawn();
        })`)) as number,
      );
    });
    const ms = (n: number) => Math.round(n);
    const figures = (t: Timed) => ({
      coldMs: ms(t.cold.ms),
      coldReadingMs: ms(t.cold.lastAnswerMs),
      warmMedianMs: ms(median(t.warm.map((l) => l.ms))),
      warmMaxMs: ms(Math.max(...t.warm.map((l) => l.ms))),
      warmAssetsFromCache: t.warm.reduce((n, l) => n + l.assetsFromCache, 0),
      warmAssets: t.warm.reduce((n, l) => n + l.assets, 0),
      apiRequests: t.cold.apiRequests,
      coldFirstRowsMs: t.cold.firstMs === null ? null : ms(t.cold.firstMs),
      warmFirstRowsMs: t.cold.firstMs === null ? null : ms(median(t.warm.map((l) => l.firstMs!))),
    });
    report(
      {
        bench: 'console',
        overview: figures(overview),
        doorBoard: figures(doorBoard),
        timesheet: { ...figures(timesheet), coldLastRowMs: ms(lastRowMs[0]!), warmLastRowMs: ms(median(lastRowMs.slice(1))) },
        terminals: TERMINALS + CONTROLLERS,
        employees: EMPLOYEES,
        punches: lines.length,
        warmLoads: WARM_LOADS,
        loadAverage: os
          .loadavg()
          .map((n) => n.toFixed(1))
          .join(' '),
      },
      [
        '',
        `Console loads on ${os.cpus().length} cores, load average ${os
          .loadavg()
          .map((n) => n.toFixed(1))
          .join(', ')} (1, 5, 15 min) at the end; warm: median and max of ${WARM_LOADS} full loads with the cache warm.`,
        '',
        ...table([
          { what: `overview (${TERMINALS + CONTROLLERS} terminals on the board)`, timed: overview },
          { what: `door board (${CONTROLLERS} controllers: every door and the open alarm)`, timed: doorBoard },
          {
            what: `month timesheet (${EMPLOYEES.toLocaleString('en')} employees, ${lines.length.toLocaleString('en')} punches: the grid, its rows counted)`,
            timed: timesheet,
          },
        ]),
        '',
        `month timesheet, its first rows drawn: cold ${ms(timesheet.cold.firstMs!)} ms, warm median ${ms(median(timesheet.warm.map((l) => l.firstMs!)))} ms`,
        `month timesheet, its last row drawn when scrolled to the end: cold ${ms(lastRowMs[0]!)} ms, warm median ${ms(median(lastRowMs.slice(1)))} ms`,
        '',
        "The cold loads' API requests by operation (wait: from the request sent to its answer, including its turn for a connection and on the service):",
        '',
        ...callTable([
          { what: 'overview', timed: overview },
          { what: 'door board', timed: doorBoard },
          { what: 'month timesheet', timed: timesheet },
        ]),
        ...[
          ['overview', overview],
          ['door board', doorBoard],
          ['month timesheet', timesheet],
        ].flatMap(([what, t]) =>
          (t as Timed).coldStatements.length ? ['', `SQL of the cold ${what as string}: ${(t as Timed).coldStatements.join('\n')}`] : [],
        ),
      ],
    );
    await Promise.all(controllers.map((c) => c.stop()));
  } finally {
    await browser.close();
    await closeProcessChromium();
    await service.stop();
    await database.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
