import { expect } from 'chai';
import type { DayInputs, EmployeeRow, ShiftRow, StoredDayRow } from '../../../src/services/attendance/day-inputs';
import { indexDayInputs, planEmployeeDays } from '../../../src/services/attendance/day-plan';

// The plan step of refreshDays without a database: which days are written, with what, and which
// are announced. 2026-03-02 is a Monday.
const SHIFT: ShiftRow = {
  id: 7,
  company_id: 1,
  start_time: '09:00',
  end_time: '17:00',
  time_zone: 'UTC',
  workdays: [1, 2, 3, 4, 5],
  break_minutes: 30,
  break_after_minutes: 360,
  grace_in_minutes: 5,
  grace_out_minutes: 5,
  check_in_before_minutes: 240,
  check_out_after_minutes: 240,
  pairing: 'first_last',
  rounding_minutes: null,
  rounding_mode: 'nearest',
  recorded_break: 'replaces',
  pay_policy: {},
  flexible: false,
  core_start: null,
  core_end: null,
  required_minutes: null,
  is_default: true,
};
const EMPLOYEE: EmployeeRow = {
  id: 11,
  company_id: 1,
  workspace_id: 3,
  time_zone: 'UTC',
  pay_policy: {},
  employment_start_date: null,
  employment_end_date: null,
};
const NOW = new Date('2026-04-01T00:00:00Z');

function inputs(extra: Partial<DayInputs> = {}): DayInputs {
  return {
    employees: [EMPLOYEE],
    shifts: [SHIFT],
    memberships: [],
    assignments: [],
    rosters: [],
    overrides: [],
    holidays: [],
    locks: [],
    punches: [],
    stored: [],
    absences: new Map(),
    overtimeApprovals: new Map(),
    ...extra,
  };
}

const punch = (id: number, at: string, state: string, receivedAt = at) => ({
  id,
  employee_id: EMPLOYEE.id,
  punch_time: new Date(at),
  punch_state: state,
  manual: false,
  voided: false,
  received_at: new Date(receivedAt),
});
const MONDAY = [punch(1, '2026-03-02T09:00:00Z', '0'), punch(2, '2026-03-02T17:30:00Z', '1')];

const plan = (input: DayInputs, dates: string[], announceNew = true) => planEmployeeDays(indexDayInputs(input), EMPLOYEE, dates, NOW, { announceNew });

