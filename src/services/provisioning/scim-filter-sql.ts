// SCIM filters (RFC 7644, section 3.4.2.2) as SQL, so that a list reads from PostgreSQL only the
// page it answers, whatever the filter: the whole grammar that src/scim/filter.ts parses (eq ne co
// sw ew gt ge lt le pr, and, or, not, value paths, URN-qualified paths) is translated, with the
// meaning src/scim/filter-eval.ts gives it in memory:
//
// * a path's values are read from the stored resource's search copy (src/scim/search-document.ts:
//   names in lower case; strings in lower case but for `caseExact` attributes), or, for what the
//   service computes (id, active, meta, schemas, a user's groups, a group's members), from the
//   columns, by the SQL function scim_values (the entries of a multi-valued attribute; their
//   sub-attribute, or with none each entry's `value`);
// * a comparison holds when any value satisfies it (`ne`: when every value does); strings compare
//   without case unless the attribute is caseExact (the expected value is lowered here as the copy
//   was); numbers compare as numbers (scim_number); booleans also match "True"/"False" strings;
// * a value path holds when one entry of the attribute (an object) satisfies the inner filter,
//   whose paths are read inside that entry.
//
// Every value goes in as a bound parameter; attribute names go in as parameters too.
import type { AttrPath, CompValue, Filter } from '../../scim/filter';
import { definitionOf, isCore } from '../../scim/resource';
import type { AttributeDefinition, SchemaDefinition } from '../../scim/schemas';

/** SQL text with `?` placeholders and their values, in order. */
export interface Sql {
  sql: string;
  params: unknown[];
}

const sql = (text: string, ...params: unknown[]): Sql => ({ sql: text, params });

/** An attribute name as an SQL string literal (names hold no quote: filter.ts's ATTR_NAME). */
function literal(name: string): string {
  if (!/^[a-z$][\w$-]*$/.test(name)) throw new Error(`not an attribute name: ${name}`);
  return `'${name}'`;
}

/** Joins fragments with a separator. */
function join(parts: Sql[], separator: string): Sql {
  return { sql: parts.map((p) => p.sql).join(separator), params: parts.flatMap((p) => p.params) };
}

/** Where a list's filter reads: the resource's search copy and the attributes computed from columns. */
export interface FilterTarget {
  core: SchemaDefinition;
  /** A jsonb expression: the row's search copy. */
  search: string;
  /** Top-level attributes (lower-case names) computed from columns: a jsonb expression each (SQL null: absent). */
  computed: Record<string, () => Sql>;
}

type Scope = { kind: 'resource' } | { kind: 'entry'; alias: string; parent: AttributeDefinition | undefined };

class Translator {
  private aliases = 0;

  constructor(private readonly target: FilterTarget) {}

  translate(filter: Filter, scope: Scope): Sql {
    switch (filter.kind) {
      case 'and':
      case 'or':
        return join([sql('('), this.translate(filter.left, scope), sql(` ${filter.kind} `), this.translate(filter.right, scope), sql(')')], '');
      case 'not':
        return join([sql('(not '), this.translate(filter.filter, scope), sql(')')], '');
      case 'present': {
        const values = this.values(scope, filter.path);
        return join([sql('exists (select 1 from '), values, sql(` v where v not in ('""'::jsonb, '[]'::jsonb))`)], '');
      }
      case 'compare':
        return this.compare(scope, filter.path, filter.op, filter.value);
      case 'valuePath': {
        const alias = `e${++this.aliases}`;
        const value = this.value(scope, filter.path);
        const inner = this.translate(filter.filter, { kind: 'entry', alias, parent: this.definition(scope, { ...filter.path, sub: null }) });
        return join(
          [
            sql('exists (select 1 from jsonb_array_elements(scim_entries('),
            value,
            sql(`)) ${alias} where jsonb_typeof(${alias}) = 'object' and `),
            inner,
            sql(')'),
          ],
          '',
        );
      }
    }
  }

  /** The definition a path compares by (filter-eval.ts's `definitionIn`). */
  private definition(scope: Scope, path: AttrPath): AttributeDefinition | undefined {
    if (scope.kind === 'entry') return scope.parent?.subAttributes?.find((a) => a.name.toLowerCase() === path.attr.toLowerCase());
    return definitionOf(this.target.core, path);
  }

  /** The jsonb value of a path's attribute (without its sub-attribute), SQL null when absent. */
  private value(scope: Scope, path: AttrPath): Sql {
    // An attribute name is letters, digits, `_`, `$` and `-` (filter.ts's ATTR_NAME): written as a
    // literal, so that the expression has no parameter and can be repeated (compare's fast path).
    const attr = literal(path.attr.toLowerCase());
    if (scope.kind === 'entry') return sql(`(${scope.alias} -> ${attr})`);
    if (isCore(this.target.core, path.schema)) {
      const computed = this.target.computed[path.attr.toLowerCase()];
      return computed ? join([sql('('), computed(), sql(')')], '') : sql(`(${this.target.search} -> ${attr})`);
    }
    return sql(`(${this.target.search} -> ?::text -> ${attr})`, path.schema!.toLowerCase());
  }

  /** The set of values a path names: `scim_values(...)`. */
  private values(scope: Scope, path: AttrPath): Sql {
    return join([sql('scim_values('), this.value(scope, path), sql(', ?::text)', path.sub === null ? null : path.sub.toLowerCase())], '');
  }

