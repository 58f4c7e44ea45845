import { expect } from 'chai';
import fc from 'fast-check';
import { routeTable } from '../../src/rest/route-table';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
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

describe('REST write routes under random and mutated bodies (property-based)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
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
  after(() => t.stop());

  it('every reply is JSON: a success, or the documented error shape; a refused request changes nothing', async function () {
    this.timeout(120_000);
    const request = fc.constantFrom(...writeRoutes).chain((route) => fc.tuple(fc.constant(route), mutatedBody(route.body!.example), fc.boolean()));
    let snapshot = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
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
          snapshot = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
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
        const after = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
        for (const table of Object.keys(snapshot)) expect(after[table], `${what}: ${table} changed`).to.deep.equal(snapshot[table]);
      }),
      { numRuns: 150 },
    );
    expect(outcomes.refused).to.be.greaterThan(50);
    expect((await rest(t.url, 'GET', '/healthz')).status).to.equal(200);
  });
});
