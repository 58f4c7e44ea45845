import { expect } from 'chai';
import { FieldChecker } from '../../../src/services/common/validation';
import { checkSchedule, nextStep, realAt, simulatedAt, type VirtualSchedule } from '../../../src/services/sandbox/virtual-schedule';

// The virtual terminals' schedule (docs/sandbox.md): a simulated clock that starts at the real time
// when the schedule is set and runs `speed` times as fast.
const START = Date.parse('2026-03-02T08:00:00Z');
const schedule = (overrides: Partial<VirtualSchedule>): VirtualSchedule => ({
  punchesPerHour: 60,
  dailyPattern: null,
  speed: 1,
  startedAt: START,
  timeZone: 'UTC',
  ...overrides,
});
const problems = (s: Pick<VirtualSchedule, 'punchesPerHour' | 'dailyPattern' | 'speed'>) => {
  const check = new FieldChecker();
  checkSchedule(check, s);
  return check.problems.map((p) => `${p.field}:${p.code}`);
};

describe('virtual terminal schedules', () => {
  it('maps real and simulated time through the speed, both ways', () => {
    const s = schedule({ speed: 60 });
    expect(simulatedAt(s, START + 1000)).to.equal(START + 60_000);
    expect(realAt(s, START + 60_000)).to.equal(START + 1000);
  });

  it('a rate: the first step at the start, then one every 3600/rate simulated seconds, people in turn', () => {
    const s = schedule({ punchesPerHour: 60, speed: 60 });
    const first = nextStep(s, -Infinity, 3);
    expect(first).to.deep.equal({ at: START, slot: 0, punchState: null });
    const second = nextStep(s, first.at, 3);
    expect(second).to.deep.equal({ at: START + 60_000, slot: 1, punchState: null });
    // One simulated minute at speed 60 is one real second.
    expect(realAt(s, second.at) - realAt(s, first.at)).to.equal(1000);
  });

  it('a daily pattern: each person at each time, a simulated minute apart, in the local zone, on to the next day', () => {
    const s = schedule({
      punchesPerHour: null,
      dailyPattern: [
        { time: '09:00', punchState: 0 },
        { time: '17:00', punchState: 1 },
      ],
      timeZone: 'Europe/Berlin',
    });
    // 08:00 UTC is 09:00 in Berlin (winter time): the first person punches in at the start.
    const first = nextStep(s, -Infinity, 2);
    expect(first).to.deep.equal({ at: START, slot: 0, punchState: 0 });
    expect(nextStep(s, first.at, 2)).to.deep.equal({ at: START + 60_000, slot: 1, punchState: 0 });
    expect(nextStep(s, START + 60_000, 2)).to.deep.equal({ at: Date.parse('2026-03-02T16:00:00Z'), slot: 0, punchState: 1 });
    expect(nextStep(s, Date.parse('2026-03-02T16:01:00Z'), 2)).to.deep.equal({ at: Date.parse('2026-03-03T08:00:00Z'), slot: 0, punchState: 0 });
  });

  it('refuses what would make a terminal punch more than once a real second, and malformed settings', () => {
    expect(problems({ punchesPerHour: 60, dailyPattern: null, speed: 60 })).to.deep.equal([]);
    expect(problems({ punchesPerHour: 60, dailyPattern: null, speed: 61 })).to.deep.equal(['speed:out_of_range']);
    expect(problems({ punchesPerHour: 0, dailyPattern: null, speed: 1 })).to.deep.equal(['punchesPerHour:out_of_range']);
    expect(problems({ punchesPerHour: 60, dailyPattern: null, speed: 0 })).to.deep.equal(['speed:out_of_range']);
    expect(problems({ punchesPerHour: null, dailyPattern: [], speed: 1 })).to.deep.equal(['dailyPattern:empty']);
    expect(
      problems({
        punchesPerHour: null,
        dailyPattern: [
          { time: '09:00', punchState: 0 },
          { time: '09:00', punchState: 6 },
          { time: '24:00', punchState: 1 },
        ],
        speed: 1,
      }),
    ).to.deep.equal(['dailyPattern.1.time:duplicate', 'dailyPattern.1.punchState:out_of_range', 'dailyPattern.2.time:invalid_time']);
    // Two times a simulated minute apart at 61 simulated seconds a second: under a real second.
    expect(
      problems({
        punchesPerHour: null,
        dailyPattern: [
          { time: '09:00', punchState: 0 },
          { time: '09:01', punchState: 1 },
        ],
        speed: 61,
      }),
    ).to.deep.equal(['speed:out_of_range']);
  });
});
