import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

/**
 * The layering of docs/architecture.md, checked by a test rather than by review. Every file under
 * src belongs to a unit (a folder; a capability folder of src/services; the composition roots at the
 * top). ARROWS says which units a unit may import at run time (`import type` brings no dependency);
 * the table "Who may import whom" in docs/architecture.md must say the same.
 */
const src = path.resolve(__dirname, '..', '..', '..', 'src');
const architecture = path.resolve(__dirname, '..', '..', '..', 'docs', 'architecture.md');

/** Any capability folder of src/services (directory, terminals, commands, attendance, …). */
const CAPABILITIES = 'services/*';
const KERNEL = ['kernel', 'errors'];
const FOUNDATION = [...KERNEL, 'config', 'db', 'entities'];
/** What stands below the services: every capability may use it. */
const BELOW_SERVICES = [...FOUNDATION, 'context', 'events', 'jobs', 'observability', 'protocol', 'scim', 'services/common'];

const ARROWS: Record<string, string[]> = {
  kernel: [],
  errors: ['kernel'],
  config: KERNEL,
  entities: KERNEL,
  protocol: ['kernel'],
  scim: ['kernel'],
  jobs: [],
  db: [...KERNEL, 'config', 'entities'],
  limits: [...KERNEL, 'config'],
  observability: [...FOUNDATION, 'jobs'],
  context: [...KERNEL, 'config', 'observability'],
  events: [...FOUNDATION, 'context', 'jobs', 'limits', 'observability'],
  'services/common': [...FOUNDATION, 'context'],
  [CAPABILITIES]: [...BELOW_SERVICES, CAPABILITIES],
  workers: [...BELOW_SERVICES, 'simulator', CAPABILITIES],
  devices: [...BELOW_SERVICES, 'limits', CAPABILITIES],
  schema: [...FOUNDATION, 'events', 'protocol', 'services/common', CAPABILITIES],
  resolvers: [...KERNEL, 'config', 'context', 'events', 'schema', 'services/common', CAPABILITIES],
  graphql: [...BELOW_SERVICES, 'limits', 'resolvers', 'schema', CAPABILITIES],
  rest: [...KERNEL, 'config', 'context', 'events', 'limits', 'protocol', 'schema', 'services/common', CAPABILITIES],
  'scim-http': [...KERNEL, 'config', 'context', 'limits', 'scim', 'services/common', CAPABILITIES],
  web: [...FOUNDATION, 'context', 'services/common', CAPABILITIES],
  simulator: ['kernel', 'protocol'],
};

/**
 * The capability folders of src/services in order, lowest first: a capability imports only those of
 * lower levels (never one of its own level, so no two capabilities lean on each other). A call that
 * must go the other way is a registration (a lower capability announces, a higher one registers).
 */
const CAPABILITY_LEVELS: string[][] = [
  ['commands', 'identity', 'webhooks'],
  ['sync'],
  ['access', 'fleet'],
  ['attendance'],
  ['leave', 'payroll'],
  ['self-service'],
  ['terminals'],
  ['directory'],
  ['provisioning', 'sandbox'],
];
/** Composition roots (app.ts, main.ts, build-schema.ts, …) and the CLI wire everything together. */
const UNCHECKED = new Set(['(root)', 'cli', 'console', 'me-app']);

function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return '(root)';
  if (parts[0] === 'services') return parts.length > 2 && parts[1] !== 'common' ? CAPABILITIES : parts.length > 2 ? 'services/common' : '(services root)';
  return parts[0]!;
}

const files = fs
  .readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.tsx?$/.test(f))
  .map((f) => ({ file: f.split(path.sep).join('/'), text: fs.readFileSync(path.join(src, f), 'utf8') }));
const known = new Set(files.map((f) => f.file));

/** Value imports only: `import type` brings no dependency at run time. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)(?! type)[^;]*?from '([^']+)';/gm)].map((m) => m[1]!);
}

/** Every import, types included: a circle of types is still two files that cannot be read apart. */
function allImportsOf(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)[^;]*?from '([^']+)';/gm)].map((m) => m[1]!);
}

