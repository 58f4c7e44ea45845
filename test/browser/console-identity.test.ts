import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { signInThroughProvider } from '../support/console-sign-in';
import { createArea, createCompany } from '../support/factories';
import { gqlData } from '../support/http';
import { startOidcProvider, type TestProvider } from '../support/oidc-provider';
import { scimRequest } from '../support/scim';
import { startTestApp, type TestApp } from '../support/test-app';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/**
 * Identity in the console, in Chromium against a real OpenID provider (oidc-provider on loopback):
 * an administrator connects a company's directory on "Directory sync", the directory provisions
 * people and a group over real SCIM HTTP calls, the group is mapped on the page and its members get
 * the area and level (read through the API); and each role, signed in through the provider, sees
 * exactly its sections of the navigation and nothing else, not even by address.
 */
describe('console in the browser: identity', () => {
  let provider: TestProvider;
  let t: TestApp;
  let browser: TestBrowser;
  const contexts: BrowserContext[] = [];
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, t.adminKey, document, variables);

  before(async () => {
    provider = await startOidcProvider({
      ada: { email: 'ada@example.com', name: 'Ada Admin', groups: ['Timegate Admins'] },
      alice: { email: 'alice@example.com', name: 'Alice Hr', groups: ['HR'] },
      sam: { email: 'sam@example.com', name: 'Sam Guard', groups: ['Security Desk'] },
      vic: { email: 'vic@example.com', name: 'Vic Viewer', groups: ['Auditors'] },
    });
    t = await startTestApp(
      {
        TIMEGATE_OIDC_ISSUER: provider.issuer,
        TIMEGATE_OIDC_CLIENT_ID: provider.clientId,
        TIMEGATE_OIDC_CLIENT_SECRET: provider.clientSecret,
        TIMEGATE_OIDC_SCOPES: 'openid profile email groups',
        TIMEGATE_OIDC_ROLE_MAP: 'Timegate Admins=admin,HR=hr,Security Desk=security,Auditors=viewer',
      },
      'console-identity',
    );
    provider.allowRedirect(`${t.url}/auth/oidc/callback`);
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
    await provider?.stop();
  });

  /** A fresh browser signing in as `login` at the provider's own login page. */
  async function signIn(login: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    contexts.push(context);
    return signInThroughProvider(context, t.url, login);
  }

  /** Runs a GraphQL operation from the page with its session, as the console does. */
  function fromPage(page: Page, document: string): Promise<{ code: string | null; data: any }> {
    return page.evaluate(async (document) => {
      const session = (await (await fetch('/auth/session')).json()) as any;
      const response = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({ query: document }),
      });
      const body = (await response.json()) as any;
      return { code: body.errors?.[0]?.extensions?.code ?? null, data: body.data ?? null };
    }, document);
  }

  it('an administrator connects the directory, sees its last sync and maps the group it pushed; the members get the area and the level', async () => {
    const companyId = (await createCompany(t.url, t.adminKey, { name: 'Directory Co' })).id;
    const warehouse = await createArea(t.url, t.adminKey, companyId, { name: 'Warehouse' });
    const schedule = (
      await query(
        `mutation ($c: Int!) { createAccessSchedule(input: { companyId: $c, name: "Nights", intervals: [{ weekday: 1, startTime: "20:00", endTime: "23:59" }] }) { id } }`,
        { c: companyId },
      )
    ).createAccessSchedule;
    const level = async (name: string) =>
      (
        await query('mutation ($c: Int!, $s: Int!, $n: String!) { createAccessLevel(input: { companyId: $c, name: $n, scheduleId: $s }) { id } }', {
          c: companyId,
          s: schedule.id,
          n: name,
        })
      ).createAccessLevel.id as number;
    const loadingBay = await level('Loading bay');
    const serverRoom = await level('Server room');

    const page = await signIn('ada');
    await page.getByText('Ada Admin · admin').waitFor();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Directory sync' }).click();
    await page.getByRole('heading', { name: 'Directory sync' }).waitFor();
    await page.getByLabel('Company').selectOption({ label: 'Directory Co' });
    const connections = page.getByRole('region', { name: 'SCIM connections' });
    await connections.getByText('No SCIM connection for this company').waitFor();

    // A new connection: its token once, with the address to paste.
    await connections.getByLabel("New connection's name").fill('Entra ID');
    await connections.getByRole('button', { name: 'Create connection' }).click();
    const issued = connections.getByRole('status');
    await issued.getByText('The token is shown this once').waitFor();
    expect(await issued.locator('dd code').first().textContent()).to.equal(`${t.url}/scim/v2`);
    const token = (await issued.locator('dd code').nth(1).textContent())!;
    expect(token).to.match(/^tg_live_/);
    await connections
      .getByRole('row', { name: /Entra ID/ })
      .getByText('never called')
      .waitFor();
    const keys = (await query('{ apiKeys { name scopes companyId revokedAt } }')).apiKeys.filter((k: any) => k.name === 'Entra ID');
    expect(keys).to.deep.equal([{ name: 'Entra ID', scopes: ['scim'], companyId, revokedAt: null }]);
    await screenshot(page, 'identity-connection-created');

    // The directory provisions two people and a group with both, over real SCIM HTTP calls with that token.
    const scim = (method: string, path: string, body?: unknown) => scimRequest(t.url, token, method, path, body);
    const people: string[] = [];
    for (const [given, family] of [
      ['Grace', 'Hopper'],
      ['Alan', 'Turing'],
    ]) {
      const created = await scim('POST', '/Users', {
        schemas: [USER],
        userName: `${given.toLowerCase()}@directory.example`,
        name: { givenName: given, familyName: family },
      });
      expect(created.status, created.text).to.equal(201);
      people.push(created.body.id);
    }
    const group = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Night shift', members: people.map((value) => ({ value })) });
    expect(group.status, group.text).to.equal(201);
    // And one request it gets wrong: the page shows it as the last error.
    const refused = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Ghosts', members: [{ value: '999999' }] });
    expect(refused.status).to.equal(400);

    await page.getByRole('button', { name: 'Refresh' }).click();
    await connections.getByText('Provisioned by the directory: 2 users (2 active), 1 group.').waitFor();
    const row = connections.getByRole('row', { name: /Entra ID/ });
    await row.getByText('(POST /Groups)').waitFor();
    await row.getByText(/POST \/Groups answered 400 \(invalidValue: No user of this company has the id "999999"\.\)/).waitFor();
    await row.getByText('4 requests').waitFor();
    const groups = page.getByRole('region', { name: 'Directory groups' });
    const groupRow = groups.getByRole('row', { name: /Night shift/ });
    expect(await groupRow.getByRole('cell').allTextContents()).to.deep.equal(['Night shift', '2', 'none', 'none', 'Map Night shift']);
    await screenshot(page, 'identity-last-sync');
    await expectAccessible(page);

    // Mapped on the page: the area and the level.
    await groupRow.getByRole('button', { name: 'Map Night shift' }).click();
    const editor = page.getByRole('form', { name: 'Mapping of Night shift' });
    await editor.getByLabel('Area').selectOption({ label: 'Warehouse' });
    await editor.getByLabel('Loading bay').check();
    await editor.getByRole('button', { name: 'Save mapping' }).click();
    await groups
      .getByRole('row', { name: /Night shift/ })
      .getByRole('cell', { name: 'Loading bay' })
      .waitFor();
    expect(
      await groups
        .getByRole('row', { name: /Night shift/ })
        .getByRole('cell')
        .allTextContents(),
    ).to.deep.equal(['Night shift', '2', 'Warehouse', 'Loading bay', 'Map Night shift']);
    const membersOf = async (levelId: number) =>
      (
        await query('query ($l: Int!) { accessLevelEmployees(accessLevelId: $l, first: 100) { nodes { employeeId } } }', { l: levelId })
      ).accessLevelEmployees.nodes.map((n: { employeeId: number }) => String(n.employeeId));
    const inArea = async () =>
      (await query('query ($a: Int!) { areaEmployees(areaId: $a, first: 100) { nodes { id } } }', { a: warehouse.id })).areaEmployees.nodes.map(
        (n: { id: number }) => String(n.id),
      );
    expect((await membersOf(loadingBay)).sort()).to.deep.equal([...people].sort());
    expect((await inArea()).sort()).to.deep.equal([...people].sort());
    expect(await membersOf(serverRoom)).to.deep.equal([]);
    await screenshot(page, 'identity-group-mapped');

    // Changed: the server room instead of the loading bay, which members lose, so it asks first.
    await groups.getByRole('button', { name: 'Map Night shift' }).click();
    await editor.getByLabel('Loading bay').uncheck();
    await editor.getByLabel('Server room').check();
    await editor.getByRole('button', { name: 'Save mapping' }).click();
    const change = page.getByRole('dialog', { name: 'Change the mapping of Night shift?' });
    await change.getByText('Its 2 members lose the access level Loading bay').waitFor();
    await screenshot(page, 'identity-mapping-change-confirm');
    await change.getByRole('button', { name: 'Save mapping' }).click();
    await groups
      .getByRole('row', { name: /Night shift/ })
      .getByRole('cell', { name: 'Server room' })
      .waitFor();
    expect(await membersOf(loadingBay)).to.deep.equal([]);
    expect((await membersOf(serverRoom)).sort()).to.deep.equal([...people].sort());

    // Cleared (confirmed; Cancel first changes nothing).
    await groups.getByRole('button', { name: 'Map Night shift' }).click();
    await editor.getByRole('button', { name: 'Clear mapping' }).click();
    const clear = page.getByRole('dialog', { name: 'Clear the mapping of Night shift?' });
    await clear.getByRole('button', { name: 'Cancel' }).click();
    expect((await membersOf(serverRoom)).length).to.equal(2);
    await editor.getByRole('button', { name: 'Clear mapping' }).click();
    await clear.getByRole('button', { name: 'Clear mapping' }).click();
    await groups
      .getByRole('row', { name: /Night shift/ })
      .getByRole('cell', { name: 'Server room' })
      .waitFor({ state: 'detached' });
    const mapping = (await query('query ($c: Int!) { directoryGroups(companyId: $c) { displayName areaId accessLevelIds memberIds } }', { c: companyId }))
      .directoryGroups;
    expect(mapping).to.deep.equal([{ displayName: 'Night shift', areaId: null, accessLevelIds: [], memberIds: people.map(Number).sort((a, b) => a - b) }]);
    expect(await membersOf(serverRoom)).to.deep.equal([]);
    expect(await inArea()).to.deep.equal([]);
    await expectAccessible(page);
    await expectNoHorizontalCutOff(page, 'identity-directory-sync');

    // Revoked after confirming: the directory's next call is refused.
    await connections.getByRole('button', { name: 'Revoke connection Entra ID' }).click();
    await page.getByRole('dialog', { name: 'Revoke the connection Entra ID?' }).getByRole('button', { name: 'Revoke connection' }).click();
    await connections.getByText('No SCIM connection for this company').waitFor();
    await connections.getByText(/Revoked: Entra ID/).waitFor();
    expect((await scim('GET', '/Users')).status).to.equal(401);
    await screenshot(page, 'identity-connection-revoked');
  });

  /** What each role sees: the navigation's sections, pages that must be there, and pages that must not, even by address. */
  const ROLES = [
    {
      login: 'alice',
      label: 'Alice Hr · hr',
      sections: ['Operations', 'People and time'],
      shown: ['Overview', 'Devices', 'Employees', 'Timesheets', 'Pay periods'],
      hidden: [
        { link: 'Door board', path: 'doors', heading: 'Alarms open now' },
        { link: 'Access', path: 'access', heading: 'Access schedules' },
        { link: 'Directory sync', path: 'directory-sync', heading: 'Directory sync' },
        { link: 'API keys', path: 'keys', heading: 'New key' },
      ],
    },
    {
      login: 'sam',
      label: 'Sam Guard · security',
      sections: ['Operations', 'Doors and access'],
      shown: ['Overview', 'Devices', 'Door board', 'Refused today', 'Access'],
      hidden: [
        { link: 'Employees', path: 'employees', heading: 'New employee' },
        { link: 'Timesheets', path: 'timesheets', heading: 'Timesheets' },
        { link: 'Directory sync', path: 'directory-sync', heading: 'Directory sync' },
        { link: 'Webhooks', path: 'webhooks', heading: 'Webhooks' },
      ],
    },
    {
      login: 'vic',
      label: 'Vic Viewer · viewer',
      sections: ['Operations', 'People and time', 'Doors and access'],
      shown: ['Overview', 'Devices', 'Employees', 'Timesheets', 'Door board', 'Access'],
      hidden: [
        { link: 'Directory sync', path: 'directory-sync', heading: 'Directory sync' },
        { link: 'API keys', path: 'keys', heading: 'New key' },
        { link: 'Webhooks', path: 'webhooks', heading: 'Webhooks' },
      ],
    },
    {
      login: 'ada',
      label: 'Ada Admin · admin',
      sections: ['Operations', 'People and time', 'Doors and access', 'Administration'],
      shown: ['Overview', 'Devices', 'Employees', 'Timesheets', 'Door board', 'Access', 'Webhooks', 'API keys', 'Directory sync'],
      hidden: [],
    },
  ];

  for (const role of ROLES) {
    it(`signed in as ${role.label.split(' · ')[1]}, the navigation shows exactly the role's sections, and a page outside them is not shown by its address`, async () => {
      const page = await signIn(role.login);
      await page.getByText(role.label).waitFor();
      const nav = page.getByRole('navigation', { name: 'Pages' });
      expect(await nav.getByRole('heading').allTextContents()).to.deep.equal(role.sections);
      const links = await nav.getByRole('link').allTextContents();
      expect(links).to.include.members(role.shown);
      for (const hidden of role.hidden) {
        expect(links, hidden.link).to.not.include(hidden.link);
        await page.goto(`${t.url}/console#/${hidden.path}`);
        await nav.waitFor();
        // The overview stands in for it.
        await page.getByRole('heading', { name: 'Terminals', exact: true }).waitFor();
        expect(await page.getByRole('heading', { name: hidden.heading, exact: true }).count(), `${hidden.path} by its address`).to.equal(0);
      }
      await screenshot(page, `identity-nav-${role.login}`);
      await expectAccessible(page);
      // The API agrees: only an administrator maps a directory group.
      const mapped = await fromPage(
        page,
        'mutation { setDirectoryGroupMapping(id: "00000000-0000-0000-0000-000000000000", input: { accessLevelIds: [] }) { id } }',
      );
      expect(mapped.code).to.equal(role.login === 'ada' ? 'not_found' : 'forbidden');
      if (role.login === 'ada') {
        await page.goto(`${t.url}/console#/directory-sync`);
        await page.getByRole('heading', { name: 'Directory sync', exact: true }).waitFor();
      }
    });
  }
});