  private compare(scope: Scope, path: AttrPath, op: string, expected: CompValue): Sql {
    if (expected === null) return sql(op === 'ne' ? 'true' : 'false');
    const definition = this.definition(scope, path);
    const caseExact = definition?.caseExact ?? false;
    // A complex attribute compared as a whole compares its entries' `value`s: when that sub-attribute
    // is caseExact (stored with its case) and the attribute is not, the stored value is lowered here.
    const lowerStored = !caseExact && path.sub === null && definition?.subAttributes?.find((a) => a.name.toLowerCase() === 'value')?.caseExact === true;
    const test = this.test(op, expected, caseExact, lowerStored);
    const general =
      op === 'ne'
        ? join([sql('not exists (select 1 from '), this.values(scope, path), sql(' v where not coalesce('), test, sql(', false))')], '')
        : join([sql('exists (select 1 from '), this.values(scope, path), sql(' v where coalesce('), test, sql(', false))')], '');
    // Fast path, same meaning: a single value (a string, or an object holding the sub-attribute) is
    // compared in place, without reading it as a list of entries. Most values are single.
    const value = this.value(scope, path);
    if (value.params.length > 0) return general;
    const v = value.sql;
    if (path.sub === null) {
      const single = this.test(op, expected, caseExact, lowerStored, v);
      return join([sql(`(case when jsonb_typeof(${v}) = 'string' then coalesce(`), single, sql(', false) else '), general, sql(' end)')], '');
    }
    const sub = `(${v} -> ${literal(path.sub.toLowerCase())})`;
    const single = this.test(op, expected, caseExact, lowerStored, sub);
    const absent = `coalesce(jsonb_typeof(${sub}), 'null') = 'null'`;
    return join(
      [
        sql(`(case when jsonb_typeof(${v}) = 'object' then `),
        op === 'ne'
          ? join([sql(`(${absent} or coalesce(`), single, sql(', false))')], '')
          : join([sql(`(not ${absent} and coalesce(`), single, sql(', false))')], ''),
        sql(' else '),
        general,
        sql(' end)'),
      ],
      '',
    );
  }

  /** Whether one value `v` satisfies `op expected` (filter-eval.ts's `compareOne`). */
  private test(op: string, expected: string | number | boolean, caseExact: boolean, lowerStored: boolean, v = 'v'): Sql {
    if (typeof expected === 'boolean') {
      const word = expected ? 'true' : 'false';
      const equal = sql(`(${v} = ?::jsonb or (jsonb_typeof(${v}) = 'string' and lower(${v} #>> '{}') = ?::text))`, word, word);
      if (op === 'eq') return equal;
      if (op === 'ne') return join([sql('not '), equal], '');
      return sql('false');
    }
    if (typeof expected === 'number') {
      const operator = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' }[op];
      if (!operator) return sql('false');
      // Not a number: only `ne` holds.
      return sql(`coalesce(scim_number(${v}) ${operator} ?::numeric, ${op === 'ne' ? 'true' : 'false'})`, String(expected));
    }
    const text = lowerStored ? `lower(${v} #>> '{}')` : `(${v} #>> '{}')`;
    const wanted = caseExact ? expected : expected.toLowerCase();
    // A value that is no string compares, for eq and ne only, as JavaScript's String() writes it.
    const asText = `(case jsonb_typeof(${v}) when 'object' then '[object Object]' when 'null' then 'null' else ${v} #>> '{}' end)`;
    switch (op) {
      case 'eq':
        return sql(`(case when jsonb_typeof(${v}) = 'string' then ${text} = ?::text else ${asText} = ?::text end)`, wanted, expected);
      case 'ne':
        return sql(`(case when jsonb_typeof(${v}) = 'string' then ${text} <> ?::text else ${asText} <> ?::text end)`, wanted, expected);
      case 'co':
        return sql(`(jsonb_typeof(${v}) = 'string' and strpos(${text}, ?::text) > 0)`, wanted);
      case 'sw':
        return sql(`(jsonb_typeof(${v}) = 'string' and starts_with(${text}, ?::text))`, wanted);
      case 'ew':
        return sql(`(jsonb_typeof(${v}) = 'string' and right(${text}, char_length(?::text)) = ?::text)`, wanted, wanted);
      default: {
        const operator = { gt: '>', ge: '>=', lt: '<', le: '<=' }[op]!;
        // Code-point order, as JavaScript compares strings (but for characters beyond U+FFFF).
        return sql(`(jsonb_typeof(${v}) = 'string' and (${text} collate "C") ${operator} ?::text)`, wanted);
      }
    }
  }
}

/** The filter as an SQL condition on one row of `target`. */
export function filterSql(filter: Filter, target: FilterTarget): Sql {
  return new Translator(target).translate(filter, { kind: 'resource' });
}

/** The top-level `and` terms of a filter (the filter itself when it is no `and`). */
export function conjuncts(filter: Filter): Filter[] {
  return filter.kind === 'and' ? [...conjuncts(filter.left), ...conjuncts(filter.right)] : [filter];
}

/** A top-level term `attr eq "string"` on a core attribute without sub-attribute: its attribute (lower case) and value. */
export function equalityOf(term: Filter, core: SchemaDefinition): { attr: string; value: string } | null {
  if (term.kind !== 'compare' || term.op !== 'eq' || typeof term.value !== 'string' || term.path.sub !== null) return null;
  if (!isCore(core, term.path.schema)) return null;
  return { attr: term.path.attr.toLowerCase(), value: term.value };
}
