// The door rules an access controller enforces by itself, from the parameters it was sent with
// `SET OPTIONS` (`AntiPassback`, `InterLock`: one value each from the vendor's list for 1-, 2- and
// 4-door controllers), decided after the person's own rights (access-check.ts) allowed the
// verification. rtlog codes: 24 anti-passback, 25 interlock (Security PUSH, appendix 2).
// Written from the controller's side (what each value means), independently of the service's
// compiler, so that a test through both checks one against the other.

/** Anti-passback: doors whose in and out readers alternate, and pairs of sides a person alternates between. */
interface AntiPassbackMeaning {
  inOut: number[];
  between: Array<[number[], number[]]>;
}

const NONE: AntiPassbackMeaning = { inOut: [], between: [] };

/** What an `AntiPassback` value means on a controller with `lockCount` doors (unknown values: nothing). */
export function antiPassbackMeaning(lockCount: number, value: number): AntiPassbackMeaning {
  if (lockCount === 1) return value === 1 ? { inOut: [1], between: [] } : NONE;
  if (lockCount === 2) {
    const table: Record<number, AntiPassbackMeaning> = {
      1: { inOut: [1], between: [] },
      2: { inOut: [2], between: [] },
      3: { inOut: [1, 2], between: [] },
      4: { inOut: [], between: [[[1], [2]]] },
    };
    return table[value] ?? NONE;
  }
  if (lockCount === 4) {
    const between: Record<number, Array<[number[], number[]]>> = {
      1: [[[1], [2]]],
      2: [[[3], [4]]],
      3: [
        [[1], [2]],
        [[3], [4]],
      ],
      4: [
        [
          [1, 2],
          [3, 4],
        ],
      ],
      5: [[[1], [2, 3]]],
      6: [[[1], [2, 3, 4]]],
    };
    if (value >= 16) return { inOut: [1, 2, 3, 4].filter((d) => value & (16 << (d - 1))), between: [] };
    return { inOut: [], between: between[value] ?? [] };
  }
  return NONE;
}

/** What an `InterLock` value means: groups of doors of which only one may be open. */
export function interlockMeaning(lockCount: number, value: number): number[][] {
  if (lockCount === 2) return value === 1 ? [[1, 2]] : [];
  if (lockCount === 4) {
    const table: Record<number, number[][]> = {
      1: [[1, 2]],
      2: [[3, 4]],
      3: [[1, 2, 3]],
      4: [
        [1, 2],
        [3, 4],
      ],
      5: [[1, 2, 3, 4]],
    };
    return table[value] ?? [];
  }
  return [];
}

/** The controller's run-time state for its rules: last passages per person, and which doors are open. */
export class ControllerRuleState {
  /** `pin/door` (in/out readers) or `pin#pair` (between doors) -> the last direction or side passed. */
  private readonly lastPassage = new Map<string, string>();
  /** Doors open now (granted and not yet closed), for interlock. */
  readonly openDoors = new Set<number>();

  /**
   * 0 when the rules let `pin` pass at `door` in `direction` (inoutstatus: 0 in, 1 out), else the
   * rtlog code of the refusal: 25 when another door of its interlock group is open, 24 when the
   * person's last passage was the same direction (or the same side of a pair).
   */
  decide(parameters: ReadonlyMap<string, string>, lockCount: number, pin: string, door: number, direction: number): number {
    const group = interlockMeaning(lockCount, parameterOf(parameters, 'InterLock')).find((g) => g.includes(door));
    if (group?.some((d) => d !== door && this.openDoors.has(d))) return 25;
    for (const [key, value] of this.passageKeys(parameters, lockCount, pin, door, direction)) {
      if (this.lastPassage.get(key) === value) return 24;
    }
    return 0;
  }

  /** A granted verification: the passage is remembered and the door is open until it closes. */
  pass(parameters: ReadonlyMap<string, string>, lockCount: number, pin: string, door: number, direction: number): void {
    for (const [key, value] of this.passageKeys(parameters, lockCount, pin, door, direction)) this.lastPassage.set(key, value);
    this.openDoors.add(door);
  }

  close(door: number): void {
    this.openDoors.delete(door);
  }

  private passageKeys(parameters: ReadonlyMap<string, string>, lockCount: number, pin: string, door: number, direction: number): Array<[string, string]> {
    const meaning = antiPassbackMeaning(lockCount, parameterOf(parameters, 'AntiPassback'));
    const keys: Array<[string, string]> = [];
    if (meaning.inOut.includes(door)) keys.push([`${pin}/${door}`, direction === 1 ? 'out' : 'in']);
    meaning.between.forEach(([a, b], i) => {
      if (a.includes(door)) keys.push([`${pin}#${i}`, 'a']);
      else if (b.includes(door)) keys.push([`${pin}#${i}`, 'b']);
    });
    return keys;
  }
}

/** A numeric controller parameter by name, any case (0 when absent or not a number). */
export function parameterOf(parameters: ReadonlyMap<string, string>, name: string): number {
  const wanted = name.toLowerCase();
  for (const [k, v] of parameters) if (k.toLowerCase() === wanted) return /^\d+$/.test(v) ? Number(v) : 0;
  return 0;
}
