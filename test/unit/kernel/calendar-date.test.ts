import { expect } from 'chai';
import fc from 'fast-check';
import { addDays, dateOfDay, datesFrom, dayNumber, daysBetween } from '../../../src/kernel/calendar-date';

describe('calendar dates as day numbers', () => {
  it('adds days across months, leap days and years, both ways', () => {
    expect(addDays('2024-02-28', 1)).to.equal('2024-02-29');
    expect(addDays('2024-03-01', -1)).to.equal('2024-02-29');
    expect(addDays('2199-12-31', 1)).to.equal('2200-01-01');
    expect(addDays('1900-01-01', -1)).to.equal('1899-12-31');
    expect(addDays('0001-01-02', -1)).to.equal('0001-01-01');
    expect(daysBetween('2026-01-01', '2026-12-31')).to.equal(364);
    expect(daysBetween('2026-03-05', '2026-03-01')).to.equal(-4);
  });

  // Regression: after 9999-12-31 addDays gave "+010000-01-01", which sorts before "9999-12-31",
  // so a loop `date <= to` over 9999-12-31 never ended and held the event loop for good.
  it('never writes a date that does not sort: leaving the years 0001-9999 is a RangeError', () => {
    expect(() => addDays('9999-12-31', 1)).to.throw(RangeError);
    expect(() => addDays('0001-01-01', -1)).to.throw(RangeError);
    expect(datesFrom('9999-12-30', '9999-12-31')).to.deep.equal(['9999-12-30', '9999-12-31']);
    expect(datesFrom('2026-03-05', '2026-03-01')).to.deep.equal([]);
  });

  it('every date it writes is YYYY-MM-DD, reads back to its day number, and sorts as the days do', () => {
    const day = fc.integer({ min: dayNumber('0001-01-01'), max: dayNumber('9999-12-31') });
    fc.assert(
      fc.property(day, day, (a, b) => {
        const [x, y] = [dateOfDay(a), dateOfDay(b)];
        expect(x).to.match(/^\d{4}-\d{2}-\d{2}$/);
        expect(dayNumber(x)).to.equal(a);
        expect(Math.sign(x.localeCompare(y))).to.equal(Math.sign(a - b));
        expect(daysBetween(x, y)).to.equal(b - a);
      }),
      { numRuns: 2000 },
    );
  });
});
