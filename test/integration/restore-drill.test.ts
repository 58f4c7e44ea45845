// The restore drill of docs/deployment.md ("Backups and the restore drill"), run rather than
// described: a real PostgreSQL with WAL archiving under a running Timegate, simulated terminals
// uploading punches all along, a base backup, a point-in-time restore into a new data folder,
// Timegate started on it, and the punches stored after the restore point recovered from the
// terminals with the documented backfill. The shell commands are read from the page itself, so the
// page cannot drift from what is tested. Debian's PostgreSQL binaries (package `postgresql`,
// installed by .ci/run; PG_BINDIR overrides); `curl` and `jq` for the backfill loop.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../src/db/embedded-postgres';
import { SimulatedTerminal } from '../../src/simulator';
import { createCompany, createDevice } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { query, startServiceProcess, storedPunchKeys, type ServiceProcess } from '../support/service-process';
import { waitUntil } from '../support/wait-until';
import { MASTER_KEY } from '../support/test-app';

const root = path.resolve(__dirname, '..', '..', '..');
const TERMINALS = 3;
/** Punches stored in each phase before the drill moves on (before the backup, before the target, after it). */
const PHASE_PUNCHES = 40;

/** The newest PostgreSQL server binaries of Debian's packages, or PG_BINDIR. */
function postgresBinDir(): string {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => ['initdb', 'pg_ctl', 'pg_basebackup', 'psql'].every((tool) => fs.existsSync(path.join(base, v, 'bin', tool))))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      'PostgreSQL server binaries not found in /usr/lib/postgresql/<version>/bin: install the Debian package postgresql (.ci/run does), or set PG_BINDIR',
    );
  return path.join(base, versions[0]!, 'bin');
}

