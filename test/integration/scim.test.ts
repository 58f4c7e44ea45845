import { expect } from 'chai';
import { createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest, type RestResponse } from '../support/http';
import { createScimKey, patchOp, scimRequest } from '../support/scim';
import { startTestApp, type TestApp } from '../support/test-app';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

describe('SCIM 2.0 provisioning (/scim/v2)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  let key: string;
  let counter = 0;
  before(async () => {
    t = await startTestApp({}, 'scim');
    ws = await createWorkspace(t.url, { maxCompanies: 10 });
    companyId = (await createCompany(t.url, ws.key)).id;
    key = await createScimKey(t.url, ws.key, companyId);
  });
  after(() => t.stop());

  const scim = (method: string, path: string, body?: unknown, as: string | null = key) => scimRequest(t.url, as, method, path, body);
  const employeeOf = async (id: string | number) => (await rest(t.url, 'GET', `/public/v2/employees/${id}`, { key: ws.key })).body;
  const newUser = (overrides: Record<string, unknown> = {}): Record<string, any> => {
    counter += 1;
    return {
      schemas: [USER, ENTERPRISE],
      userName: `person${counter}@example.com`,
      externalId: `ext-${counter}`,
      name: { givenName: 'Ada', familyName: `Lovelace${counter}` },
      active: true,
      emails: [{ value: `person${counter}@work.example`, type: 'work', primary: true }],
      ...overrides,
    };
  };
  const created = async (overrides: Record<string, unknown> = {}) => {
    const response = await scim('POST', '/Users', newUser(overrides));
    expect(response.status, response.text).to.equal(201);
    return response.body;
  };
  const expectScimError = (response: RestResponse, status: number, scimType?: string) => {
    expect(response.status, response.text).to.equal(status);
    expect(response.headers.get('content-type')).to.match(/^application\/scim\+json/);
    expect(response.body.schemas).to.deep.equal([ERROR]);
    expect(response.body.status).to.equal(String(status));
    if (scimType) expect(response.body.scimType).to.equal(scimType);
    else expect(response.body).to.not.have.property('scimType');
  };

  describe('authentication', () => {
    it('refuses a request without a key (401, WWW-Authenticate) and any key that is not a scim key (403), the admin key included', async () => {
      const none = await scim('GET', '/Users', undefined, null);
      expectScimError(none, 401);
      expect(none.headers.get('www-authenticate')).to.equal('Bearer');
      expectScimError(await scim('GET', '/Users', undefined, ws.key), 403);
      expectScimError(await scim('GET', '/ServiceProviderConfig', undefined, ws.key), 403);
      expectScimError(await scim('GET', '/Users', undefined, 'tg_live_notakey'), 401);
    });

    it('a scim key reaches nothing else: GraphQL, REST and subscriptions answer forbidden', async () => {
      const graphql = await gql(t.url, key, '{ employees(first: 1) { totalCount } }');
      expect(graphql.errors?.[0]?.extensions?.code).to.equal('forbidden');
      expect((await gql(t.url, key, '{ currentApiKey { id } }')).errors?.[0]?.extensions?.code).to.equal('forbidden');
      const restRead = await rest(t.url, 'GET', '/public/v2/employees', { key });
      expect(restRead.status).to.equal(403);
      const restWrite = await rest(t.url, 'POST', '/public/v2/companies', { key, body: { name: 'X', code: 'SCIMX' } });
      expect(restWrite.status).to.equal(403);
    });

    it('a scim key is bound to one company of the workspace and carries no other scope', async () => {
      const problems = async (input: string, variables: Record<string, unknown> = {}) =>
        (await gql(t.url, ws.key, `mutation ${input.includes('$c') ? '($c: Int)' : ''} { createApiKey(input: ${input}) { id } }`, variables)).errors?.[0]
          ?.extensions?.details;
      expect(await problems('{ scopes: ["scim"] }')).to.deep.include({
        field: 'companyId',
        code: 'required',
        message: 'A "scim" key is bound to one company: give companyId.',
      });
      expect((await problems('{ scopes: ["scim", "read"], companyId: $c }', { c: companyId }))![0]).to.include({ field: 'scopes', code: 'invalid_scope' });
      expect((await problems('{ scopes: ["read"], companyId: $c }', { c: companyId }))![0]).to.include({ field: 'companyId', code: 'not_allowed' });
      const other = await createWorkspace(t.url);
      const otherCompany = (await createCompany(t.url, other.key)).id;
      expect((await problems('{ scopes: ["scim"], companyId: $c }', { c: otherCompany }))![0]).to.include({ field: 'companyId', code: 'not_found' });
    });

    it('REST creates and revokes scim keys too (/public/v2/api_keys)', async () => {
      const response = await rest(t.url, 'POST', '/public/v2/api_keys', { key: ws.key, body: { name: 'Okta', scopes: ['scim'], company_id: companyId } });
      expect(response.status, response.text).to.equal(201);
      expect(response.body).to.include({ name: 'Okta', company_id: companyId });
      expect((await scim('GET', '/Users?count=1', undefined, response.body.key)).status).to.equal(200);
      const revoked = await rest(t.url, 'DELETE', `/public/v2/api_keys/${response.body.id}`, { key: ws.key });
      expect(revoked.status).to.equal(200);
      expectScimError(await scim('GET', '/Users', undefined, response.body.key), 401);
    });
  });

  describe('discovery', () => {
    it('ServiceProviderConfig, ResourceTypes and Schemas in application/scim+json', async () => {
      const config = await scim('GET', '/ServiceProviderConfig');
      expect(config.status).to.equal(200);
      expect(config.headers.get('content-type')).to.match(/^application\/scim\+json/);
      expect(config.body).to.deep.include({
        patch: { supported: true },
        bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
        filter: { supported: true, maxResults: 200 },
      });
      expect(config.body.authenticationSchemes[0].type).to.equal('oauthbearertoken');
      const types = await scim('GET', '/ResourceTypes');
      expect(types.body.Resources.map((r: { id: string }) => r.id)).to.deep.equal(['User', 'Group']);
      expect(types.body.Resources[0].schemaExtensions).to.deep.equal([{ schema: ENTERPRISE, required: false }]);
      expect((await scim('GET', '/ResourceTypes/Group')).body.endpoint).to.equal('/Groups');
      const schemas = await scim('GET', '/Schemas');
      expect(schemas.body.totalResults).to.equal(3);
      const user = await scim('GET', `/Schemas/${USER}`);
      expect(user.body.attributes.find((a: { name: string }) => a.name === 'userName')).to.include({ uniqueness: 'server', caseExact: false, required: true });
      expectScimError(await scim('GET', '/Schemas/urn:nothing'), 404);
      expectScimError(await scim('GET', '/Bulk'), 404);
    });
  });

  describe('Users', () => {
    it('POST makes an employee of the bound company: names, e-mail, employeeNumber as code and PIN; unmodelled attributes kept and returned', async () => {
      const body = newUser({
        [ENTERPRISE]: { employeeNumber: '4711', department: 'Engines', manager: { value: 'boss-1' } },
        title: 'Analyst',
        phoneNumbers: [{ value: '+44 20 7946 0000', type: 'work' }],
        addresses: [{ locality: 'London', type: 'work' }],
        'urn:example:custom:1.0:User': { badgeColour: 'green' },
        password: 'never-stored',
      });
      const response = await scim('POST', '/Users', body);
      expect(response.status, response.text).to.equal(201);
      expect(response.headers.get('content-type')).to.match(/^application\/scim\+json/);
      const user = response.body;
      expect(response.headers.get('location')).to.equal(`${t.url}/scim/v2/Users/${user.id}`);
      expect(user).to.deep.include({
        userName: body.userName,
        externalId: body.externalId,
        active: true,
        title: 'Analyst',
        phoneNumbers: body.phoneNumbers,
        addresses: body.addresses,
      });
      expect(user[ENTERPRISE]).to.deep.equal({ employeeNumber: '4711', department: 'Engines', manager: { value: 'boss-1' } });
      expect(user['urn:example:custom:1.0:User']).to.deep.equal({ badgeColour: 'green' });
      expect(user).to.not.have.property('password');
      expect(user.schemas).to.deep.equal([USER, ENTERPRISE]);
      expect(user.meta).to.include({ resourceType: 'User', location: `${t.url}/scim/v2/Users/${user.id}` });
      const employee = await employeeOf(user.id);
      expect(employee).to.include({
        name: 'Ada',
        lastname: body.name.familyName,
        code: '4711',
        pin: '4711',
        email: body.emails[0]!.value,
        company_id: companyId,
        is_active: true,
      });
      expect((await scim('GET', `/Users/${user.id}`)).body).to.deep.equal(user);
    });

    it('SCIM writes are in the audit log with their outcome, never with a password', async () => {
      const user = await created({ password: 'Secret-1' });
      await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', path: 'password', value: 'Secret-2' }, { op: 'replace', path: 'id', value: '1' }));
      const { auditEvents } = await gqlData(t.url, ws.key, '{ auditEvents(first: 20) { nodes { operation arguments outcome } } }');
      const mine = auditEvents.nodes.filter(
        (e: { arguments: { id?: string; body?: { userName?: string } } }) => e.arguments.body?.userName === user.userName || e.arguments.id === user.id,
      );
      expect(mine.map((e: { operation: string; outcome: string }) => [e.operation, e.outcome])).to.deep.equal([
        ['scim.patchUser', 'mutability'],
        ['scim.createUser', 'ok'],
      ]);
      expect(JSON.stringify(mine)).to.not.match(/Secret-/);
    });

    it('employeeNumber that is not a valid PIN, or the PIN of another employee, gives the next free PIN; no employeeNumber: the userName is the code', async () => {
      await createEmployee(t.url, ws.key, companyId, { pin: '90000' });
      const taken = await created({ [ENTERPRISE]: { employeeNumber: '90000' } });
      expect(await employeeOf(taken.id)).to.include({ code: '90000', pin: '90001' });
      const invalid = await created({ [ENTERPRISE]: { employeeNumber: 'E-17' } });
      expect(await employeeOf(invalid.id)).to.include({ code: 'E-17', pin: '90002' });
      const plain = await created();
      expect(await employeeOf(plain.id)).to.include({ code: plain.userName, pin: '90003' });
    });

    it('userName is unique in the company whatever the case (409 uniqueness); an employee code taken too', async () => {
      const user = await created();
      expectScimError(await scim('POST', '/Users', newUser({ userName: user.userName.toUpperCase() })), 409, 'uniqueness');
      await createEmployee(t.url, ws.key, companyId, { code: 'CODE-TAKEN' });
      expectScimError(await scim('POST', '/Users', newUser({ [ENTERPRISE]: { employeeNumber: 'CODE-TAKEN' } })), 409, 'uniqueness');
    });

    it('bad bodies: no userName (invalidValue), active not a boolean (invalidValue), malformed JSON (invalidSyntax); nothing is created', async () => {
      const before = (await scim('GET', '/Users')).body.totalResults;
      expectScimError(await scim('POST', '/Users', { schemas: [USER], name: { givenName: 'X' } }), 400, 'invalidValue');
      expectScimError(await scim('POST', '/Users', newUser({ active: 'maybe' })), 400, 'invalidValue');
      const malformed = await rest(t.url, 'POST', '/scim/v2/Users', { key, rawBody: '{"userName": ', headers: { 'content-type': 'application/scim+json' } });
      expectScimError(malformed, 400, 'invalidSyntax');
      expect((await scim('GET', '/Users')).body.totalResults).to.equal(before);
    });

    it('filters: eq (case-insensitive userName, case-exact externalId), co, sw, pr, and/or, value paths, URN paths; bad ones are invalidFilter', async () => {
      const a = await created({
        userName: 'Filter.Alpha@Example.com',
        externalId: 'FX-1',
        title: 'Boss',
        [ENTERPRISE]: { employeeNumber: 'F-1', department: 'Ops' },
      });
      const b = await created({ userName: 'filter.beta@example.com', externalId: 'FX-2', emails: [{ value: 'beta@home.example', type: 'home' }] });
      const ids = async (filter: string) => {
        const response = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);
        expect(response.status, response.text).to.equal(200);
        return response.body.Resources.map((r: { id: string }) => r.id);
      };
      expect(await ids('userName eq "filter.alpha@example.com"')).to.deep.equal([a.id]);
      expect(await ids('externalId eq "FX-2"')).to.deep.equal([b.id]);
      expect(await ids('externalId eq "fx-2"')).to.deep.equal([]);
      expect(await ids('userName sw "FILTER." and userName co "beta"')).to.deep.equal([b.id]);
      expect(await ids('userName sw "filter." and (title pr or emails[type eq "home"])')).to.deep.equal([a.id, b.id]);
      expect(await ids('userName sw "filter." and title pr')).to.deep.equal([a.id]);
      expect(await ids(`${ENTERPRISE}:department eq "ops"`)).to.deep.equal([a.id]);
      expect(await ids('emails[type eq "home" and value ew "@home.example"]')).to.include(b.id);
      expectScimError(await scim('GET', `/Users?filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter');
      expectScimError(await scim('GET', `/Users?filter=${encodeURIComponent('userName zz "a"')}`), 400, 'invalidFilter');
    });

    it('startIndex/count paging with totalResults; attributes and excludedAttributes', async () => {
      for (let i = 0; i < 3; i++) await created({ userName: `page${i}@paging.example` });
      const filter = encodeURIComponent('userName ew "@paging.example"');
      const page = await scim('GET', `/Users?filter=${filter}&startIndex=2&count=1`);
      expect(page.body).to.include({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
      expect(page.body.schemas).to.deep.equal(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
      expect(page.body.Resources[0].userName).to.equal('page1@paging.example');
      const counted = await scim('GET', `/Users?filter=${filter}&count=0`);
      expect(counted.body).to.include({ totalResults: 3, itemsPerPage: 0 });
      const slim = await scim('GET', `/Users?filter=${filter}&attributes=userName,name.givenName&count=1`);
      expect(Object.keys(slim.body.Resources[0]).sort()).to.deep.equal(['id', 'name', 'schemas', 'userName']);
      expect(slim.body.Resources[0].name).to.deep.equal({ givenName: 'Ada' });
      const without = await scim('GET', `/Users/${page.body.Resources[0].id}?excludedAttributes=emails,meta`);
      expect(without.body).to.not.have.property('emails');
      expect(without.body).to.not.have.property('meta');
      expect(without.body).to.have.property('userName');
      expectScimError(await scim('GET', `/Users?count=many`), 400, 'invalidValue');
    });

    it('Entra ID PATCH: capitalised ops, "False"/"True" strings, value paths, URN paths', async () => {
      const user = await created({ [ENTERPRISE]: { employeeNumber: '5100' } });
      const patched = await scim(
        'PATCH',
        `/Users/${user.id}`,
        patchOp(
          { op: 'Replace', path: 'active', value: 'False' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'new.address@work.example' },
          { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
          { op: 'Replace', path: `${ENTERPRISE}:employeeNumber`, value: '5200' },
          { op: 'Replace', path: 'name.givenName', value: 'Augusta' },
        ),
      );
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body).to.deep.include({
        active: false,
        emails: [{ value: 'new.address@work.example', type: 'work', primary: true }],
        phoneNumbers: [{ type: 'mobile', value: '+1 555 0100' }],
      });
      expect(await employeeOf(user.id)).to.include({ is_active: false, email: 'new.address@work.example', code: '5200', pin: '5200', name: 'Augusta' });
      const back = await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'Replace', path: 'active', value: 'True' }));
      expect(back.body.active).to.equal(true);
      expect((await employeeOf(user.id)).is_active).to.equal(true);
    });

    it('Okta PATCH: a no-path replace {"active": false}, also carrying the unchanged id; PUT replaces the whole resource', async () => {
      const user = await created({ title: 'Temporary' });
      const patched = await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', value: { id: user.id, active: false } }));
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body.active).to.equal(false);
      expect(patched.body.id).to.equal(user.id);
      expect((await employeeOf(user.id)).is_active).to.equal(false);
      const replaced = await scim('PUT', `/Users/${user.id}`, {
        schemas: [USER],
        id: user.id,
        userName: user.userName,
        name: { givenName: 'Grace', familyName: 'Hopper' },
        active: true,
      });
      expect(replaced.status, replaced.text).to.equal(200);
      expect(replaced.body).to.not.have.property('title');
      expect(replaced.body).to.not.have.property('emails');
      expect(await employeeOf(user.id)).to.include({ name: 'Grace', lastname: 'Hopper', is_active: true, email: null });
    });

    it('PATCH errors change nothing: invalidPath, mutability (id), noTarget, unknown op; 404 for unknown ids', async () => {
      const user = await created();
      expectScimError(await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', path: 'emails[type eq', value: 'x' })), 400, 'invalidPath');
      expectScimError(
        await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', path: 'title', value: 'x' }, { op: 'replace', path: 'id', value: `${user.id}0` })),
        400,
        'mutability',
      );
      expectScimError(await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'remove' })), 400, 'noTarget');
      expectScimError(await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'frobnicate', path: 'title', value: 'x' })), 400, 'invalidSyntax');
      expect((await scim('GET', `/Users/${user.id}`)).body).to.not.have.property('title');
      expectScimError(await scim('GET', '/Users/999999'), 404);
      expectScimError(await scim('GET', '/Users/not-a-number'), 404);
      expectScimError(await scim('PATCH', '/Users/999999', patchOp({ op: 'replace', path: 'title', value: 'x' })), 404);
      expectScimError(await scim('DELETE', '/Users/999999'), 404);
    });

    it('DELETE answers 204; the user is gone over SCIM and the employee is deleted', async () => {
      const user = await created();
      const response = await scim('DELETE', `/Users/${user.id}`);
      expect(response.status).to.equal(204);
      expect(response.text).to.equal('');
      expectScimError(await scim('GET', `/Users/${user.id}`), 404);
      expect((await rest(t.url, 'GET', `/public/v2/employees/${user.id}`, { key: ws.key })).status).to.equal(404);
      // The userName is free again; so it is after a delete through the API.
      const again = await scim('POST', '/Users', newUser({ userName: user.userName }));
      expect(again.status).to.equal(201);
      expect((await rest(t.url, 'DELETE', `/public/v2/employees/${again.body.id}`, { key: ws.key })).status).to.equal(200);
      expectScimError(await scim('GET', `/Users/${again.body.id}`), 404);
      expect((await scim('POST', '/Users', newUser({ userName: user.userName }))).status).to.equal(201);
    });
  });

  describe('Groups', () => {
    it('POST with members, GET, filter by displayName, Entra member add/remove, Okta PUT, DELETE', async () => {
      const [a, b, c] = [await created(), await created(), await created()];
      const response = await scim('POST', '/Groups', {
        schemas: [GROUP],
        displayName: 'Night shift',
        externalId: 'g-1',
        members: [{ value: a.id }, { value: b.id }],
      });
      expect(response.status, response.text).to.equal(201);
      const group = response.body;
      expect(group).to.include({ displayName: 'Night shift', externalId: 'g-1' });
      expect(group.members.map((m: { value: string }) => m.value)).to.deep.equal([a.id, b.id]);
      expect(group.meta).to.include({ resourceType: 'Group', location: `${t.url}/scim/v2/Groups/${group.id}` });
      expectScimError(await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'night SHIFT' }), 409, 'uniqueness');
      expectScimError(await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Bad', members: [{ value: '999999' }] }), 400, 'invalidValue');

      const found = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "night shift"')}&excludedAttributes=members`);
      expect(found.body.totalResults).to.equal(1);
      expect(found.body.Resources[0]).to.not.have.property('members');
      expect((await scim('GET', `/Users/${a.id}`)).body.groups).to.deep.equal([
        { value: group.id, display: 'Night shift', $ref: `${t.url}/scim/v2/Groups/${group.id}`, type: 'direct' },
      ]);

      // Entra ID: members added with a value list, removed with a value list; Okta: removed by filter.
      let patched = await scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'Add', path: 'members', value: [{ value: c.id }] }));
      expect(patched.body.members.map((m: { value: string }) => m.value)).to.deep.equal([a.id, b.id, c.id]);
      patched = await scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'Remove', path: 'members', value: [{ value: a.id }] }));
      expect(patched.body.members.map((m: { value: string }) => m.value)).to.deep.equal([b.id, c.id]);
      patched = await scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'remove', path: `members[value eq "${b.id}"]` }));
      expect(patched.body.members.map((m: { value: string }) => m.value)).to.deep.equal([c.id]);
      // Okta renames with its own unchanged id in the value: a read-only attribute set to itself is no change (RFC 7644, 3.5.2).
      patched = await scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'replace', value: { id: group.id, displayName: 'Evening shift' } }));
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body).to.include({ id: group.id, displayName: 'Evening shift' });
      // Another id is a change, refused, and nothing changes.
      expectScimError(
        await scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'replace', value: { id: `${group.id.slice(0, -1)}0`, displayName: 'Other' } })),
        400,
        'mutability',
      );
      expect((await scim('GET', `/Groups/${group.id}`)).body.displayName).to.equal('Evening shift');
      patched = await scim('PATCH', `/Groups/${group.id}`, patchOp({ op: 'Replace', path: 'displayName', value: 'Late shift' }));
      expect(patched.body.displayName).to.equal('Late shift');
      const put = await scim('PUT', `/Groups/${group.id}`, { schemas: [GROUP], displayName: 'Late shift', members: [{ value: a.id }] });
      expect(put.body.members.map((m: { value: string }) => m.value)).to.deep.equal([a.id]);
      expect(
        (await scim('GET', `/Users?filter=${encodeURIComponent(`groups[value eq "${group.id}"]`)}`)).body.Resources.map((r: { id: string }) => r.id),
      ).to.deep.equal([a.id]);

      expect((await scim('DELETE', `/Groups/${group.id}`)).status).to.equal(204);
      expectScimError(await scim('GET', `/Groups/${group.id}`), 404);
      expect((await scim('GET', `/Users/${a.id}`)).body).to.not.have.property('groups');
    });

    it('a group mapped to an area and an access level gives its members both, and takes them away when they leave', async () => {
      const area = (await rest(t.url, 'POST', '/public/v2/areas', { key: ws.key, body: { name: 'Plant', code: `PL${Date.now()}`, company_id: companyId } }))
        .body;
      const schedules = await rest(t.url, 'GET', `/public/v2/access_schedules?company_id=${companyId}`, { key: ws.key });
      const level = await rest(t.url, 'POST', '/public/v2/access_levels', {
        key: ws.key,
        body: { company_id: companyId, name: 'Plant doors', schedule_id: schedules.body[0].id, door_ids: [] },
      });
      expect(level.status, level.text).to.equal(201);
      const [a, b] = [await created(), await created()];
      const group = (await scim('POST', '/Groups', { schemas: [GROUP], displayName: `Plant ${Date.now()}`, members: [{ value: a.id }] })).body;
      const mapped = await gqlData(
        t.url,
        ws.key,
        'mutation ($id: ID!, $input: DirectoryGroupMappingInput!) { setDirectoryGroupMapping(id: $id, input: $input) { id areaId accessLevelIds memberIds } }',
        {
          id: group.id,
          input: { areaId: area.id, accessLevelIds: [level.body.id] },
        },
      );
      expect(mapped.setDirectoryGroupMapping).to.deep.equal({ id: group.id, areaId: area.id, accessLevelIds: [level.body.id], memberIds: [Number(a.id)] });
      const areaMembers = async () => (await rest(t.url, 'GET', `/public/v2/areas/${area.id}`, { key: ws.key })).body.employee_ids;
      const levelMembers = async () =>
        (await rest(t.url, 'GET', `/public/v2/access_levels/${level.body.id}/employees`, { key: ws.key })).body.map(
          (m: { employee_id: number }) => m.employee_id,
        );
      expect(await areaMembers()).to.deep.equal([Number(a.id)]);
      expect(await levelMembers()).to.deep.equal([Number(a.id)]);
      await scim(
        'PATCH',
        `/Groups/${group.id}`,
        patchOp({ op: 'add', path: 'members', value: [{ value: b.id }] }, { op: 'remove', path: `members[value eq "${a.id}"]` }),
      );
      expect(await areaMembers()).to.deep.equal([Number(b.id)]);
      expect(await levelMembers()).to.deep.equal([Number(b.id)]);
      // Unmapping the level keeps the area.
      await gqlData(t.url, ws.key, 'mutation ($id: ID!) { setDirectoryGroupMapping(id: $id, input: { areaId: null, accessLevelIds: [] }) { id } }', {
        id: group.id,
      });
      expect(await areaMembers()).to.deep.equal([]);
      expect(await levelMembers()).to.deep.equal([]);
      // REST reads the mapping too.
      const listed = await rest(t.url, 'GET', `/public/v2/directory_groups?company_id=${companyId}`, { key: ws.key });
      expect(listed.body.find((g: { id: string }) => g.id === group.id)).to.include({ display_name: group.displayName, area_id: null });
    });

    it('mapping refuses an area or level of another company, and needs the admin scope', async () => {
      const otherCompany = (await createCompany(t.url, ws.key)).id;
      const area = (await rest(t.url, 'POST', '/public/v2/areas', { key: ws.key, body: { name: 'Other', code: `OT${Date.now()}`, company_id: otherCompany } }))
        .body;
      const group = (await scim('POST', '/Groups', { schemas: [GROUP], displayName: `Mapped ${Date.now()}` })).body;
      const refused = await gql(
        t.url,
        ws.key,
        'mutation ($id: ID!, $a: Int) { setDirectoryGroupMapping(id: $id, input: { areaId: $a, accessLevelIds: [] }) { id } }',
        { id: group.id, a: area.id },
      );
      expect(refused.errors?.[0]?.extensions?.details?.[0]).to.include({ field: 'areaId', code: 'company_mismatch' });
      const writer = (await gqlData(t.url, ws.key, 'mutation { createApiKey(input: { scopes: ["write"] }) { key } }')).createApiKey.key;
      const forbidden = await gql(t.url, writer, 'mutation ($id: ID!) { setDirectoryGroupMapping(id: $id, input: { accessLevelIds: [] }) { id } }', {
        id: group.id,
      });
      expect(forbidden.errors?.[0]?.extensions?.code).to.equal('forbidden');
    });
  });

  describe('tenant isolation', () => {
    it("a scim key sees only its company's users and groups, in its own workspace or another", async () => {
      const user = await created();
      const group = (await scim('POST', '/Groups', { schemas: [GROUP], displayName: `Isolated ${Date.now()}`, members: [{ value: user.id }] })).body;
      const sibling = await createScimKey(t.url, ws.key, (await createCompany(t.url, ws.key)).id);
      const other = await createWorkspace(t.url);
      const foreign = await createScimKey(t.url, other.key, (await createCompany(t.url, other.key)).id);
      for (const as of [sibling, foreign]) {
        expectScimError(await scim('GET', `/Users/${user.id}`, undefined, as), 404);
        expectScimError(await scim('PATCH', `/Users/${user.id}`, patchOp({ op: 'replace', path: 'active', value: false }), as), 404);
        expectScimError(await scim('DELETE', `/Users/${user.id}`, undefined, as), 404);
        expectScimError(await scim('GET', `/Groups/${group.id}`, undefined, as), 404);
        expect((await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`, undefined, as)).body.totalResults).to.equal(0);
        expect((await scim('GET', '/Groups', undefined, as)).body.totalResults).to.equal(0);
        // Another company's user cannot be made a member either.
        expectScimError(await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Steal', members: [{ value: user.id }] }, as), 400, 'invalidValue');
      }
      // The same userName is free in another company; in the same workspace it would also be the
      // same employee code (codes are unique in a workspace), so it needs its own employeeNumber there.
      expect((await scim('POST', '/Users', newUser({ userName: user.userName }), foreign)).status).to.equal(201);
      expectScimError(await scim('POST', '/Users', newUser({ userName: user.userName }), sibling), 409, 'uniqueness');
      expect(
        (await scim('POST', '/Users', newUser({ userName: user.userName, [ENTERPRISE]: { employeeNumber: `S-${Date.now()}` } }), sibling)).status,
      ).to.equal(201);
      expect((await employeeOf(user.id)).is_active).to.equal(true);
      // Another workspace's admin does not see the group either.
      expect((await gql(t.url, other.key, 'query ($id: ID!) { directoryGroup(id: $id) { id } }', { id: group.id })).errors?.[0]?.extensions?.code).to.equal(
        'not_found',
      );
    });
  });
});
