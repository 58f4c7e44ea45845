// Pure readers of server replies: option blocks, registry/push answers and upload acknowledgements.
// A terminal is lenient about line ends (LF or CR LF both work on real devices) but strict
// about acknowledgements: anything but the expected answer means "keep the data and retry".

/** `key=value` lines (LF or CR LF) into a map; the key ends at the first `=`. Other lines are ignored. */
export function parseKeyValueLines(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of body.split(/\r?\n/)) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    out.set(line.slice(0, eq).trim(), line.slice(eq + 1));
  }
  return out;
}

export interface AttendanceOptionsReply {
  /** False when the server answered something else than `GET OPTION FROM: <SN>` (e.g. a bare `OK`). */
  recognised: boolean;
  options: Map<string, string>;
}

/** The attendance handshake reply: `GET OPTION FROM: <SN>` then one option per line. */
export function parseAttendanceOptions(body: string, serialNumber: string): AttendanceOptionsReply {
  const [first = '', ...rest] = body.split(/\r?\n/);
  const recognised = first.trim() === `GET OPTION FROM: ${serialNumber}`;
  return { recognised, options: recognised ? parseKeyValueLines(rest.join('\n')) : new Map() };
}

/** Options are matched case-insensitively: servers spell `Delay`/`delay`, `TimeZone`/`Timezone`. */
export function optionValue(options: Map<string, string>, name: string): string | undefined {
  const direct = options.get(name);
  if (direct !== undefined) return direct;
  const lower = name.toLowerCase();
  for (const [k, v] of options) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** Seconds option as milliseconds, or the fallback when missing or not a positive number. */
export function secondsOption(options: Map<string, string>, name: string, fallbackMs: number): number {
  const raw = optionValue(options, name);
  const n = raw === undefined ? NaN : Number(raw.trim());
  return Number.isFinite(n) && n > 0 ? n * 1000 : fallbackMs;
}

/** Registry reply must be exactly `RegistryCode=<code>`; `OK` is a refusal in practice. */
export function parseRegistryCode(body: string): string | null {
  const m = /^RegistryCode=([^\r\n]{1,64})\s*$/.exec(body.trim());
  return m ? m[1]! : null;
}

/**
 * Whether an upload reply acknowledges the batch. Attendance: `OK`, `OK: n`, `OK:n`.
 * Security `tabledata`: exactly `<tablename>=<declared count>`; other security tables: `OK`.
 */
export function isUploadAcknowledged(body: string, expected: { tableName?: string; count: number }): boolean {
  const reply = body.trim();
  if (expected.tableName !== undefined) return reply === `${expected.tableName}=${expected.count}`;
  return /^OK(\s*:\s*\d+)?$/.test(reply);
}
