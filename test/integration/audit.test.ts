import { expect } from 'chai';
import { createCompany, createKey, createWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

describe('audit log', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'audit');
  });
  after(() => t.stop());

  it('records every write from REST and GraphQL (who, what, when, outcome), readable by admins only, per workspace', async () => {
    const ws = await createWorkspace(t.url);
    const other = await createWorkspace(t.url);
    const writer = await createKey(t.url, ws.key, ['write']);
    const { apiKeys } = await gqlData(t.url, ws.key, '{ apiKeys { id last4 } }');
    const writerId = apiKeys.find((k: any) => k.last4 === writer.slice(-4)).id;

    const company = await createCompany(t.url, writer, { code: 'AUD' });
    await gqlData(t.url, writer, 'mutation ($id: Int!) { updateCompany(id: $id, input: { name: "Renamed" }) { id } }', { id: company.id });
    await rest(t.url, 'POST', '/public/v2/companies', { key: writer, body: { name: 'Second', code: 'AUD2' } }); // plan limit: refused
    await rest(t.url, 'GET', '/public/v2/companies', { key: writer }); // a read: not audited
    await createCompany(t.url, other.key);

    const denied = await gql(t.url, writer, '{ auditEvents { totalCount } }');
    expect(denied.errors?.[0].extensions?.code).to.equal('forbidden');
    const { auditEvents } = await gqlData(
      t.url,
      ws.key,
      '{ auditEvents(first: 10) { totalCount nodes { apiKeyId operation arguments outcome requestId createdAt } } }',
    );
    const writes = auditEvents.nodes.filter((e: any) => e.apiKeyId === writerId);
    expect(writes.map((e: any) => [e.operation, e.outcome])).to.deep.equal([
      ['createCompany', 'plan_limit_reached'],
      ['updateCompany', 'ok'],
      ['createCompany', 'ok'],
    ]);
    expect(writes[2].arguments).to.deep.equal({ input: { name: 'Acme', code: 'AUD' } });
    expect(writes[0].requestId).to.be.a('string').and.not.empty;
    expect(Date.parse(writes[0].createdAt)).to.be.greaterThan(Date.now() - 60_000);
    // The key the admin itself created is there too, and nothing of the other workspace.
    expect(auditEvents.nodes.map((e: any) => e.operation)).to.include('createApiKey');
    const otherLog = await gqlData(t.url, other.key, '{ auditEvents { nodes { operation } } }');
    expect(otherLog.auditEvents.nodes.map((e: any) => e.operation)).to.deep.equal(['createCompany']);
  });
});
