// Parsing of the `timegate simulate` option values: durations (`10s`, `500ms`, `2m`), rates
// (`5/s`, `300/m`) and PIN lists (`1,2,3`, `1-50`). Pure, so the CLI stays a thin shell.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `500ms`, `10s`, `2m`, `1h`; a bare number is seconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`invalid duration "${text}" (examples: 500ms, 10s, 2m)`);
  return Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 's']!);
}

/** Events per second from `5/s`, `300/m`, `100/h` or a bare number (per second). */
export function parseRate(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(?:\/(s|m|h))?$/.exec(text.trim());
  if (!m) throw new Error(`invalid rate "${text}" (examples: 5/s, 120/m)`);
  return (Number(m[1]) * 1000) / UNIT_MS[m[2] ?? 's']!;
}

/** `1,2,3` and ranges `1-50`, mixed. */
export function parsePins(text: string): string[] {
  const pins: string[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (!range) {
      pins.push(part);
      continue;
    }
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (to < from || to - from > 100_000) throw new Error(`invalid PIN range "${part}"`);
    for (let p = from; p <= to; p++) pins.push(String(p));
  }
  if (pins.length === 0) throw new Error('empty PIN list');
  return pins;
}
