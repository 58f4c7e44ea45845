import { expect } from 'chai';
import { isoToInstant, parseIsoDate, readIsoDate, startOfNextDay } from '../../../src/kernel/iso-date';

describe('parseIsoDate', () => {
  it('reads a bare date, a date-time without offset and a date-time with Z or an offset', () => {
    expect(parseIsoDate('2024-05-10')).to.deep.equal({ kind: 'date', local: { year: 2024, month: 5, day: 10, hour: 0, minute: 0, second: 0 } });
    expect(parseIsoDate('2024-05-10T07:08')).to.deep.equal({ kind: 'local', local: { year: 2024, month: 5, day: 10, hour: 7, minute: 8, second: 0 } });
    expect(parseIsoDate('2024-05-10 07:08:09')?.kind).to.equal('local');
    const instants: [string, string][] = [
      ['2024-05-10T07:08:09Z', '2024-05-10T07:08:09.000Z'],
      ['2024-05-10T07:08:09.5z', '2024-05-10T07:08:09.500Z'],
      ['2024-05-10T07:08:09+05:30', '2024-05-10T01:38:09.000Z'],
      ['2024-05-10T07:08:09-0300', '2024-05-10T10:08:09.000Z'],
      ['2024-05-10T07:08:09-03', '2024-05-10T10:08:09.000Z'],
      ['2024-05-10T07:08:09 05:30', '2024-05-10T01:38:09.000Z'], // "+" decoded to a space in a query string
    ];
    for (const [text, iso] of instants) {
      const parsed = parseIsoDate(text);
      expect(parsed?.kind, text).to.equal('instant');
      expect((parsed as { at: Date }).at.toISOString(), text).to.equal(iso);
    }
  });

  it('refuses what is not a real date or date-time', () => {
    for (const text of [
      '',
      'today',
      '2024-5-10',
      '2024-02-30',
      '2023-02-29',
      '2024-05-10T24:00:00',
      '2024-05-10T10:60',
      '2024-05-10T10:00:00+25:00',
      '2024-05-10T10:00:00Zjunk',
      '+010000-01-01',
      '10000-01-01',
    ]) {
      expect(parseIsoDate(text), text).to.equal(null);
      expect(readIsoDate(text), text).to.deep.equal({ ok: false, code: 'invalid_date' });
    }
    expect(parseIsoDate('2024-02-29')?.kind).to.equal('date');
  });

  it('refuses years outside 1900-2199 as out of range, whatever the offset', () => {
    for (const text of ['0000-01-01', '0099-12-31T10:00:00Z', '1899-12-31T23:59:59', '2200-01-01', '9999-12-31', '9999-12-31T23:59:59+14:00']) {
      expect(readIsoDate(text), text).to.deep.equal({ ok: false, code: 'out_of_range' });
    }
    expect(parseIsoDate('1900-01-01')?.kind).to.equal('date');
    expect((parseIsoDate('1969-12-31T12:00:00Z') as { at: Date }).at.toISOString()).to.equal('1969-12-31T12:00:00.000Z');
    expect((parseIsoDate('2199-12-31T23:59:59Z') as { at: Date }).at.toISOString()).to.equal('2199-12-31T23:59:59.000Z');
  });

  it('reads local times in the given zone and finds the next local midnight, across DST too', () => {
    const local = parseIsoDate('2024-05-10T00:00:00') as { kind: 'local'; local: any };
    expect(isoToInstant(local, 'Asia/Kolkata').toISOString()).to.equal('2024-05-09T18:30:00.000Z');
    expect(startOfNextDay(local.local, 'Asia/Kolkata').toISOString()).to.equal('2024-05-10T18:30:00.000Z');
    // Europe/Berlin: 2024-03-31 has 23 hours; the next local midnight after it is 22:00Z.
    expect(startOfNextDay({ year: 2024, month: 3, day: 31, hour: 0, minute: 0, second: 0 }, 'Europe/Berlin').toISOString()).to.equal(
      '2024-03-31T22:00:00.000Z',
    );
    expect(startOfNextDay({ year: 2024, month: 12, day: 31, hour: 0, minute: 0, second: 0 }, 'UTC').toISOString()).to.equal('2025-01-01T00:00:00.000Z');
  });
});
