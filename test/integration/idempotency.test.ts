import { expect } from 'chai';
import { createCompany, createWorkspace } from '../support/factories';
import pg from 'pg';
import { rest } from '../support/http';
import { query, waitForLockWait } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';

describe('Idempotency-Key on POST', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'idempotency');
  });
  after(() => t.stop());

  const post = (key: string, body: unknown, idempotencyKey?: string) =>
    rest(t.url, 'POST', '/public/v2/employees', { key, body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });

  it('replays the first response (status and body) and creates nothing more', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const body = { name: 'I', lastname: 'D', code: 'IDEM1', company_id: company.id };
    const first = await post(ws.key, body, 'key-1');
    expect(first.status).to.equal(201);
    const again = await post(ws.key, body, 'key-1');
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.equal(first.body);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect((await rest(t.url, 'GET', '/public/v2/employees', { key: ws.key })).body).to.have.length(1);
  });

  it('refuses the same key with a different body (409) and keeps the first result', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    await post(ws.key, { name: 'I', lastname: 'D', code: 'A1', company_id: company.id }, 'key-2');
    const conflict = await post(ws.key, { name: 'I', lastname: 'D', code: 'A2', company_id: company.id }, 'key-2');
    expect(conflict.status).to.equal(409);
    expect(conflict.body.error.code).to.equal('idempotency_conflict');
    const codes = (await rest(t.url, 'GET', '/public/v2/employees', { key: ws.key })).body.map((e: any) => e.code);
    expect(codes).to.deep.equal(['A1']);
  });

  it('replays a stored domain error too, but not a request refused before it ran (JSON Schema)', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    await post(ws.key, { name: 'I', lastname: 'D', code: 'TAKEN', company_id: company.id });
    const dup = await post(ws.key, { name: 'I', lastname: 'D', code: 'TAKEN', company_id: company.id }, 'key-3');
    expect(dup.status).to.equal(422);
    const replay = await post(ws.key, { name: 'I', lastname: 'D', code: 'TAKEN', company_id: company.id }, 'key-3');
    expect(replay.status).to.equal(422);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');

    const invalid = await post(ws.key, { name: 'I' }, 'key-4');
    expect(invalid.status).to.equal(422);
    const fixed = await post(ws.key, { name: 'I', lastname: 'D', code: 'FIXED', company_id: company.id }, 'key-4');
    expect(fixed.status).to.equal(201);
  });

  it('keys are per workspace, and concurrent requests with one key create one row', async () => {
    const a = await createWorkspace(t.url);
    const b = await createWorkspace(t.url);
    const ca = await createCompany(t.url, a.key);
    const cb = await createCompany(t.url, b.key);
    const results = await Promise.all(Array.from({ length: 6 }, () => post(a.key, { name: 'C', lastname: 'C', code: 'RACE', company_id: ca.id }, 'shared')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).to.be.greaterThan(0);
    expect(statuses.every((s) => s === 201 || s === 409)).to.equal(true);
    expect((await rest(t.url, 'GET', '/public/v2/employees', { key: a.key })).body).to.have.length(1);
    expect((await post(b.key, { name: 'C', lastname: 'C', code: 'RACE', company_id: cb.id }, 'shared')).status).to.equal(201);
  });

  it('commits the key, the change and the stored answer together: nothing is visible while the request runs, and a duplicate waits and replays', async () => {
    // Regression: the key's claim committed before the change and the answer after it, so a
    // connection cut in between (a database failover) left a change without its answer, and the
    // retry, once the claim's lease ran out, applied the change a second time.
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const body = { name: 'Held', lastname: 'Back', code: 'ATOMIC', company_id: company.id };
    const databaseUrl = t.config.databaseUrl!;
    const blocker = new pg.Client({ connectionString: databaseUrl });
    await blocker.connect();
    try {
      // The company row locked: the employee's insert (its foreign key) waits on it, mid-request.
      await blocker.query('begin');
      await blocker.query('select 1 from company where id = $1 for update', [company.id]);
      const first = post(ws.key, body, 'atomic-1');
      await waitForLockWait(databaseUrl, '%into "employee"%');
      const visible = await query(databaseUrl, "select count(*)::int as n from idempotency_record where key = 'atomic-1'");
      expect(visible[0].n, 'no claim committed before the change').to.equal(0);
      const duplicate = post(ws.key, body, 'atomic-1');
      await blocker.query('commit');
      const [one, two] = await Promise.all([first, duplicate]);
      expect([one.status, two.status]).to.deep.equal([201, 201]);
      expect(two.headers.get('idempotent-replayed')).to.equal('true');
      expect(two.body).to.deep.equal(one.body);
    } finally {
      await blocker.end();
    }
    const stored = await query(databaseUrl, "select status from idempotency_record where key = 'atomic-1'");
    expect(stored).to.deep.equal([{ status: 201 }]);
    expect((await rest(t.url, 'GET', '/public/v2/employees', { key: ws.key })).body).to.have.length(1);
  });

  it('refuses an over-long key', async () => {
    const ws = await createWorkspace(t.url);
    const r = await post(ws.key, { name: 'x' }, 'k'.repeat(256));
    expect(r.status).to.equal(422);
    expect(r.body.error.details[0].field).to.equal('Idempotency-Key');
  });
});
