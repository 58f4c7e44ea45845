import { expect } from 'chai';
import fc from 'fast-check';
import { routeTable } from '../../src/rest/route-table';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import pg from 'pg';
import { workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

const writeRoutes = routeTable.filter((r) => r.body);

/** Garbage of every JSON kind: wrong types, huge strings, NUL and other unicode, nesting. */
const garbage: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, 0, -1, 1.5, 2 ** 31, '', '\u0000', 'é\u202e😀', 'x'.repeat(100_000), '1', ' ', '2026-13-45'),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** One mutation of a route's example body: drop, add or retype fields, or replace the whole body. */
function mutatedBody(example: unknown): fc.Arbitrary<unknown> {
  const record = (Array.isArray(example) ? example[0] : example) as Record<string, unknown>;
  const keys = Object.keys(record);
  const mutatedRecord = fc
    .tuple(fc.subarray(keys), fc.dictionary(fc.constantFrom(...keys, 'extra', '__proto__', 'constructor'), garbage, { maxKeys: 2 }))
    .map(([dropped, changed]) => ({ ...Object.fromEntries(Object.entries(record).filter(([k]) => !dropped.includes(k))), ...changed }));
  const shaped = Array.isArray(example)
    ? fc.array(mutatedRecord, { maxLength: 3 })
    : fc.oneof(
        mutatedRecord,
        mutatedRecord.map((body) => ({ [`wrap${keys.length}`]: body })),
      );
  return fc.oneof(shaped, garbage);
}

/**
 * What `workspaceSnapshot` (test/support/snapshot.ts) reads — every row of every table with a
 * `workspace_id` but the audit log, partitions through their parent, and the workspace's own row,
 * ordered by the first column — in one statement on one connection: this test reads it after each of
 * its 150 requests, and a snapshot of one query per table on a new connection cost more than the
 * request. Rows come as PostgreSQL's JSON of them (timestamps to the microsecond).
 */
async function openSnapshots(databaseUrl: string, workspaceId: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const tables = await client.query<{ table_name: string; first: string }>(
    `select c.table_name, (select f.column_name from information_schema.columns f
                             where f.table_schema = 'public' and f.table_name = c.table_name and f.ordinal_position = 1) as first
       from information_schema.columns c
      where c.column_name = 'workspace_id' and c.table_schema = 'public' and c.table_name <> 'audit_event'
        and c.table_name not in (select inhrelid::regclass::text from pg_inherits) order by c.table_name`,
  );
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const parts = tables.rows.map(
    ({ table_name, first }) =>
      `'${table_name}', (select coalesce(json_agg(r order by r.${quote(first)}), '[]') from ${quote(table_name)} r where r.workspace_id = $1)`,
  );
  parts.push(`'workspace', (select coalesce(json_agg(r), '[]') from workspace r where r.id = $1)`);
  // json_build_object takes at most 100 arguments: one object per 40 tables, merged.
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; i += 40) chunks.push(`json_build_object(${parts.slice(i, i + 40).join(', ')})::jsonb`);
  const sql = `select ${chunks.join(' || ')} as snapshot`;
  return {
    read: async (): Promise<Record<string, unknown[]>> => (await client.query(sql, [workspaceId])).rows[0].snapshot,
    close: () => client.end(),
  };
}

describe('REST write routes under random and mutated bodies (property-based)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let snapshots: Awaited<ReturnType<typeof openSnapshots>>;
  const ids: Record<string, number> = {};
  before(async () => {
    // No background writer between two snapshots: the attendance worker would store days of the punches written here.
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000', TIMEGATE_ATTENDANCE_WORKER: 'false' }, 'rest-fuzz');
    ws = await createWorkspace(t.url, { maxCompanies: 1000, maxDevices: 1000, maxEmployees: 1000 });
    const company = await createCompany(t.url, ws.key);
    ids.companies = company.id;
    ids.employees = (await createEmployee(t.url, ws.key, company.id, { pin: '12' })).id;
    ids.devices = (await createDevice(t.url, ws.key, company.id)).id;
    ids.areas = (await createArea(t.url, ws.key, company.id)).id;
    ids.verification_states = (await rest(t.url, 'GET', '/public/v2/verification_states', { key: ws.key })).body[0].id;
    ids.webhooks = (
      await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: 'http://127.0.0.1:9/hook', event_types: ['device.offline'] } })
    ).body.id;
  });
  after(async () => {
    await snapshots?.close();
    await t.stop();
  });

  it('every reply is JSON: a success, or the documented error shape; a refused request changes nothing', async function () {
    this.timeout(120_000);
    const request = fc.constantFrom(...writeRoutes).chain((route) => fc.tuple(fc.constant(route), mutatedBody(route.body!.example), fc.boolean()));
    snapshots = await openSnapshots(t.config.databaseUrl!, ws.id);
    let snapshot = await snapshots.read();
    // The same tables and rows as test/support's snapshot of one query per table.
    const rowsPerTable = (tables: Record<string, unknown[]>) => Object.fromEntries(Object.entries(tables).map(([table, rows]) => [table, rows.length]));
    expect(rowsPerTable(snapshot)).to.deep.equal(rowsPerTable(await workspaceSnapshot(t.config.databaseUrl!, ws.id)));
    expect(snapshot.employee).to.have.length(1);
    const outcomes = { success: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(request, async ([route, body, raw]) => {
        const path = route.path.replace(/\/([a-z_]+)\/:id/, (_, resource: string) => `/${resource}/${ids[resource]}`);
        // Some bodies go as bytes a JSON encoder would never write (a NUL in a key, a cut-off document).
        const text = JSON.stringify(body) ?? 'null';
        const r = await rest(
          t.url,
          route.method,
          path,
          raw ? { key: ws.key, rawBody: text.slice(0, Math.max(1, text.length - 1)), headers: { 'content-type': 'application/json' } } : { key: ws.key, body },
        );
        const what = `${route.method} ${path} ${text.slice(0, 300)} -> ${r.status} ${r.text.slice(0, 300)}`;
        expect(r.headers.get('content-type') ?? '', what).to.match(/^application\/json/);
        expect(typeof r.body === 'object' && r.body !== null, `${what}: a JSON object or array`).to.equal(true);
        if (r.status < 300) {
          expect(r.status, what).to.be.oneOf([200, 201, 202]);
          outcomes.success++;
          snapshot = await snapshots.read();
          return;
        }
        outcomes.refused++;
        expect(r.status, what).to.be.oneOf([400, 403, 404, 409, 413, 415, 422]);
        expect(r.body.error, what).to.have.all.keys('code', 'message', 'details', 'request_id');
        expect(r.body.error.code, what)
          .to.be.a('string')
          .and.match(/^[a-z_]+$/);
        expect(r.body.error.message, what).to.be.a('string').and.not.equal('');
        for (const d of r.body.error.details) expect(d, what).to.have.all.keys('field', 'code', 'message');
        const after = await snapshots.read();
        for (const table of Object.keys(snapshot)) expect(after[table], `${what}: ${table} changed`).to.deep.equal(snapshot[table]);
      }),
      { numRuns: 150 },
    );
    expect(outcomes.refused).to.be.greaterThan(50);
    expect((await rest(t.url, 'GET', '/healthz')).status).to.equal(200);
  });
});
