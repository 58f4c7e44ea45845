import { expect } from 'chai';
import type { DayPunch, ShiftRules } from '../../../src/services/attendance/compute-days';
import { heldByPrevious } from '../../../src/services/attendance/shift-boundary';

const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
const rules = (id: number, startTime: string, endTime: string): ShiftRules => ({
  id,
  startTime,
  endTime,
  timeZone: 'UTC',
  workdays: EVERY_DAY,
  breakMinutes: 0,
  breakAfterMinutes: 360,
  graceInMinutes: 0,
  graceOutMinutes: 0,
  checkInBeforeMinutes: 240,
  checkOutAfterMinutes: 240,
  pairing: 'first_last',
});
const NIGHT = rules(1, '22:00', '06:00');
const MORNING = rules(2, '09:00', '17:00');
let nextId = 1;
const punch = (at: string): DayPunch => ({ id: nextId++, at: new Date(at), state: '0', manual: false, voided: false });

describe('attendance: punches at a change of shift between two dates', () => {
  it('a night shift followed by a day off keeps its check-out after midnight', () => {
    const out = punch('2026-03-03T06:05:00Z');
    const later = punch('2026-03-03T15:00:00Z');
    expect([...heldByPrevious(NIGHT, '2026-03-02', null, [out, later])]).to.deep.equal([out]);
  });

  it("followed by a morning shift: each punch goes to the nearer start where both windows hold it (the engine's rule)", () => {
    // 04:55 is before the morning's window (05:00): the night's. 08:10 is nearer 09:00 than 22:00: the morning's.
    const out = punch('2026-03-03T04:55:00Z');
    const earlyIn = punch('2026-03-03T08:10:00Z');
    expect([...heldByPrevious(NIGHT, '2026-03-02', MORNING, [out, earlyIn])]).to.deep.equal([out]);
  });

  it('no shift, or a shift that does not run on the previous date, holds nothing', () => {
    const out = punch('2026-03-03T06:05:00Z');
    expect(heldByPrevious(null, '2026-03-02', MORNING, [out]).size).to.equal(0);
    expect(heldByPrevious({ ...NIGHT, workdays: [2] }, '2026-03-02', null, [out]).size).to.equal(0); // 2 March is a Monday
  });
});
