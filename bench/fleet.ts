// A customer's fleet at the shipped defaults, past one machine: three service processes behind
// HAProxy (round robin per request, /readyz checks: the configuration of docs/deployment.md) on one
// PostgreSQL, and a simulated fleet of attendance clocks (80 %) and access controllers (20 %, two
// doors each) polling at the intervals the service advertises (TIMEGATE_ATT_DELAY,
// TIMEGATE_ACC_REQUEST_DELAY: whatever src/config ships, unless --acc-delay / --att-delay say
// otherwise). Phases, one after the other on the same fleet:
//   1. idle: the three processes, HAProxy and PostgreSQL before any terminal (RSS, CPU), and the
//      heartbeat probe's latency (the baseline of phase 2, same run);
//   2. steady state: CPU and memory per terminal, polls/s, bytes per poll (HAProxy's counters), and
//      the latency of the heartbeat probe (a few extra registered terminals polled through the
//      balancer at a fixed rate) while the whole fleet polls;
//   3. a company lockdown of 100 doors (50 controllers): request -> each door confirmed, p50/p95;
//   4. every controller syncing 500 people (an access level over its company's doors) while remote
//      opens are made on random controllers: open -> delivered (`sent_at`), against the poll interval;
//   5. the morning burst: every clock uploads its people's clock-ins within the burst window;
//      punch received -> its attendance day stored (`attendance_day.updated_at`), p50/p95.
// Scaled by --scale (1 = 10,000 terminals: 8,000 clocks, 2,000 controllers); the default fits the
// shared 2-core reference machine together with its load generator (this process). Prints one JSON
// line, then the summary. Asserts nothing about time.
// Run: npm run build && node dist/bench/fleet.js [--scale 0.2] [--balance serial|roundrobin] [--steady 30] [--burst 60] [--rounds 5] [--opens 10] [--sync-wait 120] [--people 500]
//      [--acc-delay <s>] [--att-delay <s>] [--punches-per-clock 4]
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config/config';
import { freePort, startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { TerminalFleet } from '../src/simulator';
import { call, MASTER_KEY, numberArg, percentile, report, runScenario, spawnService, type ServiceProcess } from './support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TICKS = 100; // USER_HZ on Linux
const DOORS_PER_CONTROLLER = 2;
const LOCKDOWN_CONTROLLERS = 50; // 100 doors
const PROBES = 10;

function haproxyBinary(): string {
  const found = [process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'].find((p) => !!p && fs.existsSync(p));
  if (!found) throw new Error('HAProxy not found: install the Debian package haproxy (or set HAPROXY_PATH)');
  return found;
}

/**
 * docs/deployment.md's balancer on local ports (health checks on /readyz; API requests round robin),
 * plus a stats page whose counters give bytes per request. Terminal requests (`/iclock/`) go by
 * `balance`: `serial` keeps each terminal on one process (a consistent hash of its `SN`), as
 * docs/capacity.md recommends for fleets; `roundrobin` balances each of its requests on its own.
 */
function haproxyConfig(port: number, statsPort: number, servers: ServiceProcess[], balance: string): string {
  const list = servers.map((s, i) => `  server s${i + 1} ${new URL(s.url).host} check`).join('\n');
  const checks = `  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 2s fall 2 rise 2`;
  return `global
  maxconn 8000

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-keep-alive 60s
  retries 3
  option redispatch

frontend timegate
  bind 127.0.0.1:${port}
  use_backend terminals if { path_beg -i /iclock/ }
  default_backend services

backend services
  balance roundrobin
${checks}
${list}

backend terminals
${balance === 'serial' ? '  balance url_param SN\n  hash-type consistent' : '  balance roundrobin'}
${checks}
${list}

listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`;
}

/** CPU seconds of one process so far (utime + stime); `children` adds the reaped children's (ended PostgreSQL backends). */
function cpuOf(pid: number, children = false): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ": state is field 0, utime 11, stime 12, cutime 13, cstime 14.
    const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
    return ticks / TICKS;
  } catch {
    return 0;
  }
}

const rssOf = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  } catch {
    return 0;
  }
};

/** Our PostgreSQL: the postmaster whose command line names our data folder, and its children. */
function postgresPids(dataDir: string): { postmaster: number; all: number[] } {
  let postmaster = 0;
  const byParent = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const pid = Number(entry);
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.split(') ')[1]!.split(' ')[1]);
      (byParent.get(ppid) ?? byParent.set(ppid, []).get(ppid)!).push(pid);
      if (
        !postmaster &&
        fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir) &&
        fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')
      )
        postmaster = pid;
    } catch {
      // ended meanwhile
    }
  }
  return { postmaster, all: postmaster ? [postmaster, ...(byParent.get(postmaster) ?? [])] : [] };
}

interface Usage {
  seconds: number;
  /** CPU seconds per second (cores) of each part. */
  cores: { services: number[]; haproxy: number; postgres: number; generator: number };
  rss: { services: number[]; haproxy: number; postgres: number };
}

