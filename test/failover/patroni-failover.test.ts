// Failover drill (`npm run test:failover`, run by .ci/run after the suite): PostgreSQL with a
// synchronous standby managed by Patroni, behind HAProxy (deploy/ha/cluster.sh), two Timegate
// processes on it, 50 simulated terminals uploading ATTLOG and rtlog, API clients writing with
// Idempotency-Keys, a subscriber on each process and a webhook receiver; the primary's machine
// "dies" (Patroni and PostgreSQL killed with SIGKILL) mid-stream. Asserted: correctness only
// (nothing acknowledged lost, nothing stored twice, the processes recover by themselves, /readyz
// and /healthz say the right thing). The timings are measured and reported (printed, and appended
// to test-results/failover.jsonl), never asserted: docs/deployment.md has the figures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { SimulatedTerminal, type UploadEvent } from '../../src/simulator';
import { startReceiver, wsClient } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { startHaCluster, type HaCluster } from '../support/ha-cluster';
import { rest } from '../support/http';
import { query, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitUntil } from '../support/wait-until';

const root = path.resolve(__dirname, '..', '..', '..');
const results = path.join(root, 'test-results');
const TERMINALS = 50;
/** Of the 50, security (access control) terminals uploading rtlog; the others attendance terminals uploading ATTLOG. */
const ACCESS_TERMINALS = 10;
const API_WRITERS = 4;
/** Load before the kill, and after the new primary took over, before the punches stop. */
const LOAD_BEFORE_MS = 10_000;
const LOAD_AFTER_MS = 10_000;
const TICK_MS = 250;
const PUNCHING_PER_TICK = 3;
/** The probe punches every this many ticks (it only needs something to send at every moment). */
const PROBE_EVERY = 4;
const SUBSCRIPTION = 'subscription { punchCreated { eventId punch { id } } }';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
  at: number;
  /** A member was primary (Patroni) just before the probes, and just after. */
  leaderBefore: boolean;
  leaderAfter: boolean;
  readyz: Array<{ status: number; failingJobs: string[] | null }>;
  healthz: number[];
}

/** Status and body of a GET; status 0 when no answer came within 10 s (the machine may be very busy). */
async function statusOf(url: string): Promise<{ status: number; body: any }> {
  try {
    const reply = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return { status: reply.status, body: await reply.json().catch(() => null) };
  } catch {
    return { status: 0, body: null };
  }
}

