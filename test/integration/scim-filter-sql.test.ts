import { expect } from 'chai';
import { parseFilter } from '../../src/scim/filter';
import { matchesFilter } from '../../src/scim/filter-eval';
import type { JsonObject } from '../../src/scim/resource';
import { GROUP, USER } from '../../src/scim/schemas';
import { createCompany, createWorkspace } from '../support/factories';
import { createScimKey, scimRequest } from '../support/scim';
import { startTestApp, type TestApp } from '../support/test-app';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';

// Lists filter in SQL (src/services/provisioning/scim-filter-sql.ts). Whatever the filter, a list
// answers what the in-memory evaluator (src/scim/filter-eval.ts, which PATCH uses) says of every
// stored resource: the same resources, in the same order, counted the same.
describe('SCIM filters in SQL answer as the in-memory evaluator', () => {
  let t: TestApp;
  let key: string;
  let users: JsonObject[] = [];
  let groups: JsonObject[] = [];
  const scim = (method: string, path: string, body?: unknown) => scimRequest(t.url, key, method, path, body);

  before(async function () {
    this.timeout(300_000);
    t = await startTestApp({}, 'scim_filter_sql');
    const ws = await createWorkspace(t.url, { maxCompanies: 10 });
    key = await createScimKey(t.url, ws.key, (await createCompany(t.url, ws.key)).id);
    const bodies: Record<string, unknown>[] = [
      {
        userName: 'Ada.Lovelace@Example.com',
        externalId: 'EXT-1',
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        displayName: 'Ada Lovelace',
        title: 'Countess',
        emails: [
          { value: 'ada@Corp.example', type: 'work', primary: true },
          { value: 'ada@home.example', type: 'home' },
        ],
        [ENTERPRISE]: { employeeNumber: '1001', department: 'Analytics', manager: { value: 'MGR-7', displayName: 'Babbage' } },
      },
      {
        userName: 'charles@example.com',
        externalId: 'ext-2',
        name: { givenName: 'Charles', familyName: 'Babbage' },
        active: false,
        title: 'Engineer',
        emails: [{ value: 'charles@corp.example', type: 'work' }],
        phoneNumbers: [{ value: '+44 20 7946 0000', type: 'mobile' }],
        [ENTERPRISE]: { employeeNumber: '1002', department: 'Engines', costCenter: '42' },
      },
      {
        userName: 'grace@example.com',
        name: { givenName: 'Grace', familyName: 'Hopper' },
        displayName: 'Grace Hopper',
        title: '',
        emails: [{ value: 'grace@navy.example', type: 'work' }],
        addresses: [{ locality: 'Arlington', country: 'US', primary: true }],
        'urn:example:custom:1.0:User': { level: 7, tags: ['Compiler', 'COBOL'], verified: 'True' },
      },
      {
        userName: 'alan@example.com',
        name: { givenName: 'Alan', familyName: 'Turing' },
        nickName: 'ALAN',
        locale: 'en-GB',
        emails: [
          { value: 'alan@corp.example', type: 'work' },
          { value: 'ALAN@Bletchley.example', type: 'other' },
        ],
        x509Certificates: [{ value: 'MIIC' }],
        [ENTERPRISE]: { employeeNumber: 'A7', manager: { value: 'mgr-7' } },
      },
      {
        userName: 'edsger@example.com',
        externalId: 'EXT-5',
        name: { givenName: 'Edsger', familyName: 'Dijkstra' },
        title: 'Professor',
        userType: 'Employee',
        emails: [],
        'urn:example:custom:1.0:User': { level: '12', tags: [], verified: false },
      },
      {
        userName: 'Barbara@example.com',
        name: { givenName: 'Barbara', familyName: 'Liskov' },
        displayName: 'Barbara Liskov',
        active: true,
        preferredLanguage: 'en',
        emails: [{ value: 'barbara@corp.example', type: 'WORK', primary: false }],
        'urn:example:custom:1.0:User': { level: 3.5 },
      },
    ];
    for (const body of bodies) {
      const response = await scim('POST', '/Users', { schemas: [USER_URN], ...body });
      expect(response.status, response.text).to.equal(201);
    }
    const ids = (await scim('GET', '/Users?count=200')).body.Resources.map((r: JsonObject) => r.id as string);
    for (const [name, members] of [
      ['Engineers', [ids[1], ids[3]]],
      ['Scientists', [ids[0], ids[3], ids[4]]],
      ['Empty', []],
    ] as const) {
      const response = await scim('POST', '/Groups', {
        schemas: [GROUP_URN],
        displayName: name,
        externalId: `G-${name}`,
        members: members.map((value) => ({ value })),
      });
      expect(response.status, response.text).to.equal(201);
    }
    users = (await scim('GET', '/Users?count=200')).body.Resources;
    groups = (await scim('GET', '/Groups?count=200')).body.Resources;
    expect(users).to.have.length(6);
    expect(groups).to.have.length(3);
  });
  after(() => t.stop());

  const userFilters = [
    'userName eq "ada.lovelace@example.com"',
    'userName eq "ADA.LOVELACE@EXAMPLE.COM" and externalId eq "EXT-1"',
    'externalId eq "ext-1"',
    'externalId eq "EXT-1"',
    'externalId pr',
    'not (externalId pr)',
    'userName sw "a"',
    'userName ew "EXAMPLE.COM"',
    'userName co "bar"',
    'userName gt "b"',
    'userName le "charles@example.com"',
    'name.familyName ge "L"',
    'name.givenName lt "C" or name.familyName eq "hopper"',
    'active eq false',
    'active eq true',
    'active ne false',
    'active eq "true"',
    'title pr',
    'title eq ""',
    'title ne "engineer"',
    'displayName pr',
    'emails pr',
    'emails co "corp"',
    'emails eq "ALAN@bletchley.example"',
    'emails.value ew "@corp.example"',
    'emails.type eq "work"',
    'emails[type eq "work" and value co "@corp"]',
    'emails[type eq "home"] or emails[primary eq true]',
    'emails[not (type eq "work")]',
    'emails[primary pr]',
    'phoneNumbers[type eq "mobile" and value sw "+44"]',
    'addresses[locality eq "arlington"]',
    'addresses.country eq "us"',
    'x509Certificates pr',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "1001"',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber gt "1001"',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department pr',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:costCenter eq 42',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "MGR-7"',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "mgr-7"',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager eq "mgr-7"',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager[value eq "MGR-7"]',
    'urn:example:custom:1.0:User:level gt 5',
    'urn:example:custom:1.0:User:level eq 3.5',
    'urn:example:custom:1.0:User:level ne 7',
    'urn:example:custom:1.0:User:level le "12"',
    'urn:example:custom:1.0:User:tags eq "cobol"',
    'urn:example:custom:1.0:User:tags pr',
    'urn:example:custom:1.0:User:verified eq true',
    'urn:example:custom:1.0:User:verified eq false',
    'urn:example:custom:1.0:User:missing ne "x"',
    'urn:example:custom:1.0:User:missing eq null',
    'title ne null',
    'id pr',
    `id eq "${'{first}'}"`,
    'meta.resourceType eq "User"',
    'meta.resourceType eq "user"',
    'meta.created gt "2020-01-01T00:00:00Z"',
    'meta.lastModified lt "2020-01-01"',
    'meta.location co "/Users/"',
    'schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:user"',
    'groups pr',
    'groups.display eq "engineers"',
    'groups[display sw "sci"]',
    'not (groups pr) and (nickName eq "alan" or locale eq "EN-gb")',
    'nickName ne "alan"',
    'userType eq "employee" and not (emails pr)',
    'preferredLanguage eq "EN" or (title co "ess" and not (active eq false))',
  ];

  it('answers every user filter as the evaluator does', async function () {
    this.timeout(300_000);
    let matchedSome = 0;
    for (const text of userFilters.map((f) => f.replace('{first}', users[0]!.id as string))) {
      const expected = users.filter((u) => matchesFilter(u, USER, parseFilter(text))).map((u) => u.id);
      const response = await scim('GET', `/Users?filter=${encodeURIComponent(text)}&count=200`);
      expect(response.status, `${text}: ${response.text}`).to.equal(200);
      expect(
        response.body.Resources.map((r: JsonObject) => r.id),
        text,
      ).to.deep.equal(expected);
      expect(response.body.totalResults, text).to.equal(expected.length);
      if (expected.length > 0 && expected.length < users.length) matchedSome += 1;
    }
    // The filters tell the users apart (most match some, not all).
    expect(matchedSome).to.be.at.least(userFilters.length / 2);
  });

  it('answers every group filter as the evaluator does, members included', async function () {
    this.timeout(300_000);
    const [ada, charles] = users;
    const groupFilters = [
      'displayName eq "engineers"',
      'displayName sw "E"',
      'externalId eq "G-Empty"',
      'externalId eq "g-empty"',
      'members pr',
      'not (members pr)',
      `members eq "${ada!.id}"`,
      `members[value eq "${charles!.id}"]`,
      `members.value eq "${charles!.id}" or displayName eq "Empty"`,
      'members.display co "lovelace"',
      'members.type eq "user"',
      `id eq "${groups[0]!.id}" and members[value eq "${ada!.id}"]`,
      `id eq "${(groups[1]!.id as string).toUpperCase()}"`,
      'meta.resourceType eq "Group"',
      'schemas pr',
    ];
    for (const text of groupFilters) {
      const expected = groups.filter((g) => matchesFilter(g, GROUP, parseFilter(text))).map((g) => g.id);
      const response = await scim('GET', `/Groups?filter=${encodeURIComponent(text)}&count=200`);
      expect(response.status, `${text}: ${response.text}`).to.equal(200);
      expect(
        response.body.Resources.map((r: JsonObject) => r.id),
        text,
      ).to.deep.equal(expected);
      expect(response.body.totalResults, text).to.equal(expected.length);
    }
  });

  it('pages a filtered list: startIndex and count over the matches, totalResults of them all', async () => {
    const text = 'emails pr';
    const expected = users.filter((u) => matchesFilter(u, USER, parseFilter(text))).map((u) => u.id);
    const page = await scim('GET', `/Users?filter=${encodeURIComponent(text)}&startIndex=2&count=2`);
    expect(page.body.totalResults).to.equal(expected.length);
    expect(page.body.startIndex).to.equal(2);
    expect(page.body.Resources.map((r: JsonObject) => r.id)).to.deep.equal(expected.slice(1, 3));
    const past = await scim('GET', `/Users?filter=${encodeURIComponent(text)}&startIndex=100&count=2`);
    expect(past.body).to.include({ totalResults: expected.length, itemsPerPage: 0 });
  });
});
