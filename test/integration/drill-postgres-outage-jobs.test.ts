import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded-postgres';
import { FAILING_AFTER } from '../../src/jobs/periodic-jobs';
import { startReceiver } from '../support/events';
import { createWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { query } from '../support/service-process';
import { createTerminalDevice, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The jobs the drill sees resume, and the failed runs each must have had in the outage: more than make a job failing (FAILING_AFTER). */
const OUTAGE_JOBS = ['presence', 'terminal_sweep', 'webhooks'];
const FAILED_RUNS = FAILING_AFTER + 2;

// Regression for the presence flush that stopped for good after one failed run: PostgreSQL is
// stopped while a terminal keeps polling and uploading, until the presence flush, the terminal
// sweep and the webhook worker each failed FAILED_RUNS runs for want of it (200-300 ms apart: a
// second or two; what counts is the failed runs, not the time); afterwards every periodic job
// (presence, offline marking, command expiry, webhooks) resumes by itself and /readyz is ready.
describe('fault drill: PostgreSQL stopped under terminal load until the periodic jobs failed runs, every periodic job resumes', () => {
  let dataDir: string;
  let port: number;
  let database: EmbeddedDatabase;
  let t: TestApp;
  before(async function () {
    this.timeout(120_000);
    // A PostgreSQL of its own: stopping the shared test server would break every other suite.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-drill-jobs-pg-'));
    port = await freePort();
    database = await startEmbeddedPostgres({ dataDir, port });
    t = await startTestApp(
      {
        DATABASE_URL: database.serverUrl('timegate_jobs'),
        TIMEGATE_PRESENCE_FLUSH_MS: '200',
        TIMEGATE_TERMINAL_SWEEP_MS: '300',
        TIMEGATE_ATT_DELAY: '2',
        TIMEGATE_OFFLINE_MIN_SECONDS: '1',
        TIMEGATE_UNLOCK_EXPIRY: '1',
        TIMEGATE_WEBHOOK_POLL_MS: '200',
        TIMEGATE_EVENT_POLL_MS: '200',
        TIMEGATE_DEVICE_CACHE_TTL_MS: '1000',
      },
      'drill-jobs',
    );
  });
  after(async function () {
    this.timeout(60_000);
    await t?.stop().catch(() => undefined);
    await database?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('REST and GraphQL answer 503 with Retry-After during the outage; afterwards presence, offline marking, unlock expiry and webhooks resume', async function () {
    this.timeout(180_000);
    const ws = await createWorkspace(t.url, { maxCompanies: 5, maxDevices: 5 });
    const busy = await createTerminalDevice(t.url, ws.key);
    const silent = await createTerminalDevice(t.url, ws.key);
    const receiver = await startReceiver();
    const hook = await rest(t.url, 'POST', '/public/v2/webhooks', {
      key: ws.key,
      body: { url: receiver.url, event_types: ['device.offline', 'attendance.created'] },
    });
    expect(hook.status).to.equal(201);
    // The silent terminal is seen once, so it is online until the sweep notices its silence.
    await iclock(t.url, 'GET', `/iclock/getrequest?SN=${silent.serial_number}`);

    // Terminal load: the busy terminal polls and uploads a punch now and then, as firmware does, whatever the answers.
    let running = true;
    let punches = 0;
    const load = (async () => {
      while (running) {
        await iclock(t.url, 'GET', `/iclock/getrequest?SN=${busy.serial_number}`).catch(() => null);
        const at = new Date(Date.UTC(2026, 4, 4, 8, 0, punches)).toISOString().replace('T', ' ').slice(0, 19);
        const upload = await iclock(t.url, 'POST', `/iclock/cdata?SN=${busy.serial_number}&table=ATTLOG&Stamp=1`, `7\t${at}\t0\t1\t\t0\n`).catch(() => null);
        if (upload?.status === 200) punches += 1;
        await sleep(150);
      }
    })();

    /** Failed runs of each job so far (the app's timegate_job_runs_total). */
    const failedRuns = async () => {
      const counted = new Map<string, number>();
      for (const { labels, value } of (await t.app.metrics.jobRuns.get()).values) if (labels.outcome === 'failed') counted.set(String(labels.job), value);
      return counted;
    };
    try {
      const failedBefore = await failedRuns();
      await database.stop();
      const unavailable = await waitUntil(
        'the API answers 503 during the outage',
        async () => {
          const reply = await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key });
          return reply.status === 503 ? reply : null;
        },
        30_000,
      );
      expect(unavailable.body.error.code).to.equal('service_unavailable');
      expect(unavailable.headers.get('retry-after')).to.match(/^\d+$/);
      const viaGraphQL = await gql(t.url, 'tg_live_not_cached_key', '{ companies { totalCount } }');
      expect(viaGraphQL.status).to.equal(503);
      expect(viaGraphQL.errors![0]!.extensions!.code).to.equal('service_unavailable');
      const readyz = await rest(t.url, 'GET', '/readyz');
      expect(readyz.status).to.equal(503);
      await waitUntil(
        `${OUTAGE_JOBS.join(', ')} each failed ${FAILED_RUNS} runs in the outage`,
        async () => {
          const now = await failedRuns();
          return OUTAGE_JOBS.map((job) => `${job}: ${(now.get(job) ?? 0) - (failedBefore.get(job) ?? 0)}`);
        },
        (counts) => counts.every((c) => Number(c.split(': ')[1]) >= FAILED_RUNS),
        30_000,
      );
      // While the database was down the jobs failed run after run, for want of the database: /readyz
      // says so, and names none of them as failing (they are not stuck, they wait; counted as
      // failures they would keep the process out of the balancer after the database is back).
      const down = await rest(t.url, 'GET', '/readyz');
      expect(down.status).to.equal(503);
      expect(down.body).to.include({ database: 'unreachable' });
      expect(down.body.failing_jobs).to.deep.equal([]);
      expect(t.app.jobs.states().find((job) => job.name === 'presence')).to.include({ waitingForDatabase: true, consecutiveFailures: 0 });
      expect((await rest(t.url, 'GET', '/healthz')).status, 'alive while it waits').to.equal(200);

      database = await startEmbeddedPostgres({ dataDir, port });
      const restarted = new Date();

      // Every job resumes without a restart of the service.
      const ready = await waitUntil(
        '/readyz answers 200 after the outage',
        async () => {
          const reply = await rest(t.url, 'GET', '/readyz');
          return reply.status === 200 ? reply : null;
        },
        60_000,
      );
      expect(ready.body.failing_jobs).to.deep.equal([]);

      // Presence: the busy terminal's polls after the restart are written.
      await waitUntil(
        'the busy terminal is online with a contact after the restart',
        async () => {
          const [row] = await query(t.config.databaseUrl!, 'select last_seen_at, status from device where id = $1', [busy.id]);
          return row.status === 'online' && new Date(row.last_seen_at) > restarted;
        },
        30_000,
      );
      // Offline marking: the silent terminal is marked offline by the sweep, and its webhook is delivered.
      await waitUntil(
        "the silent terminal's device.offline webhook is delivered",
        async () => receiver.received.some((r) => r.json.type === 'device.offline' && r.json.data.device_id === silent.id),
        30_000,
      );

      // Unlock expiry: an unlock for the silent (offline) terminal expires by the sweep.
      const unlock = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: ws.key, body: { device_serial: silent.serial_number, duration: 5 } });
      expect(unlock.status).to.equal(202);
      await waitUntil(
        'the unlock expired',
        async () => (await rest(t.url, 'GET', `/v1/devices/door/actions/${unlock.body.action_id}`, { key: ws.key })).body.status,
        (v) => v === 'expired',
        30_000,
      );

      // Webhooks: punches uploaded after the restart reach the receiver.
      const after = punches;
      await waitUntil(
        'more than two punches are stored after the restart',
        async () => punches,
        (v) => v > after + 2,
        30_000,
      );
      await waitUntil(
        "every punch's attendance.created webhook is delivered",
        async () => receiver.received.filter((r) => r.json.type === 'attendance.created').length,
        (v) => v >= punches,
        30_000,
      );
      for (const job of t.app.jobs.states()) expect(job.consecutiveFailures, job.name).to.equal(0);
    } finally {
      running = false;
      await load;
      await receiver.close();
    }
  });
});