/** A relative import of `file` as a file under src, or null for a package. */
function resolveImport(file: string, target: string): string | null {
  if (!target.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((c) => known.has(c)) ?? `${base}.ts`;
}

/** Package imports a unit may not make, whatever its arrows. */
const FORBIDDEN_PACKAGES: Record<string, RegExp> = {
  entities: /^(express|type-graphql|graphql)$/,
  [CAPABILITIES]: /^(express|type-graphql)$/,
  'services/common': /^(express|type-graphql)$/,
  protocol: /^(?!node:)/,
  context: /^(express|type-graphql|graphql)$/,
  events: /^(express|type-graphql)$/,
  scim: /^(?!node:)/,
  devices: /^(express|type-graphql)$/,
  resolvers: /^express$/,
  kernel: /^(express|type-graphql|@mikro-orm\/.*)$/,
};

/** REST routes run GraphQL operations; the few service modules they use are request plumbing. */
const REST_SERVICE_MODULES = /^services\/(common\/(idempotency\.service|input-limits|pagination|validation)|commands\/action-kinds)\.ts$/;

/** Reading rows is allowed everywhere; these units never write or query through the EntityManager. */
const NO_ENTITY_MANAGER = /\b(ctx\.em|em)\.(find|findOne|create|persist|flush|execute|transactional|remove|count|getKnex)\b/;

describe('layering', () => {
  it('every file imports only the units its unit may import (docs/architecture.md, "Who may import whom")', () => {
    const offences: string[] = [];
    for (const { file, text } of files) {
      const from = unitOf(file);
      if (UNCHECKED.has(from)) continue;
      const allowed = ARROWS[from];
      if (!allowed) {
        offences.push(`${file}: unit ${from} has no row in ARROWS`);
        continue;
      }
      for (const target of importsOf(text)) {
        const resolved = resolveImport(file, target);
        if (resolved === null) {
          if (FORBIDDEN_PACKAGES[from]?.test(target)) offences.push(`${file} imports the package ${target}`);
          continue;
        }
        const to = unitOf(resolved);
        if (to !== from && !allowed.includes(to)) offences.push(`${file} (${from}) imports ${resolved} (${to})`);
        if (from === 'rest' && to.startsWith('services') && !REST_SERVICE_MODULES.test(resolved)) offences.push(`${file}: REST calls the service ${resolved}`);
      }
      if ((from === 'devices' || from === 'resolvers') && NO_ENTITY_MANAGER.test(text)) offences.push(`${file} uses the EntityManager`);
    }
    expect(offences).to.deep.equal([]);
  });

  it('capabilities import only capabilities of lower levels (docs/architecture.md, "Capabilities in order")', () => {
    const level = new Map(CAPABILITY_LEVELS.flatMap((names, i) => names.map((name) => [name, i] as const)));
    const capabilityOf = (file: string) => (unitOf(file) === CAPABILITIES ? file.split('/')[1]! : null);
    const offences: string[] = [];
    for (const { file, text } of files) {
      const from = capabilityOf(file);
      if (!from) continue;
      if (!level.has(from)) offences.push(`${file}: capability ${from} has no level in CAPABILITY_LEVELS`);
      // Types too: a capability that names another's types still leans on it.
      for (const target of allImportsOf(text)) {
        const resolved = resolveImport(file, target);
        const to = resolved && capabilityOf(resolved);
        if (!to || to === from) continue;
        if (!(level.get(to)! < level.get(from)!))
          offences.push(`${file} (${from}, level ${level.get(from)}) imports ${resolved} (${to}, level ${level.get(to)})`);
      }
    }
    expect(offences).to.deep.equal([]);
  });

  it('docs/architecture.md states the same capability order', () => {
    const text = fs.readFileSync(architecture, 'utf8');
    const section = text.slice(text.indexOf('## Capabilities in order'), text.indexOf('## Who may import whom'));
    const documented = [...section.matchAll(/^\| (\d+) \| (.*?) \|/gm)].map((m) => [...m[2]!.matchAll(/`([^`/]+)\/`/g)].map((x) => x[1]!).sort());
    expect(documented).to.deep.equal(CAPABILITY_LEVELS.map((names) => [...names].sort()));
  });

  it('src/services holds capability folders only (no loose files)', () => {
    expect(files.filter(({ file }) => unitOf(file) === '(services root)').map(({ file }) => file)).to.deep.equal([]);
  });

  it('docs/architecture.md lists the same arrows', () => {
    const text = fs.readFileSync(architecture, 'utf8');
    const section = text.slice(text.indexOf('## Who may import whom'));
    const documented: Record<string, string[]> = {};
    for (const m of section.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)) {
      documented[m[1]!] = [...m[2]!.matchAll(/`([^`]+)`/g)].map((x) => x[1]!).sort();
    }
    const expected = Object.fromEntries(Object.entries(ARROWS).map(([unit, to]) => [unit, [...to].sort()]));
    expect(documented).to.deep.equal(expected);
  });

  it('there is no import circle between files, not even through types', () => {
    const graph = new Map(
      files.map(({ file, text }) => [
        file,
        allImportsOf(text)
          .map((t) => resolveImport(file, t))
          .filter((t): t is string => t !== null && known.has(t)),
      ]),
    );
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(circles).to.deep.equal([]);
  });

  it('every module is used: imported by another, or an entry point (the service, a CLI command, a console bundle, a migration)', () => {
    const entry = /^(main\.ts|cli\/[^/]+\.ts|console\/(main|graphiql)\.tsx|me-app\/(main\.tsx|sw\.ts)|db\/migrations\/Migration\d+\.ts)$/;
    const reached = new Set(files.flatMap(({ file, text }) => allImportsOf(text).map((t) => resolveImport(file, t))));
    const unused = files.map((f) => f.file).filter((file) => !file.endsWith('.d.ts') && !entry.test(file) && !reached.has(file));
    expect(unused).to.deep.equal([]);
  });

  it('the command queue is a port: it imports no engine (engines register in devices/command-engines.ts)', () => {
    const queue = 'services/commands/command-queue.ts';
    const text = files.find((f) => f.file === queue)!.text;
    const engines = importsOf(text)
      .map((t) => resolveImport(queue, t))
      .filter((t): t is string => t !== null && (/\.service\.ts$/.test(t) || /engines\.ts$/.test(t)));
    expect(engines).to.deep.equal([]);
  });

  it('only the command queue writes device_command (engines queue through it)', () => {
    const offences = files
      .filter(({ file }) => !file.startsWith('services/commands/') && !file.startsWith('db/migrations'))
      .filter(({ text }) => /\b(insert\s+into|update|delete\s+from)\s+device_command\b(?!_)/i.test(text))
      .map(({ file }) => file);
    expect(offences).to.deep.equal([]);
  });
});
