// SCIM filters and attribute paths (RFC 7644, sections 3.4.2.2 and 3.5.2): text in, a typed tree
// out. Pure; evaluation against a resource is in filter-eval.ts.
//
//   FILTER    = attrExp / logExp / valuePath / "not" "(" FILTER ")" / "(" FILTER ")"
//   attrExp   = attrPath SP "pr" / attrPath SP compareOp SP compValue
//   valuePath = attrPath "[" valFilter "]"
//   attrPath  = [URI ":"] ATTRNAME ["." subAttr]
//
// Precedence: `not`, then `and`, then `or`. Operators and attribute names are case-insensitive.
import { ScimError } from './errors';

/** An attribute reference: an optional schema URN, the attribute, and an optional sub-attribute. */
export interface AttrPath {
  /** The schema URN when the path was written fully qualified (`urn:...:enterprise:2.0:User:employeeNumber`). */
  schema: string | null;
  attr: string;
  sub: string | null;
}

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type CompValue = string | number | boolean | null;

export type Filter =
  | { kind: 'compare'; path: AttrPath; op: CompareOp; value: CompValue }
  | { kind: 'present'; path: AttrPath }
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; filter: Filter }
  | { kind: 'valuePath'; path: AttrPath; filter: Filter };

const COMPARE_OPS = new Set<string>(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);

type Token =
  { type: 'word'; text: string; at: number } | { type: 'string'; text: string; at: number } | { type: 'punct'; text: '(' | ')' | '[' | ']'; at: number };

/** The most characters of a filter this parser takes (a directory sends short ones). */
export const MAX_FILTER_LENGTH = 4096;
/**
 * The deepest nesting of parentheses and brackets, and the most `and`/`or` of one filter: the parser
 * and the evaluation recurse once per level (a chain of `and`s is a tree as deep as it is long), so
 * both are bounded before parsing goes that deep.
 */
export const MAX_FILTER_NESTING = 32;
export const MAX_FILTER_OPERATORS = 64;

/** Refuses a token list nested more than MAX_FILTER_NESTING deep, counting without recursion. */
function checkNesting(tokens: Token[], fail: (detail: string) => ScimError): void {
  let depth = 0;
  for (const token of tokens) {
    if (token.type !== 'punct') continue;
    if (token.text === '(' || token.text === '[') depth += 1;
    else depth -= 1;
    if (depth > MAX_FILTER_NESTING) throw fail(`A filter nests parentheses and brackets at most ${MAX_FILTER_NESTING} levels deep.`);
  }
}

function tokenize(text: string, fail: (detail: string) => ScimError): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i += 1;
    } else if (c === '(' || c === ')' || c === '[' || c === ']') {
      tokens.push({ type: 'punct', text: c, at: i });
      i += 1;
    } else if (c === '"') {
      // A JSON string: its escapes are JSON's.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw fail(`Unterminated string at position ${i + 1}.`);
      try {
        tokens.push({ type: 'string', text: JSON.parse(text.slice(i, j + 1)) as string, at: i });
      } catch {
        throw fail(`Invalid string at position ${i + 1}.`);
      }
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !' \t\n\r()[]"'.includes(text[j]!)) j += 1;
      tokens.push({ type: 'word', text: text.slice(i, j), at: i });
      i = j;
    }
  }
  return tokens;
}

const ATTR_NAME = /^[A-Za-z$][\w$-]*$/;

/**
 * An attribute path: `userName`, `name.givenName`, or one qualified by its schema URN, where the
 * attribute is what follows the URN's last colon (`urn:...:2.0:User:manager.value`).
 */
export function parseAttrPath(text: string, fail: (detail: string) => ScimError = (d) => ScimError.badRequest('invalidPath', d)): AttrPath {
  let schema: string | null = null;
  let rest = text;
  if (/^urn:/i.test(text)) {
    const colon = text.lastIndexOf(':');
    schema = text.slice(0, colon);
    rest = text.slice(colon + 1);
  }
  const parts = rest.split('.');
  if (parts.length > 2 || !parts.every((p) => ATTR_NAME.test(p))) throw fail(`"${text}" is not an attribute path.`);
  return { schema, attr: parts[0]!, sub: parts[1] ?? null };
}