/** CPU and RSS of every part of the deployment over `ms`. PostgreSQL's RSS counts shared buffers once per backend: its sum is an upper bound. */
async function usage(ms: number, pids: { services: number[]; haproxy: number; dataDir: string }, during?: Promise<unknown>): Promise<Usage> {
  const pgBefore = postgresPids(pids.dataDir);
  const snap = () => ({
    services: pids.services.map((p) => cpuOf(p)),
    haproxy: cpuOf(pids.haproxy),
    // The postmaster's reaped children carry ended backends' CPU; live backends are summed.
    postgres:
      cpuOf(pgBefore.postmaster, true) +
      postgresPids(pids.dataDir)
        .all.slice(1)
        .reduce((n, p) => n + cpuOf(p), 0),
    generator: cpuOf(process.pid),
  });
  const began = Date.now();
  const before = snap();
  await Promise.all([sleep(ms), during]);
  const after = snap();
  const seconds = (Date.now() - began) / 1000;
  const pgNow = postgresPids(pids.dataDir);
  return {
    seconds,
    cores: {
      services: after.services.map((c, i) => (c - before.services[i]!) / seconds),
      haproxy: (after.haproxy - before.haproxy) / seconds,
      postgres: (after.postgres - before.postgres) / seconds,
      generator: (after.generator - before.generator) / seconds,
    },
    rss: { services: pids.services.map(rssOf), haproxy: rssOf(pids.haproxy), postgres: pgNow.all.reduce((n, p) => n + rssOf(p), 0) },
  };
}

/** HAProxy's frontend counters: requests, bytes in (requests) and out (replies). */
async function haproxyCounters(statsUrl: string): Promise<{ requests: number; bytesIn: number; bytesOut: number }> {
  const csv = await (await fetch(`${statsUrl}/stats;csv`)).text();
  const lines = csv.split('\n');
  const header = lines[0]!.replace(/^# /, '').split(',');
  const row = lines.find((l) => l.startsWith('timegate,FRONTEND'))!.split(',');
  const field = (name: string) => Number(row[header.indexOf(name)]);
  return { requests: field('req_tot'), bytesIn: field('bin'), bytesOut: field('bout') };
}

/** The heartbeat probe: `getrequest` of the probe terminals through the balancer at `rate`/s for `ms`; latencies sorted. */
async function probe(lb: string, serials: string[], rate: number, ms: number): Promise<{ sorted: number[]; failed: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: serials.length });
  const latencies: number[] = [];
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const end = Date.now() + ms;
  for (let i = 0; Date.now() < end; i++) {
    const serial = serials[i % serials.length]!;
    const began = process.hrtime.bigint();
    inFlight.push(
      new Promise<void>((resolve) => {
        http
          .get(`${lb}/iclock/getrequest?SN=${serial}`, { agent }, (res) => {
            res.resume();
            res.on('end', () => {
              if (res.statusCode === 200) latencies.push(Number(process.hrtime.bigint() - began) / 1e6);
              else failed++;
              resolve();
            });
          })
          .on('error', () => {
            failed++;
            resolve();
          });
      }),
    );
    await sleep(1000 / rate);
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { sorted: latencies.sort((a, b) => a - b), failed };
}

