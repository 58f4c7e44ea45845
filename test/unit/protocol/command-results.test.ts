import { expect } from 'chai';
import { OK, parseCommandResults } from '../../../src/protocol';
import { loadFixture } from './fixture';

const brief = (body: string | Buffer) => parseCommandResults(body).results.map((r) => [r.id, r.returnCode, r.cmd]);

describe('parseCommandResults', () => {
  it('fx 12: batched results, one per line', () => {
    expect(brief(loadFixture('12').body)).to.deep.equal([
      ['1', 0, 'DATA'],
      ['2', 0, 'DATA'],
      ['3', 0, 'CHECK'],
    ]);
    expect(parseCommandResults(loadFixture('12').body).errors).to.deep.equal([]);
    expect(OK).to.equal('OK');
  });

  it('fx 31: alphanumeric ids, no final newline', () => {
    expect(brief(loadFixture('31').body)).to.deep.equal([
      ['info8487', 0, 'DATA'],
      ['info8488', 0, 'DATA'],
      ['info8489', 0, 'DATA'],
      ['info7464', 0, 'DATA'],
      ['fp7464', 0, 'DATA'],
    ]);
  });

  it('photo enrolment codes are hexadecimal (D01E0001 no face) and become their signed 32-bit value; other text is an error', () => {
    const parsed = parseCommandResults('ID=p1&Return=D01E0001&CMD=DATA\nID=p2&Return=d01e0006&CMD=DATA\nID=p3&Return=ABCD&CMD=DATA');
    expect(parsed.results.map((r) => [r.id, r.returnCode])).to.deep.equal([
      ['p1', 0xd01e0001 | 0],
      ['p2', 0xd01e0006 | 0],
    ]);
    expect(parsed.results[0]!.returnCode).to.be.below(0);
    expect(parsed.errors.map((e) => e.reason)).to.deep.equal(['result p3: non-numeric Return "ABCD"']);
  });

  it('fx 39: lower-case return and a full command description', () => {
    const { results, errors } = parseCommandResults(loadFixture('39').body);
    expect(errors).to.deep.equal([]);
    expect(results).to.deep.equal([{ line: 1, id: '224', returnCode: 0, cmd: 'CONTROL DEVICE', fields: {} }]);
  });

  it('INFO result followed by key=value lines without ID', () => {
    const { results } = parseCommandResults('ID=info1&Return=0&CMD=INFO\n~DeviceName=SpeedFace\nMAC=00:17:61:aa\nUserCount=5\nID=2&Return=-1002&CMD=DATA\n');
    expect(results).to.have.length(2);
    expect(results[0]!.fields).to.deep.equal({ '~DeviceName': 'SpeedFace', MAC: '00:17:61:aa', UserCount: '5' });
    expect(results[1]).to.deep.include({ id: '2', returnCode: -1002 });
  });

  it('one-key-per-line Shell result with multi-line content', () => {
    const { results, errors } = parseCommandResults('ID=32\r\nReturn=0\r\nCMD=Shell\r\nContent=line one\r\nline two\r\n');
    expect(errors).to.deep.equal([]);
    expect(results).to.deep.equal([{ line: 1, id: '32', returnCode: 0, cmd: 'Shell', fields: { Content: 'line one\nline two' } }]);
  });

  it('sub-controller SN, -5000 pending then final, VERIFY SUM extras', () => {
    const { results } = parseCommandResults(
      'ID=9&Return=-5000&CMD=DATA UPDATE&SN=SUB1\nID=9&Return=0&CMD=DATA UPDATE&SN=SUB1\nID=a1&Return=0&CMD=VERIFY SUM&StartTime=2024-01-01 00:00:00&EndTime=2024-01-31 23:59:59&AttlogSum=42',
    );
    expect(results.map((r) => [r.id, r.returnCode, r.sn])).to.deep.equal([
      ['9', -5000, 'SUB1'],
      ['9', 0, 'SUB1'],
      ['a1', 0, undefined],
    ]);
    expect(results[2]!.fields).to.deep.equal({ StartTime: '2024-01-01 00:00:00', EndTime: '2024-01-31 23:59:59', AttlogSum: '42' });
  });

  it('rejects bad lines one by one and keeps the rest', () => {
    const { results, errors } = parseCommandResults('garbage first\nID=1&Return=x&CMD=DATA\nID=2&CMD=DATA\nID=&Return=0\nID=3&Return=0&CMD=DATA\n');
    expect(results.map((r) => r.id)).to.deep.equal(['3']);
    expect(errors.map((e) => [e.line, e.reason])).to.deep.equal([
      [1, 'line before any ID= result'],
      [2, 'result 1: non-numeric Return "x"'],
      [3, 'result 2 has no Return='],
      [4, 'bad command id ""'],
    ]);
    expect(parseCommandResults('')).to.deep.equal({ results: [], errors: [] });
  });
});
