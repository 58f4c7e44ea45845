// The REST examples (src/rest/*.routes.ts, shown in the OpenAPI document) are dated as of the day
// they were written. A test that sends one moves its dates by the whole days since, so that a date
// the rules need in the future (a visitor pass's `valid_until`) stays in the future whatever day the
// suite runs, and dates keep their order and distance to each other.
import { addDays, daysBetween } from '../../src/kernel/calendar-date';

/** The day the examples' dates were written against: "today" for every date they hold. */
export const EXAMPLES_WRITTEN_ON = '2026-11-27';

const DATED = /^(\d{4}-\d{2}-\d{2})((?:T[\d:.]+)?(?:Z|[+-]\d{2}:\d{2})?)$/;

/** `example` with every ISO date and instant moved by the days from EXAMPLES_WRITTEN_ON to `now`'s (UTC) day. */
export function exampleAsOf<T>(example: T, now: Date): T {
  const days = daysBetween(EXAMPLES_WRITTEN_ON, now.toISOString().slice(0, 10));
  const move = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const m = DATED.exec(value);
      return m ? addDays(m[1]!, days) + m[2] : value;
    }
    if (Array.isArray(value)) return value.map(move);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, move(v)]));
    return value;
  };
  return move(example) as T;
}
