// The positions of phone punches are kept TIMEGATE_PUNCH_LOCATION_DAYS days (docs/self-service.md,
// "Privacy"), then erased: the punch, its geofence and its accuracy stay, the latitude and longitude
// go. A periodic job (app.ts) erases them in batches.
import type { EntityManager } from '@mikro-orm/postgresql';

/** Positions erased per statement: a month of a large fleet of phones is a few statements. */
const BATCH = 5000;
/** How often the job looks for positions past their days. */
export const PUNCH_LOCATION_SWEEP_MS = 3_600_000;

/** Erases the positions of punches made more than `days` days before `now`; returns how many. */
export async function erasePunchLocations(em: EntityManager, now: Date, days: number): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000);
  let erased = 0;
  for (;;) {
    // The partial index punch_located_time_index holds exactly the punches with a position.
    const rows = await em.execute<{ n: number }[]>(
      `with old as (select id, punch_time from punch where latitude is not null and punch_time < ? order by punch_time limit ${BATCH})
       , done as (update punch p set latitude = null, longitude = null from old where p.id = old.id and p.punch_time = old.punch_time returning 1)
       select count(*)::int as n from done`,
      [before],
    );
    const n = rows[0]?.n ?? 0;
    erased += n;
    if (n < BATCH) return erased;
  }
}
