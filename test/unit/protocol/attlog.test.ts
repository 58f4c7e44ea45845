import { expect } from 'chai';
import { parseAttlog, parseAttlogChunks, uploadAck, verifyTypeName } from '../../../src/protocol';
import { loadFixture } from './fixture';

describe('parseAttlog', () => {
  it('fx 02: three CR LF records with trailing TAB and empty workcode', () => {
    const { records, errors } = parseAttlog(loadFixture('02').body);
    expect(errors).to.deep.equal([]);
    expect(records.map((r) => [r.pin, r.localTime, r.status, r.verify, r.workCode])).to.deep.equal([
      ['1', '2024-07-28 01:25:24', 0, 1, ''],
      ['1', '2024-07-28 10:41:21', 0, 1, ''],
      ['4', '2024-07-28 10:41:31', 0, 1, ''],
    ]);
    expect(records[0]!.extras).to.deep.equal(['0', '0']);
    expect(verifyTypeName(records[0]!.verify!)).to.equal('fingerprint');
    expect(uploadAck(records.length)).to.equal('OK: 3');
  });

  it('fx 05: MB560-VL 10-field punch keeps the extra columns', () => {
    const { records, errors } = parseAttlog(loadFixture('05').body);
    expect(errors).to.deep.equal([]);
    expect(records).to.deep.equal([
      {
        line: 1,
        pin: '2',
        localTime: '2022-07-12 16:00:20',
        status: 1,
        statusRaw: '1',
        verify: 15,
        verifyRaw: '15',
        workCode: '',
        extras: ['0', '0', '', '', '43'],
      },
    ]);
    expect(verifyTypeName(15)).to.equal('face');
  });

  it('fx 28: nine vendor-doc records, reply OK: 9', () => {
    const { records, errors } = parseAttlog(loadFixture('28').body);
    expect(errors).to.deep.equal([]);
    expect(records).to.have.length(9);
    expect(records.filter((r) => r.pin === '1452')).to.have.length(7);
    expect(records[8]).to.deep.include({ line: 9, pin: '8965', localTime: '2015-07-30 15:16:37', workCode: '0' });
    expect(uploadAck(records.length)).to.equal('OK: 9');
  });

  it('accepts a missing final newline, alphanumeric PINs and blank lines', () => {
    const { records, errors } = parseAttlog('GOMA850101AB1\t2025-08-27 10:57:49\t0\t25\t0\t0\t0\t0\t0\t0\n\n7\t2024-02-29 23:59:59\t1\t4');
    expect(errors).to.deep.equal([]);
    expect(records.map((r) => [r.line, r.pin])).to.deep.equal([
      [1, 'GOMA850101AB1'],
      [3, '7'],
    ]);
  });

  describe('mangled input: each bad line rejected alone, good lines kept, never a throw', () => {
    const good = '1\t2024-07-28 01:25:24\t0\t1\t\t0\t0';
    const cases: Array<[string, string, RegExp]> = [
      ['impossible date', '1\t2024-02-30 10:00:00\t0\t1', /bad date: .*day 30 does not exist/],
      ['hour 25', '1\t2024-02-01 25:00:00\t0\t1', /bad date: .*hour 25/],
      ['minute 60', '1\t2024-02-01 10:60:00\t0\t1', /minute 60/],
      ['garbage time', '1\tyesterday\t0\t1', /bad date: .*not YYYY-MM-DD HH:MM:SS/],
      ['missing pin', '\t2024-07-28 01:25:24\t0\t1', /missing PIN/],
      ['cut inside the time', '1\t2024-07-28 01:2', /bad date/],
      ['TABs turned into spaces', '1452 2015-07-30 15:16:28 0 1 0 0 0', /separated by spaces, not TABs/],
      ['garbage line', 'hello world', /no TAB-separated fields/],
      ['PIN with a space', '1 2\t2024-07-28 01:25:24\t0\t1', /PIN "1 2" contains whitespace/],
    ];
    // Regression: a line whose status or verify field is not a number was dropped; it is a punch.
    it('keeps a punch whose status or verify mode is not a number, with the raw value', () => {
      const { records, errors } = parseAttlog('1\t2024-07-28 01:25:24\tin\t1\n2\t2024-07-28 01:25:25\t0\tFP\n');
      expect(errors).to.deep.equal([]);
      expect(records.map((r) => [r.pin, r.status, r.statusRaw, r.verify, r.verifyRaw])).to.deep.equal([
        ['1', null, 'in', 1, '1'],
        ['2', 0, '0', null, 'FP'],
      ]);
    });
    // Regression: a line with only PIN and time was refused as cut short, losing a real punch.
    it('keeps a punch of PIN and time only, with state 0 and no verify mode', () => {
      const { records, errors } = parseAttlog('1\t2024-07-28 01:25:24\r\n2\t2024-07-28 01:25:25\t\t\n3\t2024-07-28 01:25:26\t1\n');
      expect(errors).to.deep.equal([]);
      expect(records.map((r) => [r.pin, r.localTime, r.status, r.statusRaw, r.verify, r.verifyRaw, r.workCode, r.extras])).to.deep.equal([
        ['1', '2024-07-28 01:25:24', 0, '', null, '', '', []],
        ['2', '2024-07-28 01:25:25', 0, '', null, '', '', []],
        ['3', '2024-07-28 01:25:26', 1, '1', null, '', '', []],
      ]);
    });
    for (const [label, bad, reason] of cases) {
      it(label, () => {
        const result = parseAttlog(`${good}\r\n${bad}\r\n${good.replace('01:25:24', '01:25:25')}`);
        expect(result.records.map((r) => r.line)).to.deep.equal([1, 3]);
        expect(result.errors).to.have.length(1);
        expect(result.errors[0]!.line).to.equal(2);
        expect(result.errors[0]!.text).to.equal(bad);
        expect(result.errors[0]!.reason).to.match(reason);
      });
    }

    it('empty body, whitespace-only newlines, NUL bytes', () => {
      expect(parseAttlog('')).to.deep.equal({ records: [], errors: [] });
      expect(parseAttlog(Buffer.alloc(0))).to.deep.equal({ records: [], errors: [] });
      expect(parseAttlog('\r\n\n')).to.deep.equal({ records: [], errors: [] });
      expect(parseAttlog(Buffer.from([0, 0, 0])).errors).to.have.length(1);
    });
  });

  it('slices a body into chunks of good and bad lines, each refusal (a NUL byte included) in the slice holding its line', () => {
    const line = (n: number) => `${n}\t2024-07-28 01:25:${String(n).padStart(2, '0')}\t0\t1`;
    const body = [line(1), line(2), 'junk', line(4), `${line(5)}\u0000`, line(6), '', line(8)].join('\r\n');
    const chunks = [...parseAttlogChunks(body, 2)];
    // Slices of two lines read (good or refused by the parser); a NUL line and blank lines are not counted.
    expect(chunks.map((c) => ({ records: c.records.map((r) => r.line), errors: c.errors.map((e) => e.line) }))).to.deep.equal([
      { records: [1, 2], errors: [] },
      { records: [4], errors: [3, 5] },
      { records: [6, 8], errors: [] },
    ]);
    expect(chunks[1]!.errors[1]!.reason).to.equal('contains a NUL byte');
    // Exactly full slices: no empty slice after the last one.
    expect([...parseAttlogChunks([line(1), line(2)].join('\n'), 2)].map((c) => c.records.length)).to.deep.equal([2]);
    expect([...parseAttlogChunks('', 2)]).to.deep.equal([{ records: [], errors: [], last: true }]);
    expect(chunks.map((c) => c.last)).to.deep.equal([false, false, true]);
  });

  it('decodes invalid UTF-8 with a fallback instead of failing', () => {
    const gbk = Buffer.concat([Buffer.from('1\t2024-07-28 01:25:24\t0\t1\t'), Buffer.from([0xd6, 0xd0])]);
    expect(parseAttlog(gbk, { language: 83 }).records[0]!.extras).to.deep.equal([]);
    expect(parseAttlog(gbk, { language: 83 }).records[0]!.workCode).to.equal('中');
    expect(parseAttlog(gbk).records[0]!.workCode).to.equal('ÖÐ');
  });
});
