/**
 * How deeply a client's input nests, measured without recursion, so that depth is refused before
 * anything recursive (JSON Schema, GraphQL's parser and variable coercion, the input walkers, an
 * audit row's JSON) walks it. A JSON body 150,000 arrays deep is 300 KB; recursing over it exhausts
 * the stack ("Maximum call stack size exceeded", a 500).
 *
 * Each function stops at the first level past `max`, so its cost is linear in the text and it never
 * allocates per level.
 */

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const OPEN_BRACE = 0x7b; // {
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACE = 0x7d; // }
const CLOSE_BRACKET = 0x5d; // ]
const OPEN_PAREN = 0x28; // (
const CLOSE_PAREN = 0x29; // )
const HASH = 0x23; // #
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * True when the JSON text nests objects and arrays more than `max` levels deep (`{"a": [1]}` is two).
 * Brackets inside strings do not count. Works on the raw bytes of a body (UTF-8 never puts an ASCII
 * byte inside a multi-byte character) or on a string; malformed JSON is the parser's business. A
 * string is skipped with `indexOf` (an 800 KB value costs a memchr, not a loop in JavaScript).
 */
export function jsonNestsDeeperThan(text: Uint8Array | string, max: number): boolean {
  return typeof text === 'string' ? stringNestsDeeperThan(text, max) : bytesNestDeeperThan(text, max);
}

function bytesNestDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      // The closing quote is the next one not escaped (preceded by an even run of backslashes).
      const start = i;
      for (;;) {
        i = bytes.indexOf(QUOTE, i + 1);
        if (i < 0) return false;
        let backslashes = 0;
        while (i - backslashes - 1 > start && bytes[i - backslashes - 1] === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

function stringNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return false;
        let backslashes = 0;
        while (i - backslashes - 1 > start && text.charCodeAt(i - backslashes - 1) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * True when a GraphQL document nests braces, brackets and parentheses (selection sets, list and
 * object values, argument lists) more than `max` levels deep. Strings, block strings and comments
 * do not count. graphql-js parses by recursive descent: within the token limit, 7,000 nested list
 * values were enough to exhaust its stack.
 */
export function documentNestsDeeperThan(document: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < document.length; i++) {
    const c = document.charCodeAt(i);
    if (c === HASH) {
      while (i + 1 < document.length && document.charCodeAt(i + 1) !== NEWLINE && document.charCodeAt(i + 1) !== CARRIAGE_RETURN) i++;
    } else if (c === QUOTE) {
      if (document.startsWith('"""', i)) {
        // A block string ends at the next unescaped """ (\""" is an escaped one).
        i += 3;
        while (i < document.length && !(document.startsWith('"""', i) && document.charCodeAt(i - 1) !== BACKSLASH)) i++;
        i += 2;
      } else {
        i++;
        while (i < document.length && document.charCodeAt(i) !== QUOTE && document.charCodeAt(i) !== NEWLINE) {
          if (document.charCodeAt(i) === BACKSLASH) i++;
          i++;
        }
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET || c === OPEN_PAREN) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET || c === CLOSE_PAREN) depth--;
  }
  return false;
}

/**
 * True when a value already parsed (a WebSocket message's variables) nests objects and arrays more
 * than `max` levels deep. Iterative: an explicit stack of the containers still to look into, never
 * deeper than `max + 1` levels, so the walk itself cannot be made to recurse.
 */
export function valueNestsDeeperThan(value: unknown, max: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) if (child !== null && typeof child === 'object') pending.push({ value: child, depth: depth + 1 });
  }
  return false;
}
