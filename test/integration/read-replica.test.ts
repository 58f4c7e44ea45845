import { expect } from 'chai';
import pino from 'pino';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { REPLICA_RETRY_MS } from '../../src/db/read-replica';
import { createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startReplicaPair, type ReplicaPair } from '../support/replica-pair';
import { MASTER_KEY, startTestApp, type TestApp } from '../support/test-app';
import { query } from '../support/service-process';
import { createTerminalDevice, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';

/** A workspace with a terminal, an employee on it, and one punch entered through the API. */
interface Tenant extends TestWorkspace {
  serial: string;
  companyId: number;
  deviceId: number;
  employeeId: number;
  pin: string;
}

const DAY = '2026-11-02';

/**
 * DATABASE_REPLICA_URL against a real streaming standby (pg_basebackup -R) whose replay the test
 * pauses: which server answered is proven by rows only the primary has (a terminal's punch the
 * paused standby has not replayed) and by the read counter's `server` label, never by timing.
 */
describe('read replica: heavy reads go to a fresh-enough standby, everything else to the primary', function () {
  this.timeout(120_000);
  let pair: ReplicaPair;
  let t: TestApp;
  /** A second process on the same databases with a bound of 0: any lag sends its reads to the primary. */
  let strict: App;
  let writer: Tenant;
  let reader: Tenant;
  let env: Record<string, string>;

  const metrics = async (url: string) => (await fetch(`${url}/metrics`)).text();
  const sample = (text: string, name: string, labels: Record<string, string> = {}): number => {
    const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    for (const line of text.split('\n')) {
      if (!line.startsWith(name)) continue;
      const [series, value] = line.split(' ');
      const rest = series!.slice(name.length);
      if (rest !== '' && !rest.startsWith('{')) continue;
      if (wanted.every((w) => rest.includes(w))) return Number(value);
    }
    return 0;
  };
  const reads = async (url: string, kind: string, route: string) =>
    sample(await metrics(url), 'timegate_replica_reads_total', { kind, server: route === 'fresh' ? 'replica' : 'primary', route });
  /** Runs `read` and checks it was counted once under `route` (and answered 200). */
  const routed = async <T>(url: string, kind: string, route: string, read: () => Promise<{ status: number; body: T }>): Promise<T> => {
    const before = await reads(url, kind, route);
    const answer = await read();
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const after = await reads(url, kind, route);
    if (after !== before + 1)
      console.log(
        (await metrics(url))
          .split('\n')
          .filter((l) => l.startsWith('timegate_replica_reads_total'))
          .join('\n'),
      );
    expect(after, `${kind} read counted as ${route}`).to.equal(before + 1);
    return answer.body;
  };
  const punchTimes = async (url: string, tenant: Tenant) => {
    const answer = await rest(url, 'GET', `/public/v2/punches?start_date=${DAY}&end_date=${DAY}`, { key: tenant.key });
    return { status: answer.status, body: answer.status === 200 ? (answer.body as { punch_time: string }[]).map((p) => p.punch_time).sort() : answer.body };
  };
  const timesheet = (url: string, tenant: Tenant) => rest(url, 'GET', `/public/v2/timesheets?start_date=${DAY}&end_date=${DAY}`, { key: tenant.key });
  const caughtUp = () => pair.resumeReplay();

  const tenant = async (): Promise<Tenant> => {
    const ws = await createWorkspace(t.url);
    const device = await createTerminalDevice(t.url, ws.key);
    const companyId = (device as unknown as { company_id: number }).company_id;
    const employee = await createEmployee(t.url, ws.key, companyId, { pin: String(100 + device.id) });
    const punch = await rest(t.url, 'POST', '/public/v2/punches', {
      key: ws.key,
      body: { employee_id: employee.id, device_id: device.id, company_id: companyId, punch_time: `${DAY}T08:00:00Z`, punch_state: '0' },
    });
    expect(punch.status, punch.text).to.equal(201);
    return { ...ws, serial: device.serial_number, companyId, deviceId: device.id, employeeId: employee.id, pin: employee.pin! };
  };

  before(async function () {
    this.timeout(240_000);
    pair = await startReplicaPair();
    // No attendance worker: days are computed by the reads (and marked before they answer), so no
    // background batch marks a workspace written between the test's catch-up and its read.
    env = {
      DATABASE_URL: pair.primaryUrl,
      DATABASE_REPLICA_URL: pair.replicaUrl,
      TIMEGATE_REPLICA_MAX_LAG_MS: '600000',
      TIMEGATE_ATTENDANCE_WORKER: 'false',
    };
    t = await startTestApp(env, 'replica');
    strict = await createApp(
      loadConfig({ ...env, TIMEGATE_REPLICA_MAX_LAG_MS: '0', PORT: '0', HOST: '127.0.0.1', TIMEGATE_MASTER_KEY: MASTER_KEY, LOG_LEVEL: 'silent' }),
      { logger: pino({ level: 'silent' }) },
    );
    writer = await tenant();
    reader = await tenant();
    // Their days computed now (a write, on the primary), then everything replayed.
    for (const tenant of [writer, reader]) expect((await timesheet(t.url, tenant)).status).to.equal(200);
    await caughtUp();
  });
  after(async function () {
    this.timeout(60_000);
    await strict?.stop();
    await t?.stop();
    await pair?.stop();
  });

  it('serves the heavy reads of a caught-up replica from it', async () => {
    expect((await pair.standby('select pg_is_in_recovery() as standby'))[0]!.standby).to.equal(true);
    expect(await routed(t.url, 'punches', 'fresh', () => punchTimes(t.url, reader))).to.deep.equal([`${DAY}T08:00:00.000Z`]);
    await routed(t.url, 'timesheet', 'fresh', () => timesheet(t.url, reader));
    await routed(t.url, 'timesheet_summary', 'fresh', () =>
      rest(t.url, 'GET', `/public/v2/timesheets/summary?start_date=${DAY}&end_date=${DAY}`, { key: reader.key }),
    );
    await routed(t.url, 'door_events', 'fresh', () => rest(t.url, 'GET', '/public/v2/door_events?per_page=10', { key: reader.key }));
    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: reader.key,
      body: { company_id: reader.companyId, start_date: DAY, end_date: DAY },
    });
    expect(period.status, period.text).to.equal(201);
    // The period just written: the workspace's own write keeps its export on the primary until replayed.
    await caughtUp();
    const exported = await routed(t.url, 'payroll_export', 'fresh', () =>
      rest(t.url, 'GET', `/public/v2/pay_periods/${period.body.id}/export`, { key: reader.key }),
    );
    expect(exported).to.have.property('rows');
  });

  it('with replay paused, a workspace reads its own write from the primary and another reads the replica within the bound', async () => {
    await pair.pauseReplay();
    // The writer's key posts a punch: its next reads come from the primary, with the punch.
    const posted = await rest(t.url, 'POST', '/public/v2/punches', {
      key: writer.key,
      body: { employee_id: writer.employeeId, device_id: writer.deviceId, company_id: writer.companyId, punch_time: `${DAY}T17:00:00Z`, punch_state: '1' },
    });
    expect(posted.status, posted.text).to.equal(201);
    expect(await routed(t.url, 'punches', 'own_write', () => punchTimes(t.url, writer))).to.deep.equal([`${DAY}T08:00:00.000Z`, `${DAY}T17:00:00.000Z`]);
    const sheet = (await routed(t.url, 'timesheet', 'own_write', () => timesheet(t.url, writer))) as { punch_ids: number[] }[];
    expect(sheet[0]!.punch_ids, 'the day holds the punch just posted').to.include(posted.body.id);
    expect((await pair.standby('select count(*)::int as n from punch where workspace_id = $1', [writer.id]))[0]!.n, 'the standby lacks it').to.equal(1);

    // The reader's terminal uploads a punch of a pin no employee has (not a write of the reader's key,
    // and no day to compute, which would mark the workspace written): only the primary has it.
    const upload = await iclock(t.url, 'POST', `/iclock/cdata?SN=${reader.serial}&table=ATTLOG&Stamp=1`, `99999\t${DAY} 12:00:00\t0\t1\t\t0\t0\r\n`);
    expect(upload.text).to.equal('OK: 1');
    expect((await pair.primary('select count(*)::int as n from punch where workspace_id = $1', [reader.id]))[0]!.n).to.equal(2);
    // Its list comes from the replica, as it was when replay paused: within the bound (10 minutes here).
    expect(await routed(t.url, 'punches', 'fresh', () => punchTimes(t.url, reader))).to.have.length(1);

    // The lag shows in /metrics: bytes the standby has not replayed, seconds since its last replayed commit.
    // (A scrape within a second of the previous one shows that one's measurement: waited for.)
    const text = await waitUntil(
      'the lag gauges show the paused standby',
      () => metrics(t.url),
      (text) => sample(text, 'timegate_db_replica_lag_bytes') > 0,
      30_000,
    );
    expect(sample(text, 'timegate_db_replica_lag_seconds')).to.be.greaterThan(0);

    // A process whose bound is 0 sends the same read to the primary (route `lag`): fresh, with the upload.
    expect(await routed(strict.url, 'punches', 'lag', () => punchTimes(strict.url, reader))).to.have.length(2);
  });

  it('once replay resumes and catches up, reads go to the replica again and the lag falls to 0', async () => {
    await caughtUp();
    expect(await routed(t.url, 'punches', 'fresh', () => punchTimes(t.url, writer))).to.deep.equal([`${DAY}T08:00:00.000Z`, `${DAY}T17:00:00.000Z`]);
    expect(await routed(t.url, 'punches', 'fresh', () => punchTimes(t.url, reader))).to.have.length(2);
    await waitUntil(
      'the lag gauge reads 0',
      async () => sample(await metrics(t.url), 'timegate_db_replica_lag_seconds'),
      (seconds) => seconds === 0,
      30_000,
    );
  });

  it('a replica that is down sends reads to the primary (no 5xx), and it is used again once back', async () => {
    await pair.stopStandby();
    expect(await routed(t.url, 'punches', 'unavailable', () => punchTimes(t.url, reader))).to.have.length(2);
    await routed(t.url, 'timesheet', 'unavailable', () => timesheet(t.url, reader));
    await waitUntil(
      'the lag gauge reads NaN (not measurable)',
      async () => sample(await metrics(t.url), 'timegate_db_replica_lag_seconds'),
      (seconds) => Number.isNaN(seconds),
      30_000,
    );
    // A process that starts while the replica is down starts, and answers from the primary.
    const late = await createApp(loadConfig({ ...env, PORT: '0', HOST: '127.0.0.1', TIMEGATE_MASTER_KEY: MASTER_KEY, LOG_LEVEL: 'silent' }), {
      logger: pino({ level: 'silent' }),
    });
    try {
      expect(await routed(late.url, 'punches', 'unavailable', () => punchTimes(late.url, reader))).to.have.length(2);
    } finally {
      await late.stop();
    }
    await pair.startStandby();
    // After REPLICA_RETRY_MS the replica is tried again.
    await waitUntil(
      'a read is served by the replica again',
      async () => {
        const before = await reads(t.url, 'punches', 'fresh');
        expect((await punchTimes(t.url, reader)).status).to.equal(200);
        return (await reads(t.url, 'punches', 'fresh')) > before;
      },
      REPLICA_RETRY_MS * 6,
    );
  });

  it('a DATABASE_REPLICA_URL that reaches a server not in recovery (the primary itself) is never read as a replica', async () => {
    const wrong = await createApp(
      loadConfig({ ...env, DATABASE_REPLICA_URL: pair.primaryUrl, PORT: '0', HOST: '127.0.0.1', TIMEGATE_MASTER_KEY: MASTER_KEY, LOG_LEVEL: 'silent' }),
      { logger: pino({ level: 'silent' }) },
    );
    try {
      expect(await routed(wrong.url, 'punches', 'not_standby', () => punchTimes(wrong.url, reader))).to.have.length(2);
      expect(sample(await metrics(wrong.url), 'timegate_db_replica_lag_seconds')).to.be.NaN;
    } finally {
      await wrong.stop();
    }
  });
});

describe('without DATABASE_REPLICA_URL', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'no-replica');
  });
  after(() => t?.stop());

  it('writes no workspace mark, routes nothing and reports no lag', async () => {
    const ws = await createWorkspace(t.url);
    const device = await createTerminalDevice(t.url, ws.key);
    const employee = await createEmployee(t.url, ws.key, (device as unknown as { company_id: number }).company_id);
    const punches = await rest(t.url, 'GET', `/public/v2/punches?employee_id=${employee.id}`, { key: ws.key });
    expect(punches.status).to.equal(200);
    const timesheet = await rest(t.url, 'GET', `/public/v2/timesheets?start_date=${DAY}&end_date=${DAY}`, { key: ws.key });
    expect(timesheet.status).to.equal(200);
    expect(await query(t.config.databaseUrl!, 'select count(*)::int as n from workspace_write_mark')).to.deep.equal([{ n: 0 }]);
    const text = await (await fetch(`${t.url}/metrics`)).text();
    expect(text.split('\n').filter((line) => line.startsWith('timegate_replica_reads_total'))).to.deep.equal([]);
    expect(text).to.match(/^timegate_db_replica_lag_seconds nan$/im);
  });
});
