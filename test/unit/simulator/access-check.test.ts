import { expect } from 'chai';
import { accessEvent, timezoneOpen } from '../../../src/simulator/access-check';
import { RecordStore } from '../../../src/simulator/record-store';

describe('simulated controller: access decisions', () => {
  it('grants inside a time zone of an authorisation for the door, refuses otherwise with the controller codes (27, 29, 23)', () => {
    const store = new RecordStore();
    store.upsertUser('7', { startTime: '20261101', endTime: '20261130' });
    store.timezones.set('2', new Map([['montime1', (830 << 16) + 1230]]));
    store.upsertAuthorization({ pin: '7', timezoneId: '2', doorId: '1', devId: '1' });
    expect(timezoneOpen(store, '2', '2026-11-23 08:30:00')).to.equal(true);
    expect(timezoneOpen(store, '2', '2026-11-23 12:31:00')).to.equal(false);
    expect(timezoneOpen(store, '2', '2026-11-24 09:00:00')).to.equal(false); // Tuesday
    expect(timezoneOpen(store, '1', '2026-11-24 03:00:00')).to.equal(true); // factory "always"
    expect(accessEvent(store, '7', 1, '2026-11-23 09:00:00')).to.equal(0);
    expect(accessEvent(store, '7', 1, '2026-11-23 13:00:00')).to.equal(23);
    expect(accessEvent(store, '7', 2, '2026-11-23 09:00:00')).to.equal(23); // not authorised on door 2
    expect(accessEvent(store, '7', 1, '2026-12-07 09:00:00')).to.equal(29); // after EndTime
    expect(accessEvent(store, '8', 1, '2026-11-23 09:00:00')).to.equal(27);
  });

  it('reads a window in ZK-encoded seconds (DateFmtFunOn=1 firmware) to the second', () => {
    const store = new RecordStore();
    const day = ((26 * 12 + 10) * 31 + 26) * 86400; // 2026-11-27
    store.upsertUser('90000001', { startTime: String(day + 8 * 3600), endTime: String(day + 17 * 3600 + 59 * 60 + 59) });
    store.upsertAuthorization({ pin: '90000001', timezoneId: '1', doorId: '1', devId: '1' });
    expect(accessEvent(store, '90000001', 1, '2026-11-27 07:59:59')).to.equal(29);
    expect(accessEvent(store, '90000001', 1, '2026-11-27 08:00:00')).to.equal(0);
    expect(accessEvent(store, '90000001', 1, '2026-11-27 17:59:59')).to.equal(0);
    expect(accessEvent(store, '90000001', 1, '2026-11-27 18:00:00')).to.equal(29);
  });
});