/** A block of shell commands of docs/deployment.md, marked `<!-- restore-drill: <name> -->`. */
function documentedCommands(name: string): string {
  const page = fs.readFileSync(path.join(root, 'docs', 'deployment.md'), 'utf8');
  const block = new RegExp(`<!-- restore-drill: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``).exec(page);
  if (!block) throw new Error(`docs/deployment.md has no "restore-drill: ${name}" block`);
  return block[1]!;
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user, as in production. */
const postgresUser =
  process.getuid?.() === 0
    ? { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) }
    : null;

describe('restore drill: base backup, WAL archive, point-in-time restore and backfill from the terminals (docs/deployment.md)', function () {
  this.timeout(600_000);
  let bin: string;
  let folder: string;
  const dirs = { archive: '', data: '', backup: '', restore: '' };
  let pgPort: number;
  let restorePort: number;
  let httpPort: number;
  const services: ServiceProcess[] = [];
  const terminals: SimulatedTerminal[] = [];
  let punching: NodeJS.Timeout | null = null;

  /** Runs a shell script with bash (-euo pipefail) and these variables; as `postgres` when asked and root. */
  function sh(script: string, env: Record<string, string>, options: { asPostgres?: boolean; cwd?: string } = {}): Promise<string> {
    const asPostgres = options.asPostgres && postgresUser;
    return new Promise((resolve, reject) => {
      const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: options.cwd ?? folder,
        env: { ...process.env, ...(asPostgres ? { HOME: folder } : {}), ...env, PATH: `${bin}:${process.env.PATH}` },
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(asPostgres ? postgresUser : {}),
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`"${script.split('\n')[0]}…" exited with ${code}:\n${err}\n${out}\n${serverLogs()}`)),
      );
    });
  }

  /** The servers' own logs, shown when a step fails. */
  function serverLogs(): string {
    return [path.join(dirs.data, 'server.log'), path.join(dirs.restore, 'restore.log')]
      .filter((file) => file && fs.existsSync(file))
      .map((file) => `--- ${path.basename(file)}:\n${fs.readFileSync(file, 'utf8').split('\n').slice(-30).join('\n')}`)
      .join('\n');
  }

  const serverUrl = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const punchCount = async (port: number) => (await query<{ n: number }>(serverUrl(port, 'timegate'), 'select count(*)::int as n from punch'))[0]!.n;

  before(async () => {
    bin = postgresBinDir();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-restore-drill-'));
    fs.chmodSync(folder, 0o755);
    Object.assign(dirs, {
      archive: path.join(folder, 'archive'),
      data: path.join(folder, 'data'),
      backup: path.join(folder, 'backup'),
      restore: path.join(folder, 'restore'),
    });
    fs.mkdirSync(dirs.archive);
    if (postgresUser) for (const dir of [folder, dirs.archive]) fs.chownSync(dir, postgresUser.uid, postgresUser.gid);
    [pgPort, restorePort, httpPort] = [await freePort(), await freePort(), await freePort()];

    // The database server of a Timegate installation (its set-up is the platform's business: here,
    // a cluster of its own on local ports; small WAL segments keep the archive small).
    await sh(`initdb -D "${dirs.data}" -U postgres -A trust -E UTF8 --wal-segsize=1 --no-sync >/dev/null`, {}, { asPostgres: true });
    fs.appendFileSync(
      path.join(dirs.data, 'postgresql.conf'),
      `\nport = ${pgPort}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nmax_connections = 60\n`,
    );
    // Step 1 of the page: WAL archiving, before the server starts.
    await sh(documentedCommands('archive'), { PGDATA: dirs.data, ARCHIVE: dirs.archive }, { asPostgres: true });
    await sh(`pg_ctl -D "${dirs.data}" -l "${dirs.data}/server.log" -w -t 120 start >/dev/null`, {}, { asPostgres: true });
    await query(serverUrl(pgPort, 'postgres'), 'create database timegate');
    services.push(await startServiceProcess(serverUrl(pgPort, 'timegate'), { TIMEGATE_ATT_DELAY: '2' }, { port: httpPort, startMs: 180_000 }));
  });

  after(async () => {
    if (punching) clearInterval(punching);
    await Promise.all(terminals.map((terminal) => terminal.stop()));
    await Promise.all(services.map((service) => service.kill('SIGTERM')));
    for (const dir of [dirs.data, dirs.restore]) {
      if (dir && fs.existsSync(path.join(dir, 'postmaster.pid')))
        await sh(`pg_ctl -D "${dir}" -m immediate -w stop >/dev/null`, {}, { asPostgres: true }).catch(() => undefined);
    }
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('restores to a point in time while terminals keep punching, and ends with every punch the terminals made, none twice', async () => {
    const url = services[0]!.url;
    // The workspace the first start created, with an admin key made by the operator key.
    const [workspace] = await query<{ id: number }>(serverUrl(pgPort, 'timegate'), 'select id from workspace order by id limit 1');
    const created = await gqlData(url, MASTER_KEY, 'mutation ($id: Int!) { createApiKey(input: { workspaceId: $id, scopes: ["admin"] }) { key } }', {
      id: workspace!.id,
    });
    const ws = { key: created.createApiKey.key as string };
    const company = await createCompany(url, ws.key);
    const devices = [];
    for (let i = 0; i < TERMINALS; i++) devices.push(await createDevice(url, ws.key, company.id, { time_zone: 'UTC' }));
    for (const device of devices) {
      const terminal = new SimulatedTerminal({ serverUrl: url, serialNumber: device.serial_number, family: 'att', pollIntervalMs: 500, errorDelayMs: 300 });
      terminals.push(terminal);
      terminal.start();
    }
    // People punch all the time: a punch every 60 ms on one terminal or another, each terminal's at
    // its own second of the last hours (so that no two are the same record).
    const from = Date.now() - 3 * 3600_000;
    const made = terminals.map(() => 0);
    let next = 0;
    punching = setInterval(() => {
      const i = next++ % TERMINALS;
      terminals[i]!.punch({ pin: String(100 + (made[i]! % 7)), at: new Date(from + made[i]! * 1000) });
      made[i]! += 1;
    }, 60);
    const stored = (atLeast: number) => waitUntil('the punches are stored', async () => (await punchCount(pgPort)) >= atLeast, 120_000);

    // Step 2: a base backup of the running database.
    await stored(PHASE_PUNCHES);
    const env = { PGHOST: '127.0.0.1', PGPORT: String(pgPort), PGUSER: 'postgres' };
    await sh(documentedCommands('base-backup'), { ...env, BACKUP: dirs.backup }, { asPostgres: true });
    expect(fs.existsSync(path.join(dirs.backup, 'base.tar.gz'))).to.equal(true);

    // More punches (only in the archived WAL), then the moment to go back to, then more punches
    // (lost by the restore: only the terminals still have them).
    await stored((await punchCount(pgPort)) + PHASE_PUNCHES);
    const [target] = await query<{ at: string; n: number }>(
      serverUrl(pgPort, 'timegate'),
      `select clock_timestamp()::text as at, (select count(*)::int from punch) as n`,
    );
    await stored(target!.n + PHASE_PUNCHES);
    // What archive_timeout does every minute: the segment in use is closed and archived.
    const [switched] = await query<{ wal: string }>(serverUrl(pgPort, 'postgres'), 'select pg_walfile_name(pg_switch_wal()) as wal');
    await waitUntil(
      'the switched WAL segment is archived',
      async () =>
        ((await query<{ wal: string | null }>(serverUrl(pgPort, 'postgres'), 'select last_archived_wal as wal from pg_stat_archiver'))[0]!.wal ?? '') >=
        switched!.wal,
      120_000,
    );

    // The database is lost: Timegate and PostgreSQL stop; the terminals keep punching and keep
    // what they cannot upload.
    await services.shift()!.kill('SIGTERM');
    const beforeLoss = await punchCount(pgPort);
    await sh(`pg_ctl -D "${dirs.data}" -m fast -w stop >/dev/null`, {}, { asPostgres: true });
    await waitUntil('every terminal holds records to send', async () => terminals.every((terminal) => terminal.pendingCount > 0), 30_000);

    // Step 3: the restore, to the target time, into a new data folder.
    await sh(
      documentedCommands('restore'),
      { ...env, BACKUP: dirs.backup, ARCHIVE: dirs.archive, RESTORE: dirs.restore, RESTORE_PORT: String(restorePort), TARGET_TIME: target!.at },
      { asPostgres: true },
    );
    const restored = await punchCount(restorePort);
    expect(restored, 'everything committed by the target time is back').to.be.at.least(target!.n);
    expect(restored, 'what came after the target is not').to.be.below(beforeLoss);
    expect(fs.readFileSync(path.join(dirs.restore, 'restore.log'), 'utf8')).to.contain('recovery stopping before commit of transaction');

    // Step 4: Timegate on the restored database, at the address the terminals call.
    services.push(await startServiceProcess(serverUrl(restorePort, 'timegate'), { TIMEGATE_ATT_DELAY: '2' }, { port: httpPort, startMs: 180_000 }));
    const service = services[0]!;
    await waitUntil('the restored database stores new punches', async () => (await punchCount(restorePort)) > restored, 60_000);
    clearInterval(punching);
    punching = null;
    await waitUntil("every terminal's records are acknowledged", async () => terminals.every((terminal) => terminal.pendingCount === 0), 60_000);
    const sent = terminals.reduce((sum, terminal) => sum + terminal.store.log.length, 0);
    const beforeBackfill = await punchCount(restorePort);
    expect(beforeBackfill, 'the punches stored between the target and the loss are missing until the backfill').to.be.below(sent);

    // Step 5: the documented backfill, for every workspace and attendance terminal.
    const output = await sh(
      documentedCommands('backfill'),
      { TIMEGATE: service.url, DATABASE_URL: serverUrl(restorePort, 'timegate'), TARGET_TIME: target!.at },
      { cwd: root },
    );
    const queued = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { action_id: string; type: string; status: string });
    expect(queued.map((action) => [action.type, action.status])).to.deep.equal(devices.map(() => ['attendance.backfill', 'queued']));
    for (const device of devices) {
      await waitUntil(
        "the terminal's backfill action succeeded",
        async () => {
          const actions = (await rest(service.url, 'GET', `/public/v2/devices/${device.id}/actions`, { key: ws.key })).body as {
            type: string;
            status: string;
          }[];
          return actions[0]?.type === 'attendance.backfill' && actions[0].status === 'succeeded';
        },
        120_000,
      );
    }

    // Every punch the terminals made is stored, once.
    await waitUntil(
      'every punch is stored on the restored database',
      async () => terminals.every((terminal) => terminal.pendingCount === 0) && (await punchCount(restorePort)) === sent,
      60_000,
    );
    for (const [i, terminal] of terminals.entries()) {
      const keys = await storedPunchKeys(serverUrl(restorePort, 'timegate'), devices[i]!.serial_number);
      const expected = new Map(terminal.store.log.map((record) => [`${record.pin}\t${record.time}`, 1]));
      expect(expected.size, 'the terminal made no record twice').to.equal(terminal.store.log.length);
      expect(keys).to.deep.equal(expected);
    }
  });
});
