import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { closedAncestor, freePort } from '../../src/db/embedded-postgres';
import { createCompany } from '../support/factories';
import { startTestApp, MASTER_KEY, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

const root = path.resolve(__dirname, '..', '..', '..');
const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** A compiled script of dist/src in a child node, its output collected (never a blocking spawn: see `cli` below). */
function runNode(script: string, args: string[], env: NodeJS.ProcessEnv, timeout: number) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'dist', 'src', script), ...args], { env, timeout });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `npm start`s entry point in a child process, to its exit: its status and output. */
const runMain = (env: NodeJS.ProcessEnv, timeout: number) => runNode('main.js', [], env, timeout);

/** The `timegate` command and the service's start-up refusals, as a person at a shell sees them. */
describe('timegate command line and start-up', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'cli');
  });
  after(() => t.stop());

  /**
   * The command in a child process, without blocking this one: the test app runs in it, and a
   * command that waits for a lock the app holds in a transaction (its workers run at any moment)
   * would wait for ever while a synchronous spawn held the app's event loop. Commands that do not
   * depend on each other run side by side.
   */
  const cli = (args: string[], env: Record<string, string | undefined> = { DATABASE_URL: t.config.databaseUrl ?? undefined }, timeout = 60_000) =>
    runNode(path.join('cli', 'timegate.js'), args, { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: undefined, ...env }, timeout);

  it('--version, --help for every command, and one clean line per message', async () => {
    const commands = ['workspace create', 'workspace list', 'workspace plan', 'key create', 'key list', 'key revoke'];
    const [versioned, unknown, key, ...helps] = await Promise.all([
      cli(['--version']),
      cli(['workspace', 'explode']),
      cli(['key']),
      ...commands.map((command) => cli([...command.split(' '), '--help'])),
    ]);
    expect(versioned).to.include({ status: 0, stdout: `${version}\n` });
    commands.forEach((command, i) => {
      const r = helps[i]!;
      expect(r.status, command).to.equal(0);
      expect(r.stdout, command).to.match(new RegExp(`^timegate ${command} `));
    });
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr).to.contain('timegate: unknown command "workspace explode"');
    expect(key.stderr).to.contain('unknown command "key": key has "key create", "key list", "key revoke"\n');
  });

  it('a group asked for --help lists its commands; unknown options are usage errors (exit 2) on every command', async () => {
    const groups = ['workspace', 'key'];
    const unknownOptions = [
      ['key', 'list', '--bogus'],
      ['workspace', 'list', '--nope'],
      ['workspace', 'plan', '--id'],
      ['simulate', '--bogus'],
    ];
    const [bogus, ...replies] = await Promise.all([
      cli(['--bogus']),
      ...groups.map((group) => cli([group, '--help'])),
      ...unknownOptions.map((args) => cli(args)),
    ]);
    groups.forEach((group, i) => {
      const r = replies[i]!;
      expect(r.status, group).to.equal(0);
      expect(r.stdout.match(new RegExp(`^timegate ${group} \\w+`, 'gm'))?.length, group).to.equal(3);
    });
    expect(bogus.status).to.equal(2);
    expect(bogus.stderr).to.contain('timegate: unknown option "--bogus"');
    unknownOptions.forEach((args, i) => {
      const r = replies[groups.length + i]!;
      expect(r.status, args.join(' ')).to.equal(2);
      expect(r.stderr, args.join(' ')).to.match(/Unknown option|argument missing/);
    });
  });

  it('says which database it uses, makes keys there, and a missing workspace or key is an error (exit 2)', async () => {
    const created = await cli(['workspace', 'create', '--name', 'Branch office', '--json']);
    expect(created.status, created.stderr).to.equal(0);
    expect(created.stderr).to.match(/^timegate: using the database of DATABASE_URL \(127\.0\.0\.1:\d+\/\w+\)\n$/);
    const workspace = JSON.parse(created.stdout).workspace.id as number;
    const key = await cli(['key', 'create', '--workspace', String(workspace), '--scopes', 'read', '--json']);
    expect(key.status).to.equal(0);
    const [listed, missing, revokedMissing] = await Promise.all([
      cli(['key', 'list', '--workspace', String(workspace), '--json']),
      cli(['key', 'list', '--workspace', '999999']),
      cli(['key', 'revoke', '--id', '999999']),
    ]);
    expect(JSON.parse(listed.stdout)).to.have.length(2);
    expect(missing.status).to.equal(2);
    expect(missing.stderr).to.contain('Workspace "999999" was not found.');
    expect(revokedMissing.status).to.equal(2);
    expect((await cli(['key', 'revoke', '--id', String(JSON.parse(key.stdout).id)])).status).to.equal(0);
  });

  it('a scim key is made with --company-id (the help lists the scim scope); a refusal is said once, naming the option', async () => {
    const [keyHelp, help, created] = await Promise.all([
      cli(['key', 'create', '--help']),
      cli(['--help']),
      cli(['workspace', 'create', '--name', 'Directory office', '--json']),
    ]);
    expect(keyHelp.stdout).to.contain('--scopes read,write[,admin,doors:unlock,doors:manage,approve,scim] [--company-id <n>]');
    expect(help.stdout).to.contain(',approve,scim] [--company-id <n>]');
    const { workspace, apiKey } = JSON.parse(created.stdout) as { workspace: { id: number }; apiKey: { key: string } };
    const companyId = (await createCompany(t.url, apiKey.key)).id;

    const made = await cli(['key', 'create', '--workspace', String(workspace.id), '--scopes', 'scim', '--company-id', String(companyId), '--json']);
    expect(made.status, made.stderr).to.equal(0);
    expect(JSON.parse(made.stdout)).to.include({ companyId }).and.have.deep.property('scopes', ['scim']);
    const users = await fetch(`${t.url}/scim/v2/Users`, { headers: { authorization: `Bearer ${JSON.parse(made.stdout).key}` } });
    expect(users.status).to.equal(200);

    const [refused, two] = await Promise.all([
      cli(['key', 'create', '--workspace', String(workspace.id), '--scopes', 'scim']),
      cli(['key', 'create', '--workspace', String(workspace.id), '--scopes', 'scim,read']),
    ]);
    expect(refused.status).to.equal(2);
    const said = (stderr: string) => stderr.split('\n').filter((line) => line && !line.startsWith('timegate: using '));
    expect(said(refused.stderr)).to.deep.equal(['timegate: A "scim" key is bound to one company: give --company-id.']);
    expect(two.status).to.equal(2);
    // Two problems: the summary, then each one once.
    expect(said(two.stderr)).to.deep.equal([
      'timegate: 2 fields are invalid.',
      '  --scopes: A "scim" key has no other scope: it reaches /scim/v2 only.',
      '  --company-id: A "scim" key is bound to one company: give --company-id.',
    ]);
  });

  it('simulate against a server that is not there reports its failed requests and exits 1', async () => {
    const port = await freePort();
    const r = spawnSync(
      process.execPath,
      [path.join(root, 'dist', 'src', 'cli', 'timegate.js'), 'simulate', '--url', `http://127.0.0.1:${port}`, '--duration', '1500ms', '--report-every', '10s'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.stdout).to.match(/^final: .* errors=[1-9]\d*$/m);
    expect(r.stderr).to.contain('request(s) failed');
    expect(r.status).to.equal(1);
  });

  it('creates a sandbox (--sandbox): a tg_test_ key and its seed, and the running service plays its terminals', async function () {
    // The seed is some thirty statements through the services: on a loaded machine the command takes its time.
    this.timeout(240_000);
    const created = await cli(['workspace', 'create', '--sandbox', '--json'], undefined, 180_000);
    expect(created.status, created.stderr).to.equal(0);
    const out = JSON.parse(created.stdout);
    expect(out.workspace).to.include({ name: 'Sandbox', sandbox: true });
    expect(out.apiKey.key).to.match(/^tg_test_[0-9A-Za-z]{40}$/);
    expect(out.sandbox.employeeIds).to.have.length(4);
    await waitUntil('the service plays the sandbox', async () => t.app.sandboxTerminals.playing().includes(out.workspace.id), 30_000);
    const [list, nameless] = await Promise.all([cli(['workspace', 'list', '--json']), cli(['workspace', 'create'])]);
    const listed = JSON.parse(list.stdout) as { id: number; sandbox: boolean }[];
    expect(listed.filter((w) => w.sandbox).map((w) => w.id)).to.deep.equal([out.workspace.id]);
    expect(nameless.stderr).to.contain('--name is required');
  });

  it('pointed at a folder without a database, it says so and creates nothing', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-cli-'));
    try {
      const r = await cli(['workspace', 'list'], { TIMEGATE_DATA_DIR: path.join(empty, 'data') });
      expect(r.status).to.equal(2);
      expect(r.stderr).to.equal(
        `timegate: there is no Timegate database in ${path.join(empty, 'data')}: run this where the service keeps its data (or set TIMEGATE_DATA_DIR to that folder), or set DATABASE_URL.\n`,
      );
      expect(fs.readdirSync(empty)).to.deep.equal([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a folder PostgreSQL could not enter is found before anything starts (what `mktemp -d` makes)', () => {
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-closed-'));
    try {
      fs.chmodSync(closed, 0o700);
      expect(closedAncestor(path.join(closed, 'data'))).to.deep.equal({ dir: closed, mode: 0o700 });
      fs.chmodSync(closed, 0o755);
      expect(closedAncestor(path.join(closed, 'data'))).to.equal(null);
    } finally {
      fs.rmSync(closed, { recursive: true, force: true });
    }
  });

  it('a second service on the same data folder, or on a port in use, stops at once with one sentence', async function () {
    // The first service's first start runs initdb and every migration: a minute on a busy 2-core machine.
    this.timeout(180_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-twice-'));
    fs.chmodSync(dataDir, 0o755);
    const port = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: undefined,
      TIMEGATE_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      TIMEGATE_MASTER_KEY: MASTER_KEY,
      LOG_LEVEL: 'warn',
    };
    const first = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const deadline = Date.now() + 150_000;
      while (
        !(await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (Date.now() > deadline) throw new Error('the first service did not start');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const otherData = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-port-'));
      fs.chmodSync(otherData, 0o755);
      try {
        // Both refusals side by side: each is a start of its own that stops at once.
        const [second, clash] = await Promise.all([runMain(env, 30_000), runMain({ ...env, TIMEGATE_DATA_DIR: otherData }, 60_000)]);
        expect(second.status).to.equal(1);
        expect(second.stderr).to.match(
          /^timegate: another Timegate is already running on the data folder .* \(process \d+\): stop it first, or give this copy its own TIMEGATE_DATA_DIR or a DATABASE_URL\.\n$/,
        );
        expect(second.stdout).to.equal('');
        expect(clash.status).to.equal(1);
        expect(clash.stderr).to.contain(`timegate: port ${port} on 127.0.0.1 is already in use: stop the process that holds it or set PORT to a free one.`);
        expect(clash.stderr).to.not.match(/\n\s+at /);
      } finally {
        fs.rmSync(otherData, { recursive: true, force: true });
      }
    } finally {
      first.kill('SIGTERM');
      await new Promise((resolve) => first.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
