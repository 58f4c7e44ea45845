// Rules that decide when one door of an access controller opens, as the controller's own tables
// and door parameters (the ZKAccess C3 / inBio table set of the Security PUSH document, tables
// section):
//
// * first-person-in ("first-card normal open"): the `firstcard` table lists who may start it, per
//   door and time zone (`Pin`, `DoorID`, `TimezoneID`), and the door's `Door{N}FirstCardOpenDoor`
//   parameter turns it on (0 off, 1 first-card normal open, 2 first-card activation). Inside the
//   time zone, the first valid verification of a listed person leaves the door normally open
//   (rtlog 2) until the time zone ends.
// * the multi-person rule ("multi-card opening"): the `multimcard` table holds a door's
//   combinations (`Index`, `DoorId`, `Group1`…`Group5`: the multi-card group of each person
//   needed, 0 for none), a person's group is the `Group` of their `user` row, and the door's
//   `Door{N}MultiCardOpenDoor` parameter turns it on. The door opens when the people of one
//   combination have verified within the controller's interval (rtlog 3); each verification before
//   that is logged 26 ("multi-person wait").
//
// The parameters are written with `SET OPTIONS` (section 12.5.1), the table rows with `DATA UPDATE`
// / `DATA DELETE` like every other table (many records per command).

const PIN = /^[A-Za-z0-9]{1,24}$/;

function pin(value: string): string {
  if (!PIN.test(value)) throw new RangeError(`invalid PIN ${JSON.stringify(value)}: letters and digits only, 1–24 chars`);
  return value;
}

function int(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer ${min}..${max}, got ${value}`);
  return value;
}

/** The highest door number the controllers' door parameters name (`Door1…` to `Door4…`). */
export const MAX_PARAMETER_DOOR = 4;

/** `Door{N}FirstCardOpenDoor` values. */
export const FIRST_CARD_MODE = { off: 0, normalOpen: 1 } as const;

/** `DATA UPDATE firstcard Pin=…\tDoorID=…\tTimezoneID=…`: this person may start the door's first-person-in period in this time zone. */
export function updateFirstCardCommand(row: { pin: string; door: number; timezoneId: number }): string {
  return `DATA UPDATE firstcard Pin=${pin(row.pin)}\tDoorID=${int(row.door, 'door', 1, MAX_PARAMETER_DOOR)}\tTimezoneID=${int(row.timezoneId, 'timezoneId', 1, 9999)}`;
}

/** `DATA DELETE firstcard DoorID=…[\tPin=…]`: one person's row of a door, or (without a pin) every row of the door. */
export function deleteFirstCardCommand(row: { door: number; pin?: string }): string {
  const door = `DoorID=${int(row.door, 'door', 1, MAX_PARAMETER_DOOR)}`;
  return row.pin === undefined ? `DATA DELETE firstcard ${door}` : `DATA DELETE firstcard Pin=${pin(row.pin)}\t${door}`;
}

/** `SET OPTIONS Door{N}FirstCardOpenDoor=<mode>`: the door's first-card mode (0 off, 1 first-card normal open). */
export function firstCardOptionCommand(door: number, mode: number): string {
  return `SET OPTIONS Door${int(door, 'door', 1, MAX_PARAMETER_DOOR)}FirstCardOpenDoor=${int(mode, 'mode', 0, 2)}`;
}

/** People a multi-card combination takes (`Group1`…`Group5`). */
export const MAX_MULTI_CARD_PEOPLE = 5;

/**
 * `DATA UPDATE multimcard Index=…\tDoorId=…\tGroup1=…\tGroup5=…`: a combination that opens the door,
 * the multi-card group of each person needed (2–5 of them), the remaining slots 0.
 */
export function updateMultiCardCommand(row: { index: number; door: number; groups: readonly number[] }): string {
  if (row.groups.length < 2 || row.groups.length > MAX_MULTI_CARD_PEOPLE)
    throw new RangeError(`a combination takes 2..${MAX_MULTI_CARD_PEOPLE} people, got ${row.groups.length}`);
  const slots = Array.from({ length: MAX_MULTI_CARD_PEOPLE }, (_, i) => `Group${i + 1}=${i < row.groups.length ? int(row.groups[i]!, 'group', 1, 99) : 0}`);
  return `DATA UPDATE multimcard Index=${int(row.index, 'index', 1, 9999)}\tDoorId=${int(row.door, 'door', 1, MAX_PARAMETER_DOOR)}\t${slots.join('\t')}`;
}

/** `DATA DELETE multimcard DoorId=…`: every combination of the door. */
export function deleteMultiCardCommand(door: number): string {
  return `DATA DELETE multimcard DoorId=${int(door, 'door', 1, MAX_PARAMETER_DOOR)}`;
}

/** `SET OPTIONS Door{N}FirstCardOpenDoor=<f>,Door{N}MultiCardOpenDoor=<m>`: both opening modes of a door in one command (0 off, 1 on). */
export function doorOpeningOptionsCommand(door: number, modes: { firstCard: number; multiCard: number }): string {
  const n = int(door, 'door', 1, MAX_PARAMETER_DOOR);
  return `SET OPTIONS Door${n}FirstCardOpenDoor=${int(modes.firstCard, 'firstCard', 0, 2)},Door${n}MultiCardOpenDoor=${int(modes.multiCard, 'multiCard', 0, 1)}`;
}
