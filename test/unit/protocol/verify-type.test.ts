import { expect } from 'chai';
import { classifyRtlogEvent, DENIAL_REASONS, lockdownReason, rtlogCodesOfReason, rtlogDenialReason, verifyTypeName } from '../../../src/protocol';

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

describe('rtlog refusal reasons', () => {
  it('gives every refusal code of the vendor table its own reason', () => {
    expect(rtlogDenialReason(20)).to.equal('interval_too_short');
    expect([21, 22, 23].map(rtlogDenialReason)).to.deep.equal(['outside_schedule', 'outside_schedule', 'outside_schedule']);
    expect(rtlogDenialReason(24)).to.equal('anti_passback');
    expect(rtlogDenialReason(25)).to.equal('interlock');
    expect(rtlogDenialReason(26)).to.equal('multi_person_wait');
    expect([27, 34].map(rtlogDenialReason)).to.deep.equal(['not_registered', 'not_registered']);
    expect(rtlogDenialReason(29)).to.equal('expired');
    expect(rtlogDenialReason(30)).to.equal('wrong_password');
    expect(rtlogDenialReason(38)).to.equal('card_lost');
    expect(rtlogDenialReason(39)).to.equal('blacklisted');
    expect(rtlogDenialReason(41)).to.equal('wrong_verify_mode');
    expect(rtlogDenialReason(44)).to.equal('background_verification_failed');
    expect(rtlogDenialReason(45)).to.equal('background_verification_timeout');
    expect(rtlogDenialReason(5001)).to.equal('other');
  });

  it('names a reason for exactly the codes classed as refusals', () => {
    for (let code = 0; code < 7000; code++) {
      const denied = classifyRtlogEvent(code) === 'access-denied';
      expect(rtlogDenialReason(code) !== 'other', `code ${code}`).to.equal(denied);
    }
  });

  it('finds the codes of a reason for filtering, and lists each reason once with other last', () => {
    expect(rtlogCodesOfReason('outside_schedule')).to.deep.equal([21, 22, 23]);
    expect(rtlogCodesOfReason('not_registered')).to.deep.equal([27, 34]);
    expect(rtlogCodesOfReason('other')).to.deep.equal([]);
    expect(new Set(DENIAL_REASONS).size).to.equal(DENIAL_REASONS.length);
    expect(DENIAL_REASONS.at(-1)).to.equal('other');
    // `lockdown` is the service's (a generic refusal at a locked-down door), not a code's.
    for (const reason of DENIAL_REASONS.slice(0, -1).filter((r) => r !== 'lockdown')) expect(rtlogCodesOfReason(reason)).to.not.be.empty;
    expect(rtlogCodesOfReason('lockdown')).to.deep.equal([]);
    expect([21, 22, 23, 24, 27].map(lockdownReason)).to.deep.equal(['lockdown', 'lockdown', 'lockdown', 'anti_passback', 'not_registered']);
  });
});
