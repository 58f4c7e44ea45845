import { expect } from 'chai';
import { priorityOf, shareOfPoll } from '../../../src/services/commands/command-queue';
import { syncLane } from '../../../src/services/sync/device-sync.service';
import { renderClockSync } from '../../../src/services/fleet/device-action.service';
import { commandDetail, waitingDetail } from '../../../src/services/commands/action-status-detail';

describe('command lanes (pure rules)', () => {
  it('door actions before other interactive commands, before revocations, before bulk', () => {
    expect([priorityOf('interactive', true), priorityOf('interactive'), priorityOf('revocation'), priorityOf('bulk')]).to.deep.equal([0, 1, 2, 3]);
  });

  it('a poll of 5 gives interactive work 4 slots while others wait, the rest to whoever waits', () => {
    expect(shareOfPoll(5, 10, 1000)).to.deep.equal({ interactive: 4, other: 1 });
    expect(shareOfPoll(5, 1, 1000)).to.deep.equal({ interactive: 1, other: 4 });
    expect(shareOfPoll(5, 10, 0)).to.deep.equal({ interactive: 5, other: 0 });
    expect(shareOfPoll(10, 10, 10)).to.deep.equal({ interactive: 8, other: 2 });
    expect(shareOfPoll(1, 3, 3)).to.deep.equal({ interactive: 1, other: 0 });
    expect(shareOfPoll(5, 0, 2)).to.deep.equal({ interactive: 0, other: 2 });
  });

  it("a person's deletes are revocations; writes are bulk", () => {
    expect(syncLane('DATA DELETE userauthorize Pin=7\tAuthorizeTimezoneId=3')).to.equal('revocation');
    expect(syncLane('DATA DELETE USERINFO PIN=7')).to.equal('revocation');
    expect(syncLane('DATA UPDATE user CardNo=\tPin=7')).to.equal('bulk');
  });

  it('the clock renderer writes the delivery instant in the terminal zone, and leaves other commands alone', () => {
    const rendered = renderClockSync('SET OPTIONS DateTime={delivery time}', { now: new Date('2026-03-01T08:00:00Z'), timeZone: 'Asia/Kolkata' });
    // 2026-03-01 13:30:00 local: ((26*12 + 2)*31 + 0)*86400 + 13*3600 + 30*60
    expect(rendered).to.equal(`SET OPTIONS DateTime=${(26 * 12 + 2) * 31 * 86400 + 13 * 3600 + 30 * 60}`);
    expect(renderClockSync('CHECK', { now: new Date(), timeZone: 'UTC' })).to.equal('CHECK');
  });

  it('status details of commands and of waiting actions', () => {
    expect(commandDetail({ status: 'expired', return_code: null, attempts: 0 })).to.equal('deadline_passed');
    expect(commandDetail({ status: 'failed', return_code: null, attempts: 3 })).to.equal('no_answer');
    expect(commandDetail({ status: 'failed', return_code: -11, attempts: 1 })).to.equal('device_refused');
    expect(commandDetail({ status: 'queued', return_code: null, attempts: 1 })).to.equal('no_answer');
    expect(commandDetail({ status: 'succeeded', return_code: 0, attempts: 1 })).to.equal(null);
    expect(waitingDetail('queued', 'pending')).to.equal('device_pending');
    expect(waitingDetail('queued', 'offline')).to.equal('device_offline');
    expect(waitingDetail('queued', 'online')).to.equal(null);
    expect(waitingDetail('sent', 'offline')).to.equal(null);
  });
});
