import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLSchema,
} from 'graphql';
import { buildTimegateSchema, schemaSdl } from '../../src/graphql/build-schema';
import { boundOf } from '../../src/schema/bounds';
import { listLimits, textLimits } from '../../src/services/common/input-limits';
import { routeTable } from '../../src/rest/route-table';
import { documentNestsDeeperThan, jsonNestsDeeperThan, valueNestsDeeperThan } from '../../src/kernel/nesting';

/** Scalars that carry text but bound it themselves (their `extensions.maxLength`). */
const TEXT_SCALARS = ['String', 'ID'];

/** Every argument and input field of the schema, named `Type.field(arg)` or `Input.field`. */
function inputValues(schema: GraphQLSchema): { name: string; value: GraphQLArgument | GraphQLInputField }[] {
  const found: { name: string; value: GraphQLArgument | GraphQLInputField }[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        for (const arg of field.args) found.push({ name: `${type.name}.${field.name}(${arg.name})`, value: arg });
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) found.push({ name: `${type.name}.${field.name}`, value: field });
    }
  }
  return found;
}

describe('every string a client sends has a bound', () => {
  let schema: GraphQLSchema;
  before(async () => {
    schema = await buildTimegateSchema();
  });

  it('GraphQL: every String, ID and list-of-String argument and input field declares @constraint, from the one table of limits', () => {
    const texts = inputValues(schema).filter(({ value }) => TEXT_SCALARS.includes(getNamedType(value.type).name));
    const unbounded = texts.filter(({ value }) => boundOf(value) === null).map(({ name }) => name);
    expect(unbounded, 'arguments and input fields without @Bounded(...)').to.deep.equal([]);
    const listsWithoutMaxItems = texts
      .filter(({ value }) => isListType(getNullableType(value.type)) && boundOf(value)?.maxItems === undefined)
      .map(({ name }) => name);
    expect(listsWithoutMaxItems, 'lists of strings without maxItems').to.deep.equal([]);
    // The bounds are the table's: a number written by hand would drift from REST and the services.
    const allowedLengths = new Set<number>(Object.values(textLimits));
    const allowedItems = new Set<number>(Object.values(listLimits));
    for (const { name, value } of texts) {
      const bound = boundOf(value)!;
      expect(allowedLengths.has(bound.maxLength), `${name}: maxLength ${bound.maxLength} is not in textLimits`).to.equal(true);
      if (bound.maxItems !== undefined) expect(allowedItems.has(bound.maxItems), `${name}: maxItems ${bound.maxItems} is not in listLimits`).to.equal(true);
    }
    // Not vacuous: the fields of the outside attack are among them, with the table's limits.
    const byName = new Map(texts.map(({ name, value }) => [name, boundOf(value)]));
    expect(byName.get('Query.employees(search)')).to.deep.equal({ maxLength: textLimits.search });
    expect(byName.get('Query.area(idOrName)')).to.deep.equal({ maxLength: textLimits.idOrName });
    expect(byName.get('Query.auditEvents(operation)')).to.deep.equal({ maxLength: textLimits.operation });
    expect(byName.get('Query.unknownTerminals(serialNumber)')).to.deep.equal({ maxLength: textLimits.serialNumber });
    expect(byName.get('CreateDeviceInput.allowedSourceCidrs')).to.deep.equal({ maxLength: textLimits.cidr, maxItems: listLimits.cidrs });
    expect(texts.length).to.be.greaterThan(200);
  });

  it('GraphQL: any other scalar an input takes is not text, or carries its own bound', () => {
    const scalars = new Set(
      inputValues(schema)
        .map(({ value }) => getNamedType(value.type))
        .filter((type) => isScalarType(type) && !TEXT_SCALARS.includes(type.name))
        .map((type) => type.name),
    );
    for (const name of scalars) {
      const type = schema.getType(name)!;
      if (['Int', 'Float', 'Boolean', 'SafeInt'].includes(name)) continue;
      expect(type.extensions.maxLength, `scalar ${name} takes text: give it extensions.maxLength and refuse longer input`).to.be.a('number');
    }
    expect(scalars.has('DateTimeISO')).to.equal(true);
  });

  it('schema.graphql shows each bound as @constraint on its argument or input field', () => {
    const sdl = schemaSdl(schema);
    expect(sdl).to.contain('directive @constraint(');
    expect(sdl).to.contain(`search: String @constraint(maxLength: ${textLimits.search})`);
    expect(sdl).to.contain(`allowedSourceCidrs: [String!] @constraint(maxLength: ${textLimits.cidr}, maxItems: ${listLimits.cidrs})`);
  });

  it('docs/limits.md lists every named limit with its value', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'limits.md'), 'utf8');
    for (const [name, value] of [...Object.entries(textLimits), ...Object.entries(listLimits)]) {
      expect(doc, name).to.contain(`| \`${name}\` | ${value.toLocaleString('en-US')} |`);
    }
  });

  it('REST: every string of every body and query JSON Schema has a maxLength (or a fixed set), every list of strings a maxItems', () => {
    const unbounded: string[] = [];
    const allowedLengths = new Set<number>(Object.values(textLimits));
    const walk = (schema: unknown, path: string) => {
      if (schema === null || typeof schema !== 'object') return;
      const s = schema as Record<string, unknown>;
      const types = ([] as unknown[]).concat(s.type ?? []);
      if (types.includes('string') && s.maxLength === undefined && s.enum === undefined) unbounded.push(path);
      // The bounds are the table's, as in GraphQL.
      if (s.maxLength !== undefined && !allowedLengths.has(s.maxLength as number)) unbounded.push(`${path} (maxLength ${s.maxLength} is not in textLimits)`);
      if (types.includes('array') && s.maxItems === undefined) {
        const items = s.items as Record<string, unknown> | undefined;
        if (items && ([] as unknown[]).concat(items.type ?? []).includes('string')) unbounded.push(`${path}[] (maxItems)`);
      }
      for (const [key, child] of Object.entries(s.properties ?? {})) walk(child, `${path}.${key}`);
      if (s.items) walk(s.items, `${path}[]`);
      for (const key of ['oneOf', 'anyOf', 'allOf'] as const)
        for (const [i, child] of ((s[key] as unknown[]) ?? []).entries()) walk(child, `${path}.${key}${i}`);
    };
    for (const route of routeTable) {
      walk(route.body?.schema, `${route.method} ${route.path} body`);
      walk(route.query, `${route.method} ${route.path} query`);
    }
    expect(unbounded).to.deep.equal([]);
  });
});

