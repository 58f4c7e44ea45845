import { expect } from 'chai';
import { BatchSizer } from '../../../src/services/attendance/batch-sizer';

describe('attendance backlog batches sized by time', () => {
  it('starts with the smallest page, then aims at the target time from the measured cost per event', () => {
    const sizer = new BatchSizer(500, 5000, 250);
    expect(sizer.next()).to.equal(500);
    sizer.record(500, 50); // 0.1 ms per event: 2,500 events take 250 ms
    expect(sizer.next()).to.equal(2500);
  });

  it('shrinks the next batch at once when batches get slower (a loaded database), within the bounds', () => {
    const sizer = new BatchSizer(100, 5000, 250);
    sizer.record(5000, 100); // cheap: the largest page
    expect(sizer.next()).to.equal(5000);
    sizer.record(5000, 2500); // 0.5 ms per event now: the estimate goes half way there
    expect(sizer.next()).to.equal(Math.round(250 / ((0.02 + 0.5) / 2)));
    sizer.record(500, 5000); // 10 ms per event: not below the smallest page
    expect(sizer.next()).to.equal(100);
  });

  it('ignores batches too small to say what an event costs', () => {
    const sizer = new BatchSizer(500, 5000, 250);
    sizer.record(2, 300);
    expect(sizer.next()).to.equal(500);
    sizer.record(1000, 50);
    sizer.record(10, 5000);
    expect(sizer.next()).to.equal(5000);
  });

  it('takes the largest page when no live punch is about (a backfill alone goes at full speed), and keeps measuring', () => {
    const sizer = new BatchSizer(500, 5000, 250);
    expect(sizer.next(false)).to.equal(5000);
    sizer.record(5000, 5000); // 1 ms per event
    expect(sizer.next(false)).to.equal(5000);
    expect(sizer.next(true)).to.equal(500);
  });
});