const ms1 = (v: number) => Number(v.toFixed(1));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function main(): Promise<void> {
  const began = Date.now();
  const scale = numberArg('scale', 0.2);
  const clocks = Math.round(8000 * scale);
  const controllers = Math.max(LOCKDOWN_CONTROLLERS + 1, Math.round(2000 * scale));
  const steadySeconds = numberArg('steady', 30);
  const burstSeconds = numberArg('burst', 60);
  const punchesPerClock = numberArg('punches-per-clock', 4);
  const rounds = numberArg('rounds', 5);
  const opens = numberArg('opens', 10);
  const people = numberArg('people', 500);
  const at = process.argv.indexOf('--balance');
  const balance = at > 0 ? process.argv[at + 1]! : 'serial';
  if (balance !== 'serial' && balance !== 'roundrobin') throw new Error('--balance serial|roundrobin');
  const shipped = loadConfig({ DATABASE_URL: 'postgres://unused', TIMEGATE_MASTER_KEY: MASTER_KEY });
  const accDelay = numberArg('acc-delay', shipped.accessRequestDelaySeconds);
  const attDelay = numberArg('att-delay', shipped.attendanceDelaySeconds);
  const env: Record<string, string> = {
    TIMEGATE_ACC_REQUEST_DELAY: String(accDelay),
    TIMEGATE_ATT_DELAY: String(attDelay),
    // The bench's own API calls (one key) are not what is measured.
    TIMEGATE_RATE_LIMIT_PER_MINUTE: '10000000',
    TIMEGATE_RATE_LIMIT_BURST: '10000000',
  };
  const loadAtStart = loadavg();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-bench-fleet-'));
  const server = await startEmbeddedPostgres({ dataDir, port: null });
  const databaseUrl = server.serverUrl(`tg_bench_fleet_${process.pid}`);
  const admin = new URL(databaseUrl);
  const dbName = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const services: ServiceProcess[] = [];
  let haproxy: ChildProcess | null = null;
  const fleets: TerminalFleet[] = [];
  const client = new pg.Client({ connectionString: databaseUrl });
  // Each process's standard output (its log lines, warnings and errors at the shipped LOG_LEVEL of the
  // bench) goes to a file next to the data folder: kept and named when the run fails, removed when it passes.
  const logFiles = [1, 2, 3].map((i) => `${dataDir}-service-${i}.log`);
  let failed = true;
  try {
    await withAdmin(admin.toString(), (c) => c.query(`create database "${dbName}"`));
    // The first migrates; the two others start on the migrated database.
    services.push(await spawnService(databaseUrl, env, logFiles[0]));
    services.push(...(await Promise.all([1, 2].map((i) => spawnService(databaseUrl, env, logFiles[i])))));
    const port = await freePort();
    const statsPort = await freePort();
    const cfg = path.join(dataDir, '..', `${path.basename(dataDir)}-haproxy.cfg`);
    fs.writeFileSync(cfg, haproxyConfig(port, statsPort, services, balance));
    haproxy = spawn(haproxyBinary(), ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'inherit'] });
    const lb = `http://127.0.0.1:${port}`;
    const stats = `http://127.0.0.1:${statsPort}`;
    for (
      let i = 0;
      !(await fetch(`${lb}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 200) throw new Error('HAProxy does not answer');
      await sleep(100);
    }
    await client.connect();

    // --- the customer: one workspace, a company of clocks, one of 50 controllers (the lockdown's), one of the other controllers ---
    const gql = async (query: string, variables: Record<string, unknown>, key = MASTER_KEY) => {
      const r = await call(lb, key, 'POST', '/graphql', { query, variables });
      if (r.errors) throw new Error(JSON.stringify(r.errors));
      return r.data;
    };
    const created = await gql('mutation ($name: String!) { createWorkspace(input: { name: $name }) { workspace { id } apiKey { key } } }', {
      name: 'bench fleet',
    });
    const key: string = created.createWorkspace.apiKey.key;
    const workspaceId: number = created.createWorkspace.workspace.id;
    const employeesNeeded = clocks * punchesPerClock + 2 * people;
    await gql('mutation ($id: Int!, $input: WorkspacePlanInput!) { setWorkspacePlan(workspaceId: $id, input: $input) { id } }', {
      id: workspaceId,
      input: { maxCompanies: 5, maxDevices: clocks + controllers + PROBES + 10, maxEmployees: employeesNeeded + 10 },
    });
    const company = async (code: string) => (await call(lb, key, 'POST', '/public/v2/companies', { name: code, code })).id as number;
    const clockCompany = await company('CLOCKS');
    const lockdownCompany = await company('LOCKDOWN');
    const doorCompany = await company('DOORS');
    // Devices and people are written by SQL: registering them is not what is measured.
    const addDevices = (companyId: number, prefix: string, from: number, count: number, mode: 'att' | 'acc') =>
      client.query(
        `insert into device (workspace_id, company_id, name, serial_number, time_zone, mode_type, created_at, updated_at)
         select $1, $2, $3 || lpad(i::text, 5, '0'), $3 || lpad(i::text, 5, '0'), 'UTC', $6, now(), now() from generate_series($4::int, $5::int) i`,
        [workspaceId, companyId, prefix, from, from + count - 1, mode],
      );
    await addDevices(clockCompany, 'CLK', 1, clocks, 'att');
    await addDevices(clockCompany, 'PRB', 1, PROBES, 'att');
    await addDevices(lockdownCompany, 'ACC', 1, LOCKDOWN_CONTROLLERS, 'acc');
    await addDevices(doorCompany, 'ACC', LOCKDOWN_CONTROLLERS + 1, controllers - LOCKDOWN_CONTROLLERS, 'acc');
    const addPeople = (companyId: number, code: string, count: number) =>
      client.query(
        `insert into employee (workspace_id, company_id, name, lastname, code, pin, created_at, updated_at)
         select $1, $2, 'Person' || g, 'Bench', $3 || g, g::text, now(), now() from generate_series(1, $4::int) g returning id`,
        [workspaceId, companyId, code, count],
      );
    await addPeople(clockCompany, 'C', clocks * punchesPerClock);
    const lockdownPeople = (await addPeople(lockdownCompany, 'L', people)).rows.map((r) => Number(r.id));
    const doorPeople = (await addPeople(doorCompany, 'D', people)).rows.map((r) => Number(r.id));
    const probeSerials = Array.from({ length: PROBES }, (_, i) => `PRB${String(i + 1).padStart(5, '0')}`);
    for (const serial of probeSerials) await fetch(`${lb}/iclock/cdata?SN=${serial}&options=all&pushver=2.4.1`);

    const pids = { services: services.map((s) => s.child.pid!), haproxy: haproxy.pid!, dataDir };
    const probeRate = 20;

    // --- 1. idle ---
    // After the start's own work (migrations, first jobs, JIT) has settled.
    await sleep(15_000);
    const idleProbe = probe(lb, probeSerials, probeRate, 15_000);
    const idle = await usage(15_000, pids, idleProbe);
    const idleLatency = await idleProbe;

    // --- start the fleet ---
    const clockFleet = new TerminalFleet({ serverUrl: lb, count: clocks, family: 'att', serialPrefix: 'CLK', startSpreadMs: attDelay * 1000, maxSockets: 256 });
    const controllerFleet = new TerminalFleet({
      serverUrl: lb,
      count: controllers,
      family: 'acc',
      serialPrefix: 'ACC',
      startSpreadMs: Math.max(accDelay, 5) * 1000,
      maxSockets: 256,
      terminal: { lockCount: DOORS_PER_CONTROLLER },
    });
    fleets.push(clockFleet, controllerFleet);
    if (process.env.BENCH_FLEET_DEBUG)
      for (const t of [...clockFleet.terminals, ...controllerFleet.terminals])
        t.on('error', (e: Error) => process.stderr.write(`${(t as unknown as { serialNumber: string }).serialNumber}: ${e.message}\n`));
    const startedAt = Date.now();
    clockFleet.start();
    controllerFleet.start();
    // Steady: every terminal online and one whole clock interval with >= 95 % of the expected polls.
    const expectedPollsPerSecond = clocks / attDelay + controllers / accDelay;
    const history: number[] = [];
    let steady = false;
    while (!steady && Date.now() - startedAt < numberArg('max-wait', 120) * 1000) {
      await sleep(1000);
      const c = [clockFleet.counters(), controllerFleet.counters()];
      history.push(c[0]!.polls + c[1]!.polls);
      const online = c[0]!.connected + c[1]!.connected;
      if (history.length > attDelay && online >= 0.99 * (clocks + controllers))
        steady = history.at(-1)! - history.at(-1 - attDelay)! >= 0.95 * expectedPollsPerSecond * attDelay;
    }
    if (process.env.BENCH_FLEET_DEBUG)
      process.stderr.write(`steady ${steady}: connected ${clockFleet.counters().connected} + ${controllerFleet.counters().connected}\n`);
    // A controller whose push reply was lost at start-up (a 503 in the handshake storm) holds no
    // SessionID; it registers again after its ErrorDelay and gets new codes (docs/security.md). The
    // ones still out after three ErrorDelays are locked out: counted, and their pairing reset by the
    // bench (an operator's action) so the phases run on the whole fleet (docs/capacity.md, "Start-up").
    const outAfterStart = controllerFleet.terminals.filter((t) => !t.isConnected);
    const recoveryDeadline = Date.now() + 3 * shipped.attendanceErrorDelaySeconds * 1000;
    while (outAfterStart.some((t) => !t.isConnected) && Date.now() < recoveryDeadline) await sleep(1000);
    const stuck = outAfterStart.filter((t) => !t.isConnected).map((t) => t.serialNumber);
    const recoveredAlone = outAfterStart.length - stuck.length;
    if (stuck.length > 0) {
      const { rows } = await client.query('select id from device where serial_number = any($1) and registry_code is not null and paired_at is null', [stuck]);
      for (const row of rows) await call(lb, key, 'POST', `/public/v2/devices/${row.id}/reset_pairing`);
      await waitFor('every terminal is connected after the pairing resets', async () =>
        clockFleet.counters().connected + controllerFleet.counters().connected === clocks + controllers ? true : null,
      );
    }
    const steadyAfterSeconds = Math.round((Date.now() - startedAt) / 1000);

    // --- 2. steady state ---
    const pollsBefore = clockFleet.counters().polls + controllerFleet.counters().polls;
    const countersBefore = await haproxyCounters(stats);
    const loadedProbe = probe(lb, probeSerials, probeRate, steadySeconds * 1000);
    const loaded = await usage(steadySeconds * 1000, pids, loadedProbe);
    const loadedLatency = await loadedProbe;
    const countersAfter = await haproxyCounters(stats);
    const polls = clockFleet.counters().polls + controllerFleet.counters().polls - pollsBefore;
    const requests = countersAfter.requests - countersBefore.requests;
    const terminals = clocks + controllers;
    const serviceCores = sum(loaded.cores.services);
    const allCores = serviceCores + loaded.cores.haproxy + loaded.cores.postgres;
    const steadyFigures = {
      terminals,
      controllersOutAfterStart: outAfterStart.length,
      controllersRecoveredAlone: recoveredAlone,
      controllersPairingReset: stuck.length,
      clocks,
      controllers,
      steady,
      steadyAfterSeconds,
      pollsPerSecond: Math.round(polls / loaded.seconds),
      expectedPollsPerSecond: Math.round(expectedPollsPerSecond),
      requestsPerSecond: Math.round(requests / loaded.seconds),
      bytesInPerRequest: Math.round((countersAfter.bytesIn - countersBefore.bytesIn) / requests),
      bytesOutPerRequest: Math.round((countersAfter.bytesOut - countersBefore.bytesOut) / requests),
      cores: {
        services: loaded.cores.services.map((c) => Number(c.toFixed(3))),
        haproxy: Number(loaded.cores.haproxy.toFixed(3)),
        postgres: Number(loaded.cores.postgres.toFixed(3)),
        generator: Number(loaded.cores.generator.toFixed(3)),
      },
      idleCores: {
        services: Number(sum(idle.cores.services).toFixed(3)),
        haproxy: Number(idle.cores.haproxy.toFixed(3)),
        postgres: Number(idle.cores.postgres.toFixed(3)),
      },
      /** CPU microseconds per second per terminal beyond idle: services, and services + HAProxy + PostgreSQL. */
      serviceCpuMicrosPerTerminalSecond: Math.round(((serviceCores - sum(idle.cores.services)) * 1e6) / terminals),
      totalCpuMicrosPerTerminalSecond: Math.round(((allCores - sum(idle.cores.services) - idle.cores.haproxy - idle.cores.postgres) * 1e6) / terminals),
      /** All CPU (services, HAProxy, PostgreSQL) per request, idle work included: an upper bound. */
      allCpuMicrosPerRequest: Math.round((allCores * 1e6) / (requests / loaded.seconds)),
      serviceCpuMicrosPerRequest: Math.round(((serviceCores - sum(idle.cores.services)) * 1e6) / (requests / loaded.seconds)),
      totalCpuMicrosPerRequest: Math.round(
        ((allCores - sum(idle.cores.services) - idle.cores.haproxy - idle.cores.postgres) * 1e6) / (requests / loaded.seconds),
      ),
      rssIdle: { services: idle.rss.services, haproxy: idle.rss.haproxy, postgres: idle.rss.postgres },
      rssLoaded: { services: loaded.rss.services, haproxy: loaded.rss.haproxy, postgres: loaded.rss.postgres },
      serviceRssBytesPerTerminal: Math.round((sum(loaded.rss.services) - sum(idle.rss.services)) / terminals),
      haproxyRssBytesPerTerminal: Math.round((loaded.rss.haproxy - idle.rss.haproxy) / terminals),
      heartbeatIdle: { p50Ms: ms1(percentile(idleLatency.sorted, 50)), p99Ms: ms1(percentile(idleLatency.sorted, 99)), failed: idleLatency.failed },
      heartbeatLoaded: {
        p50Ms: ms1(percentile(loadedLatency.sorted, 50)),
        p99Ms: ms1(percentile(loadedLatency.sorted, 99)),
        maxMs: ms1(percentile(loadedLatency.sorted, 100)),
        samples: loadedLatency.sorted.length,
        failed: loadedLatency.failed,
      },
      fleetErrors: clockFleet.counters().errors + controllerFleet.counters().errors,
      loadavg: loadavg(),
    };

    process.stderr.write(`steady state: ${JSON.stringify(steadyFigures)}\n`);
    // Doors of the controllers, as their registries reported them.
    const doorsOf = async (companyId: number) =>
      (
        await client.query('select d.id from door d join device v on v.id = d.device_id where v.company_id = $1 and d.present order by d.id', [companyId])
      ).rows.map((r) => Number(r.id));
    const lockdownDoors = await waitFor('the lockdown company reports its 100 doors', async () => {
      const doors = await doorsOf(lockdownCompany);
      return doors.length === LOCKDOWN_CONTROLLERS * DOORS_PER_CONTROLLER ? doors : null;
    });
    const otherDoors = await waitFor('the other controllers report their doors', async () => {
      const doors = await doorsOf(doorCompany);
      return doors.length === (controllers - LOCKDOWN_CONTROLLERS) * DOORS_PER_CONTROLLER ? doors : null;
    });

    // --- 3. lockdown of 100 doors ---
    const perDoor: number[] = [];
    const allDoors: number[] = [];
    // Where a door's time goes: the request (answered), its command's delivery at a poll, the controller's answer.
    const requestMs: number[] = [];
    const toDeliveryMs: number[] = [];
    const toAnswerMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await sleep(Math.random() * accDelay * 1000);
      const requested = performance.now();
      const lockdown = await call(lb, key, 'POST', '/public/v2/lockdowns', { company_id: lockdownCompany, mode: 'lockdown', reason: `bench round ${round}` });
      requestMs.push(performance.now() - requested);
      const ms = await waitFor(`lockdown round ${round} confirmed`, async () => {
        const { rows } = await client.query(
          `select count(*) filter (where ld.state = 'confirmed')::int as confirmed, count(*) filter (where ld.state = 'failed')::int as failed,
             array_agg(extract(epoch from ld.confirmed_at - l.created_at) * 1000) filter (where ld.state = 'confirmed') as ms,
             array_agg(extract(epoch from dc.sent_at - l.created_at) * 1000) filter (where ld.state = 'confirmed') as delivered,
             array_agg(extract(epoch from ld.confirmed_at - dc.sent_at) * 1000) filter (where ld.state = 'confirmed') as answered
           from lockdown_door ld join lockdown l on l.id = ld.lockdown_id left join device_command dc on dc.id = ld.command_id where l.id = $1`,
          [lockdown.id],
        );
        if (rows[0].failed > 0) throw new Error(`lockdown round ${round}: ${rows[0].failed} doors failed`);
        if (rows[0].confirmed !== lockdownDoors.length) return null;
        toDeliveryMs.push(...(rows[0].delivered as string[]).map(Number));
        toAnswerMs.push(...(rows[0].answered as string[]).map(Number));
        return (rows[0].ms as string[]).map(Number);
      });
      perDoor.push(...ms);
      allDoors.push(Math.max(...ms));
      await call(lb, key, 'POST', `/public/v2/lockdowns/${lockdown.id}/release`);
      await waitFor(`lockdown round ${round} released`, async () => {
        const { rows } = await client.query("select count(*)::int as n from lockdown_door where lockdown_id = $1 and state <> 'released'", [lockdown.id]);
        return rows[0].n === 0 ? true : null;
      });
    }
    for (const list of [perDoor, allDoors, requestMs, toDeliveryMs, toAnswerMs]) list.sort((a, b) => a - b);
    const lockdownFigures = {
      doors: lockdownDoors.length,
      rounds,
      pollSeconds: accDelay,
      doorP50Ms: ms1(percentile(perDoor, 50)),
      doorP95Ms: ms1(percentile(perDoor, 95)),
      doorMaxMs: ms1(percentile(perDoor, 100)),
      allDoorsMedianMs: ms1(percentile(allDoors, 50)),
      requestP50Ms: ms1(percentile(requestMs, 50)),
      requestMaxMs: ms1(percentile(requestMs, 100)),
      toDeliveryP50Ms: ms1(percentile(toDeliveryMs, 50)),
      toDeliveryP95Ms: ms1(percentile(toDeliveryMs, 95)),
      deliveryToAnswerP50Ms: ms1(percentile(toAnswerMs, 50)),
      deliveryToAnswerP95Ms: ms1(percentile(toAnswerMs, 95)),
      met: percentile(perDoor, 95) <= 2000,
      loadavg: loadavg(),
    };

    process.stderr.write(`lockdown: ${JSON.stringify(lockdownFigures)}\n`);
    // --- 4. every controller syncing 500 people, remote opens meanwhile ---
    // An access level holds at most 256 doors: one level per 256 doors of a company, the same people on each.
    const levels: Array<{ id: number; members: Array<{ employee_id: number }> }> = [];
    for (const [companyId, doors, members] of [
      [lockdownCompany, lockdownDoors, lockdownPeople],
      [doorCompany, otherDoors, doorPeople],
    ] as const) {
      const schedule = await call(lb, key, 'POST', '/public/v2/access_schedules', {
        company_id: companyId,
        name: 'Office',
        intervals: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_time: '08:30', end_time: '17:30' })),
      });
      for (let at = 0; at < doors.length; at += 256) {
        const created = await call(lb, key, 'POST', '/public/v2/access_levels', {
          company_id: companyId,
          name: `Everyone ${at / 256 + 1}`,
          schedule_id: schedule.id,
          door_ids: doors.slice(at, at + 256),
        });
        levels.push({ id: created.id as number, members: members.map((id) => ({ employee_id: id })) });
      }
    }
    const syncBegan = Date.now();
    // 100 people a request: 500 people on a level of 256 doors in one request took past HAProxy's 60 s server
    // timeout on the loaded machine (a 504 from the balancer).
    for (const l of levels)
      for (let at = 0; at < l.members.length; at += 100)
        await throughBalancer(() => call(lb, key, 'POST', `/public/v2/access_levels/${l.id}/employees`, l.members.slice(at, at + 100)));
    const pendingSync = async () =>
      Number(
        (
          await client.query(
            "select count(*)::int as n from device_user u join device v on v.id = u.device_id where v.company_id = any($1) and not (u.present and u.sync_status = 'synced')",
            [[lockdownCompany, doorCompany]],
          )
        ).rows[0].n,
      );
    const openLatencies: number[] = [];
    let opensDuringSync = 0;
    for (let i = 0; i < opens; i++) {
      await sleep(Math.random() * accDelay * 1000);
      const serial = `ACC${String(1 + Math.floor(Math.random() * controllers)).padStart(5, '0')}`;
      const syncing = (await pendingSync()) > 0;
      const action = await throughBalancer(() => call(lb, key, 'POST', '/v1/devices/door/unlock', { device_serial: serial, door: 1, duration: 3 }));
      const ms = await waitFor(`unlock ${action.action_id} delivered`, async () => {
        const { rows } = await client.query('select extract(epoch from sent_at - created_at) * 1000 as ms, status from door_action where action_id = $1', [
          action.action_id,
        ]);
        if (rows[0]?.status === 'expired') throw new Error(`unlock ${action.action_id} expired undelivered`);
        return rows[0]?.ms !== null && rows[0]?.ms !== undefined ? Number(rows[0].ms) : null;
      });
      if (syncing) {
        opensDuringSync++;
        openLatencies.push(ms);
      }
    }
    const stillPending = await pendingSync();
    // The whole sync is waited for at most --sync-wait seconds (it is not what is measured here); its rate is reported.
    const syncWait = numberArg('sync-wait', 120) * 1000;
    const syncDeadline = Date.now() + syncWait;
    while ((await pendingSync()) > 0 && Date.now() < syncDeadline) await sleep(1000);
    const unsynced = await pendingSync();
    const syncSeconds = (Date.now() - syncBegan) / 1000;
    openLatencies.sort((a, b) => a - b);
    const openFigures = {
      peoplePerController: people,
      controllers,
      opens,
      opensDuringSync,
      pendingAfterOpens: stillPending,
      pollSeconds: accDelay,
      p50Ms: ms1(percentile(openLatencies, 50)),
      p99Ms: ms1(percentile(openLatencies, 99)),
      maxMs: ms1(percentile(openLatencies, 100)),
      withinOnePoll: openLatencies.filter((v) => v <= accDelay * 1000).length,
      syncedAfterSeconds: unsynced === 0 ? Math.round(syncSeconds) : null,
      syncRowsPerSecond: Math.round((controllers * people - unsynced) / syncSeconds),
      unsyncedAtEnd: unsynced,
      balancerRefusals,
      loadavg: loadavg(),
    };

    process.stderr.write(`remote open: ${JSON.stringify(openFigures)}\n`);
    // --- 5. morning burst: every clock uploads its people's clock-ins within the window ---
    const { rows: maxRow } = await client.query('select coalesce(max(id), 0)::bigint as id from punch');
    const firstPunchId = BigInt(maxRow[0].id);
    const burstCpuPromise = usage(burstSeconds * 1000, pids);
    const burstBegan = Date.now();
    const timers: NodeJS.Timeout[] = [];
    clockFleet.terminals.forEach((terminal, index) => {
      for (let k = 0; k < punchesPerClock; k++) {
        const pin = String(index * punchesPerClock + k + 1);
        timers.push(setTimeout(() => terminal.punch({ pin, at: new Date() }), Math.random() * burstSeconds * 1000));
      }
    });
    const burstUsage = await burstCpuPromise;
    const expectedPunches = clocks * punchesPerClock;
    await waitFor('every burst punch is stored', async () => {
      const { rows } = await client.query('select count(*)::int as n from punch where id > $1', [firstPunchId.toString()]);
      return rows[0].n >= expectedPunches ? true : null;
    });
    const storedAfterSeconds = (Date.now() - burstBegan) / 1000;
    const dayLatency = async () =>
      (
        await client.query(
          `select extract(epoch from d.updated_at - p.received_at) * 1000 as ms
           from punch p join attendance_day d on d.employee_id = p.employee_id and p.id = any(d.punch_ids)
           where p.id > $1`,
          [firstPunchId.toString()],
        )
      ).rows.map((r) => Number(r.ms));
    await waitFor('every burst punch is in its attendance day', async () => ((await dayLatency()).length >= expectedPunches ? true : null), 1_200_000);
    const daysAfterSeconds = (Date.now() - burstBegan) / 1000;
    const toDay = (await dayLatency()).sort((a, b) => a - b);
    const burstFigures = {
      clocks,
      punches: expectedPunches,
      windowSeconds: burstSeconds,
      punchesPerSecond: Math.round(expectedPunches / burstSeconds),
      storedAfterSeconds: Math.round(storedAfterSeconds),
      daysAfterSeconds: Math.round(daysAfterSeconds),
      punchToDayP50Ms: ms1(percentile(toDay, 50)),
      punchToDayP95Ms: ms1(percentile(toDay, 95)),
      punchToDayMaxMs: ms1(percentile(toDay, 100)),
      cores: {
        services: Number(sum(burstUsage.cores.services).toFixed(3)),
        haproxy: Number(burstUsage.cores.haproxy.toFixed(3)),
        postgres: Number(burstUsage.cores.postgres.toFixed(3)),
        generator: Number(burstUsage.cores.generator.toFixed(3)),
      },
      loadavg: loadavg(),
    };
    for (const t of timers) clearTimeout(t);

    const result = {
      bench: 'fleet',
      scale,
      balance,
      attDelaySeconds: attDelay,
      accDelaySeconds: accDelay,
      loadavgAtStart: loadAtStart,
      steadyState: steadyFigures,
      lockdown: lockdownFigures,
      remoteOpen: openFigures,
      morningBurst: burstFigures,
      runSeconds: Math.round((Date.now() - began) / 1000),
    };
    const s = steadyFigures;
    report(result, [
      `fleet of ${terminals} terminals (${clocks} clocks polling every ${attDelay} s, ${controllers} access controllers every ${accDelay} s, 2 doors each; scale ${scale} of 10,000),`,
      `  3 service processes behind HAProxy (terminals balanced by ${balance === 'serial' ? 'serial number' : 'request, round robin'}) on one PostgreSQL, load generator in this process; load average ${loadAtStart} at start, ${s.loadavg} in the steady state`,
      `  ${s.controllersOutAfterStart} controllers out after the start-up storm, ${s.controllersRecoveredAlone} back by themselves, ${s.controllersPairingReset} locked out (pairing reset by the bench); steady after ${s.steadyAfterSeconds} s: ${s.pollsPerSecond} polls/s (expected ${s.expectedPollsPerSecond}), ${s.requestsPerSecond} requests/s through HAProxy, ${s.bytesInPerRequest} B in / ${s.bytesOutPerRequest} B out per request, ${s.fleetErrors} fleet errors`,
      `  CPU (cores): services ${s.cores.services.join(' + ')}, HAProxy ${s.cores.haproxy}, PostgreSQL ${s.cores.postgres}, load generator ${s.cores.generator} (idle: services ${s.idleCores.services}, PostgreSQL ${s.idleCores.postgres})`,
      `    per terminal beyond idle: services ${s.serviceCpuMicrosPerTerminalSecond} µs/s, with HAProxy and PostgreSQL ${s.totalCpuMicrosPerTerminalSecond} µs/s; per request ${s.serviceCpuMicrosPerRequest} / ${s.totalCpuMicrosPerRequest} µs (all CPU, idle work included: ${s.allCpuMicrosPerRequest} µs)`,
      `  RSS: services ${s.rssIdle.services.map(mb).join(', ')} idle -> ${s.rssLoaded.services.map(mb).join(', ')} loaded: ${s.serviceRssBytesPerTerminal} B per terminal; HAProxy ${s.haproxyRssBytesPerTerminal} B per terminal; PostgreSQL (sum of its processes) ${mb(s.rssLoaded.postgres)}`,
      `  heartbeat probe (${PROBES} terminals, ${probeRate}/s through HAProxy): p50 ${s.heartbeatLoaded.p50Ms} ms, p99 ${s.heartbeatLoaded.p99Ms} ms, max ${s.heartbeatLoaded.maxMs} ms; same probe before the fleet started: p50 ${s.heartbeatIdle.p50Ms} ms, p99 ${s.heartbeatIdle.p99Ms} ms`,
      `  lockdown of ${lockdownFigures.doors} doors (controllers polling every ${accDelay} s), ${rounds} rounds: per door p50 ${lockdownFigures.doorP50Ms} ms, p95 ${lockdownFigures.doorP95Ms} ms, max ${lockdownFigures.doorMaxMs} ms (target p95 <= 2000 ms: ${lockdownFigures.met ? 'met' : 'NOT met'})`,
      `  remote open while every controller syncs ${people} people: ${opensDuringSync} of ${opens} opens made during the sync: p50 ${openFigures.p50Ms} ms, p99 ${openFigures.p99Ms} ms, max ${openFigures.maxMs} ms; ${openFigures.withinOnePoll} within one poll (${accDelay} s); ${openFigures.unsyncedAtEnd === 0 ? `all synced after ${openFigures.syncedAfterSeconds} s` : `${openFigures.unsyncedAtEnd} person-controller rows still unsynced after ${Math.round(syncSeconds)} s`} (${openFigures.syncRowsPerSecond} synced/s)`,
      `  morning burst: ${expectedPunches} punches from ${clocks} clocks in ${burstSeconds} s (${burstFigures.punchesPerSecond}/s): stored after ${burstFigures.storedAfterSeconds} s, days after ${burstFigures.daysAfterSeconds} s; punch -> day p50 ${burstFigures.punchToDayP50Ms} ms, p95 ${burstFigures.punchToDayP95Ms} ms, max ${burstFigures.punchToDayMaxMs} ms`,
      `    CPU during the burst (cores): services ${burstFigures.cores.services}, PostgreSQL ${burstFigures.cores.postgres}, HAProxy ${burstFigures.cores.haproxy}, load generator ${burstFigures.cores.generator}`,
      `  run took ${result.runSeconds} s`,
    ]);
    failed = false;
  } finally {
    await Promise.all(fleets.map((f) => f.stop()));
    haproxy?.kill('SIGTERM');
    await Promise.all(services.map((s) => s.stop()));
    await client.end().catch(() => undefined);
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}-haproxy.cfg`, { force: true });
    if (failed) process.stderr.write(`the service processes' logs: ${logFiles.join(' ')}\n`);
    else for (const f of logFiles) fs.rmSync(f, { force: true });
  }
}

async function withAdmin(url: string, work: (c: pg.Client) => Promise<unknown>): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await work(c);
  } finally {
    await c.end();
  }
}

/** Requests HAProxy answered itself with 503 (every process failing its /readyz check on the loaded machine) and the bench sent again. */
let balancerRefusals = 0;

/**
 * Sends again a request that HAProxy refused with its own 503 ("No server is available": no process
 * passed its health check at that moment, so no process received the request), up to 60 times a
 * second apart; any other failure ends the bench.
 */
async function throughBalancer<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt >= 60 || !/: 503 <html>.*No server is available/s.test((error as Error).message)) throw error;
      balancerRefusals++;
      await sleep(1000);
    }
  }
}

/** Polls `check` every 100 ms until it returns non-null (a thrown error ends the bench). */
async function waitFor<T>(what: string, check: () => Promise<T | null>, timeoutMs = 300_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(100);
  }
}

runScenario(main);
