// What an access-control terminal decides when a person verifies at door 1, from the tables it was
// sent: the user (and its StartTime/EndTime validity, YYYYMMDD or ZK-encoded seconds), its `userauthorize` rows and their
// `timezone` rows. The rtlog event code it logs: 0 opened, 27 not registered, 29 outside the
// validity window, 23 no authorisation for this door at this time ("invalid time period").
import { encodeZkTime, parseLocalTime } from '../protocol';
import type { RecordStore } from './record-store';

/** Timezone field prefixes by JavaScript weekday (0 Sunday). */
const DAY_FIELDS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** `YYYY-MM-DD HH:MM:SS` local time -> its weekday (0 Sunday), YYYYMMDD and HHMM. */
function parts(localTime: string): { weekday: number; day: number; hhmm: number } {
  const [date, time] = localTime.split(' ') as [string, string];
  return {
    weekday: new Date(`${date}T00:00:00Z`).getUTCDay(),
    day: Number(date.replaceAll('-', '')),
    hhmm: Number(time.slice(0, 2)) * 100 + Number(time.slice(3, 5)),
  };
}

/**
 * True when time zone `id` opens at `localTime` (on a date of the `holiday` table, by the intervals
 * of its holiday type). Id 1 without a row is the factory "always" zone.
 */
export function timezoneOpen(store: RecordStore, id: string, localTime: string): boolean {
  const row = store.timezones.get(id);
  if (!row) return id === '1';
  const { weekday, day, hhmm } = parts(localTime);
  // On a holiday the holiday type's intervals apply instead of the weekday's.
  const holidayType = store.holidays.get(String(day));
  const prefix = holidayType ? `hol${holidayType}` : DAY_FIELDS[weekday];
  for (const n of [1, 2, 3]) {
    const value = row.get(`${prefix}time${n}`) ?? 0;
    if (value === 0) continue;
    const start = Math.floor(value / 65536);
    const end = value % 65536;
    if (hhmm >= start && hhmm <= end) return true;
  }
  return false;
}

/** The event code of a verification of `pin` at door `door` at device-local `localTime`. */
export function accessEvent(store: RecordStore, pin: string, door: number, localTime: string): number {
  const user = store.users.get(pin);
  if (!user) return 27;
  const { day } = parts(localTime);
  const from = Number(user.startTime || 0);
  const until = Number(user.endTime || 0);
  // StartTime/EndTime are YYYYMMDD days, or ZK-encoded seconds on DateFmtFunOn=1 firmware (any value past 99991231).
  const parsed = parseLocalTime(localTime);
  const seconds = parsed.ok ? encodeZkTime(parsed.value) : 0;
  const before = (bound: number) => (bound > 99_991_231 ? seconds < bound : day < bound);
  const after = (bound: number) => (bound > 99_991_231 ? seconds > bound : day > bound);
  if ((from > 0 && before(from)) || (until > 0 && after(until))) return 29;
  for (const a of store.authorizations.values()) {
    if (a.pin !== pin || !(Number(a.doorId) & (1 << (door - 1)))) continue;
    if (timezoneOpen(store, a.timezoneId, localTime)) return 0;
  }
  return 23;
}
