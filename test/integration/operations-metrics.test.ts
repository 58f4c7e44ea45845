// The metrics the alert rules and the dashboard of deploy/ read (docs/operations.md): each one is
// exposed at /metrics and moves when what it measures happens, on the real service with an injected
// clock (the delays measured are then exact).
import http from 'node:http';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Histogram } from 'prom-client';
import { ATTENDANCE_LOCK } from '../../src/services/attendance/day-store';
import { createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query } from '../support/service-process';
import { createTerminalDevice, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

/** The gauges read from the database answer within a scrape or two, slower on a loaded machine. */
const GAUGE_WAIT_MS = 30_000;

describe('operations metrics: what the alert rules and the dashboard read', function () {
  this.timeout(60_000);
  let t: TestApp;
  let key: string;
  let clock = Date.parse('2026-02-02T08:00:00Z');
  const now = () => new Date(clock);
  const at = (iso: string) => (clock = Date.parse(iso));

  before(async () => {
    t = await startTestApp(
      {
        // Presence, the sweep and the attendance worker run when the test says so.
        TIMEGATE_PRESENCE_FLUSH_MS: '3600000',
        TIMEGATE_TERMINAL_SWEEP_MS: '3600000',
        TIMEGATE_ATTENDANCE_POLL_MS: '3600000',
        TIMEGATE_ATTENDANCE_BATCH_DELAY_MS: '10000',
        TIMEGATE_WEBHOOK_POLL_MS: '3600000',
        TIMEGATE_WEBHOOK_ENDPOINT_CONCURRENCY: '1',
        TIMEGATE_DEVICE_ACTION_EXPIRY: '30',
      },
      'operations-metrics',
      { now },
    );
    key = (await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10 })).key;
  });
  after(() => t?.stop());

  const metricsText = async () => (await rest(t.url, 'GET', '/metrics')).text;
  /** A sample's value in the exposition text (`name{labels}` exactly as written), or null. */
  const sample = (text: string, series: string): number | null => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? null : Number(line.slice(series.length + 1));
  };
  /** Count and sum of a histogram's series with exactly these labels. */
  async function observed(histogram: Histogram<string>, labels: Record<string, string> = {}): Promise<{ count: number; sum: number }> {
    const { values } = await histogram.get();
    const mine = values.filter((v) => Object.entries(labels).every(([name, wanted]) => v.labels[name] === wanted));
    const pick = (suffix: string) => mine.find((v) => v.metricName?.endsWith(suffix))?.value ?? 0;
    return { count: pick('_count'), sum: pick('_sum') };
  }

  it('exposes every metric the rules and the dashboard read, the pool and the event loop included', async () => {
    const text = await metricsText();
    for (const [name, type] of [
      ['timegate_terminal_request_errors_total', 'counter'],
      ['timegate_terminal_upload_duration_seconds', 'histogram'],
      ['timegate_device_command_delivery_seconds', 'histogram'],
      ['timegate_attendance_day_delay_seconds', 'histogram'],
      ['timegate_webhook_delivery_seconds', 'histogram'],
      ['timegate_devices', 'gauge'],
      ['timegate_device_command_wait_seconds', 'gauge'],
      ['timegate_attendance_backlog_seconds', 'gauge'],
      ['timegate_webhook_backlog_seconds', 'gauge'],
      ['timegate_db_pool_connections', 'gauge'],
      ['timegate_db_pool_max_connections', 'gauge'],
      ['timegate_db_pool_waiting', 'gauge'],
      ['timegate_nodejs_eventloop_lag_p99_seconds', 'gauge'],
    ])
      expect(text, name).to.contain(`# TYPE ${name} ${type}\n`);
    expect(sample(text, 'timegate_db_pool_max_connections')).to.equal(10);
    expect(sample(text, 'timegate_db_pool_waiting')).to.equal(0);
    // The scrape itself was answered with a pooled connection read from the database.
    expect(sample(text, 'timegate_db_pool_connections{state="used"}')! + sample(text, 'timegate_db_pool_connections{state="idle"}')!).to.be.at.least(1);
    expect(sample(text, 'timegate_nodejs_eventloop_lag_p99_seconds')).to.be.a('number').and.not.NaN;
  });

  it('counts terminals by status as the database holds them, and follows their changes', async () => {
    const inDatabase = async () => {
      const rows = await query<{ status: string; n: number }>(t.config.databaseUrl!, 'select status, count(*)::int as n from device group by status');
      const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
      return { pending: count('pending'), online: count('online'), offline: count('offline') };
    };
    const gauges = async () => {
      const text = await metricsText();
      const count = (status: string) => sample(text, `timegate_devices{status="${status}"}`);
      return { pending: count('pending'), online: count('online'), offline: count('offline') };
    };
    const device = await createTerminalDevice(t.url, key);
    // A scrape reads the database again once the previous read is a second old (or NaN when the read
    // took too long): the gauges soon show what the database holds.
    const before = await waitUntil(
      'the gauges show what the database holds',
      async () => {
        const [wanted, shown] = [await inDatabase(), await gauges()];
        return JSON.stringify(shown) === JSON.stringify(wanted) && shown;
      },
      GAUGE_WAIT_MS,
    );
    expect(before.pending).to.be.at.least(1);
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all&pushver=2.4.1`)).status).to.equal(200);
    await t.app.terminals.flush();
    await waitUntil(
      'the gauges count the terminal online',
      async () => {
        const shown = await gauges();
        return shown.online === before.online! + 1 && shown.pending === before.pending! - 1 && shown.offline === before.offline;
      },
      GAUGE_WAIT_MS,
    );
  });

  it('times stored uploads by table and lane, and counts the uploads it failed (503) by endpoint and kind', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    const live = await observed(t.app.metrics.terminalUploadDuration, { table: 'attlog', lane: 'live' });
    const bulk = await observed(t.app.metrics.terminalUploadDuration, { table: 'attlog', lane: 'bulk' });
    const line = (minute: number) => `1\t2026-02-02 07:${String(minute).padStart(2, '0')}:00\t0\t1\t0\t0\t0\r\n`;
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=ATTLOG&Stamp=9999`, line(0))).text).to.equal('OK: 1');
    const backlog = Array.from({ length: 40 }, (_, i) => line(i + 1)).join('');
    expect(Buffer.byteLength(backlog)).to.be.above(1024);
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=ATTLOG&Stamp=9999`, backlog)).text).to.equal('OK: 40');
    expect((await observed(t.app.metrics.terminalUploadDuration, { table: 'attlog', lane: 'live' })).count).to.equal(live.count + 1);
    expect((await observed(t.app.metrics.terminalUploadDuration, { table: 'attlog', lane: 'bulk' })).count).to.equal(bulk.count + 1);

    // The database refuses every punch: the upload is answered 503 (the terminal keeps it) and counted.
    const errors = async () => ((await t.app.metrics.terminalRequestErrors.get()).values.find((v) => v.labels.kind === 'attlog')?.value ?? 0) as number;
    const failedBefore = await errors();
    const databaseUrl = t.config.databaseUrl!;
    await query(databaseUrl, `create function ops_metrics_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`);
    await query(databaseUrl, `create trigger ops_metrics_refuse before insert on punch for each row execute function ops_metrics_refuse()`);
    try {
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=ATTLOG&Stamp=9999`, line(50))).status).to.equal(503);
    } finally {
      await query(databaseUrl, `drop trigger ops_metrics_refuse on punch`);
      await query(databaseUrl, `drop function ops_metrics_refuse()`);
    }
    expect(await errors()).to.equal(failedBefore + 1);
    // Refused uploads are not timed as stored ones.
    expect((await observed(t.app.metrics.terminalUploadDuration, { table: 'attlog', lane: 'live' })).count).to.equal(live.count + 1);
    const text = await metricsText();
    expect(sample(text, 'timegate_terminal_request_errors_total{endpoint="cdata",kind="attlog"}')).to.equal(failedBefore + 1);
  });

  it("times a command's delivery from queued, or from the terminal's return online, and shows the oldest interactive command waiting", async () => {
    at('2026-02-02T09:00:00Z');
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=2.4.1`)).status).to.equal(200);
    await t.app.terminals.flush();
    const interactive = await observed(t.app.metrics.commandDelivery, { lane: 'interactive' });

    // Queued at 09:00:05 (it expires 30 s later) for a terminal online since 09:00:00.
    at('2026-02-02T09:00:05Z');
    const action = await rest(t.url, 'POST', `/public/v2/devices/${device.id}/actions`, { key, body: { type: 'info.refresh' } });
    expect(action.status).to.equal(202);
    // Nobody polled for 20 s: the gauge shows it.
    at('2026-02-02T09:00:25Z');
    await waitUntil('the command wait gauge reads 20 s', async () => sample(await metricsText(), 'timegate_device_command_wait_seconds') === 20, GAUGE_WAIT_MS);
    // The terminal had polled at 09:00:12: 7 s.
    at('2026-02-02T09:00:12Z');
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.match(/^C:\w+:INFO/);
    const after = await observed(t.app.metrics.commandDelivery, { lane: 'interactive' });
    expect(after.count).to.equal(interactive.count + 1);
    expect(after.sum - interactive.sum).to.be.closeTo(7, 1e-6);
    await waitUntil('the command wait gauge reads 0', async () => sample(await metricsText(), 'timegate_device_command_wait_seconds') === 0, GAUGE_WAIT_MS);

    // A terminal that was away when its command was queued: its first poll back, 20 s later, takes
    // the command at once (the 20 s are not the queue's).
    const away = await createTerminalDevice(t.url, key);
    at('2026-02-02T10:00:00Z');
    expect((await rest(t.url, 'POST', `/public/v2/devices/${away.id}/actions`, { key, body: { type: 'info.refresh' } })).status).to.equal(202);
    at('2026-02-02T10:00:20Z');
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${away.serial_number}&options=all&pushver=2.4.1`)).status).to.equal(200);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${away.serial_number}`)).text).to.match(/^C:\w+:INFO/);
    const back = await observed(t.app.metrics.commandDelivery, { lane: 'interactive' });
    expect(back.count).to.equal(after.count + 1);
    expect(back.sum - after.sum).to.equal(0);
    await t.app.terminals.flush();

    // A command that expires undelivered while its terminal is online was late: it counts, at its expiry.
    at('2026-02-02T12:00:00Z');
    const stuck = await createTerminalDevice(t.url, key);
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${stuck.serial_number}&options=all&pushver=2.4.1`)).status).to.equal(200);
    await t.app.terminals.flush();
    at('2026-02-02T12:00:05Z');
    expect((await rest(t.url, 'POST', `/public/v2/devices/${stuck.id}/actions`, { key, body: { type: 'info.refresh' } })).status).to.equal(202);
    at('2026-02-02T12:00:40Z');
    await t.app.terminals.sweep();
    const expired = await observed(t.app.metrics.commandDelivery, { lane: 'interactive' });
    expect(expired.count).to.equal(back.count + 1);
    expect(expired.sum - back.sum).to.be.closeTo(35, 1e-6);
  });

  it('times each punch from stored to counted in its day, and shows how old the oldest punch waiting for the worker is', async () => {
    at('2026-02-03T08:00:00Z');
    const device = await createTerminalDevice(t.url, key);
    const { body } = await rest(t.url, 'GET', `/public/v2/devices/${device.id}`, { key });
    await createEmployee(t.url, key, body.company_id, { pin: '4242' });
    // Whatever earlier tests left for the worker is done first.
    await t.app.attendance.runUntilIdle();
    const before = await observed(t.app.metrics.attendanceDayDelay);
    const upload = (lines: string[]) =>
      iclock(
        t.url,
        'POST',
        `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=9999`,
        lines.map((l) => `4242\t2026-02-03 ${l}\t0\t1\t0\t0\t0\r\n`).join(''),
      );
    // The test holds the attendance lock while it reads the backlog: the worker, woken by the upload
    // after its batch delay, cannot count the punches first (its main job finds the lock taken, its
    // live lane waits for it), however slowly this test runs beside others.
    const holder = new pg.Client({ connectionString: t.config.databaseUrl! });
    await holder.connect();
    try {
      await holder.query(`select pg_advisory_lock(x'${ATTENDANCE_LOCK}'::bigint)`);
      expect((await upload(['07:58:00', '07:59:00'])).text).to.equal('OK: 2');
      at('2026-02-03T08:00:30Z');
      await waitUntil(
        'the attendance backlog gauge reads 30 s',
        async () => sample(await metricsText(), 'timegate_attendance_backlog_seconds') === 30,
        GAUGE_WAIT_MS,
      );
      await holder.query(`select pg_advisory_unlock(x'${ATTENDANCE_LOCK}'::bigint)`);
      await t.app.attendance.runUntilIdle();
      // A batch the worker had begun on its own (or its live lane, once the lock was free) commits
      // (and observes) after runUntilIdle found it busy.
      const after = await waitUntil(
        'both punches are observed in the punch-to-day histogram',
        () => observed(t.app.metrics.attendanceDayDelay),
        (seen) => seen.count >= before.count + 2,
        GAUGE_WAIT_MS,
      );
      expect(after.count).to.equal(before.count + 2);
      expect(after.sum - before.sum).to.be.closeTo(60, 1e-6);
      await waitUntil(
        'the attendance backlog gauge reads 0',
        async () => sample(await metricsText(), 'timegate_attendance_backlog_seconds') === 0,
        GAUGE_WAIT_MS,
      );

      // A third punch of the same day: only it is new to the day, the two counted before are not timed again.
      await holder.query(`select pg_advisory_lock(x'${ATTENDANCE_LOCK}'::bigint)`);
      expect((await upload(['07:57:00'])).text).to.equal('OK: 1');
      at('2026-02-03T08:00:35Z');
      await holder.query(`select pg_advisory_unlock(x'${ATTENDANCE_LOCK}'::bigint)`);
      await t.app.attendance.runUntilIdle();
      const third = await waitUntil(
        'the third punch is observed in the punch-to-day histogram',
        () => observed(t.app.metrics.attendanceDayDelay),
        (seen) => seen.count >= after.count + 1,
        GAUGE_WAIT_MS,
      );
      expect(third.count).to.equal(after.count + 1);
      expect(third.sum - after.sum).to.be.closeTo(5, 1e-6);
    } finally {
      await holder.end();
    }
  });

  it('times accepted webhook deliveries from their event, and shows how long the oldest due delivery has waited', async () => {
    at('2026-02-04T08:00:00Z');
    const device = await createTerminalDevice(t.url, key);
    // A receiver that answers when the test says so.
    const held: http.ServerResponse[] = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => held.push(res));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const release = () => held.splice(0).forEach((res) => res.writeHead(200).end('ok'));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      expect((await rest(t.url, 'POST', '/public/v2/webhooks', { key, body: { url, event_types: ['attendance.created'] } })).status).to.equal(201);
      const first = await observed(t.app.metrics.webhookDelivery, { attempt: 'first' });
      const upload = (minute: number) =>
        iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=9999`, `7\t2026-02-04 07:${minute}:00\t0\t1\t0\t0\t0\r\n`);
      // Two events at 08:00:00: the first is sent at once and held by the receiver; with one request
      // per endpoint (TIMEGATE_WEBHOOK_ENDPOINT_CONCURRENCY=1) the second waits, due.
      expect((await upload(10)).text).to.equal('OK: 1');
      await waitUntil('the receiver holds one delivery', async () => held.length === 1);
      expect((await upload(11)).text).to.equal('OK: 1');
      at('2026-02-04T08:00:20Z');
      await waitUntil(
        'the webhook backlog gauge reads 20 s',
        async () => sample(await metricsText(), 'timegate_webhook_backlog_seconds') === 20,
        GAUGE_WAIT_MS,
      );

      // Accepted at 08:00:24: 24 s after the event, at the first attempt; then the second one.
      at('2026-02-04T08:00:24Z');
      release();
      await waitUntil('the receiver holds one delivery', async () => held.length === 1);
      release();
      await waitUntil(
        'two more first-attempt deliveries are observed',
        async () => (await observed(t.app.metrics.webhookDelivery, { attempt: 'first' })).count === first.count + 2,
      );
      expect((await observed(t.app.metrics.webhookDelivery, { attempt: 'first' })).sum - first.sum).to.be.closeTo(48, 1e-6);
      await waitUntil('the webhook backlog gauge reads 0', async () => sample(await metricsText(), 'timegate_webhook_backlog_seconds') === 0, GAUGE_WAIT_MS);
    } finally {
      release();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
