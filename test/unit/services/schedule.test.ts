import { expect } from 'chai';
import { rosterShiftOn, scheduledShift, type EmployeeSchedule, type ScheduleAssignment } from '../../../src/services/attendance/schedule';
import { datesFrom } from '../../../src/kernel/calendar-date';

const EMPLOYEE = 7;
const DAY = 1;
const NIGHT = 2;
const DEFAULT = 9;
// Four days on (two day shifts, two nights), four days off, from Thursday 2026-01-29.
const FOUR_ON_FOUR_OFF = { id: 40, startDate: '2026-01-29', days: [DAY, DAY, NIGHT, NIGHT, null, null, null, null] };

const assignment = (extra: Partial<ScheduleAssignment>): ScheduleAssignment => ({
  shiftId: null,
  rosterId: null,
  employeeId: EMPLOYEE,
  areaId: null,
  startDate: '2026-01-01',
  endDate: null,
  ...extra,
});
const schedule = (extra: Partial<EmployeeSchedule> = {}): EmployeeSchedule => ({
  employeeId: EMPLOYEE,
  areaIds: new Set(),
  overrides: new Map(),
  assignments: [],
  rosters: new Map([[FOUR_ON_FOUR_OFF.id, FOUR_ON_FOUR_OFF]]),
  defaultShiftId: DEFAULT,
  ...extra,
});

describe('attendance schedule: which shift applies on a date', () => {
  it('a roster cycle runs on across a month boundary (January into February) and repeats', () => {
    const s = schedule({ assignments: [assignment({ rosterId: FOUR_ON_FOUR_OFF.id })] });
    const shifts = datesFrom('2026-01-29', '2026-02-09').map((date) => scheduledShift(s, date).shiftId);
    // 29, 30, 31 January, then 1 to 9 February.
    expect(shifts).to.deep.equal([DAY, DAY, NIGHT, NIGHT, null, null, null, null, DAY, DAY, NIGHT, NIGHT]);
    expect(scheduledShift(s, '2026-02-01').source).to.equal('roster');
  });

  it("a roster's day off is a day off: the company's default shift does not fill it", () => {
    const s = schedule({ assignments: [assignment({ rosterId: FOUR_ON_FOUR_OFF.id })] });
    expect(scheduledShift(s, '2026-02-03')).to.deep.equal({ shiftId: null, source: 'roster' });
  });

  it("the cycle is anchored at the roster's start date and runs backwards too (an assignment starting before it)", () => {
    expect(rosterShiftOn(FOUR_ON_FOUR_OFF, '2026-01-28')).to.equal(null); // index -1 = 7: the last day off
    expect(rosterShiftOn(FOUR_ON_FOUR_OFF, '2026-01-21')).to.equal(DAY); // index -8 = 0
  });

  it('an override wins for its date only, with a shift or as a day off', () => {
    const s = schedule({
      assignments: [assignment({ rosterId: FOUR_ON_FOUR_OFF.id })],
      overrides: new Map<string, number | null>([
        ['2026-01-29', null],
        ['2026-02-03', NIGHT],
      ]),
    });
    expect(scheduledShift(s, '2026-01-29')).to.deep.equal({ shiftId: null, source: 'override' });
    expect(scheduledShift(s, '2026-01-30')).to.deep.equal({ shiftId: DAY, source: 'roster' });
    expect(scheduledShift(s, '2026-02-03')).to.deep.equal({ shiftId: NIGHT, source: 'override' });
    expect(scheduledShift(s, '2026-02-04')).to.deep.equal({ shiftId: null, source: 'roster' });
  });

  it("the employee's own assignment wins over an area's; of several areas the lowest id; then the default; then none", () => {
    const byArea = [assignment({ employeeId: null, areaId: 5, shiftId: NIGHT }), assignment({ employeeId: null, areaId: 3, rosterId: FOUR_ON_FOUR_OFF.id })];
    const inAreas = schedule({ areaIds: new Set([3, 5]), assignments: byArea });
    expect(scheduledShift(inAreas, '2026-01-29')).to.deep.equal({ shiftId: DAY, source: 'roster' });
    const own = schedule({ areaIds: new Set([3, 5]), assignments: [...byArea, assignment({ shiftId: DAY, startDate: '2026-02-01', endDate: '2026-02-01' })] });
    expect(scheduledShift(own, '2026-02-01')).to.deep.equal({ shiftId: DAY, source: 'assignment' });
    expect(scheduledShift(schedule(), '2026-02-01')).to.deep.equal({ shiftId: DEFAULT, source: 'default' });
    expect(scheduledShift(schedule({ defaultShiftId: null }), '2026-02-01')).to.deep.equal({ shiftId: null, source: 'none' });
  });

  it("an assignment covers its dates only (inclusive end), and another employee's assignment is ignored", () => {
    const s = schedule({
      assignments: [assignment({ shiftId: NIGHT, startDate: '2026-03-01', endDate: '2026-03-31' }), assignment({ employeeId: 8, shiftId: DAY })],
    });
    expect(scheduledShift(s, '2026-02-28').shiftId).to.equal(DEFAULT);
    expect(scheduledShift(s, '2026-03-31').shiftId).to.equal(NIGHT);
    expect(scheduledShift(s, '2026-04-01').shiftId).to.equal(DEFAULT);
  });
});
