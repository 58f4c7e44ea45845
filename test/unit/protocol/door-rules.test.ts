import { expect } from 'chai';
import {
  antiPassbackCode,
  DEFAULT_TERMINAL_DIALECT,
  doorRuleCombinations,
  doorRulesOptionsCommand,
  formatCommandLine,
  interlockCode,
  updateAccessUserCommand,
} from '../../../src/protocol';

// The controller parameters `AntiPassback` and `InterLock` (ZKAccess C3 / inBio parameter list) and
// the Security PUSH `SET OPTIONS k=v,k=v` grammar (section 12.5.1) they travel in.
describe('controller door rules (AntiPassback, InterLock, SET OPTIONS)', () => {
  it('anti-passback between doors: the vendor values of 2- and 4-door controllers, sides in either order', () => {
    const between = (...pairs: Array<[number[], number[]]>) => ({ kind: 'between_doors' as const, pairs: pairs.map(([entry, exit]) => ({ entry, exit })) });
    expect(antiPassbackCode(4, between([[1], [2]]))).to.equal(1);
    expect(antiPassbackCode(4, between([[4], [3]]))).to.equal(2);
    expect(antiPassbackCode(4, between([[3], [4]], [[2], [1]]))).to.equal(3);
    expect(
      antiPassbackCode(
        4,
        between([
          [2, 1],
          [4, 3],
        ]),
      ),
    ).to.equal(4);
    expect(antiPassbackCode(4, between([[1], [3, 2]]))).to.equal(5);
    expect(antiPassbackCode(4, between([[1], [2, 3, 4]]))).to.equal(6);
    expect(antiPassbackCode(2, between([[1], [2]]))).to.equal(4);
    // Combinations the controller has no value for.
    expect(antiPassbackCode(4, between([[1], [3]]))).to.equal(null);
    expect(antiPassbackCode(1, between([[1], [2]]))).to.equal(null);
    expect(antiPassbackCode(4, { kind: 'between_doors', pairs: [] })).to.equal(null);
  });

  it('anti-passback between the in and out readers of doors: bits 16 << (door - 1) on 4 doors, the list on 1 and 2', () => {
    const inOut = (...doors: number[]) => ({ kind: 'in_out' as const, doors });
    expect(antiPassbackCode(4, inOut(1))).to.equal(16);
    expect(antiPassbackCode(4, inOut(4))).to.equal(128);
    expect(antiPassbackCode(4, inOut(2, 3))).to.equal(96);
    expect(antiPassbackCode(4, inOut(1, 2, 3, 4))).to.equal(240);
    expect(antiPassbackCode(2, inOut(2))).to.equal(2);
    expect(antiPassbackCode(2, inOut(2, 1))).to.equal(3);
    expect(antiPassbackCode(1, inOut(1))).to.equal(1);
    expect(antiPassbackCode(2, inOut(3))).to.equal(null);
    expect(antiPassbackCode(8, inOut(1))).to.equal(null);
    expect(antiPassbackCode(4, null)).to.equal(0);
  });

  it('interlock: the vendor values per door count; none is 0; other groups have no value', () => {
    expect(interlockCode(4, [[1, 2]])).to.equal(1);
    expect(interlockCode(4, [[3, 4]])).to.equal(2);
    expect(interlockCode(4, [[3, 2, 1]])).to.equal(3);
    expect(
      interlockCode(4, [
        [3, 4],
        [1, 2],
      ]),
    ).to.equal(4);
    expect(interlockCode(4, [[1, 2, 3, 4]])).to.equal(5);
    expect(interlockCode(2, [[2, 1]])).to.equal(1);
    expect(interlockCode(2, [])).to.equal(0);
    expect(interlockCode(4, [[1, 3]])).to.equal(null);
    expect(interlockCode(1, [[1]])).to.equal(null);
    expect(doorRuleCombinations(2).interlock).to.deep.equal(['[1,2]']);
    expect(doorRuleCombinations(4).antiPassbackBetweenDoors).to.include('[1,2] with [3,4]');
  });

  it('SET OPTIONS AntiPassback=<n>,InterLock=<m>: one command line, comma-separated pairs, values checked', () => {
    const command = doorRulesOptionsCommand({ antiPassback: 4, interlock: 1 });
    expect(command).to.equal('SET OPTIONS AntiPassback=4,InterLock=1');
    expect(formatCommandLine('a1', command)).to.equal('C:a1:SET OPTIONS AntiPassback=4,InterLock=1');
    expect(() => doorRulesOptionsCommand({ antiPassback: 256, interlock: 0 })).to.throw(RangeError);
    expect(() => doorRulesOptionsCommand({ antiPassback: 0, interlock: -1 })).to.throw(RangeError);
  });
});

// A visitor pass's user row: its window to the second in the terminal's DateFmtFunOn format.
describe('user row with a validity window to the second (visitor passes)', () => {
  const window = {
    start: { year: 2026, month: 11, day: 27, hour: 8, minute: 0, second: 0 },
    end: { year: 2026, month: 11, day: 27, hour: 17, minute: 59, second: 59 },
  };
  it('DateFmtFunOn=1: both instants ZK-encoded exactly (SEC-DOC appendix 5)', () => {
    const day = ((26 * 12 + 10) * 31 + 26) * 86400;
    expect(updateAccessUserCommand({ pin: '90000001', cardNo: '123', name: 'Grace', window }, { dateFormat: 'zk-seconds', devIdInAuthorize: false })).to.equal(
      `DATA UPDATE user CardNo=123\tPin=90000001\tPassword=\tGroup=0\tStartTime=${day + 8 * 3600}\tEndTime=${day + 17 * 3600 + 59 * 60 + 59}\tName=Grace\tPrivilege=0`,
    );
  });
  it('YYYYMMDD terminals: the first and the last day of the window', () => {
    expect(updateAccessUserCommand({ pin: '90000001', name: 'Grace', window }, DEFAULT_TERMINAL_DIALECT)).to.equal(
      'DATA UPDATE user CardNo=\tPin=90000001\tPassword=\tGroup=0\tStartTime=20261127\tEndTime=20261127\tName=Grace\tPrivilege=0',
    );
  });
});
