import { expect } from 'chai';
import { classifyRtlogEvent, verifyTypeName } from '../../../src/devices/protocol';

describe('verify types and rtlog events', () => {
  it('names single factors, combinations and alternatives; unknown codes are other', () => {
    expect(verifyTypeName(1)).to.equal('fingerprint');
    expect(verifyTypeName(2)).to.equal('pin');
    expect(verifyTypeName(3)).to.equal('password');
    expect(verifyTypeName(4)).to.equal('card');
    expect(verifyTypeName(15)).to.equal('face');
    expect(verifyTypeName(21)).to.equal('vein');
    expect(verifyTypeName(25)).to.equal('palm');
    expect(verifyTypeName(10)).to.equal('card+fingerprint');
    expect(verifyTypeName(0)).to.equal('any');
    expect(verifyTypeName(200)).to.equal('other');
    expect(verifyTypeName(999)).to.equal('other');
    expect(verifyTypeName(999_999_999)).to.equal('other');
  });

  it('classifies rtlog events', () => {
    expect(classifyRtlogEvent(0)).to.equal('access-granted');
    expect(classifyRtlogEvent(27)).to.equal('access-denied');
    expect(classifyRtlogEvent(200)).to.equal('door');
    expect(classifyRtlogEvent(8)).to.equal('door');
    expect(classifyRtlogEvent(206)).to.equal('device');
    expect(classifyRtlogEvent(100)).to.equal('alarm');
    expect(classifyRtlogEvent(6001)).to.equal('alarm');
    expect(classifyRtlogEvent(4001)).to.equal('unknown');
  });
});
