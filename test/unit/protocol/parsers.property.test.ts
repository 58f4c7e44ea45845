import { expect } from 'chai';
import fc from 'fast-check';
import {
  bodyLines,
  bodyText,
  parseAttlog,
  parseCommandResults,
  parseInfo,
  parseOperlog,
  parseOptions,
  parseRegistry,
  parseRtlog,
  parseRtstate,
  parseTableData,
  queryParams,
  splitLines,
  type LineError,
} from '../../../src/protocol';
import { fixtureNames, loadFixture } from './fixture';

// Property tests of the pure PUSH parsers: real fixture bodies mutated byte by byte (the damage a
// flaky link, a log that expanded TABs or a firmware bug does) and arbitrary bytes. Run counts are
// modest so the unit suite stays fast; a failure prints the seed and the shrunk input to replay it.
const RUNS = 150;

/** One mutation of a body: the kinds of damage real terminal traffic shows. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('tabs-to-spaces' as const) }),
  fc.record({ kind: fc.constant('spaces-to-tabs' as const) }),
  fc.record({ kind: fc.constant('crlf' as const) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(body: Buffer, m: Mutation): Buffer {
  const at = 'at' in m ? m.at % (body.length + 1) : 0;
  switch (m.kind) {
    case 'insert':
      return Buffer.concat([body.subarray(0, at), Buffer.from(m.bytes), body.subarray(at)]);
    case 'delete':
      return Buffer.concat([body.subarray(0, at), body.subarray(at + m.length)]);
    case 'replace': {
      const copy = Buffer.from(body);
      if (at < copy.length) copy[at] = m.byte;
      return copy;
    }
    case 'tabs-to-spaces':
      return Buffer.from(body.toString('latin1').replace(/\t/g, ' '), 'latin1');
    case 'spaces-to-tabs':
      return Buffer.from(body.toString('latin1').replace(/ /g, '\t'), 'latin1');
    case 'crlf':
      return Buffer.from(body.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
    case 'truncate':
      return body.subarray(0, at);
  }
}

const bodies = fixtureNames()
  .map((name) => loadFixture(name))
  .filter((fx) => fx.body.length > 0)
  .map((fx) => fx.body);
const mutatedBody = fc.tuple(fc.constantFrom(...bodies), fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([body, ms]) => ms.reduce(mutate, body));
const anyBody = fc.oneof(
  mutatedBody,
  fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b)),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => Buffer.from(s)),
);

const lineParsers: Record<string, (body: Buffer) => { errors: LineError[] }> = {
  parseAttlog: (b) => parseAttlog(b),
  parseOperlog: (b) => parseOperlog(b),
  parseRtlog: (b) => parseRtlog(b),
  parseRtstate: (b) => parseRtstate(b),
  parseCommandResults: (b) => parseCommandResults(b),
  'parseTableData(user)': (b) => parseTableData('user', b),
  'parseTableData(templatev10)': (b) => parseTableData('templatev10', b),
  'parseTableData(biodata)': (b) => parseTableData('biodata', b),
  'parseTableData(other)': (b) => parseTableData('transaction', b),
};

describe('protocol parsers (property-based)', () => {
  it('bodyLines, decoding piece by piece, gives the lines, line numbers and refusals of splitLines on the whole text', () => {
    const line = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom('', '\r', 'a\u0000b', '\uFEFFx', 'é😀ü'));
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.integer({ min: 1, max: 24 }),
        (lines, eol, finalEol, pieceBytes) => {
          const body = Buffer.from(lines.join(eol) + (finalEol ? eol : ''), 'utf8');
          const wholeRefused: LineError[] = [];
          const piecesRefused: LineError[] = [];
          const whole = [...splitLines(bodyText(body), wholeRefused)];
          expect([...bodyLines(body, {}, piecesRefused, pieceBytes)]).to.deep.equal(whole);
          expect(piecesRefused).to.deep.equal(wholeRefused);
        },
      ),
      { numRuns: RUNS },
    );
  });

  for (const [name, parse] of Object.entries(lineParsers)) {
    it(`${name} never throws on mutated fixtures or arbitrary bytes; every error names a real line of the body`, () => {
      fc.assert(
        fc.property(anyBody, (body) => {
          const { errors } = parse(body);
          // Every fallback decoding keeps LF bytes as line ends, so line numbers are those of the bytes.
          const withNul: LineError[] = [];
          const nonEmpty = new Set([...splitLines(body.toString('latin1'), withNul)].map((l) => l.line));
          for (const refused of withNul) nonEmpty.add(refused.line);
          for (const error of errors) {
            expect(error.reason, JSON.stringify(error)).to.be.a('string').and.not.equal('');
            expect(nonEmpty.has(error.line), `error on line ${error.line}, which is not a non-empty line of the body`).to.equal(true);
          }
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('parseOptions, parseRegistry, parseInfo and queryParams never throw on mutated fixtures or arbitrary text', () => {
    fc.assert(
      fc.property(anyBody, fc.string({ maxLength: 200 }), (body, text) => {
        for (const result of [parseOptions(body), parseRegistry(body)]) {
          for (const error of result.errors) expect(error.reason).to.be.a('string').and.not.equal('');
        }
        expect(parseInfo(body.toString('latin1')).raw).to.be.an('array');
        expect(parseInfo(text).raw).to.be.an('array');
        const query = queryParams(text);
        for (const [name] of query.entries()) expect(name).to.equal(name.toLowerCase());
        queryParams(body.toString('latin1')).get('SN');
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('queryParams reads back every pair it was given, whatever the encoding of other pairs', () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, fc.string({ maxLength: 20 })), { selector: ([n]) => n.toLowerCase(), maxLength: 6 }),
        fc.string({ maxLength: 30 }),
        (pairs, junk) => {
          const search = pairs.map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('&');
          const query = queryParams(`?${search}&${junk.replace(/[&=]/g, '')}`);
          for (const [n, v] of pairs) expect(query.get(n.toUpperCase())).to.equal(v);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('ATTLOG: a good record survives any damage to the other lines, with its own line number', () => {
    const good = '1452\t2015-07-30 15:16:28\t0\t1\t0\t0\t0';
    const junkLine = fc.oneof(
      fc.string({ maxLength: 60 }),
      mutatedBody.map((b) => b.toString('utf8')),
      fc.constantFrom('1452 2015-07-30 15:16:28 0 1', '\t\t\t', '1452\t2015-02-30 10:00:00\t0\t1', '1452\t2015-07-30 15:16:28\t0'),
    );
    fc.assert(
      fc.property(fc.array(junkLine, { maxLength: 6 }), fc.array(junkLine, { maxLength: 6 }), fc.constantFrom('\n', '\r\n'), (before, after, eol) => {
        // Junk must not contain line breaks of its own, or the good line's number would move.
        const clean = (lines: string[]) => lines.map((l) => l.replace(/[\r\n]/g, ''));
        const lines = [...clean(before), good, ...clean(after)];
        const { records, errors } = parseAttlog(Buffer.from(lines.join(eol)));
        const line = before.length + 1;
        const record = records.find((r) => r.line === line);
        expect(record, `record on line ${line}`).to.deep.include({ pin: '1452', localTime: '2015-07-30 15:16:28', status: 0, verify: 1 });
        expect(errors.map((e) => e.line)).not.to.include(line);
        for (const r of records) expect(r.line).to.be.within(1, lines.length);
        for (const e of errors) expect(e.text).to.equal(lines[e.line - 1]!.replace(/\r$/, ''));
      }),
      { numRuns: RUNS },
    );
  });

  it('ATTLOG: every record parsed from a mutated body is a fully valid line of that body', () => {
    fc.assert(
      fc.property(mutatedBody, (body) => {
        // Decoded as the parser does: strict UTF-8, else the documented single-byte fallback.
        const text = bodyText(body);
        const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
        for (const record of parseAttlog(body).records) {
          const fields = lines[record.line - 1]!.split('\t');
          expect(fields[0]).to.equal(record.pin);
          expect(fields[1]!.replace('T', ' ')).to.equal(record.localTime);
          expect(record.localTime).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
          // State and verify mode are optional: absent reads as '' (state 0, no verify mode).
          const state = fields[2] ?? '';
          const verify = fields[3] ?? '';
          expect(state).to.equal(record.statusRaw);
          expect(verify).to.equal(record.verifyRaw);
          expect(record.status).to.equal(state === '' ? 0 : /^\d+$/.test(state) ? Number(state) : null);
          expect(record.verify).to.equal(/^\d+$/.test(verify) ? Number(verify) : null);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
