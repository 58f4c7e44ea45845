import { expect } from 'chai';
import {
  createLocalTimeConverter,
  decodeZkTime,
  instantToLocal,
  encodeZkTime,
  formatLocalTime,
  localTimeToInstant,
  offsetHhmm,
  parseLocalTime,
  timeZoneOption,
  timeZoneSupportProblem,
  utcOffsetMinutes,
} from '../../../src/protocol';

describe('time', () => {
  it('parseLocalTime validates real calendar dates', () => {
    expect(parseLocalTime('2024-02-29 23:59:59')).to.deep.equal({ ok: true, value: { year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59 } });
    expect(parseLocalTime('2023-02-29 00:00:00').ok).to.equal(false);
    expect(parseLocalTime('2024-02-30 00:00:00')).to.deep.equal({ ok: false, reason: 'time 2024-02-30 00:00:00: day 30 does not exist in 2024-02' });
    expect(parseLocalTime('2024-04-31 00:00:00').ok).to.equal(false);
    expect(parseLocalTime('2024-01-01 24:00:00').ok).to.equal(false);
    expect(parseLocalTime('2024-01-01 25:00:00').ok).to.equal(false);
    expect(parseLocalTime('2024-01-01 00:00:60').ok).to.equal(false);
    expect(parseLocalTime('2024-1-1 0:0:0').ok).to.equal(false);
    expect(parseLocalTime('2024-01-01T08:00:00').ok).to.equal(true);
  });

  it('parseLocalTime accepts only the exact shape: digits 0-9, these separators, nothing around', () => {
    for (const text of [
      '',
      '2024-01-01',
      '2024-01-01 00:00:0',
      '2024-01-01 00:00:00Z',
      ' 2024-01-01 00:00:00',
      '2024/01/01 00:00:00',
      '2024-01-01t00:00:00',
      '2024-01-01_00:00:00',
      '2024-0a-01 00:00:00',
      '2024-01-01 00:00:-1',
      '\uff12024-01-01 00:00:0',
      '2024-01-01 00.00.00',
    ]) {
      expect(parseLocalTime(text), JSON.stringify(text)).to.deep.equal({ ok: false, reason: `time ${JSON.stringify(text)} is not YYYY-MM-DD HH:MM:SS` });
    }
    expect(parseLocalTime('0000-12-31 00:00:00')).to.deep.equal({ ok: true, value: { year: 0, month: 12, day: 31, hour: 0, minute: 0, second: 0 } });
    expect(parseLocalTime('2024-00-10 00:00:00')).to.deep.equal({ ok: false, reason: 'time 2024-00-10 00:00:00: month 0 does not exist' });
  });

  it('timeZoneOption: hours when whole, minutes otherwise', () => {
    const jan = new Date('2024-01-15T12:00:00Z');
    const jul = new Date('2024-07-15T12:00:00Z');
    expect(timeZoneOption('Asia/Kolkata', jan)).to.equal('330');
    expect(timeZoneOption('Asia/Kathmandu', jan)).to.equal('345');
    expect(timeZoneOption('Asia/Shanghai', jan)).to.equal('8');
    expect(timeZoneOption('America/New_York', jan)).to.equal('-5');
    expect(timeZoneOption('America/New_York', jul)).to.equal('-4');
    expect(timeZoneOption('America/St_Johns', jan)).to.equal('-210');
    expect(timeZoneOption('Europe/Berlin', jan)).to.equal('1');
    expect(timeZoneOption('Europe/Berlin', jul)).to.equal('2');
    expect(timeZoneOption('UTC', jan)).to.equal('0');
    expect(offsetHhmm('Asia/Kathmandu', jan)).to.equal('+0545');
    expect(() => timeZoneOption('Mars/Olympus', jan)).to.throw(RangeError);
  });

  it('localTimeToInstant: whole, non-whole and negative zones', () => {
    expect(localTimeToInstant('2024-07-28 10:41:21', 'Asia/Kolkata').toISOString()).to.equal('2024-07-28T05:11:21.000Z');
    expect(localTimeToInstant('2024-07-28 10:41:21', 'Asia/Kathmandu').toISOString()).to.equal('2024-07-28T04:56:21.000Z');
    expect(localTimeToInstant('2024-01-15 08:00:00', 'America/New_York').toISOString()).to.equal('2024-01-15T13:00:00.000Z');
    expect(localTimeToInstant('2024-01-01 00:30:00', 'America/Sao_Paulo').toISOString()).to.equal('2024-01-01T03:30:00.000Z');
    expect(() => localTimeToInstant('2024-02-30 00:00:00', 'UTC')).to.throw(RangeError);
  });

  it('Europe/Berlin DST: gap shifts forward, overlap takes the earlier instant, round trips elsewhere', () => {
    // Spring forward 2024-03-31 02:00 CET -> 03:00 CEST; 02:30 does not exist.
    expect(localTimeToInstant('2024-03-31 01:59:59', 'Europe/Berlin').toISOString()).to.equal('2024-03-31T00:59:59.000Z');
    expect(localTimeToInstant('2024-03-31 02:30:00', 'Europe/Berlin').toISOString()).to.equal('2024-03-31T01:30:00.000Z');
    expect(formatLocalTime(localTimeToInstant('2024-03-31 02:30:00', 'Europe/Berlin'), 'Europe/Berlin')).to.equal('2024-03-31 03:30:00');
    expect(localTimeToInstant('2024-03-31 03:00:00', 'Europe/Berlin').toISOString()).to.equal('2024-03-31T01:00:00.000Z');
    // Fall back 2024-10-27 03:00 CEST -> 02:00 CET; 02:30 happens twice.
    expect(localTimeToInstant('2024-10-27 02:30:00', 'Europe/Berlin').toISOString()).to.equal('2024-10-27T00:30:00.000Z');
    expect(localTimeToInstant('2024-10-27 03:30:00', 'Europe/Berlin').toISOString()).to.equal('2024-10-27T02:30:00.000Z');
    expect(utcOffsetMinutes('Europe/Berlin', new Date('2024-10-27T00:59:59Z'))).to.equal(120);
    expect(utcOffsetMinutes('Europe/Berlin', new Date('2024-10-27T01:00:00Z'))).to.equal(60);
  });

  it('ZK encoded seconds round trip (31-day months, not Unix time)', () => {
    const t = { year: 2017, month: 1, day: 10, hour: 11, minute: 49, second: 32 };
    const encoded = encodeZkTime(t);
    expect(encoded).to.equal((17 * 12 * 31 + 0 * 31 + 9) * 86400 + 11 * 3600 + 49 * 60 + 32);
    expect(decodeZkTime(encoded)).to.deep.equal(t);
    expect(decodeZkTime(encodeZkTime({ year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 59 }))).to.deep.equal({
      year: 2024,
      month: 12,
      day: 31,
      hour: 23,
      minute: 59,
      second: 59,
    });
    expect(() => encodeZkTime({ ...t, year: 1999 })).to.throw(RangeError);
    expect(() => decodeZkTime(-1)).to.throw(RangeError);
  });

  it('createLocalTimeConverter gives exactly localTimeToInstant, across DST gaps and overlaps', () => {
    const convert = createLocalTimeConverter(50);
    for (const zone of ['Europe/Berlin', 'America/Sao_Paulo', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC']) {
      for (const day of ['2024-03-31', '2024-10-27', '2024-04-07', '2024-10-06', '2024-11-03']) {
        for (let minute = 0; minute < 24 * 60; minute += 7) {
          const local = `${day} ${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
          expect(convert(local, zone).toISOString(), `${zone} ${local}`).to.equal(localTimeToInstant(local, zone).toISOString());
        }
      }
    }
    expect(() => convert('2024-02-30 10:00:00', 'UTC')).to.throw(RangeError);
  });

  it('instantToLocal (offsets tabled per zone and year) agrees with Intl at every second near transitions, odd offsets included', () => {
    const intl = (at: Date, zone: string) => {
      const parts = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }).formatToParts(at);
      const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
      return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
    };
    const transitions: [string, string][] = [
      ['Europe/Berlin', '2026-03-29T01:00:00Z'],
      ['Europe/Berlin', '2026-10-25T01:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'], // 30-minute shift
      ['America/Sao_Paulo', '2018-11-04T03:00:00Z'],
      ['Asia/Kathmandu', '1986-01-01T00:00:00Z'], // +05:30 -> +05:45, mid-hour in UTC
      ['Europe/Amsterdam', '1937-07-01T00:00:00Z'], // +00:19:32 -> +00:20
    ];
    for (const [zone, at] of transitions) {
      const centre = Date.parse(at);
      for (let ms = centre - 2 * 3_600_000; ms <= centre + 2 * 3_600_000; ms += 37_000) {
        expect(instantToLocal(new Date(ms), zone), `${zone} ${new Date(ms).toISOString()}`).to.deep.equal(intl(new Date(ms), zone));
      }
    }
  });

  it('instantToLocal agrees with Intl at random instants of 1900-2199 in zones with odd histories', () => {
    const format = (zone: string) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    // A fixed seed: the same instants every run (a failure can be replayed).
    let seed = 20261207;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const from = Date.UTC(1900, 0, 1);
    const to = Date.UTC(2200, 0, 1);
    const zones = [
      'Europe/London',
      'Europe/Berlin',
      'Europe/Moscow',
      'Africa/Casablanca',
      'America/Sao_Paulo',
      'Asia/Tehran',
      'Australia/Lord_Howe',
      'Pacific/Apia',
      'America/St_Johns',
      'Asia/Kathmandu',
    ];
    for (const zone of zones) {
      const intl = format(zone);
      for (let i = 0; i < 2000; i++) {
        const at = new Date(Math.floor((from + random() * (to - from)) / 1000) * 1000);
        const parts = Object.fromEntries(intl.formatToParts(at).map((p) => [p.type, Number(p.value)]));
        const expected = { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
        expect(instantToLocal(at, zone), `${zone} ${at.toISOString()}`).to.deep.equal(expected);
      }
    }
  });

  it('timeZoneSupportProblem passes on this runtime and names a zone it cannot convert or converts wrong', () => {
    expect(timeZoneSupportProblem()).to.equal(null);
    expect(timeZoneSupportProblem([{ local: '2024-07-01 12:00:00', zone: 'Mars/Olympus_Mons', instant: '2024-07-01T12:00:00.000Z' }])).to.match(
      /cannot convert times in Mars\/Olympus_Mons .*full ICU/,
    );
    expect(timeZoneSupportProblem([{ local: '2024-07-01 12:00:00', zone: 'Europe/Berlin', instant: '2024-07-01T12:00:00.000Z' }])).to.equal(
      'this Node.js converts 2024-07-01 12:00:00 in Europe/Berlin to 2024-07-01T10:00:00.000Z, not 2024-07-01T12:00:00.000Z; its time-zone data is missing or wrong',
    );
  });
});
