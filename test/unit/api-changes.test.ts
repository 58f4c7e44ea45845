// The breaking-change check (docs/change-policy.md, src/cli/api-changes.ts): the repository's
// documents against the last release's, and fixtures that break (a removed GraphQL field, a removed
// REST field or route, a new required input) or do not (descriptions, new fields, new routes).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse, print, visit } from 'graphql';
import { checkApiChanges, graphqlBreakingChanges, openapiBreakingChanges, readChangelog } from '../../src/cli/api-changes';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
// oxlint-disable-next-line typescript/no-explicit-any -- fixtures edit the OpenAPI JSON in place
type Doc = Record<string, any>;

/** A copy of the repository's CHANGELOG.md, release documents and current documents, with `edit` applied. */
function fixture(edit: { schema?: (sdl: string) => string; openapi?: (doc: Doc) => void; changelog?: (text: string) => string }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-changes-'));
  const release = readChangelog(read('CHANGELOG.md')).lastRelease!;
  fs.mkdirSync(path.join(dir, 'docs', 'releases', release), { recursive: true });
  for (const file of ['schema.graphql', 'openapi.json'])
    fs.copyFileSync(path.join(ROOT, 'docs', 'releases', release, file), path.join(dir, 'docs', 'releases', release, file));
  fs.writeFileSync(path.join(dir, 'schema.graphql'), (edit.schema ?? ((s) => s))(read(`docs/releases/${release}/schema.graphql`)));
  const openapi = JSON.parse(read(`docs/releases/${release}/openapi.json`)) as Doc;
  edit.openapi?.(openapi);
  fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(openapi, null, 2));
  fs.writeFileSync(path.join(dir, 'CHANGELOG.md'), (edit.changelog ?? ((s) => s))(read('CHANGELOG.md')));
  return dir;
}

/** The deliberately breaking change: `Employee.code` removed. */
const withoutEmployeeCode = (sdl: string) =>
  print(
    visit(parse(sdl), {
      ObjectTypeDefinition: (node) => (node.name.value === 'Employee' ? { ...node, fields: node.fields?.filter((f) => f.name.value !== 'code') } : undefined),
    }),
  );
const listing = (line: string) => (text: string) => text.replace('## [Unreleased]\n', `## [Unreleased]\n\n### Removed\n\n${line}\n`);

describe('the breaking-change check', function () {
  this.timeout(60_000);

  it("the repository's schema.graphql and openapi.json break nothing unlisted since the release CHANGELOG.md names, whose documents are stored", async () => {
    const result = await checkApiChanges(ROOT);
    expect(fs.existsSync(path.join(ROOT, 'docs', 'releases', result.release, 'schema.graphql'))).to.equal(true);
    expect(result.unlisted.map((c) => c.message)).to.deep.equal([]);
  });

  it('fails on a GraphQL field removed, and passes once the Unreleased section lists it as breaking', async () => {
    const broken = await checkApiChanges(fixture({ schema: withoutEmployeeCode }));
    expect(broken.unlisted.map((c) => c.key)).to.deep.equal(['Employee.code']);
    // Mentioned without the Breaking mark, or in an older release's section: still unlisted.
    const unmarked = await checkApiChanges(fixture({ schema: withoutEmployeeCode, changelog: listing('- `Employee.code` removed.') }));
    expect(unmarked.unlisted.map((c) => c.key)).to.deep.equal(['Employee.code']);
    const listed = await checkApiChanges(
      fixture({ schema: withoutEmployeeCode, changelog: listing('- **Breaking** `Employee.code` removed: use `Employee.id`.') }),
    );
    expect(listed.breaking.map((c) => c.key)).to.deep.equal(['Employee.code']);
    expect(listed.unlisted).to.deep.equal([]);
  });

  it('fails on REST breaks: a route removed, an answer field removed, a new required body field, a tighter bound', async () => {
    const result = await checkApiChanges(
      fixture({
        openapi: (doc) => {
          delete doc.paths['/public/v2/holidays'].get;
          delete doc.paths['/public/v2/employees'].post.responses['201'].content['application/json'].schema.properties.code;
          const body = doc.paths['/public/v2/employees'].post.requestBody.content['application/json'].schema.oneOf[0];
          body.properties.badge = { type: 'string' };
          body.required.push('badge');
          body.properties.name.maxLength = 50;
        },
      }),
    );
    const byKey = Object.fromEntries(result.unlisted.map((c) => [c.key, c.message]));
    expect(Object.keys(byKey).sort()).to.deep.equal(['GET /public/v2/holidays', 'POST /public/v2/employees']);
    expect(byKey['POST /public/v2/employees'])
      .to.contain('answer 201.code: removed')
      .and.contain('body (oneOf 1).badge: new required field')
      .and.contain('name: maxLength lowered to 50');
  });

  it('descriptions, new optional fields, new types and new routes are not breaking', async () => {
    // The release without a single description against today's, with a new field and a new type.
    const undescribed = print(
      visit(parse(read('schema.graphql')), { enter: (node) => ('description' in node && node.description ? { ...node, description: undefined } : undefined) }),
    );
    expect(undescribed).not.to.contain('"""');
    const sdl = read('schema.graphql')
      .replace('type Employee {\n', 'type Employee {\n  """A new field."""\n  badge: String\n')
      .concat('\n"""A new type."""\ntype Badge {\n  id: Int!\n}\n');
    expect(await graphqlBreakingChanges(undescribed, sdl)).to.deep.equal([]);
    const before = JSON.parse(read('openapi.json')) as Doc;
    const after = JSON.parse(read('openapi.json')) as Doc;
    after.paths['/public/v2/badges'] = { get: { operationId: 'listBadges', responses: { '200': { description: 'Badges.' } } } };
    after.paths['/public/v2/employees'].get.description = 'Rewritten.';
    after.paths['/public/v2/employees'].post.responses['201'].content['application/json'].schema.properties.badge = { type: 'string' };
    after.paths['/public/v2/employees'].post.requestBody.content['application/json'].schema.oneOf[0].properties.badge = { type: 'string' };
    expect(openapiBreakingChanges(before, after)).to.deep.equal([]);
  });
});