class Parser {
  private index = 0;
  private operators = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly fail: (detail: string) => ScimError,
  ) {}

  done(): boolean {
    return this.index >= this.tokens.length;
  }

  peek(): Token | undefined {
    return this.tokens[this.index];
  }

  next(): Token {
    const token = this.tokens[this.index];
    if (!token) throw this.fail('The filter ends too early.');
    this.index += 1;
    return token;
  }

  expectPunct(text: ')' | ']'): void {
    const token = this.next();
    if (token.type !== 'punct' || token.text !== text) throw this.fail(`Expected "${text}" at position ${token.at + 1}.`);
  }

  isWord(token: Token | undefined, word: string): boolean {
    return token?.type === 'word' && token.text.toLowerCase() === word;
  }

  or(): Filter {
    let left = this.and();
    while (this.isWord(this.peek(), 'or')) {
      this.next();
      this.countOperator();
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  and(): Filter {
    let left = this.unary();
    while (this.isWord(this.peek(), 'and')) {
      this.next();
      this.countOperator();
      left = { kind: 'and', left, right: this.unary() };
    }
    return left;
  }

  countOperator(): void {
    this.operators += 1;
    if (this.operators > MAX_FILTER_OPERATORS) throw this.fail(`A filter has at most ${MAX_FILTER_OPERATORS} "and" and "or" operators.`);
  }

  unary(): Filter {
    const token = this.next();
    if (token.type === 'punct' && token.text === '(') {
      const inner = this.or();
      this.expectPunct(')');
      return inner;
    }
    if (this.isWord(token, 'not')) {
      const open = this.next();
      if (open.type !== 'punct' || open.text !== '(') throw this.fail(`"not" must be followed by "(" at position ${open.at + 1}.`);
      const inner = this.or();
      this.expectPunct(')');
      return { kind: 'not', filter: inner };
    }
    if (token.type !== 'word') throw this.fail(`Expected an attribute at position ${token.at + 1}.`);
    const path = parseAttrPath(token.text, this.fail);
    const after = this.peek();
    if (after?.type === 'punct' && after.text === '[') {
      this.next();
      const inner = this.or();
      this.expectPunct(']');
      return { kind: 'valuePath', path, filter: inner };
    }
    const op = this.next();
    if (op.type !== 'word') throw this.fail(`Expected an operator after "${token.text}".`);
    const operator = op.text.toLowerCase();
    if (operator === 'pr') return { kind: 'present', path };
    if (!COMPARE_OPS.has(operator)) throw this.fail(`Unknown operator "${op.text}".`);
    return { kind: 'compare', path, op: operator as CompareOp, value: this.value() };
  }

  value(): CompValue {
    const token = this.next();
    if (token.type === 'string') return token.text;
    if (token.type !== 'word') throw this.fail(`Expected a value at position ${token.at + 1}.`);
    const word = token.text.toLowerCase();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(token.text)) return Number(token.text);
    throw this.fail(`"${token.text}" is not a value: strings are quoted.`);
  }
}

/** Parses a `filter` query parameter; a bad one is `invalidFilter`. */
export function parseFilter(text: string): Filter {
  const fail = (detail: string) => ScimError.badRequest('invalidFilter', detail);
  if (text.length > MAX_FILTER_LENGTH) throw fail(`A filter has at most ${MAX_FILTER_LENGTH} characters.`);
  const tokens = tokenize(text, fail);
  checkNesting(tokens, fail);
  const parser = new Parser(tokens, fail);
  if (parser.done()) throw fail('The filter is empty.');
  const filter = parser.or();
  if (!parser.done()) throw fail(`Unexpected "${parser.peek()!.text}" at position ${parser.peek()!.at + 1}.`);
  return filter;
}

/** A PATCH `path`: an attribute path, optionally narrowed by a value filter and then a sub-attribute. */
export interface PatchPath {
  path: AttrPath;
  /** `emails[type eq "work"]`: only the values matching this. */
  filter: Filter | null;
  /** `emails[type eq "work"].value`: the sub-attribute of the matching values. */
  subAfterFilter: string | null;
}

/** Parses a PATCH operation's `path` (RFC 7644, section 3.5.2); a bad one is `invalidPath`. */
export function parsePatchPath(text: string): PatchPath {
  const fail = (detail: string) => ScimError.badRequest('invalidPath', detail);
  const trimmed = text.trim();
  const open = trimmed.indexOf('[');
  if (open < 0) return { path: parseAttrPath(trimmed, fail), filter: null, subAfterFilter: null };
  const close = trimmed.lastIndexOf(']');
  if (close < open) throw fail(`"${text}" has an unclosed "[".`);
  const path = parseAttrPath(trimmed.slice(0, open), fail);
  if (path.sub !== null) throw fail(`"${text}": a value filter applies to a multi-valued attribute, not a sub-attribute.`);
  let filter: Filter;
  try {
    filter = parseFilter(trimmed.slice(open + 1, close));
  } catch (error) {
    throw error instanceof ScimError ? fail(error.detail) : error;
  }
  const tail = trimmed.slice(close + 1);
  if (tail !== '' && !/^\.[A-Za-z$][\w$-]*$/.test(tail)) throw fail(`"${text}": only ".subAttribute" may follow "]".`);
  return { path, filter, subAfterFilter: tail === '' ? null : tail.slice(1) };
}
