import { expect } from 'chai';
import { classifyRtlogEvent, verifyType, verifyTypeName } from '../../../src/devices/protocol';

describe('verify types and rtlog events', () => {
  it('maps single factors, combinations and unknown codes, keeping the raw code', () => {
    expect(verifyType(1)).to.deep.equal({ code: 1, kind: 'fingerprint', name: 'fingerprint', factors: ['fingerprint'] });
    expect(verifyType(3).kind).to.equal('password');
    expect(verifyType(4).kind).to.equal('card');
    expect(verifyType(2).kind).to.equal('pin');
    expect(verifyType(15).kind).to.equal('face');
    expect(verifyType(21).kind).to.equal('vein');
    expect(verifyType(25).kind).to.equal('palm');
    expect(verifyType(10)).to.deep.equal({ code: 10, kind: 'multi', name: 'card+fingerprint', factors: ['card', 'fingerprint'] });
    expect(verifyType(0).kind).to.equal('any');
    expect(verifyType(200)).to.deep.include({ code: 200, kind: 'other' });
    expect(verifyType(999)).to.deep.include({ code: 999, kind: 'other' });
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

  it('verifyTypeName is the name verifyType gives, for every code', () => {
    for (const code of [...Array(300).keys(), 999_999_999]) expect(verifyTypeName(code), String(code)).to.equal(verifyType(code).name);
    expect(verifyTypeName(15)).to.equal('face');
    expect(verifyTypeName(4242)).to.equal('other');
  });
});
