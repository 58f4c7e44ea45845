import { expect } from 'chai';
import { MAX_SPAN_DAYS } from '../../../src/kernel/calendar-date';
import { FieldChecker } from '../../../src/services/common/validation';

describe('date spans (timesheets, summaries, pay periods, device action ranges)', () => {
  const check = (start: string, end: string) => {
    const checker = new FieldChecker();
    checker.span({ start: 'start_date', end: 'end_date' }, start, end);
    return checker.problems.map((p) => [p.field, p.code]);
  };

  it('accepts up to a leap year, both days included, and refuses one day more', () => {
    expect(MAX_SPAN_DAYS).to.equal(366);
    expect(check('2028-01-01', '2028-12-31')).to.deep.equal([]);
    expect(check('2026-11-27', '2026-11-27')).to.deep.equal([]);
    expect(check('2028-01-01', '2029-01-01')).to.deep.equal([['end_date', 'out_of_range']]);
  });

  it('refuses an end before the start', () => {
    expect(check('2026-11-27', '2026-11-26')).to.deep.equal([['end_date', 'before_start_date']]);
  });
});
