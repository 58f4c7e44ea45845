// Getting started, step 6 (docs/getting-started.md):
// Read today's timesheet: one attendance day per employee, with the punches it counted.
import { createRestClient } from '@timegate/client';

const baseUrl = process.env.TIMEGATE_URL ?? 'http://localhost:8080';
const apiKey = process.env.TIMEGATE_KEY!;

async function main() {
  const rest = createRestClient({ baseUrl, apiKey });
  const today = new Date().toISOString().slice(0, 10); // a sandbox's days are UTC dates unless created with --time-zone
  const { data: days, error } = await rest.GET('/public/v2/timesheets', { params: { query: { start_date: today, end_date: today } } });
  if (error) throw new Error(error.error.message);
  for (const day of days) {
    console.log(
      `employee ${day.employee_id} on ${day.date}: ${day.status}, punches [${day.punch_ids.join(', ')}], ` +
        `first in ${day.first_in ?? '-'}, worked ${day.worked_minutes} min, exceptions: ${day.exceptions.join(', ') || 'none'}`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
