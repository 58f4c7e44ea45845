// The repository explains itself: nothing in it points at notes its readers do not have (its
// authors' working notes, an issue tracker, section numbers of an unnamed document), at a path of
// one machine, or talks about how the code came to be written rather than what it does.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const SELF = 'test/unit/repository-hygiene.test.ts';

/** Each pattern, and why a reader of the repository could not follow what it points at. */
const PATTERNS: { pattern: RegExp; why: string }[] = [
  { pattern: /\/work\/|\/root\/|\/home\/\w+\/|\/tmp\/[\w-]+\/|[A-Z]:\\Users\\/, why: 'a path of one machine' },
  { pattern: /\.\.\/shared\/|\b(stack|design|service-spec|push-protocol|attendance-access-operations)\.md\b/, why: "the authors' private notes" },
  { pattern: /\bthe brief\b|\breference §/i, why: 'a document that is not in the repository' },
  { pattern: /\b(issue|issues) #?\d+\b|\bthe issue\b|\(issue\b/i, why: 'an issue tracker the repository does not contain (state the decision instead)' },
  { pattern: /\b(as an AI|language model|ChatGPT|Claude|Copilot)\b|\bI (was asked|have been asked)\b/i, why: 'words about how the code was written' },
];

/**
 * A `§` citation must name its public source just before it: SEC-DOC and ATT-DOC (the vendor's
 * PUSH documents, named in src/devices/PROTOCOL.md) or an RFC.
 */
const NAMED_SOURCE = /(SEC-DOC|ATT-DOC|RFC \d{3,5})(?:[^§]{0,40}§[\d.–]+)*[^§]{0,40}$/;

/** Migrations are never edited once committed; their comments are as they were written. */
const EXEMPT = /^(src\/db\/migrations\/|package-lock\.json$)/;

function trackedTextFiles(): { file: string; text: string }[] {
  return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && file !== SELF && !EXEMPT.test(file) && !/\.(png|jpg|jpeg|ico|woff2?)$/.test(file))
    .flatMap((file) => {
      try {
        return [{ file, text: readFileSync(path.join(root, file), 'utf8') }];
      } catch {
        return []; // listed but absent in this checkout
      }
    });
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

describe('repository hygiene', () => {
  const files = trackedTextFiles();

  for (const { pattern, why } of PATTERNS) {
    it(`no tracked file refers to ${why}`, () => {
      const offenders: string[] = [];
      for (const { file, text } of files) {
        const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
        for (const m of text.matchAll(global)) offenders.push(`${file}:${lineOf(text, m.index!)}: ${m[0]}`);
      }
      expect(offenders).to.deep.equal([]);
    });
  }

  it('every § citation names its public source (SEC-DOC, ATT-DOC or an RFC)', () => {
    const offenders: string[] = [];
    for (const { file, text } of files) {
      for (const m of text.matchAll(/§/g)) {
        const before = text.slice(Math.max(0, m.index! - 120), m.index!).replace(/\s+/g, ' ');
        if (!NAMED_SOURCE.test(before)) offenders.push(`${file}:${lineOf(text, m.index!)}: …${before.slice(-30)}§`);
      }
    }
    expect(offenders).to.deep.equal([]);
  });
});
