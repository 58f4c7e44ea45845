// Time to a usable console on localhost: the service (as `npm start` runs it), a real Chromium signed
// in with a key, timed from navigation to the page showing everything it is for:
//  (a) the overview with 50 terminals on the status board;
//  (b) the door board with 10 simulated access-control terminals (the plan allows 60 devices): every
//      door listed with its state, and the held-open alarm one of them raised before the page loads;
//  (c) a month timesheet of 1,000 employees (March 2026, 2 punches per employee and workday, 44,000
//      punches): every employee's row in the grid.
// Cold: the first load in a fresh browser context (no cached assets); warm: the median of the
// loads after it in the same context.
// Run: `npm run bench:console` (not part of `npm run bench`: it needs Chromium).
import http from 'node:http';
import type { Page } from 'playwright-core';
import { SimulatedTerminal } from '../src/simulator';
import { launchBrowser } from '../test/support/browser';
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

/** The first load (cold) and the median of the next ones (warm), in ms. */
async function timeLoads(load: () => Promise<void>): Promise<{ cold: number; warm: number; warmMax: number }> {
  const timed = async () => {
    const started = performance.now();
    await load();
    return performance.now() - started;
  };
  const cold = await timed();
  const warm: number[] = [];
  for (let i = 0; i < WARM_LOADS; i++) warm.push(await timed());
  warm.sort((a, b) => a - b);
  return { cold, warm: warm[Math.floor(WARM_LOADS / 2)]!, warmMax: warm.at(-1)! };
}

async function main(): Promise<void> {
  const database = await benchDatabase('console');
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

    const measure = async (path: string, ready: (page: Page) => Promise<void>) => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      await context.addInitScript(`sessionStorage.setItem('timegate.apiKey', ${JSON.stringify(key)})`);
      const page = await context.newPage();
      const result = await timeLoads(async () => {
        // A fresh document each time (from about:blank, which takes no time): going to the same
        // address with a #route again would only change the hash.
        await page.goto('about:blank');
        await page.goto(`${service.url}/console${path}`, { waitUntil: 'commit' });
        await ready(page);
      });
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
    const timesheet = await measure('#/timesheets/2026-03', (page) =>
      page
        .locator('tr[data-employee]')
        .nth(EMPLOYEES - 1)
        .waitFor({ timeout: 120_000 }),
    );
    const ms = (n: number) => Math.round(n);
    report(
      {
        bench: 'console',
        overviewColdMs: ms(overview.cold),
        overviewWarmMs: ms(overview.warm),
        doorBoardColdMs: ms(doorBoard.cold),
        doorBoardWarmMs: ms(doorBoard.warm),
        timesheetColdMs: ms(timesheet.cold),
        timesheetWarmMs: ms(timesheet.warm),
        employees: EMPLOYEES,
        punches: lines.length,
      },
      [
        `console overview usable (${TERMINALS + CONTROLLERS} terminals on the board): cold ${ms(overview.cold)} ms, warm median ${ms(overview.warm)} ms (max ${ms(overview.warmMax)} ms)`,
        `door board usable (${CONTROLLERS} controllers, every door and the open alarms): cold ${ms(doorBoard.cold)} ms, warm median ${ms(doorBoard.warm)} ms (max ${ms(doorBoard.warmMax)} ms)`,
        `month timesheet usable (${EMPLOYEES} employees, ${lines.length} punches, every row): cold ${ms(timesheet.cold)} ms, warm median ${ms(timesheet.warm)} ms (max ${ms(timesheet.warmMax)} ms)`,
      ],
    );
    await Promise.all(controllers.map((c) => c.stop()));
  } finally {
    await browser.close();
    await service.stop();
    await database.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
