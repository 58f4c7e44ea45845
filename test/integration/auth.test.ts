import { expect } from 'chai';
import { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { createApp } from '../../src/app';
import { ormOptions } from '../../src/db/orm-config';
import { createKey, createWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { MASTER_KEY, startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

describe('workspaces and API keys', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'auth');
  });
  after(() => t.stop());

  it('the first start created a default workspace whose admin key has the live format', async () => {
    expect(t.adminKey).to.match(/^tg_live_[0-9A-Za-z]{32,}$/);
    const data = await gqlData(t.url, t.adminKey, '{ workspace { id name } }');
    expect(data.workspace.name).to.equal('Default workspace');
  });

  for (const [label, authorization] of [
    ['no Authorization header', undefined],
    ['a malformed header', 'Token abc'],
    ['an unknown key', 'Bearer tg_live_00000000000000000000000000000000000000'],
  ] as const) {
    it(`refuses ${label} with 401, WWW-Authenticate and an error body (REST and GraphQL)`, async () => {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      const r = await rest(t.url, 'GET', '/public/v2/companies', { headers });
      expect(r.status).to.equal(401);
      expect(r.headers.get('www-authenticate')).to.equal('Bearer');
      expect(r.body.error.code).to.equal('unauthenticated');
      expect(r.body.error.request_id).to.be.a('string').and.not.empty;

      const g = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ companies { totalCount } }' }),
      });
      expect(g.status).to.equal(401);
      const body = (await g.json()) as any;
      expect(body.errors[0].extensions.code).to.equal('unauthenticated');
    });
  }

  it('operator key creates a workspace with exactly the documented payload shape', async () => {
    const r = await gql(t.url, MASTER_KEY, 'mutation { createWorkspace(input: { name: "Branch" }) { workspace { id name } apiKey { key scopes } } }');
    expect(r.errors).to.equal(undefined);
    const payload = r.data.createWorkspace;
    expect(payload.workspace.name).to.equal('Branch');
    expect(payload.workspace.id).to.be.a('number');
    expect(payload.apiKey.key).to.match(/^tg_live_[0-9A-Za-z]{32,}$/);
    expect(payload.apiKey.scopes).to.deep.equal(['admin']);
    const me = await gqlData(t.url, payload.apiKey.key, '{ workspace { id name } }');
    expect(me.workspace).to.deep.equal(payload.workspace);
  });

  it('only the operator may create workspaces or change plans', async () => {
    const r = await gql(t.url, t.adminKey, 'mutation { createWorkspace(input: { name: "Nope" }) { workspace { id } } }');
    expect(r.errors?.[0].extensions?.code).to.equal('forbidden');
    const p = await gql(t.url, t.adminKey, 'mutation { setWorkspacePlan(workspaceId: 1, input: { maxCompanies: 99 }) { id } }');
    expect(p.errors?.[0].extensions?.code).to.equal('forbidden');
  });

  it('a key lacking the scope gets 403; write implies read; read cannot write', async () => {
    const ws = await createWorkspace(t.url);
    const readKey = await createKey(t.url, ws.key, ['read']);
    const writeKey = await createKey(t.url, ws.key, ['write']);
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: readKey })).status).to.equal(200);
    const denied = await rest(t.url, 'POST', '/public/v2/companies', { key: readKey, body: { name: 'X', code: 'X' } });
    expect(denied.status).to.equal(403);
    expect(denied.body.error.code).to.equal('forbidden');
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: writeKey })).status).to.equal(200);
    expect((await rest(t.url, 'POST', '/public/v2/companies', { key: writeKey, body: { name: 'X', code: 'X' } })).status).to.equal(201);
    const keys = await gql(t.url, writeKey, '{ apiKeys { id } }');
    expect(keys.errors?.[0].extensions?.code).to.equal('forbidden');
  });

  it('currentApiKey tells any key its own name and scopes (a door-only key too); the operator key is not one', async () => {
    const ws = await createWorkspace(t.url);
    const doorKey = await gqlData(t.url, ws.key, 'mutation { createApiKey(input: { name: "gate panel", scopes: ["doors:unlock"] }) { id key } }');
    const mine = await gqlData(t.url, doorKey.createApiKey.key, '{ currentApiKey { id name scopes } }');
    expect(mine.currentApiKey).to.deep.equal({ id: doorKey.createApiKey.id, name: 'gate panel', scopes: ['doors:unlock'] });
    const admin = await gqlData(t.url, ws.key, '{ currentApiKey { scopes } }');
    expect(admin.currentApiKey.scopes).to.deep.equal(['admin']);
    expect((await gql(t.url, MASTER_KEY, '{ currentApiKey { id } }')).errors?.[0].extensions?.code).to.equal('forbidden');
  });

  it('lists keys by prefix and last four characters, never the secret, and stores only hashes', async () => {
    const ws = await createWorkspace(t.url);
    const key = await createKey(t.url, ws.key, ['read', 'doors:unlock']);
    const data = await gqlData(t.url, ws.key, '{ apiKeys { id prefix last4 scopes key revokedAt } }');
    const listed = data.apiKeys.find((k: any) => k.last4 === key.slice(-4));
    expect(listed).to.include({ prefix: key.slice(0, 12), key: null, revokedAt: null });
    expect(listed.scopes).to.deep.equal(['read', 'doors:unlock']);

    const orm = await MikroORM.init(ormOptions(t.config.databaseUrl!));
    try {
      const rows = await orm.em.getConnection().execute('select * from api_key');
      const text = JSON.stringify(rows);
      expect(text).not.to.contain(key.slice(8));
      expect(text).not.to.contain(t.adminKey.slice(8));
    } finally {
      await orm.close(true);
    }
  });

  it('refuses unknown scopes with a field error', async () => {
    const r = await gql(t.url, t.adminKey, 'mutation { createApiKey(input: { scopes: ["read", "root"] }) { id } }');
    expect(r.errors?.[0].extensions?.code).to.equal('validation_failed');
    expect(r.errors?.[0].extensions?.details?.[0]).to.include({ field: 'scopes', code: 'invalid_scope' });
  });

  it('a revoked key is refused with 401 from then on', async () => {
    const ws = await createWorkspace(t.url);
    const key = await createKey(t.url, ws.key, ['read']);
    const { apiKeys } = await gqlData(t.url, ws.key, '{ apiKeys { id last4 } }');
    const id = apiKeys.find((k: any) => k.last4 === key.slice(-4)).id;
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key })).status).to.equal(200);
    const revoked = await gqlData(t.url, ws.key, 'mutation ($id: Int!) { revokeApiKey(id: $id) { revokedAt } }', { id });
    expect(revoked.revokeApiKey.revokedAt).to.be.a('string');
    const after = await rest(t.url, 'GET', '/public/v2/companies', { key });
    expect(after.status).to.equal(401);
    expect(after.body.error.code).to.equal('unauthenticated');
  });

  it("an admin cannot list or revoke another workspace's keys; the operator can act on any", async () => {
    const a = await createWorkspace(t.url);
    const b = await createWorkspace(t.url);
    const { apiKeys } = await gqlData(t.url, a.key, '{ apiKeys { id } }');
    const r = await gql(t.url, b.key, 'mutation ($id: Int!) { revokeApiKey(id: $id) { id } }', { id: apiKeys[0].id });
    expect(r.errors?.[0].extensions?.code).to.equal('not_found');
    const foreign = await gql(t.url, b.key, '{ apiKeys(workspaceId: ' + a.id + ') { id } }');
    expect(foreign.errors?.[0].extensions?.code).to.equal('not_found');
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: a.key })).status).to.equal(200);

    const made = await gqlData(t.url, MASTER_KEY, 'mutation ($ws: Int!) { createApiKey(input: { workspaceId: $ws, scopes: ["read"] }) { key } }', { ws: b.id });
    const listed = await gqlData(t.url, MASTER_KEY, 'query ($ws: Int!) { apiKeys(workspaceId: $ws) { last4 } }', { ws: b.id });
    expect(listed.apiKeys.map((k: any) => k.last4)).to.include(made.createApiKey.key.slice(-4));
  });

  it('the operator key has no workspace of its own: workspace resources are forbidden to it', async () => {
    const r = await rest(t.url, 'GET', '/public/v2/companies', { key: MASTER_KEY });
    expect(r.status).to.equal(403);
  });

  it('a key revoked through another process is refused once the key cache time has passed', async () => {
    const other = await createApp({ ...t.config, keyCacheMs: 300 }, { logger: pino({ level: 'silent' }) });
    try {
      const ws = await createWorkspace(t.url);
      const key = await createKey(t.url, ws.key, ['read']);
      expect((await rest(other.url, 'GET', '/public/v2/companies', { key })).status).to.equal(200);
      const { apiKeys } = await gqlData(t.url, ws.key, '{ apiKeys { id last4 } }');
      const id = apiKeys.find((k: any) => k.last4 === key.slice(-4)).id;
      await gqlData(t.url, ws.key, 'mutation ($id: Int!) { revokeApiKey(id: $id) { id } }', { id });
      // The process that revoked it refuses it at once.
      expect((await rest(t.url, 'GET', '/public/v2/companies', { key })).status).to.equal(401);
      // Another process stops accepting it within its key cache time.
      await waitUntil(
        'the other process refuses the revoked key',
        async () => (await rest(other.url, 'GET', '/public/v2/companies', { key })).status,
        (v) => v === 401,
      );
    } finally {
      await other.stop();
    }
  });
});
