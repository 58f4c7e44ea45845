import { expect } from 'chai';
import {
  applyOvertimeApproval,
  DEFAULT_PAY_POLICY,
  dayPayItems,
  effectivePolicy,
  nightMinutes,
  noPay,
  payItemList,
  payRatePercent,
  settleWeeks,
  weekOf,
  type PayPolicy,
} from '../../../src/services/attendance/pay-rules';

const policy = (over: Partial<PayPolicy> = {}): PayPolicy => ({ ...DEFAULT_PAY_POLICY, ...over });
const workday = (paidMinutes: number, over: Partial<PayPolicy> = {}, scheduledMinutes = 450) =>
  dayPayItems({ kind: 'workday', paidMinutes, scheduledMinutes, nightMinutes: 0, policy: policy(over) });

describe('attendance pay rules', () => {
  it('a workday: regular up to the scheduled minutes, overtime beyond', () => {
    expect(workday(500)).to.deep.include({ regular: 450, overtime: 50, double_time: 0 });
    expect(workday(400)).to.deep.include({ regular: 400, overtime: 0 });
  });

  it('daily_overtime_after_minutes replaces the scheduled minutes as the threshold', () => {
    expect(workday(500, { dailyOvertimeAfterMinutes: 480 })).to.deep.include({ regular: 480, overtime: 20 });
  });

  it('double time beyond double_time_after_minutes, overtime between the thresholds', () => {
    expect(workday(700, { doubleTimeAfterMinutes: 600 })).to.deep.include({ regular: 450, overtime: 150, double_time: 100 });
  });

  it('overtime below overtime_min_minutes is not paid', () => {
    expect(workday(470, { overtimeMinMinutes: 30 })).to.deep.include({ regular: 450, overtime: 0 });
    expect(workday(480, { overtimeMinMinutes: 30 })).to.deep.include({ regular: 450, overtime: 30 });
  });

  it('holiday and rest-day work: their own codes, or overtime', () => {
    const day = (kind: 'holiday' | 'rest_day', over: Partial<PayPolicy> = {}) =>
      dayPayItems({ kind, paidMinutes: 240, scheduledMinutes: 0, nightMinutes: 0, policy: policy(over) });
    expect(day('holiday')).to.deep.include({ holiday: 240, regular: 0, overtime: 0 });
    expect(day('rest_day')).to.deep.include({ rest_day: 240, regular: 0 });
    expect(day('holiday', { holidayWork: 'overtime' })).to.deep.include({ holiday: 0, overtime: 240 });
    expect(day('rest_day', { restDayWork: 'overtime' })).to.deep.include({ rest_day: 0, overtime: 240 });
  });

  it('the night window across midnight and across two dates', () => {
    const i = (a: string, b: string) => [new Date(a), new Date(b)] as const;
    expect(nightMinutes([i('2026-03-02T20:00:00Z', '2026-03-03T04:00:00Z')], '22:00', '06:00', 'UTC')).to.equal(360);
    expect(nightMinutes([i('2026-03-02T04:00:00Z', '2026-03-02T23:00:00Z')], '22:00', '06:00', 'UTC')).to.equal(180);
    expect(nightMinutes([i('2026-03-02T09:00:00Z', '2026-03-02T17:00:00Z')], '22:00', '06:00', 'UTC')).to.equal(0);
    expect(nightMinutes([i('2026-03-02T09:00:00Z', '2026-03-02T17:00:00Z')], null, null, 'UTC')).to.equal(0);
    // Europe/Berlin 22:00 local on 2026-03-02 is 21:00Z.
    expect(nightMinutes([i('2026-03-02T20:00:00Z', '2026-03-02T22:00:00Z')], '22:00', '06:00', 'Europe/Berlin')).to.equal(60);
  });

  it('the week starts on week_start', () => {
    expect(weekOf('2026-03-04', 1)).to.equal('2026-03-02'); // Wednesday -> Monday
    expect(weekOf('2026-03-04', 7)).to.equal('2026-03-01'); // -> Sunday
    expect(weekOf('2026-03-01', 1)).to.equal('2026-02-23');
  });

  it('weekly overtime settles regular minutes beyond the threshold, never counting daily overtime twice; weeks restart', () => {
    const days = ['2026-03-05', '2026-03-06', '2026-03-09'].map((date) => ({ date, pay: { ...noPay(), regular: 480, overtime: 60 } }));
    settleWeeks(days, { weeklyOvertimeAfterMinutes: 600, weekStart: 1 });
    expect(days.map((d) => [d.pay.regular, d.pay.overtime])).to.deep.equal([
      [480, 60],
      [120, 420],
      [480, 60],
    ]);
  });

  it("a shift overrides the company, the company the defaults; weekly settings are the company's", () => {
    const p = effectivePolicy(
      { overtimeMinMinutes: 15, weeklyOvertimeAfterMinutes: 2400, weekStart: 7 },
      { overtimeMinMinutes: 30, weeklyOvertimeAfterMinutes: 100, earlyOvertime: true },
    );
    expect(p).to.deep.include({ overtimeMinMinutes: 30, earlyOvertime: true, weeklyOvertimeAfterMinutes: 2400, weekStart: 7, holidayWork: 'holiday' });
  });

  it("rates and the approval switch are the company's: a shift's values for them are ignored", () => {
    const p = effectivePolicy({ nightPremiumPercent: 12.5, overtimeRequiresApproval: true }, {
      nightPremiumPercent: 50,
      overtimeRatePercent: 175,
      overtimeRequiresApproval: false,
    } as Partial<PayPolicy>);
    expect(p).to.deep.include({ nightPremiumPercent: 12.5, overtimeRatePercent: 150, overtimeRequiresApproval: true });
  });

  it('each pay code has a stated rate: regular 100, the defaults, the night premium; other codes none', () => {
    const p = policy({ nightPremiumPercent: 30, holidayRatePercent: 250 });
    expect(['regular', 'overtime', 'double_time', 'night', 'holiday', 'rest_day', 'VAC'].map((code) => payRatePercent(p, code))).to.deep.equal([
      100,
      150,
      200,
      30,
      250,
      150,
      null,
    ]);
  });

  it('overtime approval: pending or missing holds overtime and double time back, approved pays them (up to its minutes), rejected pays neither', () => {
    const day = () => ({ ...noPay(), regular: 450, overtime: 150, double_time: 100, night: 60 });
    const pending = day();
    expect(applyOvertimeApproval(pending, undefined)).to.equal(250);
    expect(pending).to.deep.include({ regular: 450, overtime: 0, double_time: 0, night: 60 });
    expect(applyOvertimeApproval(day(), { state: 'pending', minutes: null })).to.equal(250);
    const approved = day();
    expect(applyOvertimeApproval(approved, { state: 'approved', minutes: null })).to.equal(0);
    expect(approved).to.deep.include({ overtime: 150, double_time: 100 });
    const capped = day();
    expect(applyOvertimeApproval(capped, { state: 'approved', minutes: 200 })).to.equal(0);
    expect(capped).to.deep.include({ overtime: 150, double_time: 50 });
    const rejected = day();
    expect(applyOvertimeApproval(rejected, { state: 'rejected', minutes: null })).to.equal(0);
    expect(rejected).to.deep.include({ regular: 450, overtime: 0, double_time: 0, night: 60 });
    expect(applyOvertimeApproval({ ...noPay(), regular: 450 }, undefined)).to.equal(0);
  });

  it('pay items list the non-zero codes in code order', () => {
    expect(payItemList({ ...noPay(), night: 30, regular: 450 })).to.deep.equal([
      { code: 'regular', minutes: 450 },
      { code: 'night', minutes: 30 },
    ]);
  });
});
