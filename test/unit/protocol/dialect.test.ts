import { expect } from 'chai';
import {
  DEFAULT_TERMINAL_DIALECT,
  decodeZkTime,
  parseRegistry,
  terminalDialect,
  updateAccessUserCommand,
  updateUserAuthorizeCommand,
  userValidityField,
} from '../../../src/protocol';
import { loadFixture } from './fixture';

/** Fixture 33 (the vendor's F20/M registry) with DateFmtFunOn and AccSupportFunList position 26 changed. */
function f20m(dateFmtFunOn: '0' | '1', devIdBit: '0' | '1'): Record<string, string> {
  const body = loadFixture('33').body.toString('utf8');
  const list = /AccSupportFunList=(\d+)/.exec(body)![1]!;
  const flipped = `${list.slice(0, 26)}${devIdBit}${list.slice(27)}`;
  return parseRegistry(body.replace('DateFmtFunOn=0', `DateFmtFunOn=${dateFmtFunOn}`).replace(`AccSupportFunList=${list}`, `AccSupportFunList=${flipped}`))
    .options;
}

// The Security PUSH document's per-record formats: section 12.1.1.1 (user validity follows
// DateFmtFunOn) and section 12.1.1.5 (DevID follows position 26 of AccSupportFunList).
describe('terminal dialect (user validity, userauthorize DevID)', () => {
  it('fx 33 as registered (DateFmtFunOn=0, position 26 of AccSupportFunList is 0): YYYYMMDD, no DevID', () => {
    const registered = parseRegistry(loadFixture('33').body).options;
    expect(registered.DateFmtFunOn).to.equal('0');
    expect(registered.AccSupportFunList![26]).to.equal('0');
    expect(terminalDialect(registered)).to.deep.equal({ dateFormat: 'yyyymmdd', devIdInAuthorize: false });
    expect(terminalDialect({})).to.deep.equal(DEFAULT_TERMINAL_DIALECT);
    expect(terminalDialect(null)).to.deep.equal(DEFAULT_TERMINAL_DIALECT);
  });

  it('reads DateFmtFunOn=1 and a 1 at position 26, whatever the key case or ~ prefix', () => {
    expect(terminalDialect(f20m('1', '1'))).to.deep.equal({ dateFormat: 'zk-seconds', devIdInAuthorize: true });
    expect(terminalDialect(f20m('1', '0'))).to.deep.equal({ dateFormat: 'zk-seconds', devIdInAuthorize: false });
    expect(terminalDialect({ '~datefmtfunon': '1', accsupportfunlist: '0'.repeat(26) + '1' })).to.deep.equal({
      dateFormat: 'zk-seconds',
      devIdInAuthorize: true,
    });
    // A list too short to have position 26 has no DevID.
    expect(terminalDialect({ AccSupportFunList: '1'.repeat(26) }).devIdInAuthorize).to.equal(false);
  });

  it('user StartTime/EndTime: YYYYMMDD when DateFmtFunOn is 0, ZK-encoded seconds (whole days) when 1, 0 unlimited either way', () => {
    const yyyymmdd = terminalDialect(f20m('0', '0'));
    const seconds = terminalDialect(f20m('1', '0'));
    expect(updateAccessUserCommand({ pin: '1', startTime: 20261101, endTime: 20261120 }, yyyymmdd)).to.equal(
      'DATA UPDATE user CardNo=\tPin=1\tPassword=\tGroup=0\tStartTime=20261101\tEndTime=20261120\tName=\tPrivilege=0',
    );
    const start = ((26 * 12 + 10) * 31 + 0) * 86400;
    const end = ((26 * 12 + 10) * 31 + 19) * 86400 + 23 * 3600 + 59 * 60 + 59;
    expect(updateAccessUserCommand({ pin: '1', startTime: 20261101, endTime: 20261120 }, seconds)).to.equal(
      `DATA UPDATE user CardNo=\tPin=1\tPassword=\tGroup=0\tStartTime=${start}\tEndTime=${end}\tName=\tPrivilege=0`,
    );
    expect(decodeZkTime(start)).to.deep.equal({ year: 2026, month: 11, day: 1, hour: 0, minute: 0, second: 0 });
    expect(decodeZkTime(end)).to.deep.equal({ year: 2026, month: 11, day: 20, hour: 23, minute: 59, second: 59 });
    expect(updateAccessUserCommand({ pin: '1', startTime: 0, endTime: 0 }, seconds)).to.contain('\tStartTime=0\tEndTime=0\t');
    // The document's own example value decodes to a date and time of that encoding.
    expect(decodeZkTime(583512660)).to.deep.equal({ year: 2018, month: 2, day: 27, hour: 14, minute: 51, second: 0 });
    expect(userValidityField(20180227, 'start', seconds)).to.equal(583459200);
    expect(() => userValidityField(20261301, 'start', seconds)).to.throw(RangeError);
    expect(() => userValidityField(19991231, 'end', seconds)).to.throw(RangeError);
  });

  it('userauthorize carries DevID=1 only where AccSupportFunList says the tables have it', () => {
    const grant = { pin: '1', timezoneId: 1, doors: [1] };
    expect(updateUserAuthorizeCommand(grant, terminalDialect(f20m('0', '1')))).to.equal(
      'DATA UPDATE userauthorize Pin=1\tAuthorizeTimezoneId=1\tAuthorizeDoorId=1\tDevID=1',
    );
    expect(updateUserAuthorizeCommand(grant, terminalDialect(f20m('0', '0')))).to.equal(
      'DATA UPDATE userauthorize Pin=1\tAuthorizeTimezoneId=1\tAuthorizeDoorId=1',
    );
    expect(updateUserAuthorizeCommand(grant)).to.equal('DATA UPDATE userauthorize Pin=1\tAuthorizeTimezoneId=1\tAuthorizeDoorId=1');
  });
});
