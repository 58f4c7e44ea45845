import { expect } from 'chai';
import { computeDays, type DayAbsence, type DayPunch, type ShiftRules } from '../../../src/services/attendance/compute-days';

const DAY_SHIFT: ShiftRules = {
  id: 1, startTime: '09:00', endTime: '17:00', timeZone: 'UTC', workdays: [1, 2, 3, 4, 5], breakMinutes: 30, breakAfterMinutes: 360,
  graceInMinutes: 5, graceOutMinutes: 5, checkInBeforeMinutes: 240, checkOutAfterMinutes: 240, pairing: 'first_last',
};
const LATER = new Date('2027-01-01T00:00:00Z');
let nextId = 1;
const punch = (at: string, state = '0', extra: Partial<DayPunch> = {}): DayPunch => ({ id: nextId++, at: new Date(at), state, manual: false, voided: false, ...extra });
const days = (shift: ShiftRules | null, from: string, to: string, punches: DayPunch[], options: { holidays?: string[]; now?: Date } = {}) =>
  computeDays({ shift, from, to, punches, holidays: new Set(options.holidays ?? []), now: options.now ?? LATER, zone: 'UTC' });

// 2026-03-02 is a Monday.
describe('attendance engine: computeDays', () => {
  it('first_last: worked = last - first, the unpaid break off a day longer than break_after, late and early beyond the grace', () => {
    const [day] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:12:00Z'), punch('2026-03-02T13:00:00Z'), punch('2026-03-02T16:40:00Z', '1')]);
    expect(day).to.deep.include({ status: 'present', shiftId: 1, scheduledMinutes: 450, workedMinutes: 418, breakMinutes: 30, lateMinutes: 12, earlyLeaveMinutes: 20, overtimeMinutes: 0 });
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
    expect(result[0]).to.deep.include({ date: '2026-03-02', status: 'present', workedMinutes: 487, scheduledMinutes: 480 });
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
    const [day] = days(shift, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:00:00Z'), punch('2026-03-02T12:00:00Z'), punch('2026-03-02T12:45:00Z'), punch('2026-03-02T17:00:00Z')]);
    expect(day).to.deep.include({ status: 'present', workedMinutes: 435, breakMinutes: 45 });
  });

  it('by_state: break-out and break-in punches make the break; states decide, not the order', () => {
    const shift = { ...DAY_SHIFT, pairing: 'by_state' as const };
    const [day] = days(shift, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:00:00Z', '0'), punch('2026-03-02T12:00:00Z', '2'), punch('2026-03-02T12:20:00Z', '3'), punch('2026-03-02T17:00:00Z', '1')]);
    expect(day).to.deep.include({ status: 'present', workedMinutes: 460, breakMinutes: 20 });
    const [odd] = days(shift, '2026-03-03', '2026-03-03', [punch('2026-03-03T09:00:00Z', '1'), punch('2026-03-03T17:00:00Z', '1')]);
    expect(odd).to.deep.include({ status: 'incomplete', workedMinutes: 0 });
    expect(odd!.exceptions).to.include('missing_in');
  });

  it('punches less than 60 s apart count once (duplicate_ignored)', () => {
    const [day] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:00:00Z'), punch('2026-03-02T09:00:40Z'), punch('2026-03-02T17:00:00Z', '1')]);
    expect(day).to.deep.include({ status: 'present', workedMinutes: 450 });
    expect(day!.exceptions).to.deep.equal(['duplicate_ignored']);
    expect(day!.punchIds).to.have.length(3);
  });

  it('a missing check-out is incomplete with 0 worked minutes, never a guessed 20-hour day', () => {
    const [day] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:00:00Z')]);
    expect(day).to.deep.include({ status: 'incomplete', workedMinutes: 0, overtimeMinutes: 0, lastOut: null });
    expect(day!.exceptions).to.deep.equal(['missing_out']);
  });

  it('a holiday without punches is holiday; worked on a holiday or a rest day, it is all overtime', () => {
    const result = days(DAY_SHIFT, '2026-03-02', '2026-03-08', [punch('2026-03-03T10:00:00Z'), punch('2026-03-03T14:00:00Z'), punch('2026-03-07T08:00:00Z'), punch('2026-03-07T12:00:00Z')], { holidays: ['2026-03-02', '2026-03-03'] });
    expect(result.map((d) => d.status)).to.deep.equal(['holiday', 'present', 'absent', 'absent', 'absent', 'present', 'off']);
    expect(result[1]).to.deep.include({ scheduledMinutes: 0, workedMinutes: 240, overtimeMinutes: 240 });
    expect(result[5]).to.deep.include({ shiftId: null, scheduledMinutes: 0, workedMinutes: 240, overtimeMinutes: 240 });
  });

  it('voided punches are ignored; manual punches are flagged', () => {
    const [day] = days(DAY_SHIFT, '2026-03-02', '2026-03-02', [punch('2026-03-02T09:00:00Z', '0', { manual: true }), punch('2026-03-02T12:00:00Z', '1', { voided: true }), punch('2026-03-02T17:00:00Z', '1')]);
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
    expect(none.map((d) => [d.status, d.overtimeMinutes])).to.deep.equal([['present', 480], ['off', 0]]);
  });

  it('approved leave: a paid whole workday is leave with its scheduled minutes; holidays and rest days inside the range are not charged', () => {
    const vacation: DayAbsence = { absenceTypeId: 7, code: 'VAC', paid: true, fraction: 1, minutes: 0 };
    const absences = new Map(['2026-03-06', '2026-03-07', '2026-03-09'].map((date) => [date, vacation]));
    // Friday, Saturday (rest day), Monday (a holiday).
    const result = computeDays({ shift: DAY_SHIFT, from: '2026-03-06', to: '2026-03-09', punches: [], holidays: new Set(['2026-03-09']), now: LATER, zone: 'UTC', absences });
    expect(result.map((d) => [d.status, d.absenceCode, d.leaveMinutes])).to.deep.equal([['leave', 'VAC', 450], ['off', null, 0], ['off', null, 0], ['holiday', null, 0]]);
    // A future day of approved leave is already leave, not scheduled.
    const [future] = computeDays({ shift: DAY_SHIFT, from: '2026-03-06', to: '2026-03-06', punches: [], holidays: new Set(), now: new Date('2026-03-01T00:00:00Z'), zone: 'UTC', absences });
    expect(future).to.deep.include({ status: 'leave', absenceTypeId: 7, leaveMinutes: 450 });
  });

  it('approved leave: unpaid leave pays 0 minutes; a half day pays half; an hourly absence its minutes, and punches on the rest of the day decide the status', () => {
    const on = (absence: DayAbsence, punches: DayPunch[] = []) =>
      computeDays({ shift: DAY_SHIFT, from: '2026-03-02', to: '2026-03-02', punches, holidays: new Set(), now: LATER, zone: 'UTC', absences: new Map([['2026-03-02', absence]]) })[0]!;
    expect(on({ absenceTypeId: 3, code: 'UNPAID', paid: false, fraction: 1, minutes: 0 })).to.deep.include({ status: 'leave', absenceCode: 'UNPAID', leaveMinutes: 0 });
    expect(on({ absenceTypeId: 1, code: 'VAC', paid: true, fraction: 0.5, minutes: 0 })).to.deep.include({ status: 'leave', leaveMinutes: 225 });
    const doctor = on({ absenceTypeId: 4, code: 'DOC', paid: true, fraction: null, minutes: 120 }, [punch('2026-03-02T11:00:00Z'), punch('2026-03-02T17:00:00Z', '1')]);
    expect(doctor).to.deep.include({ status: 'present', absenceCode: 'DOC', leaveMinutes: 120, workedMinutes: 360 });
  });
});
