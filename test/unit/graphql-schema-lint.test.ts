import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const root = path.resolve(__dirname, '..', '..', '..');
const cli = path.join(root, 'node_modules', 'graphql-schema-linter', 'lib', 'cli.js');

/** The rules that make the schema described: turning one off must fail here, not pass silently. */
const descriptionRules = [
  'types-have-descriptions',
  'fields-have-descriptions',
  'arguments-have-descriptions',
  'input-object-values-have-descriptions',
  'enum-values-have-descriptions',
  'descriptions-are-capitalized',
];

/** The committed schema.graphql passes graphql-schema-linter with the rules of .graphql-schema-linterrc.yml. */
describe('GraphQL schema lint', () => {
  it('graphql-schema-linter: no problem in schema.graphql', () => {
    const r = spawnSync(process.execPath, [cli, '--format', 'json'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    const report = JSON.parse(r.stdout) as { errors: Array<{ message: string; location: { line: number }; rule: string }> };
    expect(report.errors.map((e) => `schema.graphql:${e.location.line} ${e.rule}: ${e.message}`)).to.deep.equal([]);
    expect(r.status).to.equal(0);
  });

  it('runs every description rule', () => {
    const config = fs.readFileSync(path.join(root, '.graphql-schema-linterrc.yml'), 'utf8');
    const rules = [...config.matchAll(/^ {2}- ([a-z-]+)$/gm)].map((m) => m[1]);
    expect(rules).to.include.members(descriptionRules);
  });

  it('finds an undescribed field (the linter does check)', () => {
    const schema = '"""A terminal."""\ntype Query {\n  """The terminal\'s name."""\n  name: String\n  serial: String\n}\n';
    const r = spawnSync(process.execPath, [cli, '--format', 'json', '--stdin'], { cwd: root, input: schema, encoding: 'utf8', timeout: 120_000 });
    const report = JSON.parse(r.stdout) as { errors: Array<{ message: string; rule: string }> };
    expect(report.errors.filter((e) => e.rule === 'fields-have-descriptions').map((e) => e.message)).to.deep.equal([
      'The field `Query.serial` is missing a description.',
    ]);
  });
});
