import { expect } from 'chai';
import { requestFingerprint } from '../../src/services/common/idempotency.service';
import { createCompany, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { query } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';

const LONE_SURROGATE = 'Ada\ud800';

describe('API hardening: characters that cannot be stored, audit before every write, bounded metric labels', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  before(async () => {
    t = await startTestApp({}, 'hardening-api');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  after(() => t.stop());

  const employeeCount = async () =>
    (await query(t.config.databaseUrl!, 'select count(*)::int as n from employee where workspace_id = $1', [ws.id]))[0].n as number;

  // Regression: a lone surrogate saved the change, answered 500 and left no audit entry.
  it('a lone UTF-16 surrogate in a text field is a 422 on REST and GraphQL, and nothing is written', async () => {
    const before = await employeeCount();
    const viaRest = await rest(t.url, 'POST', '/public/v2/employees', {
      key: ws.key,
      body: { name: LONE_SURROGATE, lastname: 'L', code: 'S1', company_id: companyId },
    });
    expect(viaRest.status).to.equal(422);
    expect(viaRest.body.error.code).to.equal('validation_failed');
    expect(viaRest.body.error.details[0]).to.include({ field: 'name', code: 'invalid_characters' });
    const viaGraphQL = await gql(t.url, ws.key, 'mutation ($input: CreateEmployeeInput!) { createEmployee(input: $input) { id } }', {
      input: { name: LONE_SURROGATE, lastname: 'L', code: 'S2', companyId },
    });
    expect(viaGraphQL.errors![0]!.extensions!.code).to.equal('validation_failed');
    expect(viaGraphQL.errors![0]!.extensions!.details![0]).to.include({ code: 'invalid_characters' });
    expect(await employeeCount()).to.equal(before);
  });

  // Regression: C1 controls and U+2028 were accepted in names, then stripped on the way to terminals.
  for (const [label, character] of [
    ['U+0085 (C1 next line)', '\u0085'],
    ['U+2028 (line separator)', '\u2028'],
    ['U+009B (C1 CSI)', '\u009b'],
  ] as const) {
    it(`a name with ${label} is refused with invalid_characters`, async () => {
      const response = await rest(t.url, 'POST', '/public/v2/employees', {
        key: ws.key,
        body: { name: `Ada${character}Lovelace`, lastname: 'L', code: `C${label.length}`, company_id: companyId },
      });
      expect(response.status).to.equal(422);
      expect(response.body.error.details[0]).to.include({ field: 'name', code: 'invalid_characters' });
    });
  }

  // Regression: bidirectional overrides, marks and invisible format characters were accepted in
  // names: "Eve\u202Eladmin" displays as another name in the console and on a terminal's screen.
  describe('invisible format characters in names (Unicode Cf)', () => {
    const INVISIBLE = [
      ['U+202E (right-to-left override)', '\u202e'],
      ['U+200E (left-to-right mark)', '\u200e'],
      ['U+FEFF (zero-width no-break space)', '\ufeff'],
      ['U+2066 (left-to-right isolate)', '\u2066'],
      ['U+200B (zero-width space)', '\u200b'],
    ] as const;
    const creates = [
      {
        what: 'employee',
        path: '/public/v2/employees',
        table: 'employee',
        mutation: 'createEmployee(input: { name: $name, lastname: "L", code: $code, companyId: $companyId })',
        body: (name: string, code: string) => ({ name, lastname: 'L', code, company_id: companyId }),
      },
      {
        what: 'company',
        path: '/public/v2/companies',
        table: 'company',
        mutation: 'createCompany(input: { name: $name, code: $code })',
        body: (name: string, code: string) => ({ name, code }),
      },
      {
        what: 'device',
        path: '/public/v2/devices',
        table: 'device',
        mutation: 'createDevice(input: { name: $name, serialNumber: $code, companyId: $companyId })',
        body: (name: string, code: string) => ({ name, serial_number: code, company_id: companyId }),
      },
    ];
    const rows = async (table: string) =>
      (await query(t.config.databaseUrl!, `select count(*)::int as n from ${table} where workspace_id = $1`, [ws.id]))[0].n as number;

    for (const [label, character] of INVISIBLE) {
      it(`an employee, company or device name with ${label} is refused on REST and GraphQL, and nothing is stored`, async () => {
        for (const create of creates) {
          const before = await rows(create.table);
          const name = `Eve${character}nimda`;
          const viaRest = await rest(t.url, 'POST', create.path, { key: ws.key, body: create.body(name, `INV${create.what.length}R`) });
          expect(viaRest.status, `${create.what} via REST`).to.equal(422);
          expect(viaRest.body.error.code).to.equal('validation_failed');
          expect(
            viaRest.body.error.details.some((d: { field: string; code: string }) => d.field === 'name' && d.code === 'invalid_characters'),
            `${create.what}: ${viaRest.text}`,
          ).to.equal(true);
          const usesCompany = create.mutation.includes('$companyId');
          const viaGraphQL = await gql(
            t.url,
            ws.key,
            `mutation ($name: String!, $code: String!${usesCompany ? ', $companyId: Int!' : ''}) { ${create.mutation} { id } }`,
            { name, code: `INV${create.what.length}G`, ...(usesCompany ? { companyId } : {}) },
          );
          expect(viaGraphQL.errors?.[0]?.extensions?.code, `${create.what} via GraphQL`).to.equal('validation_failed');
          expect(viaGraphQL.errors![0]!.extensions!.details, create.what).to.satisfy((details: { field: string; code: string }[]) =>
            details.some((d) => d.field === 'name' && d.code === 'invalid_characters'),
          );
          expect(await rows(create.table), `${create.what}: nothing stored`).to.equal(before);
        }
      });
    }

    it('a rename to such a name is refused too and the stored name stays', async () => {
      const created = await rest(t.url, 'POST', '/public/v2/employees', {
        key: ws.key,
        body: { name: 'Eve', lastname: 'L', code: 'INVRENAME', company_id: companyId },
      });
      expect(created.status).to.equal(201);
      const renamed = await rest(t.url, 'PUT', `/public/v2/employees/${created.body.id}`, { key: ws.key, body: { lastname: 'L\u202eX' } });
      expect(renamed.status).to.equal(422);
      expect(renamed.body.error.details[0]).to.include({ field: 'lastname', code: 'invalid_characters' });
      expect((await rest(t.url, 'GET', `/public/v2/employees/${created.body.id}`, { key: ws.key })).body.lastname).to.equal('L');
    });

    it('zero-width joiners are accepted between two visible characters (emoji sequences, Persian and Indic names), refused at an edge', async () => {
      for (const [name, code] of [
        ['Dev \u{1F469}\u200d\u{1F4BB}', 'ZWJ1'],
        ['\u0645\u06cc\u200c\u0646\u0627', 'ZWNJ1'],
      ] as const) {
        const accepted = await rest(t.url, 'POST', '/public/v2/employees', { key: ws.key, body: { name, lastname: 'L', code, company_id: companyId } });
        expect(accepted.status, name).to.equal(201);
        expect(accepted.body.name).to.equal(name);
      }
      const edge = await rest(t.url, 'POST', '/public/v2/employees', {
        key: ws.key,
        body: { name: 'Ada\u200d', lastname: 'L', code: 'ZWJ2', company_id: companyId },
      });
      expect(edge.status).to.equal(422);
      expect(edge.body.error.details[0]).to.include({ field: 'name', code: 'invalid_characters' });
    });
  });

  // Regression: a NUL in a lookup or search reached SQL and answered 500.
  it('a NUL byte in a path lookup or a search parameter is a 422, on REST and GraphQL', async () => {
    const byName = await rest(t.url, 'GET', '/public/v2/areas/Front%00Door', { key: ws.key });
    expect(byName.status).to.equal(422);
    expect(byName.body.error.details[0]).to.include({ field: 'id', code: 'invalid_characters' });
    const search = await rest(t.url, 'GET', '/public/v2/employees?search=a%00b', { key: ws.key });
    expect(search.status).to.equal(422);
    expect(search.body.error.details[0]).to.include({ field: 'search', code: 'invalid_characters' });
    // Twice: the literal check is remembered per parsed document, and must still refuse the repeat.
    for (let i = 0; i < 2; i += 1) {
      const literal = await gql(t.url, ws.key, '{ area(idOrName: "a\\u0000b") { id } }');
      expect(literal.status).to.equal(422);
      expect(literal.errors![0]!.extensions!.details![0]).to.include({ field: 'idOrName', code: 'invalid_characters' });
    }
    const clean = await gql(t.url, ws.key, 'query ($s: String) { employees(search: $s) { totalCount } }', { s: 'x' });
    expect(clean.errors).to.equal(undefined);
    const variable = await gql(t.url, ws.key, 'query ($s: String) { employees(search: $s) { totalCount } }', { s: 'x\u0000' });
    expect(variable.status).to.equal(422);
    expect(variable.errors![0]!.extensions!.details![0]).to.include({ field: 's', code: 'invalid_characters' });
  });

  it('every mutation has its audit row, written before it runs: a refused write is audited with its outcome', async () => {
    const created = await rest(t.url, 'POST', '/public/v2/employees', {
      key: ws.key,
      body: { name: 'Grace', lastname: 'Hopper', code: 'AUD1', company_id: companyId },
    });
    expect(created.status).to.equal(201);
    const failed = await rest(t.url, 'PUT', '/public/v2/employees/999999999', { key: ws.key, body: { name: 'Nobody' } });
    expect(failed.status).to.equal(404);
    const rows = await query(
      t.config.databaseUrl!,
      "select operation, outcome from audit_event where workspace_id = $1 and operation in ('createEmployee', 'updateEmployee') order by id desc limit 2",
      [ws.id],
    );
    expect(rows).to.deep.equal([
      { operation: 'updateEmployee', outcome: 'not_found' },
      { operation: 'createEmployee', outcome: 'ok' },
    ]);
  });

  // Regression: 429s were labelled with the raw path, so anonymous traffic created unbounded series.
  it('rate-limited requests to invented paths are counted under a fixed label', async () => {
    const limited = await startTestApp({ TIMEGATE_RATE_LIMIT_BURST: '1', TIMEGATE_RATE_LIMIT_PER_MINUTE: '1' }, 'hardening-api-429');
    try {
      for (let i = 0; i < 5; i++) await fetch(`${limited.url}/invented/path/${i}`);
      const metrics = await (await fetch(`${limited.url}/metrics`)).text();
      expect(metrics).to.not.match(/invented/);
      expect(metrics).to.match(/timegate_http_requests_total\{method="GET",route="rate_limited",status="429"\} 4/);
    } finally {
      await limited.stop();
    }
  });

  describe('Idempotency-Key', () => {
    const hookBody = (url: string) => ({ url, event_types: ['attendance.created'], description: 'idempotency' });

    // Regression: a read key resending an admin's request with the same key got the stored response (a webhook secret).
    it('belongs to the API key: another key never receives a stored response, and a refused attempt is not replayed', async () => {
      const readKey = await createKey(t.url, ws.key, ['read']);
      const headers = { 'Idempotency-Key': `hook-${Date.now()}` };
      const created = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, headers, body: hookBody('https://example.com/a') });
      expect(created.status).to.equal(201);
      expect(created.body.secret).to.be.a('string');
      const stolen = await rest(t.url, 'POST', '/public/v2/webhooks', { key: readKey, headers, body: hookBody('https://example.com/a') });
      expect(stolen.status).to.equal(403);
      expect(stolen.text).to.not.contain(created.body.secret);
      expect(stolen.headers.get('idempotent-replayed')).to.equal(null);

      // The other way round: the read key is refused first; the admin's request with that key then runs.
      const otherHeaders = { 'Idempotency-Key': `hook2-${Date.now()}` };
      expect(
        (await rest(t.url, 'POST', '/public/v2/webhooks', { key: readKey, headers: otherHeaders, body: hookBody('https://example.com/b') })).status,
      ).to.equal(403);
      const admin = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, headers: otherHeaders, body: hookBody('https://example.com/b') });
      expect(admin.status).to.equal(201);
      expect(admin.headers.get('idempotent-replayed')).to.equal(null);
    });

    it('the same body with its fields in another order is a replay, not a 409', async () => {
      const headers = { 'Idempotency-Key': `order-${Date.now()}`, 'content-type': 'application/json' };
      const first = await rest(t.url, 'POST', '/public/v2/webhooks', {
        key: ws.key,
        headers,
        rawBody: JSON.stringify({ url: 'https://example.com/o', event_types: ['attendance.created'] }),
      });
      expect(first.status).to.equal(201);
      const second = await rest(t.url, 'POST', '/public/v2/webhooks', {
        key: ws.key,
        headers,
        rawBody: JSON.stringify({ event_types: ['attendance.created'], url: 'https://example.com/o' }),
      });
      expect(second.status).to.equal(201);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
    });

    // Regression: a crash mid-request left the key answering 409 for 24 h though nothing was written.
    it('a record left running by a crashed process stops blocking the key once its lease ran out', async () => {
      const key = `crash-${Date.now()}`;
      const principal = (await query(t.config.databaseUrl!, 'select id from api_key where workspace_id = $1 order by id limit 1', [ws.id]))[0];
      const body = hookBody('https://example.com/crash');
      const insert = (lease: string) =>
        query(
          t.config.databaseUrl!,
          `insert into idempotency_record (workspace_id, api_key_id, key, request_hash, created_at, lease_until) values ($1, $2, $3, $4, now(), now() + $5::interval)`,
          [ws.id, principal.id, key, requestFingerprint('POST', '/public/v2/webhooks', body), lease],
        );
      await insert('30 seconds');
      const running = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, headers: { 'Idempotency-Key': key }, body });
      expect(running.status).to.equal(409);
      await query(t.config.databaseUrl!, "update idempotency_record set lease_until = now() - interval '1 second' where key = $1", [key]);
      const retried = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, headers: { 'Idempotency-Key': key }, body });
      expect(retried.status).to.equal(201);
      const replay = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, headers: { 'Idempotency-Key': key }, body });
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body.id).to.equal(retried.body.id);
    });
  });
});
