import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

/**
 * The layering of architecture.md, checked by a test rather than by review: each rule names the
 * folder, what its files must not import or do, and why.
 */
const src = path.resolve(__dirname, '..', '..', '..', 'src');

function sources(folder: string): { file: string; text: string }[] {
  const dir = path.join(src, folder);
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: path.join(folder, f), text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** Value imports only: `import type` brings no dependency at run time. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/^import(?! type)[\s\S]*?from '([^']+)';/gm)].map((m) => m[1]);
}

const rules: { folder: string; forbidden: RegExp; why: string; code?: RegExp }[] = [
  { folder: 'entities', forbidden: /^(express|type-graphql|graphql|\.\.\/(schema|resolvers|rest|devices|services|events))/, why: 'entities are persistence only' },
  { folder: 'services', forbidden: /^(express|type-graphql|\.\.\/(schema|resolvers|rest))/, why: 'business rules know no transport' },
  { folder: 'devices/protocol', forbidden: /^(?!node:|\.\/)/, why: 'protocol code is pure: text in, typed values out' },
  { folder: 'scim', forbidden: /^(?!node:|\.\/)/, why: 'the SCIM protocol (filters, paths, PATCH, projection) is pure: JSON in, JSON out' },
  {
    folder: 'rest',
    forbidden: /^\.\.\/(services\/(?!(idempotency\.service|pagination|validation|context|action-kinds)$)|entities|resolvers)/,
    why: 'REST routes run GraphQL operations; they call no business service',
  },
  {
    folder: 'devices',
    forbidden: /^(express|type-graphql|\.\.\/(resolvers|rest|schema))/,
    code: /\b(ctx\.em|em)\.(find|findOne|create|persist|flush|execute|transactional|remove|count|getKnex)\b/,
    why: 'the terminal adapter parses, calls services and formats replies; it writes nothing itself',
  },
  {
    folder: 'resolvers',
    forbidden: /^(express|\.\.\/(entities|rest|devices))/,
    code: /\b(ctx\.em|em)\.(find|findOne|create|persist|flush|execute|transactional|remove|count)\b/,
    why: 'a resolver is one service call, with no EntityManager work',
  },
];

/** The command queue is a port: engines plug into it (commands/engines.ts); it imports none of them. */
const QUEUE = 'services/commands/command-queue.ts';

/** A relative import of `file` as a path under src, with its `.ts`. */
function resolveImport(file: string, target: string): string {
  return path.join(path.dirname(file), `${target}.ts`);
}

describe('layering', () => {
  it(`src/${QUEUE}: the command queue imports no engine, and nothing it imports imports it back`, () => {
    const text = fs.readFileSync(path.join(src, QUEUE), 'utf8');
    const relative = importsOf(text).filter((t) => t.startsWith('.'));
    expect(relative.filter((t) => /\.service$|engines$/.test(t)), 'engines imported by the queue').to.deep.equal([]);
    const cycles = relative.filter((t) => importsOf(fs.readFileSync(path.join(src, resolveImport(QUEUE, t)), 'utf8')).some((i) => /command-queue$/.test(i)));
    expect(cycles, 'modules the queue imports that import it back').to.deep.equal([]);
  });

  it('only the command queue writes device_command (engines queue through it)', () => {
    const offences = sources('.')
      .filter(({ file }) => !file.startsWith('services/commands/') && !file.startsWith('db/migrations') && file !== 'services/device-command-archive.service.ts')
      .filter(({ text }) => /\b(insert\s+into|update|delete\s+from)\s+device_command\b(?!_)/i.test(text))
      .map(({ file }) => file);
    expect(offences).to.deep.equal([]);
  });

  for (const rule of rules) {
    it(`src/${rule.folder}: ${rule.why}`, () => {
      const files = sources(rule.folder);
      expect(files.length, rule.folder).to.be.greaterThan(0);
      const offences: string[] = [];
      for (const { file, text } of files) {
        for (const target of importsOf(text)) if (rule.forbidden.test(target)) offences.push(`${file} imports ${target}`);
        if (rule.code?.test(text)) offences.push(`${file} uses the EntityManager`);
      }
      expect(offences).to.deep.equal([]);
    });
  }
});