describe('attendance day plan: planEmployeeDays', () => {
  it("plans a new day from the company's default shift and the punches, and announces it when it holds punches", () => {
    const [write, ...rest] = plan(inputs({ punches: MONDAY }), ['2026-03-02']);
    expect(rest).to.deep.equal([]);
    expect(write!.workspaceId).to.equal(3);
    expect(write!.announce).to.equal(true);
    expect(write!.record).to.deep.include({
      employee_id: 11,
      company_id: 1,
      date: '2026-03-02',
      shift_id: 7,
      status: 'present',
      first_in: '2026-03-02T09:00:00.000Z',
      last_out: '2026-03-02T17:30:00.000Z',
      worked_minutes: 480,
      overtime_minutes: 30,
    });
    expect(write!.record.punch_ids).to.deep.equal([1, 2]);
  });

  it('writes a new day without punches but does not announce it; with announceNew off, no new day is announced', () => {
    const [absent] = plan(inputs(), ['2026-03-03']);
    expect(absent!.record.status).to.equal('absent');
    expect(absent!.announce).to.equal(false);
    const [quiet] = plan(inputs({ punches: MONDAY }), ['2026-03-02'], false);
    expect(quiet!.announce).to.equal(false);
  });

  it('leaves out a stored day that has not changed, and rewrites (without announcing) one whose only change is its stale mark', () => {
    const [computed] = plan(inputs({ punches: MONDAY }), ['2026-03-02']);
    const stored: StoredDayRow = {
      ...computed!.record,
      first_in: new Date(computed!.record.first_in!),
      last_out: new Date(computed!.record.last_out!),
      stale: false,
      settles_at: null,
    };
    expect(plan(inputs({ punches: MONDAY, stored: [stored] }), ['2026-03-02'])).to.deep.equal([]);
    const [rewritten] = plan(inputs({ punches: MONDAY, stored: [{ ...stored, stale: true }] }), ['2026-03-02']);
    expect(rewritten!.announce).to.equal(false);
    expect(rewritten!.record).to.deep.equal(computed!.record);
  });

  it('announces a changed stored day with its new values', () => {
    const [first] = plan(inputs({ punches: MONDAY.slice(0, 1) }), ['2026-03-02']);
    const stored: StoredDayRow = { ...first!.record, first_in: new Date(first!.record.first_in!), last_out: null, stale: false, settles_at: null };
    const [changed] = plan(inputs({ punches: MONDAY, stored: [stored] }), ['2026-03-02']);
    expect(changed!.announce).to.equal(true);
    expect(changed!.record.punch_ids).to.deep.equal([1, 2]);
  });

  it('keeps a locked day as stored and flags a punch it did not count with after_lock', () => {
    const lock = { company_id: 1, start_date: '2026-03-01', end_date: '2026-03-31', locked_at: new Date('2026-03-05T00:00:00Z') };
    const [atLock] = plan(inputs({ punches: MONDAY.slice(0, 1) }), ['2026-03-02']);
    const stored: StoredDayRow = { ...atLock!.record, first_in: new Date(atLock!.record.first_in!), last_out: null, stale: false, settles_at: null };
    const [flagged] = plan(inputs({ punches: MONDAY, stored: [stored], locks: [lock] }), ['2026-03-02']);
    expect(flagged!.record.punch_ids).to.deep.equal([1]);
    expect(flagged!.record.worked_minutes).to.equal(atLock!.record.worked_minutes);
    expect(flagged!.record.exceptions).to.include('after_lock');
    expect(flagged!.settlesAt).to.equal(null);
  });

  it('stores a locked day met for the first time as it was at the lock, from the punches received by then', () => {
    const lock = { company_id: 1, start_date: '2026-03-01', end_date: '2026-03-31', locked_at: new Date('2026-03-05T00:00:00Z') };
    const late = [MONDAY[0]!, punch(2, '2026-03-02T17:30:00Z', '1', '2026-03-06T08:00:00Z')];
    const [write] = plan(inputs({ punches: late, locks: [lock] }), ['2026-03-02']);
    expect(write!.record.punch_ids).to.deep.equal([1]);
    expect(write!.record.exceptions).to.include('after_lock');
  });

  it('takes the shift of an override for its date, whatever the shift’s workdays', () => {
    const weekend = { ...SHIFT, id: 8, start_time: '10:00', end_time: '14:00', workdays: [1], is_default: false };
    const saturday = [punch(3, '2026-03-07T10:00:00Z', '0'), punch(4, '2026-03-07T14:00:00Z', '1')];
    const [write] = plan(inputs({ shifts: [SHIFT, weekend], punches: saturday, overrides: [{ employee_id: 11, date: '2026-03-07', shift_id: 8 }] }), [
      '2026-03-07',
    ]);
    expect(write!.record.shift_id).to.equal(8);
    expect(write!.record.scheduled_minutes).to.equal(240);
    expect(write!.record.worked_minutes).to.equal(240);
  });

  it('a day planned alone is the day planned among weeks: the punches around it are a slice of the history that cuts no run of duplicates', () => {
    // A reader that fires every 50 s for days (a stuck finger): every other punch is a duplicate,
    // counted from the first. A slice starting inside the run would count the other half.
    const stuck = [];
    for (let at = Date.parse('2026-02-25T19:59:10Z'), id = 100; at <= Date.parse('2026-03-02T12:00:00Z'); at += 50_000, id++)
      stuck.push(punch(id, new Date(at).toISOString(), '0'));
    const years = [punch(1, '2019-05-06T09:00:00Z', '0'), punch(2, '2019-05-06T17:00:00Z', '1')];
    const input = inputs({ punches: [...years, ...stuck] });
    const weeks = Array.from({ length: 11 }, (_, i) => `2026-02-${String(20 + i).padStart(2, '0')}`).filter((d) => d <= '2026-02-28');
    const among = plan(input, [...weeks, '2026-03-01', '2026-03-02']).find((w) => w.record.date === '2026-03-02')!;
    const alone = plan(input, ['2026-03-02'])[0]!;
    expect(alone.record).to.deep.equal(among.record);
    expect(alone.record.exceptions).to.include('duplicate_ignored');
    // A day after every punch has none.
    expect(plan(input, ['2026-03-20'])[0]!.record).to.deep.include({ status: 'absent', punch_ids: [] });
    // And a day of 2019 still sees its own punches, seven years before the others.
    expect(plan(input, ['2019-05-06'])[0]!.record).to.deep.include({ status: 'present', worked_minutes: 450 });
  });
});
