import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import pg from 'pg';
import { poolUsage } from '../../src/db/database';
import { DATABASE_POOL_SIZE } from '../../src/db/orm-config';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

describe('observability', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_METRICS_TOKEN: 'metrics-secret' }, 'observability');
  });
  after(() => t.stop());

  it('/readyz reports the database reachable and no pending migration', async () => {
    const r = await rest(t.url, 'GET', '/readyz');
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ status: 'ready', database: 'reachable', pending_migrations: [], failing_jobs: [] });
  });

  it('/readyz asks over a connection of its own: ready while every pool connection is busy and requests wait for one', async () => {
    // Regression: the probe queued behind the pool, timed out while a fleet's sync held every
    // connection, and the balancer took every process out at once.
    const lock = 48_151_623;
    const holder = new pg.Client({ connectionString: t.config.databaseUrl! });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock($1)', [lock]);
    const orm = t.app.database.orm;
    const queued = Array.from({ length: DATABASE_POOL_SIZE + 2 }, () => orm.em.getConnection().execute('select pg_advisory_xact_lock(?)', [lock]));
    try {
      await waitUntil(
        'every pool connection is busy and requests wait for one',
        () => poolUsage(orm),
        (p) => p.used === DATABASE_POOL_SIZE && p.waiting >= 1,
      );
      const r = await rest(t.url, 'GET', '/readyz');
      expect(r.status, r.text).to.equal(200);
      expect(r.body).to.deep.include({ status: 'ready', database: 'reachable' });
      expect(poolUsage(orm).waiting, 'the pool was still saturated when /readyz answered').to.be.at.least(1);
    } finally {
      await holder.query('commit');
      await holder.end();
      await Promise.all(queued);
    }
  });

  it('/readyz names a migration of this release that the database no longer records (an older backup restored)', async () => {
    const admin = new pg.Client({ connectionString: t.config.databaseUrl! });
    await admin.connect();
    try {
      const [{ name }] = (await admin.query('select max(name) as name from mikro_orm_migrations')).rows;
      await admin.query("update mikro_orm_migrations set name = name || '-gone' where name = $1", [name]);
      try {
        const r = await rest(t.url, 'GET', '/readyz');
        expect(r.status).to.equal(503);
        expect(r.body).to.deep.include({ status: 'not_ready', database: 'reachable', pending_migrations: [name] });
      } finally {
        await admin.query("update mikro_orm_migrations set name = $1 where name = $1 || '-gone'", [name]);
      }
      expect((await rest(t.url, 'GET', '/readyz')).status).to.equal(200);
    } finally {
      await admin.end();
    }
  });

  it('/metrics counts requests by route pattern and status, behind its token', async () => {
    await rest(t.url, 'GET', '/public/v2/companies/12345', { key: t.adminKey });
    await rest(t.url, 'GET', '/public/v2/companies/67890', { key: t.adminKey });
    expect((await rest(t.url, 'GET', '/metrics')).status).to.equal(401);
    const r = await rest(t.url, 'GET', '/metrics', { headers: { authorization: 'Bearer metrics-secret' } });
    expect(r.status).to.equal(200);
    expect(r.text).to.match(/timegate_http_requests_total\{method="GET",route="\/public\/v2\/companies\/:id",status="404"\} 2/);
    expect(r.text).to.contain('timegate_http_request_duration_seconds_bucket');
    expect(r.text).to.contain('timegate_process_resident_memory_bytes');
    expect(r.text).not.to.contain('12345');
  });

  it("`promtool check metrics` finds nothing to complain about (Prometheus' own linter; .ci/run installs it)", async () => {
    // Some traffic first, so that every labelled family has samples.
    await rest(t.url, 'GET', '/public/v2/companies', { key: t.adminKey });
    await rest(t.url, 'GET', '/public/v2/nothing', { key: t.adminKey });
    const metrics = (await rest(t.url, 'GET', '/metrics', { headers: { authorization: 'Bearer metrics-secret' } })).text;
    expect(metrics).to.contain('timegate_nodejs_active_handles');
    expect(metrics).to.not.match(/^timegate_nodejs_active_\w+_total/m);
    const promtool = spawnSync(process.env.PROMTOOL_PATH ?? 'promtool', ['check', 'metrics'], { input: metrics, encoding: 'utf8' });
    expect(promtool.error, 'promtool is not installed: Debian package `prometheus` (.ci/run installs it)').to.equal(undefined);
    expect(`${promtool.stdout}${promtool.stderr}`.trim()).to.equal('');
    expect(promtool.status).to.equal(0);
  });

  it('counts API requests (not probes, scrapes or terminals) for the compaction that must not stall them', async () => {
    const before = t.app.clientActivity().apiRequests;
    await rest(t.url, 'GET', '/healthz');
    await rest(t.url, 'GET', '/readyz');
    await rest(t.url, 'GET', '/metrics', { headers: { authorization: 'Bearer metrics-secret' } });
    await rest(t.url, 'GET', '/iclock/getrequest?SN=NOSUCHSERIAL');
    expect(t.app.clientActivity().apiRequests, 'probes, scrapes and terminals').to.equal(before);
    await rest(t.url, 'GET', '/public/v2/companies', { key: t.adminKey });
    await rest(t.url, 'POST', '/graphql', { key: t.adminKey, body: { query: '{ __typename }' } });
    expect(t.app.clientActivity().apiRequests).to.equal(before + 2);
    expect(t.app.clientActivity().openSubscriptions).to.equal(0);
  });

  it('every response carries a request id, the same one as in its error body; a sane client id is kept', async () => {
    const mine = await rest(t.url, 'GET', '/public/v2/nothing', { key: t.adminKey, headers: { 'x-request-id': 'client-abc.123' } });
    expect(mine.headers.get('x-request-id')).to.equal('client-abc.123');
    expect(mine.body.error.request_id).to.equal('client-abc.123');
    const injected = await rest(t.url, 'GET', '/public/v2/nothing', { key: t.adminKey, headers: { 'x-request-id': 'bad id\twith tab' } });
    expect(injected.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });
});
