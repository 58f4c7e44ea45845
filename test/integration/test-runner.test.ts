import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { waitUntil } from '../support/wait-until';

// Ctrl-C (SIGINT) or SIGTERM during a test run stops the embedded PostgreSQL the run started and
// removes its data folder (test/support/database.ts), in each way the tests are run: one mocha
// process, a parallel mocha run with its shared server, and the runner of `npm test`.
describe('the test runner on SIGINT and SIGTERM', () => {
  const root = path.resolve(__dirname, '..', '..', '..');
  const fixture = 'dist/test/fixtures/runner/holds-database.js';
  let folder: string;

  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-runner-'));
    fs.chmodSync(folder, 0o755); // as root, PostgreSQL runs as "postgres" and must enter it
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  /** Starts `args` with the system's temporary folder moved into `folder` (so the data folder lands there). */
  function start(args: string[], extraEnv: NodeJS.ProcessEnv = {}): ChildProcess {
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: folder, TIMEGATE_FIXTURE_READY: path.join(folder, 'ready') };
    // A run of its own: not the database of the run this test is part of.
    delete env.TEST_DATABASE_URL;
    delete env.TEST_DATABASE_TEMPLATE;
    delete env.TIMEGATE_TEST_NO_DATABASE;
    Object.assign(env, extraEnv);
    return spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  }

  /** Processes whose command line names the folder (the postmaster: `postgres -D <folder>/timegate-test-pg-…/pg`), and their children. */
  function postgresOfFolder(): number[] {
    const all = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
    const parentOf = new Map<number, number>();
    const named: number[] = [];
    for (const p of all) {
      try {
        const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
        parentOf.set(Number(p), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
        if (fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(folder)) named.push(Number(p));
      } catch {
        // gone meanwhile
      }
    }
    return [...parentOf.keys()].filter((pid) => named.includes(pid) || named.includes(parentOf.get(pid)!));
  }

  async function interrupt(child: ChildProcess, signal: NodeJS.Signals) {
    await waitUntil('the fixture holds the database', () => fs.existsSync(path.join(folder, 'ready')), 120_000);
    const server = postgresOfFolder();
    expect(server, 'a postgres of the data folder runs').to.not.be.empty;
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, s) => resolve({ code, signal: s })),
    );
    child.kill(signal);
    const end = await exited;
    const alive = server.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive, 'postgres processes left running').to.deep.equal([]);
    expect(postgresOfFolder(), 'processes of the data folder').to.deep.equal([]);
    expect(
      fs.readdirSync(folder).filter((f) => f.startsWith('timegate-test-pg-')),
      'data folders left',
    ).to.deep.equal([]);
    return { ...end, stderr };
  }

  it('one mocha process: SIGINT stops its database and the process ends by SIGINT', async function () {
    this.timeout(180_000);
    const end = await interrupt(start([require.resolve('mocha/bin/mocha.js'), fixture]), 'SIGINT');
    expect(end.signal ?? end.code, end.stderr).to.be.oneOf(['SIGINT', 130]);
  });

  it('a parallel mocha run: SIGTERM stops the shared database of its global setup, and no worker is left', async function () {
    this.timeout(180_000);
    const child = start(
      [
        require.resolve('mocha/bin/mocha.js'),
        '--parallel',
        '--jobs',
        '2',
        '--require',
        'dist/test/support/shared-database.js',
        fixture,
        'dist/test/unit/kernel/case.test.js',
      ],
      // The global setup still starts the shared server; the fixture makes an empty database
      // (freshDatabaseUrl), never a copy of the migrated template, so PostgreSQL's own template1 is
      // named as the template and the setup migrates none (every migration: a quarter of a minute).
      { TEST_DATABASE_TEMPLATE: 'template1' },
    );
    await waitUntil('the fixture holds the database', () => fs.existsSync(path.join(folder, 'ready')), 120_000);
    const workers = fs
      .readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === child.pid && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('worker');
        } catch {
          return false;
        }
      })
      .map(Number);
    expect(workers, 'mocha workers').to.not.be.empty;
    const end = await interrupt(child, 'SIGTERM');
    expect(end.signal ?? end.code, end.stderr).to.be.oneOf(['SIGTERM', 143]);
    await waitUntil(
      'the workers are gone',
      () =>
        workers.filter((pid) => {
          try {
            process.kill(pid, 0);
            return true;
          } catch {
            return false;
          }
        }),
      (left) => left.length === 0,
    );
  });

  it('the runner of npm test: SIGINT reaches its mocha, which stops the database; the runner exits with 130', async function () {
    this.timeout(180_000);
    const end = await interrupt(start(['dist/test/run.js', fixture]), 'SIGINT');
    expect(end.code, end.stderr).to.equal(130);
  });
});
