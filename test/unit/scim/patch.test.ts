import { expect } from 'chai';
import { ScimError } from '../../../src/scim/errors';
import { applyPatch } from '../../../src/scim/patch';
import { parseProjection, project, parseListPage } from '../../../src/scim/projection';
import { coerceBooleans, type JsonObject } from '../../../src/scim/resource';
import { ENTERPRISE_USER, GROUP, USER } from '../../../src/scim/schemas';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

function user(): JsonObject {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: '5',
    userName: 'grace@example.com',
    name: { givenName: 'Grace', familyName: 'Hopper' },
    active: true,
    emails: [{ value: 'grace@work.example', type: 'work', primary: true }],
    title: 'Rear Admiral',
  };
}

const patch = (resource: JsonObject, ...Operations: object[]) =>
  applyPatch(resource, USER, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });

function scimError(fn: () => unknown): ScimError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ScimError) return error;
    throw error;
  }
  throw new Error('expected a ScimError');
}

describe('SCIM PATCH', () => {
  it('replace with a path, op names in any case (Entra ID: "Replace"), booleans as "False" coerced by schema', () => {
    const result = patch(user(), { op: 'Replace', path: 'active', value: 'False' }, { op: 'replace', path: 'name.familyName', value: 'Murray Hopper' });
    coerceBooleans(result, USER, [ENTERPRISE_USER]);
    expect(result.active).to.equal(false);
    expect(result.name).to.deep.equal({ givenName: 'Grace', familyName: 'Murray Hopper' });
  });

  it('replace without a path (Okta deactivation: {"active": false}) and with path keys inside the value', () => {
    const result = patch(user(), { op: 'replace', value: { active: false, 'name.givenName': 'G.', [`${ENTERPRISE}:employeeNumber`]: '77' } });
    expect(result.active).to.equal(false);
    expect((result.name as JsonObject).givenName).to.equal('G.');
    expect(result[ENTERPRISE]).to.deep.equal({ employeeNumber: '77' });
  });

  it('add without a path merges extension objects under their URN', () => {
    const result = patch(user(), { op: 'add', value: { [ENTERPRISE]: { employeeNumber: '12', department: 'Navy' }, nickName: 'Amazing' } });
    expect(result[ENTERPRISE]).to.deep.equal({ employeeNumber: '12', department: 'Navy' });
    expect(result.nickName).to.equal('Amazing');
  });

  it('value-path replace of a sub-attribute: emails[type eq "work"].value', () => {
    const result = patch(user(), { op: 'replace', path: 'emails[type eq "work"].value', value: 'hopper@work.example' });
    expect(result.emails).to.deep.equal([{ value: 'hopper@work.example', type: 'work', primary: true }]);
  });

  it('value-path add that matches nothing creates the entry from the filter (Entra ID)', () => {
    const result = patch(user(), { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+44 20 1234' });
    expect(result.phoneNumbers).to.deep.equal([{ type: 'mobile', value: '+44 20 1234' }]);
  });

  it('value-path remove of matching entries, and of a sub-attribute of them', () => {
    const base = patch(user(), { op: 'add', path: 'emails', value: [{ value: 'g@home.example', type: 'home' }] });
    expect(patch(base, { op: 'remove', path: 'emails[type eq "home"]' }).emails).to.deep.equal([{ value: 'grace@work.example', type: 'work', primary: true }]);
    expect((patch(base, { op: 'remove', path: 'emails[type eq "work"].primary' }).emails as JsonObject[])[0]).to.deep.equal({
      value: 'grace@work.example',
      type: 'work',
    });
  });

  it('add to a multi-valued attribute appends without duplicating an entry', () => {
    const result = patch(user(), {
      op: 'add',
      path: 'emails',
      value: [
        { value: 'grace@work.example', type: 'work' },
        { value: 'x@y.z', type: 'other' },
      ],
    });
    expect((result.emails as JsonObject[]).map((e) => e.value)).to.deep.equal(['grace@work.example', 'x@y.z']);
  });

  it('extension URN paths: replace employeeNumber, remove manager', () => {
    const withManager = patch(user(), { op: 'add', path: `${ENTERPRISE}:manager`, value: { value: '9' } });
    expect(withManager[ENTERPRISE]).to.deep.equal({ manager: { value: '9' } });
    const result = patch(withManager, { op: 'replace', path: `${ENTERPRISE}:employeeNumber`, value: '3' }, { op: 'remove', path: `${ENTERPRISE}:manager` });
    expect(result[ENTERPRISE]).to.deep.equal({ employeeNumber: '3' });
  });

  it('group members: add, remove by filter, and remove with a value list (Entra ID)', () => {
    const group: JsonObject = { displayName: 'Ops', members: [] };
    const grouped = (g: JsonObject, ...Operations: object[]) => applyPatch(g, GROUP, { Operations });
    const added = grouped(group, { op: 'Add', path: 'members', value: [{ value: '1' }, { value: '2' }, { value: '3' }] });
    expect(added.members).to.deep.equal([{ value: '1' }, { value: '2' }, { value: '3' }]);
    const filtered = grouped(added, { op: 'remove', path: 'members[value eq "2"]' });
    expect(filtered.members).to.deep.equal([{ value: '1' }, { value: '3' }]);
    const listed = grouped(filtered, { op: 'Remove', path: 'members', value: [{ value: '1' }] });
    expect(listed.members).to.deep.equal([{ value: '3' }]);
    expect(grouped(listed, { op: 'replace', path: 'members', value: [{ value: '8' }] }).members).to.deep.equal([{ value: '8' }]);
  });

  it('leaves the input unchanged and fails the whole request when one operation fails', () => {
    const original = user();
    const error = scimError(() => patch(original, { op: 'replace', path: 'title', value: 'x' }, { op: 'replace', path: 'id', value: '6' }));
    expect(error.scimType).to.equal('mutability');
    expect(original.title).to.equal('Rear Admiral');
  });

  it('refuses read-only attributes (id, meta, groups) with mutability', () => {
    for (const path of ['id', 'meta.created', 'groups'])
      expect(scimError(() => patch(user(), { op: 'replace', path, value: 'x' })).scimType, path).to.equal('mutability');
  });

  it('a read-only attribute set to the value it holds is no change (Okta sends the id with a rename)', () => {
    const renamed = patch(user(), { op: 'replace', value: { id: '5', title: 'Commodore' } });
    expect(renamed).to.include({ id: '5', title: 'Commodore' });
    expect(patch(user(), { op: 'add', path: 'id', value: '5' }).id).to.equal('5');
    expect(scimError(() => patch(user(), { op: 'replace', value: { id: '6', title: 'Commodore' } })).scimType).to.equal('mutability');
    expect(scimError(() => patch(user(), { op: 'remove', path: 'id' })).scimType).to.equal('mutability');
  });

  it('bad operations: unknown op (invalidSyntax), remove without path (noTarget), bad path (invalidPath), filter matching nothing that cannot seed an entry (noTarget)', () => {
    expect(scimError(() => patch(user(), { op: 'move', path: 'title', value: 'x' })).scimType).to.equal('invalidSyntax');
    expect(scimError(() => patch(user(), { op: 'remove' })).scimType).to.equal('noTarget');
    expect(scimError(() => patch(user(), { op: 'replace', path: 'emails[type eq', value: 'x' })).scimType).to.equal('invalidPath');
    expect(scimError(() => patch(user(), { op: 'replace', path: 'emails[type co "x"].value', value: 'x' })).scimType).to.equal('noTarget');
    expect(scimError(() => patch(user(), { op: 'replace', path: 'urn:example:unknown:Thing:x', value: 'x' })).scimType).to.equal('invalidPath');
    expect(scimError(() => applyPatch(user(), USER, { Operations: [] })).scimType).to.equal('invalidSyntax');
  });
});

describe('SCIM attribute projection and paging', () => {
  const resource: JsonObject = { ...user(), [ENTERPRISE]: { employeeNumber: '1', department: 'Navy' } };

  it('attributes keeps id and schemas plus the named ones (sub-attributes and URN paths)', () => {
    const shown = project(resource, USER, parseProjection({ attributes: `userName,name.givenName,${ENTERPRISE}:department` }));
    expect(shown).to.deep.equal({
      schemas: resource.schemas,
      id: '5',
      userName: 'grace@example.com',
      name: { givenName: 'Grace' },
      [ENTERPRISE]: { department: 'Navy' },
    });
  });

  it('excludedAttributes removes them, never id or schemas', () => {
    const shown = project(resource, USER, parseProjection({ excludedAttributes: 'emails,name.familyName,id,schemas' }));
    expect(shown).to.not.have.property('emails');
    expect(shown.name).to.deep.equal({ givenName: 'Grace' });
    expect(shown.id).to.equal('5');
    expect(shown.schemas).to.deep.equal(resource.schemas);
  });

  it('startIndex below 1 is 1, count is bounded to 0..200, non-integers are refused', () => {
    expect(parseListPage({ startIndex: '0', count: '-5' })).to.deep.equal({ startIndex: 1, count: 0 });
    expect(parseListPage({ count: '100000' })).to.deep.equal({ startIndex: 1, count: 200 });
    expect(scimError(() => parseListPage({ count: 'ten' })).scimType).to.equal('invalidValue');
  });
});
