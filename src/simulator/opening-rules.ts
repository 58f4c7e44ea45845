// First-person-in ("first-card normal open") as a controller decides it, from what it was sent:
// its `firstcard` rows (Pin, DoorID, TimezoneID) and the door's `Door{N}FirstCardOpenDoor`
// parameter (1: first-card normal open). Inside the row's time zone, the first granted verification
// of a listed person leaves the door normally open (rtlog 2, "first-person open"); while it is,
// every granted verification is logged as 1 ("verified during a normally-open period"); the period
// ends with the time zone. Verifications of people not listed open the door as usual (0): the rule
// only decides when the door stays open.
import { timezoneOpen } from './access-check';
import { parameterOf } from './door-rules';
import type { RecordStore } from './record-store';

/** rtlog: the first person's verification left the door normally open. */
export const FIRST_PERSON_OPEN = 2;
/** rtlog: a verification during a normally-open period. */
export const VERIFIED_NORMALLY_OPEN = 1;

/** True while the door is in a first-person-in open period at `localTime`; a period whose time zone has ended is over. */
export function inFirstCardOpenPeriod(store: RecordStore, door: number, localTime: string): boolean {
  const timezoneId = store.firstCardOpenDoors.get(door);
  if (timezoneId === undefined) return false;
  if (timezoneOpen(store, timezoneId, localTime)) return true;
  store.firstCardOpenDoors.delete(door);
  return false;
}

/**
 * After a granted verification of `pin` at `door`: true (and the door stays open) when the door's
 * first-card mode is on and the person has a `firstcard` row of this door whose time zone is open now.
 */
export function startsFirstCardOpenPeriod(store: RecordStore, pin: string, door: number, localTime: string): boolean {
  if (parameterOf(store.parameters, `Door${door}FirstCardOpenDoor`) !== 1) return false;
  const row = store.firstCards.get(`${pin}/${door}`);
  if (!row || !timezoneOpen(store, row.timezoneId, localTime)) return false;
  store.firstCardOpenDoors.set(door, row.timezoneId);
  return true;
}