describe('nesting is measured without recursion', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('JSON text: objects and arrays count, brackets in strings do not', () => {
    expect(jsonNestsDeeperThan('{"a":[1,{"b":2}]}', 3)).to.equal(false);
    expect(jsonNestsDeeperThan('{"a":[1,{"b":[]}]}', 3)).to.equal(true);
    expect(jsonNestsDeeperThan('{"a":"[[[[[[\\"[[[[","b":1}', 1)).to.equal(false);
    expect(jsonNestsDeeperThan(Buffer.from(`{"x":${deep(150_000)}}`), 32)).to.equal(true);
    expect(jsonNestsDeeperThan(Buffer.from(`{"x":${deep(31)}}`), 32)).to.equal(false);
    expect(jsonNestsDeeperThan(Buffer.from(`{"x":${deep(32)}}`), 32)).to.equal(true);
  });

  it('GraphQL documents: braces, brackets and parentheses count, strings, block strings and comments do not', () => {
    expect(documentNestsDeeperThan('{ employees(search: "x") { nodes { id } } }', 4)).to.equal(false);
    expect(documentNestsDeeperThan('{ a { b { c { d { e } } } } }', 4)).to.equal(true);
    expect(documentNestsDeeperThan('{ a(s: "{{{{{{{\\"{{{{") }', 2)).to.equal(false);
    expect(documentNestsDeeperThan('{ a(s: """ {{{{ \\""" {{{{ """) }', 2)).to.equal(false);
    expect(documentNestsDeeperThan('# {{{{{{{{\n{ a }', 1)).to.equal(false);
    expect(documentNestsDeeperThan(`{ a(l: ${deep(7000)}) }`, 128)).to.equal(true);
  });

  it('parsed values: an explicit stack, however deep the value', () => {
    let value: unknown = 1;
    for (let i = 0; i < 150_000; i++) value = [value];
    expect(valueNestsDeeperThan({ x: value }, 32)).to.equal(true);
    expect(valueNestsDeeperThan({ a: [{ b: [1, 2] }], c: 'x' }, 4)).to.equal(false);
    expect(valueNestsDeeperThan({ a: [{ b: [1, 2] }] }, 3)).to.equal(true);
    expect(valueNestsDeeperThan('text', 0)).to.equal(false);
  });
});
