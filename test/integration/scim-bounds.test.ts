import { expect } from 'chai';
import { createCompany, createWorkspace, type TestWorkspace } from '../support/factories';
import type { RestResponse } from '../support/http';
import { createScimKey, patchOp, scimRequest } from '../support/scim';
import { startTestApp, type TestApp } from '../support/test-app';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

// The third hardening round: a scim key stored users of any size (~150 MB in all), which every list
// then read whole. A stored resource now has a size and a value-count bound, on every write.
describe('SCIM resources within bounds (TIMEGATE_SCIM_MAX_RESOURCE_BYTES, _ATTRIBUTES, _MAX_GROUPS)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let key: string;
  let counter = 0;
  before(async () => {
    t = await startTestApp({ TIMEGATE_SCIM_MAX_GROUPS: '3' }, 'scim_bounds');
    ws = await createWorkspace(t.url, { maxCompanies: 10 });
    key = await createScimKey(t.url, ws.key, (await createCompany(t.url, ws.key)).id);
  });
  after(() => t.stop());

  const scim = (method: string, path: string, body?: unknown) => scimRequest(t.url, key, method, path, body);
  const user = (extra: Record<string, unknown> = {}) => ({
    schemas: [USER],
    userName: `bounded${++counter}@example.com`,
    name: { givenName: 'Ada', familyName: 'L' },
    ...extra,
  });
  const expectScimError = (response: RestResponse, status: number, scimType?: string) => {
    expect(response.status, response.text).to.equal(status);
    expect(response.headers.get('content-type')).to.match(/^application\/scim\+json/);
    expect(response.body.schemas).to.deep.equal([ERROR]);
    expect(response.body.status).to.equal(String(status));
    if (scimType) expect(response.body.scimType).to.equal(scimType);
  };
  // 40,000 bytes of text: over the 32 KiB default, well under the 1 MiB body limit.
  const big = 'x'.repeat(40_000);
  // 600 e-mail entries of 2 values each: over the 500 values allowed.
  const manyEmails = Array.from({ length: 600 }, (_, i) => ({ value: `a${i}@example.com`, type: 'other' }));

  it('refuses a User over the size bound (413) or the value bound (400 invalidValue) on POST, and stores nothing', async () => {
    const large = user({ title: big });
    expectScimError(await scim('POST', '/Users', large), 413);
    expect((await scim('POST', '/Users', large)).body.detail).to.match(/32768 bytes/);
    const crowded = user({ emails: manyEmails });
    expectScimError(await scim('POST', '/Users', crowded), 400, 'invalidValue');
    const listed = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${large.userName}" or userName eq "${crowded.userName}"`)}`);
    expect(listed.body.totalResults).to.equal(0);
  });

  it('refuses a PUT or PATCH whose result is over a bound, and leaves the User as it was', async () => {
    const created = await scim('POST', '/Users', user({ title: 'Engineer' }));
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id as string;
    expectScimError(await scim('PUT', `/Users/${id}`, { ...user(), userName: created.body.userName, title: big }), 413);
    expectScimError(await scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'title', value: big })), 413);
    expectScimError(await scim('PATCH', `/Users/${id}`, patchOp({ op: 'add', path: 'emails', value: manyEmails })), 400, 'invalidValue');
    // A resource nested deeper than any SCIM resource (8 levels) is an invalid value; a body nested
    // past the JSON bound of every surface (32 levels) is refused before it is read, as bad syntax.
    const nested = (levels: number) => {
      let deep: unknown = 'bottom';
      for (let i = 0; i < levels; i++) deep = { inner: deep };
      return { ...user(), userName: created.body.userName, title: 'Engineer', nest: deep };
    };
    expectScimError(await scim('PUT', `/Users/${id}`, nested(20)), 400, 'invalidValue');
    expectScimError(await scim('PUT', `/Users/${id}`, nested(50)), 400, 'invalidSyntax');
    const after = await scim('GET', `/Users/${id}`);
    expect(after.body.title).to.equal('Engineer');
    expect(after.body).to.not.have.property('emails');
    // Within the bounds, the same operations succeed.
    expect((await scim('PATCH', `/Users/${id}`, patchOp({ op: 'replace', path: 'title', value: 'x'.repeat(20_000) }))).status).to.equal(200);
  });

  it('bounds Groups the same way (members aside), and the number of groups of a company', async () => {
    const member = await scim('POST', '/Users', user());
    expectScimError(await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Big', description: big }), 413);
    const created = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Small', members: [{ value: member.body.id }] });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id as string;
    expectScimError(await scim('PATCH', `/Groups/${id}`, patchOp({ op: 'add', path: 'description', value: big })), 413);
    expectScimError(await scim('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName: 'Small', tags: manyEmails }), 400, 'invalidValue');
    const after = await scim('GET', `/Groups/${id}`);
    expect(after.body).to.not.have.property('description');
    expect(after.body.members.map((m: { value: string }) => m.value)).to.deep.equal([member.body.id]);
    // TIMEGATE_SCIM_MAX_GROUPS is 3 here: two more, then no more.
    for (const name of ['Second', 'Third']) expect((await scim('POST', '/Groups', { schemas: [GROUP], displayName: name })).status).to.equal(201);
    const fourth = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Fourth' });
    expectScimError(fourth, 400, 'invalidValue');
    expect(fourth.body.detail).to.match(/most groups allowed \(3\)/);
  });
});
