import { expect } from 'chai';
import { ScimError } from '../../../src/scim/errors';
import { parseFilter, parsePatchPath } from '../../../src/scim/filter';
import { matchesFilter } from '../../../src/scim/filter-eval';
import { GROUP, USER } from '../../../src/scim/schemas';

const ada = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: '17',
  externalId: 'AbC-1',
  userName: 'Ada.Lovelace@Example.com',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  active: true,
  emails: [
    { value: 'ada@work.example', type: 'work', primary: true },
    { value: 'ada@home.example', type: 'home' },
  ],
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { employeeNumber: '1001', department: 'Engines' },
  meta: { lastModified: '2026-11-27T05:00:00Z' },
};

const matches = (filter: string, resource: object = ada) => matchesFilter(resource as never, USER, parseFilter(filter));

function scimError(fn: () => unknown): ScimError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ScimError) return error;
    throw error;
  }
  throw new Error('expected a ScimError');
}

describe('SCIM filters', () => {
  it('eq on userName ignores case (caseExact false); externalId and id are case-exact', () => {
    expect(matches('userName eq "ada.lovelace@example.com"')).to.equal(true);
    expect(matches('USERNAME EQ "ADA.LOVELACE@EXAMPLE.COM"')).to.equal(true);
    expect(matches('externalId eq "AbC-1"')).to.equal(true);
    expect(matches('externalId eq "abc-1"')).to.equal(false);
    expect(matches('id eq "17"')).to.equal(true);
  });

  it('co, sw, ew, pr, ne, gt on strings, sub-attributes and multi-valued attributes', () => {
    expect(matches('name.familyName co "love"')).to.equal(true);
    expect(matches('userName sw "ADA"')).to.equal(true);
    expect(matches('userName ew ".com"')).to.equal(true);
    expect(matches('emails co "@home."')).to.equal(true);
    expect(matches('emails.type eq "work"')).to.equal(true);
    expect(matches('title pr')).to.equal(false);
    expect(matches('name.givenName pr')).to.equal(true);
    expect(matches('userName ne "someone"')).to.equal(true);
    expect(matches('meta.lastModified gt "2026-11-01T00:00:00Z"')).to.equal(true);
    expect(matches('meta.lastModified lt "2026-11-01T00:00:00Z"')).to.equal(false);
  });

  it('and binds tighter than or; not and parentheses', () => {
    expect(matches('userName eq "x" or name.givenName eq "ada" and active eq true')).to.equal(true);
    expect(matches('(userName eq "x" or name.givenName eq "ada") and active eq false')).to.equal(false);
    expect(matches('not (active eq false)')).to.equal(true);
  });

  it('booleans match the strings Entra ID stores ("True")', () => {
    expect(matches('active eq true', { ...ada, active: 'True' })).to.equal(true);
    expect(matches('active eq false', { ...ada, active: 'True' })).to.equal(false);
  });

  it('value paths: emails[type eq "work" and value co "@work"]', () => {
    expect(matches('emails[type eq "work" and value co "@work"]')).to.equal(true);
    expect(matches('emails[type eq "home" and primary eq true]')).to.equal(false);
  });

  it('extension attributes by their full URN path', () => {
    expect(matches('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "1001"')).to.equal(true);
    expect(matches('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department eq "engines"')).to.equal(true);
    expect(matches('urn:ietf:params:scim:schemas:core:2.0:User:userName sw "ada"')).to.equal(true);
  });

  it('group members by value (case-exact)', () => {
    const group = { displayName: 'Ops', members: [{ value: 'AbC' }] };
    expect(matchesFilter(group as never, GROUP, parseFilter('members[value eq "AbC"]'))).to.equal(true);
    expect(matchesFilter(group as never, GROUP, parseFilter('members.value eq "abc"'))).to.equal(false);
    expect(matchesFilter(group as never, GROUP, parseFilter('displayName eq "ops"'))).to.equal(true);
  });

  it('strings keep JSON escapes; numbers, null', () => {
    expect(matches('name.givenName eq "A\\u0064a"')).to.equal(true);
    expect(parseFilter('x eq 12.5')).to.deep.include({ value: 12.5 });
    expect(parseFilter('x eq null')).to.deep.include({ value: null });
  });

  for (const bad of [
    '',
    'userName',
    'userName eq',
    'userName eq bare',
    'userName xx "a"',
    '(userName eq "a"',
    'userName eq "a" junk',
    'not userName eq "a"',
    'emails[type eq "work"',
    'userName eq "unterminated',
    '1bad eq "a"',
  ]) {
    it(`refuses ${JSON.stringify(bad)} with invalidFilter`, () => {
      const error = scimError(() => parseFilter(bad));
      expect(error.status).to.equal(400);
      expect(error.scimType).to.equal('invalidFilter');
    });
  }

  it('refuses a filter longer than 4096 characters', () => {
    expect(scimError(() => parseFilter(`userName eq "${'a'.repeat(5000)}"`)).scimType).to.equal('invalidFilter');
  });

  it('refuses nesting past 32 levels and more than 64 and/or before the parser and the evaluation recurse that deep', () => {
    const nested = (n: number) => `${'('.repeat(n)}userName eq "a"${')'.repeat(n)}`;
    expect(matches(nested(32).replace('"a"', '"Ada.Lovelace@Example.com"'))).to.equal(true);
    expect(scimError(() => parseFilter(nested(33))).detail).to.contain('32 levels');
    expect(scimError(() => parseFilter(`emails[${nested(32)}]`)).scimType).to.equal('invalidFilter');
    const chain = (n: number) => Array.from({ length: n + 1 }, () => 'userName eq "a"').join(' and ');
    expect(() => parseFilter(chain(64))).not.to.throw();
    expect(scimError(() => parseFilter(chain(65))).detail).to.contain('64');
  });
});

describe('SCIM PATCH paths', () => {
  it('plain, sub-attribute, value filter with and without a trailing sub-attribute, URN-qualified', () => {
    expect(parsePatchPath('active')).to.deep.equal({ path: { schema: null, attr: 'active', sub: null }, filter: null, subAfterFilter: null });
    expect(parsePatchPath('name.givenName').path).to.deep.equal({ schema: null, attr: 'name', sub: 'givenName' });
    const filtered = parsePatchPath('emails[type eq "work"].value');
    expect(filtered.path.attr).to.equal('emails');
    expect(filtered.subAfterFilter).to.equal('value');
    expect(filtered.filter).to.deep.equal({ kind: 'compare', path: { schema: null, attr: 'type', sub: null }, op: 'eq', value: 'work' });
    expect(parsePatchPath('members[value eq "7"]').subAfterFilter).to.equal(null);
    expect(parsePatchPath('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value').path).to.deep.equal({
      schema: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
      attr: 'manager',
      sub: 'value',
    });
  });

  for (const bad of ['emails[type eq "work"', 'emails[type eq]', 'name.givenName[type eq "x"]', 'emails[type eq "work"]value', 'a.b.c', '']) {
    it(`refuses the path ${JSON.stringify(bad)} with invalidPath`, () => {
      const error = scimError(() => parsePatchPath(bad));
      expect(error.scimType).to.equal('invalidPath');
    });
  }
});
