import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../src/db/embedded-postgres';
import { SimulatedTerminal } from '../../src/simulator';
import { freshDatabaseUrl } from '../support/database';
import { startReceiver, wsClient } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitUntil } from '../support/wait-until';

/** HAProxy from Debian's package (installed by .ci/run when missing), or HAPROXY_PATH. */
function haproxyBinary(): string {
  const candidates = [process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].filter((p): p is string => !!p);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`HAProxy not found (tried ${candidates.join(', ')}): install the Debian package haproxy, as .ci/run does`);
  return found;
}

/**
 * The configuration docs/deployment.md recommends, on local ports: round robin per request, /readyz
 * health checks. Checked every 300 ms (not 2 s) so that a change shows soon; a check may still take
 * the 2 s the recommended `inter 2s` gives it (without `timeout check` the timeout is `inter`: a
 * /readyz slower than 300 ms on a busy machine took every server out, and HAProxy answered 503).
 */
function haproxyConfig(port: number, servers: ServiceProcess[]): string {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  option http-server-close
  retries 3
  option redispatch

frontend timegate
  bind 127.0.0.1:${port}
  default_backend services

backend services
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 300ms fall 2 rise 2
  timeout check 2s
${servers.map((s, i) => `  server s${i + 1} ${new URL(s.url).host} check`).join('\n')}
`;
}

const TERMINALS = 6;
const PUNCHES_EACH = 5;
const SUBSCRIPTION = 'subscription ($after: String) { punchCreated(after: $after) { eventId punch { id } } }';

describe('three processes behind HAProxy, round robin, on one PostgreSQL', function () {
  this.timeout(180_000);
  let databaseUrl: string;
  const processes: ServiceProcess[] = [];
  let haproxy: ChildProcess | null = null;
  let lb: string;
  let folder: string;
  const terminals: SimulatedTerminal[] = [];

  before(async () => {
    databaseUrl = await freshDatabaseUrl('load-balancer');
    // Short poll intervals and offline threshold, so presence shows within seconds.
    const env = {
      TIMEGATE_ATT_DELAY: '2',
      TIMEGATE_OFFLINE_MIN_SECONDS: '3',
      TIMEGATE_TERMINAL_SWEEP_MS: '300',
      TIMEGATE_PRESENCE_FLUSH_MS: '200',
      TIMEGATE_WEBHOOK_POLL_MS: '200',
    };
    // The database exists, as in production; all three start at once on it: one migrates it while
    // the others wait for it.
    const admin = new URL(databaseUrl);
    const name = admin.pathname.slice(1);
    admin.pathname = '/postgres';
    await query(admin.toString(), `create database "${name}"`);
    // The migration of an empty database is the slow part of a start: given more than a warm start's 30 s.
    processes.push(...(await Promise.all([0, 1, 2].map(() => startServiceProcess(databaseUrl, env, { startMs: 120_000 })))));
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-haproxy-'));
    const port = await freePort();
    fs.writeFileSync(path.join(folder, 'haproxy.cfg'), haproxyConfig(port, processes));
    haproxy = spawn(haproxyBinary(), ['-db', '-f', path.join(folder, 'haproxy.cfg')], { stdio: 'ignore' });
    lb = `http://127.0.0.1:${port}`;
    await waitUntil('HAProxy answers /healthz', async () => (await fetch(`${lb}/healthz`).catch(() => null))?.ok, 20_000);
  });

  after(async () => {
    await Promise.all(terminals.map((terminal) => terminal.stop()));
    haproxy?.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  /** Open subscriptions on one process, from its own /metrics (not through the balancer). */
  const openSubscriptions = async (p: ServiceProcess) => {
    const text = await (await fetch(`${p.url}/metrics`)).text();
    return Number(/^timegate_subscriptions_open (\d+)/m.exec(text)?.[1] ?? 0);
  };

  let ws: Awaited<ReturnType<typeof createWorkspace>>;
  let employees: { id: number; pin: string }[] = [];
  let devices: { id: number; serial_number: string }[] = [];
  /** Index in `processes` of the process each subscriber's socket reached. */
  const subscriberProcess: number[] = [];
  const subscribers: { received: { eventId: string; punch: { id: number } }[]; errors: unknown[]; close: () => Promise<void> }[] = [];

  it('terminals and API clients through the balancer: every command delivered once, presence right, each subscriber (one per process) gets every event, each webhook sent once', async () => {
    ws = await createWorkspace(lb, { maxCompanies: 5, maxDevices: 20 });
    const company = await createCompany(lb, ws.key);
    for (let i = 0; i < 4; i++) employees.push({ ...(await createEmployee(lb, ws.key, company.id, { pin: String(601 + i) })), pin: String(601 + i) });
    for (let i = 0; i < TERMINALS; i++) devices.push(await createDevice(lb, ws.key, company.id, { time_zone: 'UTC' }));
    const receiver = await startReceiver();
    expect((await rest(lb, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: receiver.url, event_types: ['attendance.created'] } })).status).to.equal(
      201,
    );

    // Three subscribers, opened one after the other: round robin gives each its own process.
    let previous: number[] = [];
    for (let i = 0; i < 3; i++) {
      const client = wsClient(lb, { authorization: `Bearer ${ws.key}` });
      const subscriber = { received: [] as any[], errors: [] as unknown[], close: async () => void (await client.dispose()) };
      client.subscribe<any>(
        { query: SUBSCRIPTION, variables: { after: '0' } },
        {
          next: (value) => (value.errors ? subscriber.errors.push(value.errors) : subscriber.received.push(value.data!.punchCreated)),
          error: (e) => subscriber.errors.push(e),
          complete: () => undefined,
        },
      );
      subscribers.push(subscriber);
      const counts = await waitUntil(`${i + 1} subscription(s) are open`, async () => {
        const now = await Promise.all(processes.map(openSubscriptions));
        return now.reduce((a, b) => a + b, 0) === i + 1 ? now : null;
      });
      subscriberProcess.push(counts.findIndex((n, p) => n > (previous[p] ?? 0)));
      previous = counts;
    }
    expect(await Promise.all(processes.map(openSubscriptions)), 'one subscriber on each process').to.deep.equal([1, 1, 1]);

    const executed = new Map<string, string[]>();
    for (const device of devices) {
      const terminal = new SimulatedTerminal({
        serverUrl: lb,
        serialNumber: device.serial_number,
        family: 'att',
        pollIntervalMs: 100,
        errorDelayMs: 1000,
        connection: 'keep-alive',
      });
      executed.set(device.serial_number, []);
      terminal.on('command', (event) => executed.get(device.serial_number)!.push(event.command.id));
      terminal.on('error', () => undefined);
      terminal.start();
      terminals.push(terminal);
    }
    await waitUntil(
      'every terminal is online',
      async () => {
        const listed = await rest(lb, 'GET', '/public/v2/devices?per_page=100', { key: ws.key });
        return listed.body.filter((d: any) => d.status === 'online').length === TERMINALS;
      },
      30_000,
    );

    // Every employee on every terminal: commands queued by whichever process took the request,
    // delivered by whichever process each poll reaches.
    for (const employee of employees) {
      const assigned = await rest(lb, 'POST', `/public/v2/employees/${employee.id}/devices`, {
        key: ws.key,
        body: devices.map((d) => ({ device_id: d.id, permission_id: 0 })),
      });
      expect(assigned.status, assigned.text).to.be.oneOf([200, 201]);
    }
    await waitUntil(
      'every command succeeded and every person is synced',
      async () => {
        const [open] = await query(
          databaseUrl,
          `select count(*)::int as n from device_command c join device d on d.id = c.device_id where d.workspace_id = $1 and c.status <> 'succeeded'`,
          [ws.id],
        );
        const listed = await Promise.all(employees.map(async (e) => (await rest(lb, 'GET', `/public/v2/employees/${e.id}/devices`, { key: ws.key })).body));
        return open.n === 0 && listed.flat().length === employees.length * TERMINALS && listed.flat().every((a: any) => a.sync_status === 'synced');
      },
      60_000,
    );
    // The commands delivered as such: single commands and multi-record commands, not the records a
    // multi-record command carried (rows with a batch_id, concluded with their carrier).
    const commands = await query(
      databaseUrl,
      `select d.serial_number, c.command_id from device_command c join device d on d.id = c.device_id where d.workspace_id = $1 and c.batch_id is null`,
      [ws.id],
    );
    for (const device of devices) {
      const ids = executed.get(device.serial_number)!;
      expect(new Set(ids).size, `${device.serial_number}: no command executed twice`).to.equal(ids.length);
      const stored = commands.filter((c) => c.serial_number === device.serial_number).map((c) => String(c.command_id));
      expect([...ids].sort(), `${device.serial_number}: every stored command executed, once`).to.deep.equal([...stored].sort());
      const terminal = terminals.find((t) => t.serialNumber === device.serial_number)!;
      expect([...terminal.store.users.keys()].sort()).to.deep.equal(employees.map((e) => e.pin).sort());
    }

    // Punches on every terminal: stored once, every subscriber sees all, each webhook arrives once.
    for (const terminal of terminals)
      for (let i = 0; i < PUNCHES_EACH; i++)
        terminal.punch({ pin: employees[i % employees.length]!.pin, at: new Date(Date.UTC(2026, 10, 2, 8, i, terminals.indexOf(terminal))) });
    const total = TERMINALS * PUNCHES_EACH;
    await waitUntil('every subscriber received every punch', async () => subscribers.every((s) => s.received.length >= total), 30_000);
    for (const [i, s] of subscribers.entries()) {
      expect(s.errors, `subscriber ${i}`).to.deep.equal([]);
      expect(new Set(s.received.map((e) => e.eventId)).size, `subscriber ${i}: every event once`).to.equal(total);
    }
    const [stored] = await query(
      databaseUrl,
      `select count(*)::int as n, count(distinct (device_serial, pin, punch_time))::int as distinct_keys from punch where workspace_id = $1`,
      [ws.id],
    );
    expect(stored).to.deep.equal({ n: total, distinct_keys: total });
    await waitUntil('the webhook received every punch', async () => receiver.received.length >= total, 30_000);
    // Every delivery settled: no process may send one again, and every send has written its attempt.
    await waitUntil(
      'no webhook delivery is pending',
      async () => {
        const [open] = await query(databaseUrl, `select count(*)::int as n from webhook_delivery where workspace_id = $1 and status = 'pending'`, [ws.id]);
        return open.n === 0;
      },
      30_000,
    );
    const [attempts] = await query(
      databaseUrl,
      `select count(*)::int as n from webhook_attempt a join webhook_delivery d on d.id = a.delivery_id where d.workspace_id = $1`,
      [ws.id],
    );
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size, 'every event delivered').to.equal(total);
    expect(ids.length, 'and none twice').to.equal(total);
    expect(attempts.n, 'one send per delivery, by one process').to.equal(total);
    await receiver.close();

    // A terminal that stops talking goes offline, whichever process sweeps.
    const silent = terminals.pop()!;
    await silent.stop();
    await waitUntil(
      'the silent terminal is offline',
      async () => (await rest(lb, 'GET', `/public/v2/devices/${devices.at(-1)!.id}`, { key: ws.key })).body.status === 'offline',
      20_000,
    );
    const others = await rest(lb, 'GET', '/public/v2/devices?per_page=100', { key: ws.key });
    expect(others.body.filter((d: any) => d.status === 'online')).to.have.length(TERMINALS - 1);
  });

  it('a process killed mid-run loses nothing: terminals re-send through the others, every punch stored once, subscribers on the survivors see every event', async () => {
    const victim = processes[1]!;
    const before = subscribers.map((s) => s.received.length);
    let made = 0;
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      for (const [t, terminal] of terminals.entries()) {
        terminal.punch({ pin: employees[round % employees.length]!.pin, at: new Date(Date.UTC(2026, 10, 3, 9, round, t)) });
        made++;
      }
      if (round === 3) expect(await victim.kill('SIGKILL')).to.equal('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await waitUntil('every terminal sent everything', async () => terminals.every((t) => t.pendingCount === 0), 60_000);
    const [stored] = await query(
      databaseUrl,
      `select count(*)::int as n, count(distinct (device_serial, pin, punch_time))::int as distinct_keys from punch where workspace_id = $1 and punch_time >= '2026-11-03'`,
      [ws.id],
    );
    expect(stored, 'every punch, none twice').to.deep.equal({ n: made, distinct_keys: made });
    // The subscriber on the killed process lost its socket; the two on the survivors got everything.
    const survivors = subscribers.filter((_, i) => subscriberProcess[i] !== 1);
    expect(survivors).to.have.length(2);
    await waitUntil(
      'every surviving subscriber received the new punches',
      async () => survivors.every((s) => s.received.length >= before[subscribers.indexOf(s)]! + made),
      30_000,
    );
    for (const s of survivors) {
      expect(s.errors).to.deep.equal([]);
      expect(new Set(s.received.map((e) => e.eventId)).size, 'no event twice').to.equal(s.received.length);
    }
    await Promise.all(subscribers.map((s) => s.close()));
  });
});
