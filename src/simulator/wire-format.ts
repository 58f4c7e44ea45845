// Pure text builders for what a terminal puts on the wire: times, query strings, record lines.
// Kept free of I/O so the exact bytes can be unit-tested against the protocol reference
// (src/protocol/PROTOCOL.md) and the fixtures in test/fixtures/protocol.
import { createHash } from 'node:crypto';

export type LineEnding = 'lf' | 'crlf';

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** `YYYY-MM-DD HH:MM:SS` in device local wall-clock time: terminals send no zone. */
export function formatDeviceTime(at: Date, offsetMinutes: number): string {
  const d = new Date(at.getTime() + offsetMinutes * 60_000);
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
  );
}

/**
 * The handshake's `TimeZone=` option: whole hours for -14..14, minutes beyond that
 * (`330` = +5:30), or the SDK320 form `-05:00`. Returns minutes east of UTC, or null.
 */
export function parseTimeZoneOption(value: string | undefined): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  const hm = /^([+-])?(\d{1,2}):(\d{2})$/.exec(v);
  if (hm) {
    const minutes = Number(hm[2]) * 60 + Number(hm[3]);
    return hm[1] === '-' ? -minutes : minutes;
  }
  if (!/^[+-]?\d+$/.test(v)) return null;
  const n = Number(v);
  return Math.abs(n) <= 14 ? n * 60 : n;
}

/**
 * Terminals percent-encode spaces (`INFO=Ver%202.0.12-...`, fx 27) but leave the commas that
 * separate INFO values, and the colons of a MAC address, as they are.
 */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ',').replace(/%3A/gi, ':');
}

export function buildQuery(params: ReadonlyArray<readonly [string, string]>): string {
  return params.map(([k, v]) => `${k}=${encodeQueryValue(v)}`).join('&');
}

/** Security PUSH session cookie: md5 hex of RegistryCode + SN + SessionID (SEC-DOC §7.5, fx 34). */
export function sessionToken(registryCode: string, serialNumber: string, sessionId: string): string {
  return createHash('md5')
    .update(registryCode + serialNumber + sessionId)
    .digest('hex');
}

/** Upload bodies end every record with the terminal's line ending, as in fx 02 / fx 28. */
export function joinRecords(lines: readonly string[], ending: LineEnding): string {
  const eol = ending === 'crlf' ? '\r\n' : '\n';
  return lines.map((l) => l + eol).join('');
}

/** Names and values go on the wire between TABs with no escaping: strip what would split them. */
export function cleanField(value: string): string {
  return value.replace(/[\t\r\n]/g, ' ');
}

/** A deterministic stand-in for a biometric template: base64 of hashed bytes, seeded per finger. */
export function fakeTemplate(seed: string, bytes = 384): string {
  const chunks: Buffer[] = [];
  let block = createHash('sha256').update(seed).digest();
  for (let n = 0; n < bytes; n += block.length) {
    chunks.push(block);
    block = createHash('sha256').update(block).digest();
  }
  return Buffer.concat(chunks).subarray(0, bytes).toString('base64');
}

/** A stable, plausible MAC/IP for a serial, so thousands of simulated devices stay distinguishable. */
export function derivedAddresses(serialNumber: string): { mac: string; ip: string } {
  const h = createHash('md5').update(serialNumber).digest();
  const hex = (b: number): string => b.toString(16).padStart(2, '0');
  return {
    mac: `00:17:61:${hex(h[0]!)}:${hex(h[1]!)}:${hex(h[2]!)}`,
    ip: `10.${h[3]! % 250}.${h[4]! % 250}.${(h[5]! % 250) + 2}`,
  };
}
