// The door opening rules as a controller decides them, from what it was sent.
//
// First-person-in ("first-card normal open"):
// its `firstcard` rows (Pin, DoorID, TimezoneID) and the door's `Door{N}FirstCardOpenDoor`
// parameter (1: first-card normal open). Inside the row's time zone, the first granted verification
// of a listed person leaves the door normally open (rtlog 2, "first-person open"); while it is,
// every granted verification is logged as 1 ("verified during a normally-open period"); the period
// ends with the time zone. Verifications of people not listed open the door as usual (0): the rule
// only decides when the door stays open.
//
// The multi-person rule ("multi-card opening"): its `multimcard` rows (Index, DoorId, Group1…5: the
// multi-card group of each person a combination needs), the users' `Group` and the door's
// `Door{N}MultiCardOpenDoor` parameter. A granted verification at such a door does not open it:
// it waits (rtlog 26) until the people of one combination have verified within the controller's
// interval (MULTI_CARD_INTERVAL_SECONDS), and the last of them opens it (rtlog 3). A person whose
// group is in no combination of the door never completes one: refused with 26 too, not counted
// (the vendor's document does not say which code a controller logs for them; this is the
// simulator's choice).
import { encodeZkTime, parseLocalTime } from '../protocol';
import { timezoneOpen } from './access-check';
import { parameterOf } from './door-rules';
import type { RecordStore } from './record-store';

/** rtlog: the first person's verification left the door normally open. */
export const FIRST_PERSON_OPEN = 2;
/** rtlog: a verification during a normally-open period. */
export const VERIFIED_NORMALLY_OPEN = 1;
/** rtlog: the last person of a multi-person combination verified: the door opens. */
export const MULTI_PERSON_OPEN = 3;
/** rtlog: a multi-person door waits for the rest of a combination. */
export const MULTI_PERSON_WAIT = 26;
/** The controller's interval within which the people of a combination verify. */
export const MULTI_CARD_INTERVAL_SECONDS = 10;

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

/** True when the door's multi-card mode is on (`Door{N}MultiCardOpenDoor=1`). */
export function multiCardDoor(store: RecordStore, door: number): boolean {
  return parameterOf(store.parameters, `Door${door}MultiCardOpenDoor`) === 1;
}

/**
 * A granted verification of `pin` at a multi-card door: MULTI_PERSON_OPEN when it completes a
 * combination of the door with the verifications of other people within the interval (they are then
 * used up), else MULTI_PERSON_WAIT (it waits, when the person's group is in a combination).
 */
export function multiCardDecision(store: RecordStore, pin: string, door: number, localTime: string): number {
  const parsed = parseLocalTime(localTime);
  const at = parsed.ok ? encodeZkTime(parsed.value) : 0;
  const group = Number(store.users.get(pin)?.group ?? 0) || 0;
  const combinations = [...store.multiCards.values()].filter((c) => c.door === door);
  const waiting = (store.multiCardWaiting.get(door) ?? []).filter((w) => at - w.at <= MULTI_CARD_INTERVAL_SECONDS && w.pin !== pin);
  if (group === 0 || !combinations.some((c) => c.groups.includes(group))) {
    store.multiCardWaiting.set(door, waiting);
    return MULTI_PERSON_WAIT;
  }
  waiting.push({ pin, group, at });
  const complete = combinations.some((c) => {
    const needed = new Map<number, number>();
    for (const g of c.groups) needed.set(g, (needed.get(g) ?? 0) + 1);
    return [...needed].every(([g, n]) => waiting.filter((w) => w.group === g).length >= n);
  });
  store.multiCardWaiting.set(door, complete ? [] : waiting);
  return complete ? MULTI_PERSON_OPEN : MULTI_PERSON_WAIT;
}
