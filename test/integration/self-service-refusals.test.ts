import { expect } from 'chai';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { buildTimegateSchema } from '../../src/graphql/build-schema';
import { routeTable } from '../../src/rest/route-table';
import type { RestRoute } from '../../src/rest/route';
import { wsClient } from '../support/events';
import { createCompany, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Generated sweep (docs/self-service.md): an employee token acts only as its employee, so every REST
 * route outside /public/v2/me and every GraphQL root field that is not an employee's own is refused
 * with 403 `forbidden`, and the workspace is unchanged. The routes and fields come from the route
 * table and the schema: a route or field added later is swept without a word here. The employee's
 * own operations are the ones the lists below name; the other way round, a workspace key is refused
 * by each of them.
 */
const EMPLOYEE_ROUTE = /^\/public\/v2\/me(\/|$)/;
/** The GraphQL root fields an employee principal reaches (and a workspace key does not). */
const EMPLOYEE_FIELDS = new Set([
  'me',
  'createMyAbsenceRequest',
  'cancelMyAbsenceRequest',
  'createMyPunchCorrection',
  'cancelMyPunchCorrection',
  'createMyPunch',
  'approveReportAbsenceRequest',
  'rejectReportAbsenceRequest',
  'approveReportPunchCorrection',
  'rejectReportPunchCorrection',
]);

/** The path with every parameter given a plausible id; query parameters the route requires are filled in. */
function pathOf(route: RestRoute): string {
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'actionId' ? '00000000-0000-0000-0000-000000000001' : '1'));
  const required = ((route.query?.required as string[] | undefined) ?? []).map((name) => `${name}=${name.endsWith('date') ? '2026-01-05' : '1'}`);
  return required.length > 0 ? `${path}?${required.join('&')}` : path;
}

/** A minimal value of an input type that passes GraphQL validation (the refusal comes at execution). */
function valueFor(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return valueFor(type.ofType);
  if (isListType(type)) return [valueFor(type.ofType)];
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    return Object.fromEntries(fields.map((f) => [f.name, valueFor(f.type)]));
  }
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (isScalarType(type)) {
    const scalars: Record<string, unknown> = { Int: 1, Float: 1, String: 'x', Boolean: false, ID: '1', SafeInt: 1, DateTimeISO: '2026-01-05T08:00:00Z' };
    if (!(type.name in scalars)) throw new Error(`no sample value for scalar ${type.name}: add it to the sweep`);
    return scalars[type.name];
  }
  throw new Error('unexpected input type');
}

/** `query ($a: Int!) { field(a: $a) { __typename } }` with values for every argument. */
function operationOf(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>) {
  const declared = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`);
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`);
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  const text = `${kind}${declared.length ? ` (${declared.join(', ')})` : ''} { ${field.name}${passed.length ? `(${passed.join(', ')})` : ''}${selection} }`;
  return { text, variables: Object.fromEntries(field.args.map((arg) => [arg.name, valueFor(arg.type)])) };
}

describe('self-service refusals: an employee token is refused by every workspace route and GraphQL field (generated from the route table and the schema)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let token: string;
  let schema: GraphQLSchema;

  before(async () => {
    t = await startTestApp({}, 'self-service-refusals');
    ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key, { settings: { mobile_punch: true } });
    const employee = await createEmployee(t.url, ws.key, company.id);
    const writeKey = await createKey(t.url, ws.key, ['write']);
    const issued = await rest(t.url, 'POST', `/public/v2/employees/${employee.id}/access_tokens`, { key: writeKey, body: {} });
    expect(issued.status, issued.text).to.equal(201);
    token = issued.body.token;
    schema = await buildTimegateSchema();
  });
  after(() => t.stop());

  it('REST: every route outside /public/v2/me answers 403 forbidden to an employee token, and the workspace is unchanged', async function () {
    this.timeout(120_000);
    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    let swept = 0;
    for (const route of routeTable.filter((r) => !EMPLOYEE_ROUTE.test(r.path))) {
      const image = route.imageBody ? { rawBody: Buffer.from('image'), headers: { 'content-type': route.imageBody.mediaTypes[0]! } } : {};
      const r = await rest(t.url, route.method, pathOf(route), { key: token, body: route.body?.example, ...image });
      const what = `${route.method} ${route.path}: ${r.text.slice(0, 200)}`;
      expect(r.status, what).to.equal(403);
      expect(r.body.error.code, what).to.equal('forbidden');
      swept++;
    }
    expect(swept).to.be.at.least(150);
    expect(await workspaceSnapshot(t.config.databaseUrl!, ws.id)).to.deep.equal(before);
  });

  it('REST: every /public/v2/me route answers 403 to a workspace key (a key acts on employees, never as one)', async () => {
    const meRoutes = routeTable.filter((r) => EMPLOYEE_ROUTE.test(r.path));
    expect(meRoutes.length).to.be.at.least(15);
    for (const route of meRoutes) {
      const r = await rest(t.url, route.method, pathOf(route), { key: ws.key, body: route.body?.example });
      expect(r.status, `${route.method} ${route.path}: ${r.text.slice(0, 200)}`).to.equal(403);
    }
  });

  it('GraphQL: every root query and mutation but the employee ones is forbidden to an employee token; those are forbidden to a key', async function () {
    this.timeout(120_000);
    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    let swept = 0;
    for (const [kind, root] of [
      ['query', schema.getQueryType()!],
      ['mutation', schema.getMutationType()!],
    ] as const) {
      for (const field of Object.values(root.getFields()) as GraphQLField<unknown, unknown>[]) {
        const { text, variables } = operationOf(kind, field);
        const own = EMPLOYEE_FIELDS.has(field.name);
        const r = await gql(t.url, own ? ws.key : token, text, variables);
        expect(r.errors?.[0]?.extensions?.code, `${field.name} (${own ? 'workspace key' : 'employee token'}): ${JSON.stringify(r.errors ?? r.data)}`).to.equal(
          'forbidden',
        );
        swept++;
      }
    }
    expect(swept).to.be.at.least(180);
    expect(await workspaceSnapshot(t.config.databaseUrl!, ws.id)).to.deep.equal(before);
  });

  it('GraphQL subscriptions: every one is refused to an employee token (the socket closes 4403)', async function () {
    this.timeout(60_000);
    const client = wsClient(t.url, { authorization: `Bearer ${token}` });
    try {
      for (const field of Object.values(schema.getSubscriptionType()!.getFields()) as GraphQLField<unknown, unknown>[]) {
        const { text, variables } = operationOf('subscription', field);
        const outcome = await new Promise<unknown>((resolve) => {
          const dispose = client.subscribe(
            { query: text, variables },
            {
              next: (value) => {
                dispose();
                resolve(value.errors ?? value);
              },
              error: (error) => resolve(error instanceof Error ? error.message : { code: (error as { code?: number }).code }),
              complete: () => resolve('completed'),
            },
          );
        });
        // The socket itself is refused (4403 Forbidden): a subscription reads a workspace's feed, which an employee never does.
        expect(JSON.stringify(outcome), field.name).to.match(/forbidden|"code":4403/i);
      }
    } finally {
      await client.dispose();
    }
  });
});
