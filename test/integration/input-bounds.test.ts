// Regression tests of the third outside attack: an unbounded GraphQL string argument
// (an 800 KB `employees(search:)` held the event loop for seconds), input nested deep enough to
// exhaust the stack (500 "Maximum call stack size exceeded"), and error answers that carried stack
// traces with server paths whenever NODE_ENV was not `production`.
import { expect } from 'chai';
import WebSocket from 'ws';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { createScimKey } from '../support/scim';
import { query } from '../support/service-process';
import { statementsDuring } from '../support/statements';
import { startTestApp, type TestApp } from '../support/test-app';
import { textLimits, listLimits, nestingLimits } from '../../src/services/common/input-limits';

const deepArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepObjects = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** A raw graphql-transport-ws socket, accepted with `key`: lets a test send frames no client library would build. */
async function openSocket(url: string, key: string) {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const messages: any[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.on('open', () => resolve()));
  const next = async (type: string): Promise<any> => {
    for (;;) {
      const found = messages.findIndex((m) => m.type === type);
      if (found >= 0) return messages.splice(found, 1)[0];
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } }));
  await next('connection_ack');
  return { socket, next };
}

describe('input bounds: every string bounded, no recursion over client depth', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  before(async () => {
    t = await startTestApp({}, 'input-bounds');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  after(() => t.stop());

  describe('string arguments of GraphQL (they took 20,000 characters; an 800 KB search ran 10 s)', () => {
    it('an 800 KB employees(search:) is validation_failed naming `search`, before any query of employees', async () => {
      const search = 'x'.repeat(800_000);
      const { result: r, statements } = await statementsDuring(t.app, () =>
        gql(t.url, ws.key, 'query ($s: String) { employees(search: $s) { totalCount } }', { s: search }),
      );
      expect(r.errors?.[0]?.extensions?.code).to.equal('validation_failed');
      expect(r.errors?.[0]?.extensions?.details).to.deep.equal([
        { field: 'search', code: 'too_long', message: `search must be at most ${textLimits.search} characters long.` },
      ]);
      // (Background work of the app runs its own statements meanwhile; none reads the employee table.)
      expect(statements.filter((sql) => /\bfrom employee\b/.test(sql))).to.deep.equal([]);
      // The same search over REST is refused by the route's schema, with the same limit.
      const overRest = await rest(t.url, 'GET', `/public/v2/employees?search=${'x'.repeat(textLimits.search + 1)}`, { key: ws.key });
      expect(overRest.status).to.equal(422);
      expect(overRest.body.error.details[0]).to.include({ field: 'search', code: 'too_long' });
    });

    it('area(idOrName:), auditEvents(operation:), unknownTerminals(serialNumber:) and employees(search:) refuse 20,000 characters, echoing none back', async () => {
      const long = 'y'.repeat(20_000);
      const cases: [string, string, string, number][] = [
        ['query ($v: String!) { area(idOrName: $v) { id } }', 'idOrName', 'area', textLimits.idOrName],
        ['query ($v: String) { auditEvents(operation: $v) { totalCount } }', 'operation', 'auditEvents', textLimits.operation],
        ['query ($v: String) { unknownTerminals(serialNumber: $v) { totalCount } }', 'serialNumber', 'unknownTerminals', textLimits.serialNumber],
        ['query ($v: String) { employees(search: $v) { totalCount } }', 'search', 'employees', textLimits.search],
      ];
      for (const [document, field, root, max] of cases) {
        const r = await gql(t.url, ws.key, document, { v: long });
        expect(r.errors?.[0]?.extensions?.code, field).to.equal('validation_failed');
        expect(r.errors?.[0]?.extensions?.details?.[0], field).to.include({ field, code: 'too_long' });
        expect(r.errors?.[0]?.message, field).to.equal(`${field} must be at most ${max} characters long.`);
        expect(JSON.stringify(r).includes('yyyyyyyyyy'), `${root} echoed the value`).to.equal(false);
        // At the limit the argument is taken (and finds nothing).
        const atLimit = await gql(t.url, ws.key, document, { v: 'y'.repeat(max) });
        expect(atLimit.errors?.[0]?.extensions?.code ?? null, `${field} at its limit`).to.not.equal('validation_failed');
      }
    });

    it('the index-backed search finds what the five column searches found, within one column, case-insensitively', async () => {
      // A workspace of its own: the other tests of this file add no employees to it.
      const own = await createWorkspace(t.url);
      const company = (await createCompany(t.url, own.key)).id;
      const ada = await createEmployee(t.url, own.key, company, {
        name: 'Ada',
        lastname: 'Lovelace',
        code: 'ENG-7',
        pin: '4711',
        email: 'countess@example.com',
      });
      const grace = await createEmployee(t.url, own.key, company, { name: 'Grace', lastname: 'Hopper', code: 'NAV-1' });
      const found = async (search: string) =>
        (await gql(t.url, own.key, 'query ($s: String) { employees(search: $s) { nodes { id } } }', { s: search })).data?.employees.nodes.map(
          (n: { id: string | number }) => Number(n.id),
        );
      expect(await found('ada')).to.deep.equal([ada.id]); // name
      expect(await found('LOVELACE')).to.deep.equal([ada.id]); // last name, another case
      expect(await found('nav-')).to.deep.equal([grace.id]); // code
      expect(await found('471')).to.deep.equal([ada.id]); // pin
      expect(await found('countess@')).to.deep.equal([ada.id]); // e-mail (Grace has none: coalesced, not null)
      expect(await found('per')).to.deep.equal([grace.id]);
      // Across two columns finds nobody, as five separate searches did not.
      expect(await found('AdaLovelace')).to.deep.equal([]);
      expect(await found('Hopper NAV')).to.deep.equal([]);
      // The columns' separator (U+0001) is a control character: refused, never matched.
      const separator = await gql(t.url, own.key, 'query ($s: String) { employees(search: $s) { totalCount } }', { s: 'Ada\u0001Lovelace' });
      expect(separator.errors?.[0]?.extensions?.details?.[0]).to.include({ field: 'search', code: 'invalid_characters' });
      const overRest = await rest(t.url, 'GET', `/public/v2/employees?search=${encodeURIComponent('Ada\u0001Lovelace')}`, { key: own.key });
      expect(overRest.status).to.equal(422);
      expect(overRest.body.error.details[0]).to.include({ field: 'search', code: 'invalid_characters' });
    });

    it('a REST formatted value over its bound keeps its format code, named once (an e-mail, a PIN)', async () => {
      const r = await rest(t.url, 'POST', '/public/v2/employees', {
        key: ws.key,
        body: { name: 'Ada', lastname: 'Lovelace', code: 'LONG-1', company_id: companyId, email: `${'a'.repeat(300)}@example.com`, pin: '1'.repeat(40) },
      });
      expect(r.status).to.equal(422);
      expect(r.body.error.details.map((d: { field: string; code: string }) => `${d.field}:${d.code}`)).to.have.members([
        'email:invalid_email',
        'pin:invalid_pin',
      ]);
    });

    it('SCIM attributes take their bounds from the same table: userName, displayName, externalId', async () => {
      const scimKey = await createScimKey(t.url, ws.key, companyId);
      const post = (path: string, body: Record<string, unknown>) =>
        rest(t.url, 'POST', `/scim/v2/${path}`, { key: scimKey, body, headers: { 'content-type': 'application/scim+json' } });
      const user = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'] };
      const group = { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'] };
      const over = (n: number) => 'x'.repeat(n + 1);
      const cases: [string, Record<string, unknown>, string][] = [
        ['Users', { ...user, userName: `${over(textLimits.scimName)}@example.com` }, 'userName'],
        ['Users', { ...user, userName: 'bounded@example.com', externalId: over(textLimits.scimExternalId) }, 'externalId'],
        ['Groups', { ...group, displayName: over(textLimits.scimName) }, 'displayName'],
        ['Groups', { ...group, displayName: 'Bounded', externalId: over(textLimits.scimExternalId) }, 'externalId'],
      ];
      for (const [path, body, attribute] of cases) {
        const r = await post(path, body);
        expect(r.status, `${path} ${attribute}`).to.equal(400);
        expect(r.body, `${path} ${attribute}`).to.include({ scimType: 'invalidValue' });
        expect(r.body.detail, `${path} ${attribute}`).to.match(new RegExp(`^${attribute} has at most \\d+ characters`));
      }
      // At the limit, taken.
      const atLimit = await post('Users', { ...user, userName: 'limit@example.com', externalId: 'e'.repeat(textLimits.scimExternalId) });
      expect(atLimit.status).to.equal(201);
    });

    it('a list of strings is bounded in items and each item; a literal as well as a variable', async () => {
      const device = await createDevice(t.url, ws.key, companyId);
      const many = Array.from({ length: listLimits.keywords + 1 }, () => 'queued');
      const tooMany = await gql(t.url, ws.key, 'query ($d: Int!, $s: [String!]) { deviceCommands(deviceId: $d, status: $s) { totalCount } }', {
        d: device.id,
        s: many,
      });
      expect(tooMany.errors?.[0]?.extensions?.details?.[0]).to.include({ field: 'status', code: 'too_many_items' });
      const longItem = await gql(
        t.url,
        ws.key,
        `query { deviceCommands(deviceId: ${device.id}, status: ["queued", "${'q'.repeat(textLimits.keyword + 1)}"]) { totalCount } }`,
      );
      expect(longItem.errors?.[0]?.extensions?.details?.[0]).to.include({ field: 'status.1', code: 'too_long' });
    });

    it('an input field over its bound fails before the audit row (nothing is recorded or changed)', async () => {
      const before = await query(t.config.databaseUrl!, "select count(*)::int as n from audit_event where operation = 'createCompany'");
      const r = await gql(t.url, ws.key, 'mutation ($n: String!) { createCompany(input: { name: $n, code: "X" }) { id } }', { n: 'n'.repeat(100_000) });
      expect(r.errors?.[0]?.extensions?.details).to.deep.equal([
        { field: 'name', code: 'too_long', message: `name must be at most ${textLimits.companyName} characters long.` },
      ]);
      expect(await query(t.config.databaseUrl!, "select count(*)::int as n from audit_event where operation = 'createCompany'")).to.deep.equal(before);
    });

    it('a subscription argument is bounded too (over the WebSocket)', async () => {
      const { socket, next } = await openSocket(t.url, ws.key);
      try {
        socket.send(
          JSON.stringify({
            id: '1',
            type: 'subscribe',
            payload: { query: 'subscription ($a: String) { punchCreated(after: $a) { cursor } }', variables: { a: '9'.repeat(10_000) } },
          }),
        );
        const answer = await next('next');
        expect(answer.payload.errors[0].extensions).to.deep.include({ code: 'validation_failed' });
        expect(answer.payload.errors[0].extensions.details[0]).to.include({ field: 'after', code: 'too_long' });
      } finally {
        socket.close();
      }
    });
  });

  describe('nesting (150,000 levels answered 500 "Maximum call stack size exceeded")', () => {
    it('GraphQL variables 150,000 deep over POST are 400 nesting_too_deep, in the GraphQL shape, whatever variable holds them', async () => {
      // The body counts whole: {"variables": {"x": ...}} is two levels before x's own.
      for (const variables of [`{"x":${deepArrays(150_000)}}`, `{"input":${deepObjects(5_000)}}`, `{"x":${deepArrays(nestingLimits.json - 1)}}`]) {
        const r = await rest(t.url, 'POST', '/graphql', {
          key: ws.key,
          rawBody: `{"query":"{ __typename }","variables":${variables}}`,
          headers: { 'content-type': 'application/json' },
        });
        expect(r.status, variables.slice(0, 20)).to.equal(400);
        expect(r.body.errors[0].extensions).to.include({ code: 'nesting_too_deep', requestId: r.headers.get('x-request-id') });
        expect(r.text).not.to.match(/call stack|stacktrace|\/src\/|node_modules/);
      }
      // One level less is read as usual.
      const fine = await rest(t.url, 'POST', '/graphql', {
        key: ws.key,
        rawBody: `{"query":"{ __typename }","variables":{"x":${deepArrays(nestingLimits.json - 2)}}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(fine.body).to.deep.equal({ data: { __typename: 'Query' } });
    });

    it('deep variables in a GET query string and over the WebSocket are refused the same way', async () => {
      const get = await rest(
        t.url,
        'GET',
        `/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent(`{"x":${deepArrays(2_000)}}`)}`,
        {
          key: ws.key,
          headers: { 'apollo-require-preflight': 'true' },
        },
      );
      expect(get.status).to.equal(400);
      expect(get.body.errors[0].extensions.code).to.equal('nesting_too_deep');

      const { socket, next } = await openSocket(t.url, ws.key);
      try {
        socket.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { punchCreated { cursor } }","variables":{"x":${deepArrays(150_000)}}}}`);
        const answer = await next('error');
        expect(answer.payload[0].extensions.code).to.equal('nesting_too_deep');
        expect(socket.readyState).to.equal(WebSocket.OPEN);
      } finally {
        socket.close();
      }
    });

    it('a document nested 7,000 deep (within the token limit) is query_too_complex, not a stack overflow', async () => {
      const r = await gql(t.url, ws.key, `{ employees(search: ${deepArrays(7_000)}) { totalCount } }`);
      expect(r.status).to.equal(400);
      expect(r.errors?.[0]?.extensions?.code).to.equal('query_too_complex');
      expect(JSON.stringify(r.errors)).not.to.match(/call stack|stacktrace/);
    });

    it('a REST body nested deeper than the limit is 400 nesting_too_deep, refused before the schema walks it', async () => {
      for (const body of [`{"name":"a","code":"b","x":${deepArrays(150_000)}}`, `{"company":${deepObjects(nestingLimits.json)}}`]) {
        const r = await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, rawBody: body, headers: { 'content-type': 'application/json' } });
        expect(r.status).to.equal(400);
        expect(r.body.error).to.include({ code: 'nesting_too_deep', request_id: r.headers.get('x-request-id') });
      }
    });

    it('a SCIM body nested 5,000 deep is 400 invalidSyntax (it was a 500)', async () => {
      const scimKey = await createScimKey(t.url, ws.key, companyId);
      const r = await rest(t.url, 'POST', '/scim/v2/Users', {
        key: scimKey,
        rawBody: `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"ada@example.com","x":${deepObjects(5_000)}}`,
        headers: { 'content-type': 'application/scim+json' },
      });
      expect(r.status).to.equal(400);
      expect(r.body).to.include({ status: '400', scimType: 'invalidSyntax' });
      expect(r.body.detail).to.contain(`${nestingLimits.json} levels`);
    });
  });
});

