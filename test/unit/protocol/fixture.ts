// Loader for the byte-exact traffic fixtures in test/fixtures/protocol (format: README there).
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Tests run from dist/test/unit/protocol; fixtures are not copied by tsc, so read them from the repo.
export const FIXTURE_DIR = resolve(__dirname, '../../../../test/fixtures/protocol');

export interface Fixture {
  name: string;
  /** Comment lines without the leading `# `. */
  comments: string[];
  /** Text of the `# expect:` comment, continuation lines (`#   …`) appended with a space. */
  expect: string;
  method: string;
  /** Path without query. */
  path: string;
  /** Query string without `?`, as captured (percent-encoding kept). */
  query: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: Buffer;
}

export function fixtureNames(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => /^\d\d-.*\.txt$/.test(f))
    .sort();
}

/** Load a fixture by file name or by its two-digit prefix (`'02'`). */
export function loadFixture(nameOrNumber: string): Fixture {
  const name = fixtureNames().find((f) => f === nameOrNumber || f.startsWith(`${nameOrNumber}-`));
  if (!name) throw new Error(`no fixture ${nameOrNumber}`);
  const bytes = readFileSync(join(FIXTURE_DIR, name));
  const split = bytes.indexOf('\n\n');
  if (split < 0) throw new Error(`${name}: no empty line after the headers`);
  const head = bytes.subarray(0, split).toString('utf8').split('\n');
  const body = bytes.subarray(split + 2);
  const comments: string[] = [];
  let i = 0;
  for (; i < head.length && head[i]!.startsWith('#'); i++) comments.push(head[i]!.replace(/^# ?/, ''));
  const requestLine = head[i++];
  const m = /^([A-Z]+) (\S+) HTTP\/1\.1$/.exec(requestLine ?? '');
  if (!m) throw new Error(`${name}: bad request line ${JSON.stringify(requestLine)}`);
  const target = m[2]!;
  const q = target.indexOf('?');
  const headers: Record<string, string> = {};
  for (; i < head.length; i++) {
    const at = head[i]!.indexOf(':');
    headers[head[i]!.slice(0, at).toLowerCase()] = head[i]!.slice(at + 1).trim();
  }
  const expectAt = comments.findIndex((c) => c.startsWith('expect'));
  let expect = '';
  if (expectAt >= 0) {
    expect = comments[expectAt]!.slice(comments[expectAt]!.indexOf(':') + 1).trim();
    for (let j = expectAt + 1; j < comments.length && comments[j]!.startsWith('  '); j++) expect += ` ${comments[j]!.trim()}`;
  }
  return {
    name,
    comments,
    expect,
    method: m[1]!,
    path: q < 0 ? target : target.slice(0, q),
    query: q < 0 ? '' : target.slice(q + 1),
    headers,
    body,
  };
}
