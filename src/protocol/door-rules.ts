// Controller door rules as the vendor's parameters: anti-passback and interlock are one number each
// (`AntiPassback`, `InterLock`), chosen from a fixed list per number of doors (the ZKAccess C3 / inBio
// parameter list: 1-, 2- and 4-door controllers), written with `SET OPTIONS` (Security PUSH, section
// 12.5.1). A combination the list does not have cannot be set on the controller: the functions
// answer null and the caller refuses it.

/** Anti-passback as the controller knows it, by door number. */
export type AntiPassbackRule =
  /** A person must alternate entry and exit through the in and out readers of each of these doors. */
  | { kind: 'in_out'; doors: readonly number[] }
  /** A person must alternate between the entry doors and the exit doors of each pair. */
  | { kind: 'between_doors'; pairs: ReadonlyArray<{ entry: readonly number[]; exit: readonly number[] }> };

const setKey = (doors: readonly number[]) => [...new Set(doors)].sort((a, b) => a - b).join(',');
// A pair is symmetric on the controller (it alternates between the two sides), so its key orders the sides.
const pairKey = (p: { entry: readonly number[]; exit: readonly number[] }) => [setKey(p.entry), setKey(p.exit)].sort().join('|');
const pairsKey = (pairs: ReadonlyArray<{ entry: readonly number[]; exit: readonly number[] }>) => pairs.map(pairKey).sort().join(';');

/** `AntiPassback` values between doors, by the controller's door count. */
const BETWEEN_DOORS: Record<number, Record<string, number>> = {
  2: { '1|2': 4 },
  4: { '1|2': 1, '3|4': 2, '1|2;3|4': 3, '1,2|3,4': 4, '1|2,3': 5, '1|2,3,4': 6 },
};

/** `AntiPassback` values for the readers of single doors (in and out readers of one door). */
const IN_OUT: Record<number, Record<string, number>> = {
  1: { '1': 1 },
  2: { '1': 1, '2': 2, '1,2': 3 },
};

/**
 * The controller's `AntiPassback` value for a rule (0: off), or null when a controller with this
 * many doors has no such combination. On 4-door controllers the in/out readers of door n are bit
 * 16 << (n−1), and any set of doors is their sum (16 door 1 … 240 all four).
 */
export function antiPassbackCode(lockCount: number, rule: AntiPassbackRule | null): number | null {
  if (rule === null) return 0;
  if (rule.kind === 'between_doors') {
    if (rule.pairs.length === 0) return null;
    return BETWEEN_DOORS[lockCount]?.[pairsKey(rule.pairs)] ?? null;
  }
  const doors = [...new Set(rule.doors)];
  if (doors.length === 0 || doors.some((d) => !Number.isInteger(d) || d < 1 || d > lockCount)) return null;
  if (lockCount === 4) return doors.reduce((sum, d) => sum + (16 << (d - 1)), 0);
  return IN_OUT[lockCount]?.[setKey(doors)] ?? null;
}

/** `InterLock` values: groups of doors of which only one may be open at a time, by door count. */
const INTERLOCK: Record<number, Record<string, number>> = {
  2: { '1,2': 1 },
  4: { '1,2': 1, '3,4': 2, '1,2,3': 3, '1,2;3,4': 4, '1,2,3,4': 5 },
};

/** The controller's `InterLock` value for groups of door numbers (0: none), or null when it has no such combination. */
export function interlockCode(lockCount: number, groups: ReadonlyArray<readonly number[]>): number | null {
  if (groups.length === 0) return 0;
  return INTERLOCK[lockCount]?.[groups.map(setKey).sort().join(';')] ?? null;
}

/** The combinations a controller with this many doors takes, for error messages and capabilities. */
export function doorRuleCombinations(lockCount: number): { antiPassbackBetweenDoors: string[]; antiPassbackInOut: string; interlock: string[] } {
  const show = (key: string) =>
    key
      .split(';')
      .map((g) =>
        g.includes('|')
          ? g
              .split('|')
              .map((s) => `[${s}]`)
              .join(' with ')
          : `[${g}]`,
      )
      .join(' and ');
  return {
    antiPassbackBetweenDoors: Object.keys(BETWEEN_DOORS[lockCount] ?? {}).map(show),
    antiPassbackInOut:
      lockCount === 4
        ? 'any set of doors 1-4'
        : Object.keys(IN_OUT[lockCount] ?? {})
            .map(show)
            .join(', ') || 'none',
    interlock: Object.keys(INTERLOCK[lockCount] ?? {}).map(show),
  };
}

/** `SET OPTIONS AntiPassback=<n>,InterLock=<m>`: both controller rules in one command (0 turns a rule off). */
export function doorRulesOptionsCommand(values: { antiPassback: number; interlock: number }): string {
  for (const [name, value] of Object.entries(values)) {
    if (!Number.isInteger(value) || value < 0 || value > 255) throw new RangeError(`${name} must be an integer from 0 to 255`);
  }
  return `SET OPTIONS AntiPassback=${values.antiPassback},InterLock=${values.interlock}`;
}
