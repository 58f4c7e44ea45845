import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { freePort, startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { createCompany } from '../support/factories';
import { rest } from '../support/http';
import { freshDatabaseUrl } from '../support/database';
import { query } from '../support/service-process';
import { startTestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

const root = path.resolve(__dirname, '..', '..', '..');
const quiet = pino({ level: 'silent' });
const tempDir = (label: string) => fs.mkdtempSync(path.join(os.tmpdir(), `timegate-${label}-`));

function embeddedApp(dataDir: string): Promise<App> {
  return createApp(loadConfig({ TIMEGATE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), { logger: quiet });
}

/** A service's first start on a data folder of its own, as `npm start` runs it: its process, its port and what it printed. */
function startMain(dataDir: string, port: number) {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js')], {
    env: { ...process.env, TIMEGATE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = {
    child,
    url: `http://127.0.0.1:${port}`,
    output: '',
    exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))),
  };
  child.stdout.on('data', (chunk) => (started.output += chunk));
  return started;
}

describe('running the service', () => {
  /**
   * The data folder of the first test, stopped, its database migrated: the liveness test starts its
   * PostgreSQL on it (a first start, initdb and every migration, takes half a minute on a busy
   * 2-core machine, and that test is not about a first start).
   */
  let stoppedDataDir: string | undefined;
  after(() => {
    if (stoppedDataDir) fs.rmSync(stoppedDataDir, { recursive: true, force: true });
  });

  it('without DATABASE_URL: starts its own PostgreSQL, keeps data across restarts, runs side by side with another data folder (`npm start`s entry point, which stops cleanly on SIGTERM)', async function () {
    this.timeout(180_000);
    const dirA = tempDir('a');
    const dirB = tempDir('b');
    let other: ReturnType<typeof startMain> | undefined;
    try {
      // Both first starts at once: side by side from the start.
      other = startMain(dirB, await freePort());
      const first = await embeddedApp(dirA);
      expect(first.bootstrapKey).to.match(/^tg_live_/);
      const key = first.bootstrapKey!;
      const company = await createCompany(first.url, key, { code: 'KEPT' });
      const started = other;
      // A first start runs initdb and every migration: a minute on a busy 2-core machine.
      await waitUntil('the other first start prints its admin key', () => started.output.includes('tg_live_'), 90_000);
      expect(started.output).to.match(/admin API key[\s\S]*tg_live_[0-9A-Za-z]{40}/);
      const otherKey = started.output.match(/tg_live_[0-9A-Za-z]{40}/)![0];
      expect(otherKey).to.not.equal(key);
      expect((await rest(started.url, 'GET', '/public/v2/companies', { key: otherKey })).body).to.deep.equal([]);
      await first.stop();
      expect(fs.existsSync(path.join(dirA, 'pg', 'postmaster.pid')), 'PostgreSQL stopped with the service').to.equal(false);

      const again = await embeddedApp(dirA);
      expect(again.bootstrapKey, 'no second bootstrap').to.equal(null);
      const read = await rest(again.url, 'GET', `/public/v2/companies/${company.id}`, { key });
      expect(read.status).to.equal(200);
      expect(read.body.code).to.equal('KEPT');
      await again.stop();
      started.child.kill('SIGTERM');
      expect(await started.exited).to.equal(0);
      expect(fs.existsSync(path.join(dirB, 'pg', 'postmaster.pid')), 'PostgreSQL stopped').to.equal(false);
      stoppedDataDir = dirA;
    } finally {
      if (other && other.child.exitCode === null) other.child.kill('SIGKILL');
      if (stoppedDataDir !== dirA) fs.rmSync(dirA, { recursive: true, force: true });
      fs.rmSync(dirB, { recursive: true, force: true });
    }
  });

  it('/healthz (liveness) stays 200 while the database is unreachable; /readyz is 503 then, and ready again once it is back', async function () {
    this.timeout(120_000);
    // The first test's stopped data folder when it ran (a migrated database), else a new one.
    const dataDir = stoppedDataDir ?? tempDir('health');
    stoppedDataDir = undefined;
    const port = await freePort();
    let pg = await startEmbeddedPostgres({ dataDir, port });
    const app = await createApp(loadConfig({ DATABASE_URL: pg.serverUrl('timegate'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }), { logger: quiet });
    try {
      const up = await rest(app.url, 'GET', '/healthz');
      expect(up.status).to.equal(200);
      expect(up.body).to.deep.equal({ status: 'ok' });
      await pg.stop();
      // A process that only waits for its database is alive: a liveness probe must not restart it.
      const down = await rest(app.url, 'GET', '/healthz');
      expect(down.status).to.equal(200);
      expect(down.body).to.deep.equal({ status: 'ok' });
      const notReady = await rest(app.url, 'GET', '/readyz');
      expect(notReady.status).to.equal(503);
      expect(notReady.body).to.include({ status: 'not_ready', database: 'unreachable' });
      pg = await startEmbeddedPostgres({ dataDir, port });
      const ready = await waitUntil(
        'the service is ready',
        async () => {
          const reply = await rest(app.url, 'GET', '/readyz');
          return reply.status === 200 ? reply : null;
        },
        30_000,
      );
      expect(ready.body).to.include({ status: 'ready', database: 'reachable' });
    } finally {
      await app.stop();
      await pg.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a graceful stop lets an in-flight request finish before closing the database', async () => {
    const t = await startTestApp({}, 'graceful');
    const { port } = new URL(t.url);
    const body = JSON.stringify({ name: 'In flight', code: 'FLIGHT' });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/public/v2/companies',
          headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      // The rest of the body arrives after the stop has begun.
      setTimeout(() => req.end(body.slice(10)), 300);
    });
    await new Promise((r) => setTimeout(r, 100));
    const stopped = t.stop();
    const result = await response;
    await stopped;
    expect(result.status).to.equal(201);
    expect(JSON.parse(result.body).code).to.equal('FLIGHT');
  });

  // Its clean stop on SIGTERM is the first test's (the other data folder's service).
  it('`npm start`s entry point refuses bad configuration with exit code 2', async function () {
    this.timeout(120_000);
    const bad = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js')], {
      env: { ...process.env, PORT: 'nope' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    bad.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await new Promise((resolve) => bad.on('exit', resolve))).to.equal(2);
    expect(stderr).to.contain('PORT must be an integer');
  });

  it('refuses to start on a Node.js without time-zone data, saying why, before touching the database', async function () {
    this.timeout(30_000);
    const dir = tempDir('noicu');
    let child: ReturnType<typeof spawn> | undefined;
    try {
      // What a Node.js built without full ICU does: any zone but UTC is unknown to Intl.
      const preload = path.join(dir, 'no-time-zones.js');
      fs.writeFileSync(
        preload,
        `const Real = Intl.DateTimeFormat;
         Intl.DateTimeFormat = function (locale, options) {
           if (options && options.timeZone && options.timeZone !== 'UTC') throw new RangeError('Invalid time zone specified: ' + options.timeZone);
           return new Real(locale, options);
         };`,
      );
      const databaseUrl = await freshDatabaseUrl('noicu');
      child = spawn(process.execPath, ['--require', preload, path.join(root, 'dist', 'src', 'main.js')], {
        env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += chunk));
      const started = child;
      expect(await new Promise((resolve) => started.on('exit', resolve))).to.equal(1);
      expect(stderr).to.contain('Timegate needs IANA time-zone data: this Node.js cannot convert times in Europe/Berlin');
      const name = new URL(databaseUrl).pathname.slice(1);
      const admin = Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString();
      expect(await query(admin, 'select datname from pg_database where datname = $1', [name]), 'no database created').to.deep.equal([]);
    } finally {
      if (child && child.exitCode === null) child.kill('SIGKILL'); // a service that started after all
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