describe('failover: the PostgreSQL primary dies under load, Patroni promotes its synchronous standby', function () {
  this.timeout(20 * 60_000);
  let cluster: HaCluster | null = null;
  const processes: ServiceProcess[] = [];
  const terminals: SimulatedTerminal[] = [];
  const closers: Array<() => Promise<unknown>> = [];

  before(async function () {
    this.timeout(15 * 60_000);
    cluster = await startHaCluster({ members: Number(process.env.TIMEGATE_HA_MEMBERS ?? 3), sync: 1 });
    // One after the other: the first applies the migrations, the second finds them applied.
    // Warnings and errors of each process go to test-results/ (for a failing run).
    fs.mkdirSync(results, { recursive: true });
    for (const n of [1, 2]) {
      const logFile = path.join(results, `failover-process-${n}.log`);
      fs.rmSync(logFile, { force: true });
      processes.push(await startServiceProcess(cluster.databaseUrl, { LOG_LEVEL: 'warn' }, { startMs: 600_000, logFile }));
    }
  });

  after(async function () {
    this.timeout(120_000);
    await Promise.all(terminals.map((t) => t.stop()));
    for (const close of closers) await close().catch(() => undefined);
    // Each process's metrics, for a failing run.
    for (const [i, p] of processes.entries()) {
      const metrics = await fetch(`${p.url}/metrics`)
        .then((r) => r.text())
        .catch(() => '');
      fs.writeFileSync(path.join(results, `failover-process-${i + 1}.metrics`), metrics);
    }
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    // TIMEGATE_HA_KEEP=1 leaves the cluster running (its folder is printed) to look at after a failure.
    if (process.env.TIMEGATE_HA_KEEP) console.log(`      cluster kept in ${cluster?.dir}`);
    else await cluster?.stop();
  });

  it('nothing acknowledged is lost or stored twice; the processes recover by themselves; /readyz and /healthz tell the truth', async () => {
    const ha = cluster!;
    const [a, b] = processes as [ServiceProcess, ServiceProcess];
    const ws = await createWorkspace(a.url, { maxCompanies: 5, maxDevices: TERMINALS + 5, maxEmployees: 100_000 });
    const company = await createCompany(a.url, ws.key);
    const pins = ['701', '702', '703', '704'];
    for (const pin of pins) await createEmployee(a.url, ws.key, company.id, { pin });

    // A subscriber on each process, and a webhook receiver: every event once, in both.
    const subscribers = processes.map((p) => {
      const received: string[] = [];
      const errors: unknown[] = [];
      const client = wsClient(p.url, { authorization: `Bearer ${ws.key}` });
      client.subscribe<any>(
        { query: SUBSCRIPTION },
        {
          next: (value) => (value.errors ? errors.push(value.errors) : received.push(value.data!.punchCreated.eventId)),
          error: (e) => errors.push(e),
          complete: () => undefined,
        },
      );
      closers.push(() => client.dispose() as Promise<unknown>);
      return { received, errors };
    });
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const hook = await rest(a.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: receiver.url, event_types: ['attendance.created'] } });
    expect(hook.status, hook.text).to.equal(201);
    const openSubscriptions = async (p: ServiceProcess) =>
      Number(/^timegate_subscriptions_open (\d+)/m.exec(await (await fetch(`${p.url}/metrics`)).text())?.[1]);
    await waitUntil(
      'each process holds one open subscription',
      async () => (await Promise.all(processes.map(openSubscriptions))).every((n) => n === 1),
      30_000,
    );

    // 50 terminals, half on each process, with the server's settings (ErrorDelay 30 s after a
    // failed request, as firmware does), and one probe terminal that retries every 250 ms: it
    // measures when uploads are acknowledged again, which the fleet's ErrorDelay would blur.
    const acks: Array<{ at: number; terminal: number }> = [];
    const failures: Array<{ at: number; terminal: number }> = [];
    const made = new Map<number, number>();
    const PROBE = TERMINALS;
    for (let i = 0; i <= TERMINALS; i++) {
      const family = i < ACCESS_TERMINALS ? 'acc' : 'att';
      const device = await createDevice(a.url, ws.key, company.id, { time_zone: 'UTC', ...(family === 'acc' ? { mode_type: 'acc' } : {}) });
      const terminal = new SimulatedTerminal({
        serverUrl: (i % 2 === 0 ? a : b).url,
        serialNumber: device.serial_number,
        family,
        connection: 'keep-alive',
        ...(i === PROBE ? { errorDelayMs: 250, requestTimeoutMs: 2000 } : {}),
      });
      terminal.on('upload', (event: UploadEvent) => {
        if (event.table !== 'ATTLOG' && event.table !== 'rtlog') return;
        (event.acknowledged ? acks : failures).push({ at: Date.now(), terminal: i });
      });
      terminal.on('error', () => failures.push({ at: Date.now(), terminal: i }));
      terminal.start();
      terminals.push(terminal);
      made.set(i, 0);
    }
    await waitUntil(
      'the cluster answers writes',
      async () => {
        const listed = await rest(a.url, 'GET', '/public/v2/devices?per_page=100', { key: ws.key });
        return listed.body.filter((d: any) => d.status === 'online').length === TERMINALS + 1;
      },
      60_000,
    );

    // The punches: every tick a few terminals (and the probe) punch, each at a time of its own.
    let punching = true;
    let total = 0;
    const punch = (i: number) => {
      const n = made.get(i)! + 1;
      made.set(i, n);
      total += 1;
      terminals[i]!.punch({ pin: pins[n % pins.length]!, at: new Date(Date.UTC(2026, 4, 4, 6, 0, 0) + n * 1000) });
    };
    const punches = (async () => {
      for (let tick = 0; punching; tick++) {
        for (let k = 0; k < PUNCHING_PER_TICK; k++) punch(Math.floor(Math.random() * TERMINALS));
        if (tick % PROBE_EVERY === 0) punch(PROBE);
        await sleep(TICK_MS);
      }
    })();

    // API clients (two per process) creating employees, each request under an Idempotency-Key
    // retried with the same key until it is answered 2xx.
    let writing = true;
    const written: Array<{ key: string; code: string; attempts: number; retriedStatuses: number[] }> = [];
    const writers = Array.from({ length: API_WRITERS }, async (_, w) => {
      const url = processes[w % 2]!.url;
      for (let i = 0; writing; i++) {
        const key = `ha-${w}-${i}`;
        const code = `HA-${w}-${i}`;
        const retriedStatuses: number[] = [];
        for (let attempt = 1; ; attempt++) {
          const reply = await rest(url, 'POST', '/public/v2/employees', {
            key: ws.key,
            headers: { 'idempotency-key': key },
            body: { name: 'Failover', lastname: `Writer ${w}`, code, company_id: company.id },
          }).catch(() => null);
          if (reply?.status === 201) {
            written.push({ key, code, attempts: attempt, retriedStatuses });
            break;
          }
          // Only "the database is away" may be answered: anything else is a bug.
          if (reply && reply.status !== 503) throw new Error(`writer ${w}: ${key} answered ${reply.status} ${reply.text}`);
          retriedStatuses.push(reply?.status ?? 0);
          if (attempt > 600) throw new Error(`writer ${w}: ${key} never succeeded`);
          await sleep(250);
        }
        await sleep(50);
      }
    });

    // /readyz and /healthz of both processes, between two looks at Patroni's leader.
    const samples: Sample[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const leaderBefore = (await ha.leader()) !== null;
        const [ready, health] = await Promise.all([
          Promise.all(processes.map((p) => statusOf(`${p.url}/readyz`))),
          Promise.all(processes.map((p) => statusOf(`${p.url}/healthz`))),
        ]);
        const leaderAfter = (await ha.leader()) !== null;
        samples.push({
          at: Date.now(),
          leaderBefore,
          leaderAfter,
          readyz: ready.map((r) => ({ status: r.status, failingJobs: r.body?.failing_jobs ?? null })),
          healthz: health.map((h) => h.status),
        });
        await sleep(200);
      }
    })();

    try {
      await sleep(LOAD_BEFORE_MS);
      const before = { punches: total, acks: acks.length, written: written.length };
      const oldLeader = await ha.leader();
      const killedAt = Date.now();
      const killed = (await ha.run('kill-leader')).trim();
      expect(killed).to.equal(oldLeader);
      const newLeader = await waitUntil(
        'a new leader',
        async () => {
          const leader = await ha.leader();
          return leader && leader !== killed ? leader : null;
        },
        180_000,
      );
      const promotedAt = Date.now();
      // Both processes ready again, with no job left failing, without a restart.
      const readyAt = await Promise.all(
        processes.map((p) =>
          waitUntil(
            'the process is ready with no job failing',
            async () => {
              const r = await statusOf(`${p.url}/readyz`);
              return r.status === 200 && r.body.failing_jobs.length === 0 ? Date.now() : null;
            },
            120_000,
          ),
        ),
      );
      await sleep(LOAD_AFTER_MS);
      punching = false;
      await punches;
      writing = false;
      await Promise.all(writers);

      // Every terminal's log acknowledged: the re-sends of what was not answered are in.
      await waitUntil("every terminal's records are acknowledged", async () => terminals.every((t) => t.pendingCount === 0) || null, 240_000);
      const drainedAt = Date.now();
      sampling = false;
      await sampler;

      // The figures (reported, not asserted).
      const after_ = (list: Array<{ at: number; terminal: number }>, t: number, which: (terminal: number) => boolean) =>
        list.find((e) => e.at > t && which(e.terminal))?.at ?? null;
      const probeFailed = after_(failures, killedAt, (t) => t === PROBE);
      const fleetFailed = after_(failures, killedAt, (t) => t !== PROBE);
      const probeAck = probeFailed === null ? null : after_(acks, probeFailed, (t) => t === PROBE);
      const fleetAck = fleetFailed === null ? null : after_(acks, fleetFailed, (t) => t !== PROBE);
      const notReadyAfterPrimary = processes.map((_, i) => {
        const lastNotReady = samples.filter((s) => s.at > promotedAt && s.readyz[i]!.status !== 200).at(-1);
        return lastNotReady ? lastNotReady.at - promotedAt : 0;
      });
      const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10);
      const notReadyAfter = samples
        .filter((s) => s.at > Math.max(...readyAt) && s.readyz.some((r) => r.status !== 200))
        .slice(0, 10)
        .map((s) => ({ afterNewPrimarySeconds: seconds(s.at - promotedAt), readyz: s.readyz }));
      const figures = {
        at: new Date().toISOString(),
        members: ha.patroni.size,
        killed,
        newLeader,
        killToNewPrimarySeconds: seconds(promotedAt - killedAt),
        killToFirstAcknowledgedUploadSeconds: seconds(probeAck === null ? null : probeAck - killedAt),
        killToFirstAcknowledgedFleetUploadSeconds: seconds(fleetAck === null ? null : fleetAck - killedAt),
        newPrimaryToReadySeconds: readyAt.map((t) => seconds(t - promotedAt)),
        lastNotReadyAfterNewPrimarySeconds: notReadyAfterPrimary.map(seconds),
        notReadyOnceReady: notReadyAfter,
        killToAllResentSeconds: seconds(drainedAt - killedAt),
        punches: total,
        punchesBeforeKill: before.punches,
        uploadsAcknowledged: acks.length,
        uploadsFailed: failures.length,
        apiWrites: written.length,
        apiWritesRetried: written.filter((w) => w.attempts > 1).length,
        apiWritesBeforeKill: before.written,
        loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
      };
      console.log(`      failover figures: ${JSON.stringify(figures, null, 2).replace(/\n/g, '\n      ')}`);
      fs.appendFileSync(path.join(results, 'failover.jsonl'), `${JSON.stringify(figures)}\n`);

      // 1. Every punch once: what was acknowledged before the kill survived (the terminals do not
      // send it again), and the re-sends stored the rest, none twice.
      const [stored] = await query(
        ha.databaseUrl,
        `select count(*)::int as n, count(distinct (device_serial, local_time))::int as distinct_keys from punch where workspace_id = $1`,
        [ws.id],
      );
      expect(stored, 'every punch made, stored once').to.deep.equal({ n: total, distinct_keys: total });

      // 2. Every API write answered 2xx is there once; a retried key applied once.
      const rows = await query<{ code: string; n: number }>(
        ha.databaseUrl,
        `select code, count(*)::int as n from employee where workspace_id = $1 and code like 'HA-%' group by code`,
        [ws.id],
      );
      const byCode = new Map(rows.map((r) => [r.code, r.n]));
      for (const w of written) expect(byCode.get(w.code), `${w.key} (${w.attempts} attempts)`).to.equal(1);
      expect(rows.length, 'no employee without its 2xx').to.equal(written.length);
      const retried = written.filter((w) => w.attempts > 1);
      for (const w of [...retried, ...written.slice(0, 5)]) {
        const again = await rest(a.url, 'POST', '/public/v2/employees', {
          key: ws.key,
          headers: { 'idempotency-key': w.key },
          body: { name: 'Failover', lastname: `Writer ${w.key.split('-')[1]}`, code: w.code, company_id: company.id },
        });
        expect(again.status, w.key).to.equal(201);
        expect(again.headers.get('idempotent-replayed'), w.key).to.equal('true');
      }
      const [after] = await query(ha.databaseUrl, `select count(*)::int as n from employee where workspace_id = $1 and code like 'HA-%'`, [ws.id]);
      expect(after.n, 'replays create nothing').to.equal(written.length);

      // 3. The processes recovered by themselves: alive, LISTENing again on the new primary, their
      // subscribers got every event once (the outbox cursors resumed with no gap), and every
      // webhook went out once.
      for (const p of processes) expect(p.child.exitCode === null && p.child.signalCode === null, 'never restarted').to.equal(true);
      await waitUntil(
        'every process listens again',
        async () => {
          const [listening] = await query(ha.databaseUrl, `select count(*)::int as n from pg_stat_activity where query ilike 'listen %'`);
          return listening.n >= processes.length || null;
        },
        30_000,
      );
      await waitUntil('every subscriber has every event', async () => subscribers.every((s) => s.received.length >= total) || null, 60_000);
      for (const [i, s] of subscribers.entries()) {
        expect(s.errors, `subscriber on process ${i + 1}`).to.deep.equal([]);
        expect(new Set(s.received).size, `subscriber on process ${i + 1}: every event`).to.equal(total);
        expect(s.received.length, `subscriber on process ${i + 1}: none twice`).to.equal(total);
      }
      // A send whose claim was answered by the dying primary waits for its lease (70 s) to end.
      const pending = () =>
        query(
          ha.databaseUrl,
          `select count(*)::int as n, max(attempt_count) as attempts, min(next_attempt_at) as next, max(next_attempt_at) as last, now() as now
           from webhook_delivery where workspace_id = $1 and status = 'pending'`,
          [ws.id],
        );
      await waitUntil('no webhook delivery is pending', async () => (await pending())[0].n === 0 || null, 240_000).catch(async (error) => {
        throw new Error(`webhook deliveries still pending: ${JSON.stringify(await pending())}; ${receiver.received.length} received (${error})`);
      });
      const webhookIds = receiver.received.map((r) => r.headers['webhook-id']);
      expect(new Set(webhookIds).size, 'every event sent to the webhook').to.equal(total);
      expect(webhookIds.length, 'and none twice').to.equal(total);

      // 4. /readyz said "not ready" whenever Patroni had no primary, and /healthz (liveness) was 200 throughout.
      const noPrimary = samples.filter((s) => s.at > killedAt && !s.leaderBefore && !s.leaderAfter);
      expect(noPrimary.length, 'samples taken while there was no primary').to.be.above(0);
      for (const s of noPrimary) expect(s.readyz.map((r) => r.status)).to.deep.equal([503, 503]);
      for (const s of samples) expect(s.healthz, `healthz at ${s.at - killedAt} ms`).to.deep.equal([200, 200]);
      for (const p of processes) expect((await statusOf(`${p.url}/readyz`)).body.failing_jobs).to.deep.equal([]);
    } finally {
      punching = false;
      writing = false;
      sampling = false;
    }
  });
});