describe('error answers: internals only with TIMEGATE_DEBUG_ERRORS=true', () => {
  // A real internal error: the table the request reads is gone (the database answers, so it is not
  // the 503 of an outage).
  async function breakCompanies(app: TestApp): Promise<void> {
    await query(app.config.databaseUrl!, 'alter table company rename to company_hidden');
  }

  it('by default (NODE_ENV not production, as the README starts it): a 500 carries its code, a fixed message and the request id only', async () => {
    const app = await startTestApp({ NODE_ENV: 'development' }, 'errors-default');
    try {
      const invalid = await gql(app.url, app.adminKey, 'query ($x: Int!) { company(id: $x) { id } }', { x: 'not a number' });
      expect(invalid.errors?.[0]?.extensions?.code).to.equal('BAD_USER_INPUT');
      expect(JSON.stringify(invalid)).not.to.match(/stacktrace|\.[jt]s:\d+|node_modules|\/work\//);

      await breakCompanies(app);
      const overRest = await rest(app.url, 'GET', '/public/v2/companies', { key: app.adminKey });
      expect(overRest.status).to.equal(500);
      expect(overRest.body).to.deep.equal({
        error: { code: 'internal_error', message: 'Internal error.', details: [], request_id: overRest.headers.get('x-request-id') },
      });
      const overGraphql = await rest(app.url, 'POST', '/graphql', { key: app.adminKey, body: { query: '{ companies { totalCount } }' } });
      expect(overGraphql.body.errors).to.have.length(1);
      expect(overGraphql.body.errors[0].message).to.equal('Internal error.');
      expect(overGraphql.body.errors[0].extensions).to.deep.equal({ code: 'internal_error', requestId: overGraphql.headers.get('x-request-id') });
      expect(overGraphql.text).not.to.match(/company_hidden|relation|stacktrace|\.[jt]s:\d+/);
    } finally {
      await app.stop();
    }
  });

  it('with TIMEGATE_DEBUG_ERRORS=true the cause and the stack trace are shown (a developer reading a 500 locally)', async () => {
    const app = await startTestApp({ NODE_ENV: 'production', TIMEGATE_DEBUG_ERRORS: 'true' }, 'errors-debug');
    try {
      await breakCompanies(app);
      const overRest = await rest(app.url, 'GET', '/public/v2/companies', { key: app.adminKey });
      expect(overRest.status).to.equal(500);
      expect(overRest.body.error.message).to.match(/^Internal error: .*relation "company" does not exist/);
      const overGraphql = await gql(app.url, app.adminKey, 'query ($x: Int!) { company(id: $x) { id } }', { x: 'not a number' });
      expect(JSON.stringify(overGraphql.errors)).to.contain('stacktrace');
    } finally {
      await app.stop();
    }
  });
});
