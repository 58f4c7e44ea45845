import { expect } from 'chai';
import { createCompany, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { createScimKey, patchOp, scimRequest } from '../support/scim';
import { startTestApp, type TestApp } from '../support/test-app';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** `ApiKey.scimSync`: what a directory last did with its key, noted by every /scim/v2 request. */
describe("a scim key's last sync (ApiKey.scimSync)", () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  before(async () => {
    t = await startTestApp({}, 'scim-last-sync');
    ws = await createWorkspace(t.url, { maxCompanies: 10 });
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  after(() => t.stop());

  const SYNC = `{ apiKeys { id name scopes scimSync { lastRequestAt lastRequest requestCount lastChangeAt lastErrorAt lastErrorRequest lastErrorStatus lastError users activeUsers groups } } }`;
  const syncOf = async (name: string) => {
    const keys = (await gqlData(t.url, ws.key, SYNC)).apiKeys as Array<{ name: string; scimSync: Record<string, any> | null }>;
    return keys.find((k) => k.name === name)!.scimSync;
  };

  it('is null for other keys, and says "never" with zero counts for a scim key not used yet', async () => {
    await createScimKey(t.url, ws.key, companyId);
    const keys = (await gqlData(t.url, ws.key, SYNC)).apiKeys as Array<{ scopes: string[]; scimSync: unknown }>;
    expect(keys.filter((k) => !k.scopes.includes('scim')).map((k) => k.scimSync)).to.satisfy(
      (all: unknown[]) => all.length > 0 && all.every((s) => s === null),
    );
    expect(await syncOf('Entra ID')).to.deep.equal({
      lastRequestAt: null,
      lastRequest: null,
      requestCount: 0,
      lastChangeAt: null,
      lastErrorAt: null,
      lastErrorRequest: null,
      lastErrorStatus: null,
      lastError: null,
      users: 0,
      activeUsers: 0,
      groups: 0,
    });
  });

  it("notes each request: its time and path (no query), the last change, the last error as the directory was told, and the company's users and groups", async () => {
    const company = (await createCompany(t.url, ws.key)).id;
    const key = await gqlData(t.url, ws.key, 'mutation ($c: Int!) { createApiKey(input: { name: "Okta", scopes: ["scim"], companyId: $c }) { key } }', {
      c: company,
    }).then((d) => d.createApiKey.key as string);
    const started = Date.now();
    const scim = (method: string, path: string, body?: unknown) => scimRequest(t.url, key, method, path, body);

    const ada = await scim('POST', '/Users', { schemas: [USER], userName: 'ada@example.com', name: { givenName: 'Ada', familyName: 'Lovelace' } });
    const bob = await scim('POST', '/Users', { schemas: [USER], userName: 'bob@example.com', name: { givenName: 'Bob', familyName: 'Builder' } });
    expect([ada.status, bob.status]).to.deep.equal([201, 201]);
    expect((await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Night shift', members: [{ value: ada.body.id }] })).status).to.equal(201);
    expect((await scim('PATCH', `/Users/${bob.body.id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }))).status).to.equal(200);
    let sync = await syncOf('Okta');
    expect(sync).to.include({
      lastRequest: `PATCH /Users/${bob.body.id}`,
      requestCount: 4,
      lastErrorAt: null,
      lastError: null,
      users: 2,
      activeUsers: 1,
      groups: 1,
    });
    expect(new Date(sync!.lastRequestAt).getTime()).to.be.within(started - 1000, Date.now() + 1000);
    expect(sync!.lastChangeAt).to.equal(sync!.lastRequestAt);
    const changedAt = sync!.lastChangeAt;

    // A refused request: its status and SCIM error are kept; a read after it moves the last request, not the last change.
    const refused = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Ghosts', members: [{ value: '999999' }] });
    expect(refused.status).to.equal(400);
    sync = await syncOf('Okta');
    expect(sync).to.include({ lastRequest: 'POST /Groups', lastErrorRequest: 'POST /Groups', lastErrorStatus: 400, requestCount: 5, lastChangeAt: changedAt });
    expect(sync!.lastError).to.equal(`invalidValue: ${refused.body.detail}`);
    const erredAt = sync!.lastErrorAt;
    expect(erredAt).to.equal(sync!.lastRequestAt);

    expect((await scim('GET', '/Users?filter=userName%20eq%20%22ada%40example.com%22')).status).to.equal(200);
    sync = await syncOf('Okta');
    expect(sync).to.include({ lastRequest: 'GET /Users', requestCount: 6, lastChangeAt: changedAt, lastErrorAt: erredAt, lastErrorStatus: 400, groups: 1 });
    expect(new Date(sync!.lastRequestAt).getTime()).to.be.at.least(new Date(erredAt).getTime());

    // The first company's key saw none of it.
    expect(await syncOf('Entra ID')).to.include({ requestCount: 0, users: 0, groups: 0 });
  });

  it('notes nothing for keys refused at the door (not a scim key, or revoked)', async () => {
    const key = await createScimKey(t.url, ws.key, companyId);
    const before = (await syncOf('Entra ID'))!.requestCount;
    expect((await scimRequest(t.url, ws.key, 'GET', '/Users')).status).to.equal(403);
    const id = ((await gqlData(t.url, ws.key, SYNC)).apiKeys as Array<{ id: number; name: string }>).filter((k) => k.name === 'Entra ID').at(-1)!.id;
    await gqlData(t.url, ws.key, 'mutation ($id: Int!) { revokeApiKey(id: $id) { id } }', { id });
    expect((await scimRequest(t.url, key, 'GET', '/Users')).status).to.equal(401);
    const keys = ((await gqlData(t.url, ws.key, SYNC)).apiKeys as Array<{ name: string; scimSync: { requestCount: number } }>).filter(
      (k) => k.name === 'Entra ID',
    );
    expect(keys.map((k) => k.scimSync.requestCount)).to.deep.equal([before, 0]);
  });
});
