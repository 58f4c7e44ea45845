import { expect } from 'chai';
import { countedAt, earlyLeaveMinutes, lateMinutes, unpaidBreakMinutes } from '../../../src/services/attendance/minute-rules';

const at = (time: string) => new Date(`2026-03-02T${time}Z`);
const hhmmss = (d: Date) => d.toISOString().slice(11, 19);

describe('attendance minute rules', () => {
  it('without rounding the seconds are dropped (09:05:59 counts as 09:05)', () => {
    expect(hhmmss(countedAt(at('09:05:59'), null, at('09:00:00')))).to.equal('09:05:00');
    expect(hhmmss(countedAt(at('09:05:59'), { minutes: null, mode: 'nearest' }, at('09:00:00')))).to.equal('09:05:00');
  });

  it('rounding to a grid from the shift start: nearest (half up), down, up', () => {
    const start = at('09:00:00');
    const q = (time: string, mode: 'nearest' | 'down' | 'up') => hhmmss(countedAt(at(time), { minutes: 15, mode }, start));
    expect(q('09:07:29', 'nearest')).to.equal('09:00:00');
    expect(q('09:07:30', 'nearest')).to.equal('09:15:00');
    expect(q('08:53:00', 'down')).to.equal('08:45:00');
    expect(q('09:00:00', 'up')).to.equal('09:00:00');
    expect(q('09:00:30', 'up')).to.equal('09:00:00'); // seconds dropped first
    expect(q('09:01:00', 'up')).to.equal('09:15:00');
    // A grid from a 09:10 start: 6-minute steps 09:04, 09:10, 09:16.
    expect(hhmmss(countedAt(at('09:12:00'), { minutes: 6, mode: 'nearest' }, at('09:10:00')))).to.equal('09:10:00');
  });

  it('late only when the counted in is after start + grace, then by all its minutes', () => {
    expect(lateMinutes(at('09:05:00'), at('09:00:00'), 5)).to.equal(0);
    expect(lateMinutes(at('09:06:00'), at('09:00:00'), 5)).to.equal(6);
    expect(lateMinutes(at('08:50:00'), at('09:00:00'), 0)).to.equal(0);
    expect(earlyLeaveMinutes(at('16:55:00'), at('17:00:00'), 5)).to.equal(0);
    expect(earlyLeaveMinutes(at('16:40:00'), at('17:00:00'), 5)).to.equal(20);
  });

  it('the unpaid break is continuous: min(break, worked - after), never a cliff', () => {
    const owed = (workedMinutes: number) =>
      unpaidBreakMinutes({ workedMinutes, recordedBreakMinutes: 0, breakMinutes: 30, breakAfterMinutes: 360, rule: 'tops_up' });
    expect([359, 360, 361, 375, 390, 600].map(owed)).to.deep.equal([0, 0, 1, 15, 30, 30]);
    // Paid minutes never go down when one more minute is worked.
    for (let worked = 300; worked < 500; worked += 1) expect(worked + 1 - owed(worked + 1)).to.be.at.least(worked - owed(worked));
  });

  it('a recorded break replaces, adds to, or tops up the unpaid break', () => {
    const rule = (r: 'replaces' | 'adds' | 'tops_up', recorded: number) =>
      unpaidBreakMinutes({ workedMinutes: 470, recordedBreakMinutes: recorded, breakMinutes: 30, breakAfterMinutes: 360, rule: r });
    expect([rule('replaces', 10), rule('adds', 10), rule('tops_up', 10)]).to.deep.equal([0, 30, 20]);
    expect([rule('replaces', 0), rule('tops_up', 45)]).to.deep.equal([30, 0]);
  });
});
