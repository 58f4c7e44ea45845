// Dates relative to today (UTC) that browser tests seed and read, as `YYYY-MM-DD`.
import { addDays } from '../../src/kernel/calendar-date';

const today = () => new Date().toISOString().slice(0, 10);
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The most recent Monday-to-Friday date before today: a past workday of a Monday-to-Friday shift. */
export function lastWeekday(): string {
  let date = addDays(today(), -1);
  while (weekday(date) === 0 || weekday(date) === 6) date = addDays(date, -1);
  return date;
}

/** The Monday of the week after next: a future week of five workdays. */
export function mondayAfterNext(): string {
  let date = addDays(today(), 8);
  while (weekday(date) !== 1) date = addDays(date, 1);
  return date;
}
