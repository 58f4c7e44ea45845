// Comma-separated `key=value` bodies: `table=options` parameter pushes (both families) and the
// Security PUSH `/iclock/registry` capability line; plus the `INFO=` query value of getrequest.
import { type BodyInput, type DecodeOptions, bodyText, parseIntStrict } from './records';

export interface OptionEntry {
  /** Key without ZK's leading `~` (e.g. `Platform`). */
  key: string;
  /** Key as the device sent it (e.g. `~Platform`). */
  rawKey: string;
  /** Value verbatim, leading spaces included (`~OEMVendor= ZKTeco Inc.`). */
  value: string;
}

export interface OptionsParseResult {
  /** key (without `~`) → value; when a key repeats, the last one wins. */
  options: Record<string, string>;
  entries: OptionEntry[];
  /** Segments that could not be read; never fatal. */
  errors: Array<{ segment: string; reason: string }>;
}

/**
 * Parse a one-line `k=v,k=v` body (`table=options`). The line may end with CR/LF.
 * A segment without `=` is a comma that belonged to the previous value (values such as vendor
 * names may contain commas), so it is appended back to that value rather than dropped.
 */
export function parseOptions(body: BodyInput, options?: DecodeOptions): OptionsParseResult {
  const text = bodyText(body, options).replace(/[\r\n]+$/, '');
  const result: OptionsParseResult = { options: {}, entries: [], errors: [] };
  if (text.includes('\n')) result.errors.push({ segment: text.slice(text.indexOf('\n') + 1), reason: 'more than one line; lines after the first are ignored' });
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') return result;
  for (const segment of line.split(',')) {
    if (segment.includes('\u0000')) {
      result.errors.push({ segment, reason: 'contains a NUL byte' });
      continue;
    }
    const at = segment.indexOf('=');
    if (at <= 0) {
      const last = result.entries[result.entries.length - 1];
      if (last && at < 0) {
        last.value += `,${segment}`;
        result.options[last.key] = last.value;
      } else {
        result.errors.push({ segment, reason: at === 0 ? 'empty key' : 'not key=value' });
      }
      continue;
    }
    // `…, ~DeviceName=X` (a space after the comma) must not lose the field: keys are trimmed.
    const rawKey = segment.slice(0, at).trim();
    const key = rawKey.replace(/^~+/, '');
    const value = segment.slice(at + 1);
    result.entries.push({ key, rawKey, value });
    result.options[key] = value;
  }
  return result;
}

export interface RegistryParseResult extends OptionsParseResult {
  /** `acc` for Security PUSH devices; null when absent. */
  deviceType: string | null;
  deviceName: string | null;
  firmwareVersion: string | null;
  pushVersion: string | null;
  lockCount: number | null;
  readerCount: number | null;
}

/** Parse the `/iclock/registry` body (one comma-separated capability line, `~` prefixes). */
export function parseRegistry(body: BodyInput, options?: DecodeOptions): RegistryParseResult {
  const parsed = parseOptions(body, options);
  const o = parsed.options;
  const int = (k: string): number | null => (o[k] === undefined ? null : parseIntStrict(o[k]!));
  return {
    ...parsed,
    deviceType: o.DeviceType ?? null,
    deviceName: o.DeviceName ?? null,
    firmwareVersion: o.FirmVer ?? null,
    pushVersion: o.PushVersion ?? null,
    lockCount: int('LockCount'),
    readerCount: int('ReaderCount'),
  };
}

/** Decoded `INFO=` value of `GET /iclock/getrequest` (ATT-DOC §9). Missing values are null. */
export interface DeviceInfo {
  /** Firmware version as sent, e.g. `Ver 2.0.12-20150625` or `ZMM720-NF-Ver1.2.7`. */
  firmware: string | null;
  userCount: number | null;
  fpCount: number | null;
  attlogCount: number | null;
  ip: string | null;
  fpAlgorithm: string | null;
  faceAlgorithm: string | null;
  facesNeeded: number | null;
  faceCount: number | null;
  /** Raw feature bit string (e.g. `111`) and its decoded flags. */
  featureBits: string | null;
  features: { fingerprint: boolean; face: boolean; userPhoto: boolean; comparisonPhoto: boolean; visibleLightFace: boolean };
  cardCount: number | null;
  userPhotoCount: number | null;
  attPhotoCount: number | null;
  /** All values in order. */
  raw: string[];
}

/**
 * Parse the (already percent-decoded) INFO query value: a comma list of up to 13 positional values.
 * Never throws; an unreadable count becomes null.
 */
export function parseInfo(info: string): DeviceInfo {
  // Control characters (a NUL from a broken firmware or a crafted request) are no part of any INFO
  // value, and PostgreSQL refuses NUL in text: dropped here, before they reach a stored column.
  const raw = info.split(',').map((v) => v.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim());
  const str = (i: number): string | null => (raw[i] === undefined || raw[i] === '' ? null : raw[i]!);
  const int = (i: number): number | null => (str(i) === null ? null : parseIntStrict(raw[i]!));
  const bits = str(9);
  const bit = (i: number): boolean => bits !== null && bits[i] === '1';
  return {
    firmware: str(0),
    userCount: int(1),
    fpCount: int(2),
    attlogCount: int(3),
    ip: str(4),
    fpAlgorithm: str(5),
    faceAlgorithm: str(6),
    facesNeeded: int(7),
    faceCount: int(8),
    featureBits: bits,
    features: { fingerprint: bit(0), face: bit(1), userPhoto: bit(2), comparisonPhoto: bit(3), visibleLightFace: bit(4) },
    cardCount: int(10),
    userPhotoCount: int(11),
    attPhotoCount: int(12),
    raw,
  };
}

/** A reported option by name, ignoring case and the `~` prefix some firmware writes. */
export function reportedOption(options: Record<string, string>, ...names: string[]): string | undefined {
  const wanted = new Set(names.map((n) => n.replace(/^~/, '').toLowerCase()));
  for (const [key, value] of Object.entries(options)) if (wanted.has(key.replace(/^~/, '').toLowerCase())) return value;
  return undefined;
}
