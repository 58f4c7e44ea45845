import { expect } from 'chai';
import { computeDays, settleDays, type DayAbsence, type DayPunch, type ShiftRules } from '../../../src/services/attendance/compute-days';

const DAY_SHIFT: ShiftRules = {
  id: 1,
  startTime: '09:00',
  endTime: '17:00',
  timeZone: 'UTC',
  workdays: [1, 2, 3, 4, 5],
  breakMinutes: 30,
  breakAfterMinutes: 360,
  graceInMinutes: 5,
  graceOutMinutes: 5,
  checkInBeforeMinutes: 240,
  checkOutAfterMinutes: 240,
  pairing: 'first_last',
};
const LATER = new Date('2027-01-01T00:00:00Z');
let nextId = 1;
const punch = (at: string, state = '0', extra: Partial<DayPunch> = {}): DayPunch => ({
  id: nextId++,
  at: new Date(at),
  state,
  manual: false,
  voided: false,
  ...extra,
});
const days = (shift: ShiftRules | null, from: string, to: string, punches: DayPunch[], options: { holidays?: string[]; now?: Date } = {}) =>
  computeDays({ shift, from, to, punches, holidays: new Set(options.holidays ?? []), now: options.now ?? LATER, zone: 'UTC' });

// 2026-03-02 is a Monday.
describe('attendance engine: computeDays', () => {
  it('first_last: worked = last - first, the unpaid break off a day longer than break_after, late and early beyond the grace', () => {
    const [day] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [
      punch('2026-03-02T09:12:00Z'),
      punch('2026-03-02T13:00:00Z'),
      punch('2026-03-02T16:40:00Z', '1'),
    ]);
    expect(day).to.deep.include({
      status: 'present',
      shiftId: 1,
      scheduledMinutes: 450,
      workedMinutes: 418,
      breakMinutes: 30,
      lateMinutes: 12,
      earlyLeaveMinutes: 20,
      overtimeMinutes: 0,
    });
    expect(day!.firstIn!.toISOString()).to.equal('2026-03-02T09:12:00.000Z');
    expect(day!.lastOut!.toISOString()).to.equal('2026-03-02T16:40:00.000Z');
  });

  it('within the grace nobody is late; overtime is worked beyond the scheduled minutes', () => {
    const [day] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:04:00Z'), punch('2026-03-02T18:34:00Z', '1')]);
    expect(day).to.deep.include({ lateMinutes: 0, earlyLeaveMinutes: 0, workedMinutes: 540, overtimeMinutes: 90 });
  });

  it('a night shift across midnight is one day, dated by its start', () => {
    const night = { ...DAY_SHIFT, startTime: '22:00', endTime: '06:00', breakMinutes: 0 };
    const result = days(night, '2026-03-02', '2026-03-03', [punch('2026-03-02T21:55:00Z'), punch('2026-03-03T06:02:00Z', '1')]);
    // The 5 minutes before the 22:00 start are not paid (early_overtime is off by default).
    expect(result[0]).to.deep.include({ date: '2026-03-02', status: 'present', workedMinutes: 482, scheduledMinutes: 480 });
    expect(result[0]!.punchIds).to.have.length(2);
    expect(result[1]).to.deep.include({ date: '2026-03-03', status: 'absent' });
  });

  it('a night shift across the spring DST change is 7 hours long (Europe/Berlin, 2026-03-29)', () => {
    const night = { ...DAY_SHIFT, startTime: '22:00', endTime: '06:00', breakMinutes: 0, timeZone: 'Europe/Berlin', workdays: [1, 2, 3, 4, 5, 6, 7] };
    // 22:00 CET = 21:00Z; 06:00 CEST = 04:00Z.
    const [day] = days(night, '2026-03-28', '2026-03-28', [punch('2026-03-28T21:00:00Z'), punch('2026-03-29T04:00:00Z', '1')]);
    expect(day).to.deep.include({ status: 'present', scheduledMinutes: 420, workedMinutes: 420, overtimeMinutes: 0 });
  });

  it('alternating: a lunch out/in is a recorded break, deducted as recorded (no unpaid break on top)', () => {
    const shift = { ...DAY_SHIFT, pairing: 'alternating' as const };
    const [day] = days(shift, '2026-03-02', '2026-03-02', [
      punch('2026-03-02T09:00:00Z'),
      punch('2026-03-02T12:00:00Z'),
      punch('2026-03-02T12:45:00Z'),
      punch('2026-03-02T17:00:00Z'),
    ]);
    expect(day).to.deep.include({ status: 'present', workedMinutes: 435, breakMinutes: 45 });
  });

  it('by_state: break-out and break-in punches make the break; states decide, not the order', () => {
    const shift = { ...DAY_SHIFT, pairing: 'by_state' as const };
    // A 20-minute recorded break counts towards the 30-minute unpaid break (tops_up): 10 more come off.
    const [day] = days(shift, '2026-03-02', '2026-03-02', [
      punch('2026-03-02T09:00:00Z', '0'),
      punch('2026-03-02T12:00:00Z', '2'),
      punch('2026-03-02T12:20:00Z', '3'),
      punch('2026-03-02T17:00:00Z', '1'),
    ]);
    expect(day).to.deep.include({ status: 'present', workedMinutes: 450, breakMinutes: 30 });
    const [odd] = days(shift, '2026-03-03', '2026-03-03', [punch('2026-03-03T09:00:00Z', '1'), punch('2026-03-03T17:00:00Z', '1')]);
    expect(odd).to.deep.include({ status: 'incomplete', workedMinutes: 0 });
    expect(odd!.exceptions).to.include('missing_in');
  });

  it('punches less than 60 s apart count once (duplicate_ignored)', () => {
    const [day] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [
      punch('2026-03-02T09:00:00Z'),
      punch('2026-03-02T09:00:40Z'),
      punch('2026-03-02T17:00:00Z', '1'),
    ]);
    expect(day).to.deep.include({ status: 'present', workedMinutes: 450 });
    expect(day!.exceptions).to.deep.equal(['duplicate_ignored']);
    expect(day!.punchIds).to.have.length(3);
  });

  it('a missing check-out is incomplete with 0 worked minutes, never a guessed 20-hour day', () => {
    const [day] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:00:00Z')]);
    expect(day).to.deep.include({ status: 'incomplete', workedMinutes: 0, overtimeMinutes: 0, lastOut: null });
    expect(day!.exceptions).to.deep.equal(['missing_out']);
  });

  it('a holiday without punches is holiday; worked on a holiday or a rest day, it is all holiday or rest_day pay', () => {
    const result = days(
      DAY_SHIFT,
      '2026-03-02',
      '2026-03-08',
      [punch('2026-03-03T10:00:00Z'), punch('2026-03-03T14:00:00Z'), punch('2026-03-07T08:00:00Z'), punch('2026-03-07T12:00:00Z')],
      { holidays: ['2026-03-02', '2026-03-03'] },
    );
    expect(result.map((d) => d.status)).to.deep.equal(['holiday', 'present', 'absent', 'absent', 'absent', 'present', 'off']);
    expect(result[1]).to.deep.include({ scheduledMinutes: 0, workedMinutes: 240, overtimeMinutes: 0 });
    expect(result[1]!.pay).to.deep.include({ holiday: 240, regular: 0 });
    expect(result[5]).to.deep.include({ shiftId: null, scheduledMinutes: 0, workedMinutes: 240, overtimeMinutes: 0 });
    expect(result[5]!.pay).to.deep.include({ rest_day: 240, regular: 0 });
    // Paid as overtime instead when the policy says so.
    const asOvertime = computeDays({
      shift: DAY_SHIFT,
      from: '2026-03-03',
      to: '2026-03-07',
      punches: [punch('2026-03-03T10:00:00Z'), punch('2026-03-03T14:00:00Z'), punch('2026-03-07T08:00:00Z'), punch('2026-03-07T12:00:00Z')],
      holidays: new Set(['2026-03-03']),
      now: LATER,
      zone: 'UTC',
      policy: { holidayWork: 'overtime', restDayWork: 'overtime' },
    });
    expect([asOvertime[0]!.overtimeMinutes, asOvertime[4]!.overtimeMinutes]).to.deep.equal([240, 240]);
  });

  it('a rest day worked owes no shift break (no shift runs): paid from in to out like a day without a shift', () => {
    // Saturday 09:00-17:00 under a weekday shift with 30 minutes' break after 360.
    const [saturday] = days(DAY_SHIFT, '2026-03-07', '2026-03-07', [punch('2026-03-07T09:00:00Z'), punch('2026-03-07T17:00:00Z', '1')]);
    expect(saturday).to.deep.include({ shiftId: null, scheduledMinutes: 0, workedMinutes: 480, breakMinutes: 0, lateMinutes: 0, earlyLeaveMinutes: 0 });
    expect(saturday!.pay).to.deep.include({ rest_day: 480, regular: 0 });
    const [friday] = days(DAY_SHIFT, '2026-03-06', '2026-03-06', [punch('2026-03-06T09:00:00Z'), punch('2026-03-06T17:00:00Z', '1')]);
    expect(friday).to.deep.include({ workedMinutes: 450, breakMinutes: 30 });
  });

  it('voided punches are ignored; manual punches are flagged', () => {
    const [day] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [
      punch('2026-03-02T09:00:00Z', '0', { manual: true }),
      punch('2026-03-02T12:00:00Z', '1', { voided: true }),
      punch('2026-03-02T17:00:00Z', '1'),
    ]);
    expect(day).to.deep.include({ workedMinutes: 450 });
    expect(day!.exceptions).to.deep.equal(['manual_punch']);
    expect(day!.punchIds).to.have.length(2);
  });

  it('a day not over yet is scheduled; without a shift every date is a rest day', () => {
    const [today] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:00:00Z')], { now: new Date('2026-03-02T12:00:00Z') });
    expect(today!.status).to.equal('scheduled');
    // It settles when its window ends (17:00 + 240 min check-out allowance), and not before.
    expect(today!.settlesAt!.getTime()).to.be.greaterThan(new Date('2026-03-02T21:00:00Z').getTime());
    expect(today!.settlesAt!.getTime()).to.be.lessThan(new Date('2026-03-02T21:00:01Z').getTime());
    const [settled] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:00:00Z')], { now: today!.settlesAt! });
    expect(settled).to.deep.include({ status: 'incomplete', settlesAt: null });
    const none = days(null, '2026-03-02', '2026-03-03', [punch('2026-03-02T09:00:00Z'), punch('2026-03-02T17:00:00Z')]);
    expect(none.map((d) => [d.status, d.pay.rest_day])).to.deep.equal([
      ['present', 480],
      ['off', 0],
    ]);
  });

  describe('pairing: lateness from the first in, early leave from the last out', () => {
    const byState = { ...DAY_SHIFT, pairing: 'by_state' as const };

    it('by_state: a lone check-out at 17:00 is no first in: no late minutes, missing_in', () => {
      const [day] = days(byState, '2026-03-02', '2026-03-02', [punch('2026-03-02T17:00:00Z', '1')]);
      expect(day).to.deep.include({ status: 'incomplete', firstIn: null, lateMinutes: 0, earlyLeaveMinutes: 0, workedMinutes: 0 });
      expect(day!.lastOut!.toISOString()).to.equal('2026-03-02T17:00:00.000Z');
      expect(day!.exceptions).to.deep.equal(['missing_in']);
    });

    it('by_state: a lone break-in at 12:30 is no last out: no early leave, missing_in and missing_out', () => {
      const [day] = days(byState, '2026-03-02', '2026-03-02', [punch('2026-03-02T12:30:00Z', '3')]);
      expect(day).to.deep.include({ status: 'incomplete', firstIn: null, lastOut: null, lateMinutes: 0, earlyLeaveMinutes: 0 });
      expect(day!.exceptions).to.deep.equal(['missing_in', 'missing_out']);
      // After a check-in, a break-in at 12:30 is still no last out: no 270 minutes of early leave.
      const [afterIn] = days(byState, '2026-03-03', '2026-03-03', [punch('2026-03-03T09:00:00Z', '0'), punch('2026-03-03T12:30:00Z', '3')]);
      expect(afterIn).to.deep.include({ status: 'incomplete', lastOut: null, earlyLeaveMinutes: 0, lateMinutes: 0 });
      expect(afterIn!.exceptions).to.deep.equal(['missing_out']);
    });

    it('by_state: lateness from the check-in even when a break punch comes first; the last out is the check-out', () => {
      const [day] = days(byState, '2026-03-02', '2026-03-02', [
        punch('2026-03-02T09:20:00Z', '0'),
        punch('2026-03-02T12:00:00Z', '2'),
        punch('2026-03-02T12:30:00Z', '3'),
        punch('2026-03-02T16:30:00Z', '1'),
      ]);
      expect(day).to.deep.include({ status: 'present', lateMinutes: 20, earlyLeaveMinutes: 30 });
    });

    it('alternating: an unmatched last punch gives no last out and no early leave', () => {
      const shift = { ...DAY_SHIFT, pairing: 'alternating' as const };
      const [day] = days(shift, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:10:00Z'), punch('2026-03-02T12:00:00Z'), punch('2026-03-02T12:30:00Z')]);
      expect(day).to.deep.include({ status: 'incomplete', lastOut: null, earlyLeaveMinutes: 0, lateMinutes: 10 });
      expect(day!.exceptions).to.deep.equal(['missing_out']);
    });
  });

  describe('minute rules', () => {
    it('seconds are dropped: 09:05:59 with 5 minutes grace is not late; 479.5 gross minutes pay 479', () => {
      const shift = { ...DAY_SHIFT, breakMinutes: 0 };
      const [day] = days(shift, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:05:59Z'), punch('2026-03-02T17:05:29Z', '1')]);
      expect(day).to.deep.include({ lateMinutes: 0, workedMinutes: 480 });
      const [half] = days(shift, '2026-03-03', '2026-03-03', [punch('2026-03-03T09:00:30Z'), punch('2026-03-03T16:59:59Z', '1')]);
      expect(half).to.deep.include({ workedMinutes: 479 });
      const [late] = days(shift, '2026-03-04', '2026-03-04', [punch('2026-03-04T09:06:00Z'), punch('2026-03-04T17:00:00Z', '1')]);
      expect(late).to.deep.include({ lateMinutes: 6 });
    });

    it('punch rounding to 15 minutes, each punch on its own: nearest, down, up', () => {
      const ps = () => [punch('2026-03-02T08:53:00Z'), punch('2026-03-02T17:05:00Z', '1')];
      const policy = { earlyOvertime: true };
      const run = (mode: 'nearest' | 'down' | 'up', punches = ps()) =>
        computeDays({
          shift: { ...DAY_SHIFT, breakMinutes: 0, roundingMinutes: 15, roundingMode: mode },
          from: '2026-03-02',
          to: '2026-03-02',
          punches,
          holidays: new Set(),
          now: LATER,
          zone: 'UTC',
          policy,
        })[0]!;
      expect(run('nearest').workedMinutes).to.equal(480); // 09:00 to 17:00
      expect(run('down').workedMinutes).to.equal(495); // 08:45 to 17:00
      expect(run('up').workedMinutes).to.equal(495); // 09:00 to 17:15
      // Lateness is measured from the rounded in: 09:07 is 09:00 to the nearest quarter, 09:15 rounded up.
      const lateIn = () => [punch('2026-03-02T09:07:00Z'), punch('2026-03-02T17:00:00Z', '1')];
      expect(run('nearest', lateIn()).lateMinutes).to.equal(0);
      expect(run('up', lateIn()).lateMinutes).to.equal(15);
    });

    it('the unpaid break has no cliff: 360 minutes pay 360, 361 pay 360, 400 pay 370', () => {
      const paid = (end: string) => days(DAY_SHIFT, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:00:00Z'), punch(end, '1')])[0]!.workedMinutes;
      expect(paid('2026-03-02T15:00:00Z')).to.equal(360);
      expect(paid('2026-03-02T15:01:00Z')).to.equal(360);
      expect(paid('2026-03-02T15:40:00Z')).to.equal(370);
    });

    it('a recorded break replaces, adds to, or tops up the unpaid break (shift setting)', () => {
      const ps = () => [punch('2026-03-02T09:00:00Z'), punch('2026-03-02T12:00:00Z'), punch('2026-03-02T12:10:00Z'), punch('2026-03-02T17:00:00Z')];
      const worked = (recordedBreak: 'replaces' | 'adds' | 'tops_up') =>
        days({ ...DAY_SHIFT, pairing: 'alternating', recordedBreak }, '2026-03-02', '2026-03-02', ps())[0]!;
      // 470 minutes between the punches, 10 recorded.
      expect(worked('replaces')).to.deep.include({ workedMinutes: 470, breakMinutes: 10 });
      expect(worked('adds')).to.deep.include({ workedMinutes: 440, breakMinutes: 40 });
      expect(worked('tops_up')).to.deep.include({ workedMinutes: 450, breakMinutes: 30 });
    });
  });

  describe('pay items', () => {
    it('early overtime off: an 08:42 check-in is paid from 09:00; on: the 18 minutes are overtime', () => {
      const ps = () => [punch('2026-03-02T08:42:00Z'), punch('2026-03-02T17:00:00Z', '1')];
      const [off] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', ps());
      expect(off).to.deep.include({ workedMinutes: 450, overtimeMinutes: 0 });
      expect(off!.pay).to.deep.include({ regular: 450, overtime: 0 });
      const [on] = computeDays({
        shift: DAY_SHIFT,
        from: '2026-03-02',
        to: '2026-03-02',
        punches: ps(),
        holidays: new Set(),
        now: LATER,
        zone: 'UTC',
        policy: { earlyOvertime: true },
      });
      expect(on).to.deep.include({ workedMinutes: 468, overtimeMinutes: 18 });
      expect(on!.pay).to.deep.include({ regular: 450, overtime: 18 });
    });

    it('a night premium across midnight: 22:00-06:00 worked, window 22:00-05:00, counts 420 night minutes', () => {
      const night = { ...DAY_SHIFT, startTime: '22:00', endTime: '06:00', breakMinutes: 0, payPolicy: { nightStart: '22:00', nightEnd: '05:00' } };
      const [day] = days(night, '2026-03-02', '2026-03-02', [punch('2026-03-02T22:00:00Z'), punch('2026-03-03T06:00:00Z', '1')]);
      expect(day!.pay).to.deep.include({ regular: 480, night: 420 });
    });

    it('weekly overtime across a week with daily overtime: only regular minutes count towards 40 h', () => {
      // Monday to Friday 09:00-18:30 (9.5 h, 30 min break: 540 paid; 450 scheduled, 90 daily overtime each day).
      const ps: DayPunch[] = [];
      for (const d of ['02', '03', '04', '05', '06']) ps.push(punch(`2026-03-${d}T09:00:00Z`), punch(`2026-03-${d}T18:30:00Z`, '1'));
      // Saturday 4 h on a rest day, paid as regular-counting? No: rest_day code; add a Saturday shift day instead.
      const shift = { ...DAY_SHIFT, workdays: [1, 2, 3, 4, 5, 6] };
      ps.push(punch('2026-03-07T09:00:00Z'), punch('2026-03-07T17:00:00Z', '1'));
      const policy = { weeklyOvertimeAfterMinutes: 2400 };
      const week = computeDays({ shift, from: '2026-03-02', to: '2026-03-08', punches: ps, holidays: new Set(), now: LATER, zone: 'UTC', policy });
      settleDays(week, policy);
      // Regular: 5 x 450 = 2250, then Saturday 450 of which 150 fit under 2400: 300 move to overtime.
      expect(week.map((d) => d.pay.regular)).to.deep.equal([450, 450, 450, 450, 450, 150, 0]);
      expect(week.map((d) => d.overtimeMinutes)).to.deep.equal([90, 90, 90, 90, 90, 300, 0]);
      const total = week.reduce((sum, d) => sum + d.pay.regular + d.pay.overtime, 0);
      expect(total).to.equal(week.reduce((sum, d) => sum + d.workedMinutes, 0));
    });
  });

  it('employment dates: days outside them are not_employed, count nowhere, and are never absent', () => {
    const result = computeDays({
      shift: DAY_SHIFT,
      from: '2026-03-02',
      to: '2026-03-06',
      punches: [punch('2026-03-02T09:00:00Z'), punch('2026-03-02T17:00:00Z', '1')],
      holidays: new Set(),
      now: LATER,
      zone: 'UTC',
      employment: { startDate: '2026-03-03', endDate: '2026-03-05' },
    });
    expect(result.map((d) => d.status)).to.deep.equal(['not_employed', 'absent', 'absent', 'absent', 'not_employed']);
    expect(result[0]).to.deep.include({ workedMinutes: 0, scheduledMinutes: 0, lateMinutes: 0, overtimeMinutes: 0 });
    expect(Object.values(result[0]!.pay).every((m) => m === 0)).to.equal(true);
  });

  it('a flexible day: work counts from 07:00 to 19:00, 480 required minutes, late only against the 10:00-15:00 core hours', () => {
    const flex: ShiftRules = {
      ...DAY_SHIFT,
      startTime: '07:00',
      endTime: '19:00',
      breakMinutes: 30,
      flexible: true,
      coreStart: '10:00',
      coreEnd: '15:00',
      requiredMinutes: 480,
      graceInMinutes: 0,
    };
    // 09:40 to 18:40: 540 minutes, 30 break: 510 paid, 480 required: 30 overtime; not late (before 10:00), no early leave (after 15:00).
    const [day] = days(flex, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:40:00Z'), punch('2026-03-02T18:40:00Z', '1')]);
    expect(day).to.deep.include({ status: 'present', scheduledMinutes: 480, workedMinutes: 510, lateMinutes: 0, earlyLeaveMinutes: 0, overtimeMinutes: 30 });
    // 10:20 to 14:30: late 20 against the core start, early leave 30 against the core end.
    const [late] = days(flex, '2026-03-03', '2026-03-03', [punch('2026-03-03T10:20:00Z'), punch('2026-03-03T14:30:00Z', '1')]);
    expect(late).to.deep.include({ lateMinutes: 20, earlyLeaveMinutes: 30 });
    // Without core hours nobody is late.
    const [free] = days({ ...flex, coreStart: null, coreEnd: null }, '2026-03-04', '2026-03-04', [
      punch('2026-03-04T12:00:00Z'),
      punch('2026-03-04T16:00:00Z', '1'),
    ]);
    expect(free).to.deep.include({ lateMinutes: 0, earlyLeaveMinutes: 0, workedMinutes: 240 });
  });

  it('approved leave: a paid whole workday is leave with its scheduled minutes; holidays and rest days inside the range are not charged', () => {
    const vacation: DayAbsence = { absenceTypeId: 7, code: 'VAC', paid: true, fraction: 1, minutes: 0 };
    const absences = new Map(['2026-03-06', '2026-03-07', '2026-03-09'].map((date) => [date, vacation]));
    // Friday, Saturday (rest day), Monday (a holiday).
    const result = computeDays({
      shift: DAY_SHIFT,
      from: '2026-03-06',
      to: '2026-03-09',
      punches: [],
      holidays: new Set(['2026-03-09']),
      now: LATER,
      zone: 'UTC',
      absences,
    });
    expect(result.map((d) => [d.status, d.absenceCode, d.leaveMinutes])).to.deep.equal([
      ['leave', 'VAC', 450],
      ['off', null, 0],
      ['off', null, 0],
      ['holiday', null, 0],
    ]);
    // A future day of approved leave is already leave, not scheduled.
    const [future] = computeDays({
      shift: DAY_SHIFT,
      from: '2026-03-06',
      to: '2026-03-06',
      punches: [],
      holidays: new Set(),
      now: new Date('2026-03-01T00:00:00Z'),
      zone: 'UTC',
      absences,
    });
    expect(future).to.deep.include({ status: 'leave', absenceTypeId: 7, leaveMinutes: 450 });
  });

  it('approved leave: unpaid leave pays 0 minutes; a half day pays half; an hourly absence its minutes, and punches on the rest of the day decide the status', () => {
    const on = (absence: DayAbsence, punches: DayPunch[] = []) =>
      computeDays({
        shift: DAY_SHIFT,
        from: '2026-03-02',
        to: '2026-03-02',
        punches,
        holidays: new Set(),
        now: LATER,
        zone: 'UTC',
        absences: new Map([['2026-03-02', absence]]),
      })[0]!;
    expect(on({ absenceTypeId: 3, code: 'UNPAID', paid: false, fraction: 1, minutes: 0 })).to.deep.include({
      status: 'leave',
      absenceCode: 'UNPAID',
      leaveMinutes: 0,
    });
    expect(on({ absenceTypeId: 1, code: 'VAC', paid: true, fraction: 0.5, minutes: 0 })).to.deep.include({ status: 'leave', leaveMinutes: 225 });
    const doctor = on({ absenceTypeId: 4, code: 'DOC', paid: true, fraction: null, minutes: 120 }, [
      punch('2026-03-02T11:00:00Z'),
      punch('2026-03-02T17:00:00Z', '1'),
    ]);
    expect(doctor).to.deep.include({ status: 'present', absenceCode: 'DOC', leaveMinutes: 120, workedMinutes: 360 });
  });

  it('approved leave moves the lateness and early-leave bounds over the part it covers, never inside the span', () => {
    const on = (absence: DayAbsence, punches: DayPunch[]) =>
      computeDays({
        shift: DAY_SHIFT,
        from: '2026-03-02',
        to: '2026-03-02',
        punches,
        holidays: new Set(),
        now: LATER,
        zone: 'UTC',
        absences: new Map([['2026-03-02', absence]]),
      })[0]!;
    const half = (halfDay: 'am' | 'pm'): DayAbsence => ({ absenceTypeId: 1, code: 'VAC', paid: true, fraction: 0.5, minutes: 0, halfDay });
    const hours = (startTime: string, endTime: string): DayAbsence => ({
      absenceTypeId: 4,
      code: 'DOC',
      paid: true,
      fraction: null,
      minutes: 120,
      startTime,
      endTime,
    });
    // The middle of 09:00-17:00 is 13:00; grace 5 minutes.
    expect(on(half('pm'), [punch('2026-03-02T09:00:00Z'), punch('2026-03-02T13:00:00Z', '1')])).to.deep.include({ lateMinutes: 0, earlyLeaveMinutes: 0 });
    expect(on(half('pm'), [punch('2026-03-02T09:00:00Z'), punch('2026-03-02T12:30:00Z', '1')])).to.deep.include({ earlyLeaveMinutes: 30 });
    expect(on(half('am'), [punch('2026-03-02T13:03:00Z'), punch('2026-03-02T17:00:00Z', '1')])).to.deep.include({ lateMinutes: 0, earlyLeaveMinutes: 0 });
    expect(on(half('am'), [punch('2026-03-02T13:20:00Z'), punch('2026-03-02T16:00:00Z', '1')])).to.deep.include({ lateMinutes: 20, earlyLeaveMinutes: 60 });
    // Hours covering the start or the end move that bound to their other end; hours inside move none.
    expect(on(hours('09:00', '11:00'), [punch('2026-03-02T11:00:00Z'), punch('2026-03-02T17:00:00Z', '1')])).to.deep.include({ lateMinutes: 0 });
    expect(on(hours('15:00', '17:00'), [punch('2026-03-02T09:00:00Z'), punch('2026-03-02T15:00:00Z', '1')])).to.deep.include({ earlyLeaveMinutes: 0 });
    expect(on(hours('11:00', '13:00'), [punch('2026-03-02T09:30:00Z'), punch('2026-03-02T16:00:00Z', '1')])).to.deep.include({
      lateMinutes: 30,
      earlyLeaveMinutes: 60,
    });
    // A whole day of leave has neither.
    const whole: DayAbsence = { absenceTypeId: 1, code: 'VAC', paid: true, fraction: 1, minutes: 0 };
    expect(on(whole, [punch('2026-03-02T10:00:00Z'), punch('2026-03-02T12:00:00Z', '1')])).to.deep.include({
      status: 'leave',
      lateMinutes: 0,
      earlyLeaveMinutes: 0,
    });
  });
});
