// Text-level building blocks shared by every body parser: byte decoding, record splitting,
// TAB fields and key=value pairs. Kept separate so every parser splits bodies the same way
// (the reference's pitfall 4: peers that split on commas or spaces corrupted records).

/** A request body as the adapter received it: raw bytes (preferred) or already-decoded text. */
export type BodyInput = string | Uint8Array;

/** One rejected input line. `line` is 1-based within the body; `text` is the line without its CR/LF. */
export interface LineError {
  line: number;
  text: string;
  reason: string;
}

/** One non-empty record of a body, with its 1-based line number. */
export interface BodyLine {
  line: number;
  text: string;
}

/** Encoding that `decodeBody` ended up using. */
export type BodyEncoding = 'utf-8' | 'gb18030' | 'windows-1252';

export interface DecodeOptions {
  /**
   * The device's `language` handshake parameter. Only used when the bytes are not valid UTF-8:
   * 83 (zh-CN) and 84 (zh-TW) fall back to GB18030, every other language to Windows-1252.
   */
  language?: string | number;
}

import { isUtf8 } from 'node:buffer';

const utf8Strict = new TextDecoder('utf-8', { fatal: true });
/** For the pieces after the first: a BOM there is text of a line, not a mark to drop. */
const utf8StrictKeepBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// Node 20 ships full ICU, so GB18030 (a superset of GB2312/GBK) is available without a dependency.
const gb18030 = new TextDecoder('gb18030');
// WHATWG maps the 'latin1' label to windows-1252; it never fails, so it is the last resort.
const windows1252 = new TextDecoder('latin1');

/**
 * Decode a body. Strict UTF-8 first (what SEC-DOC ≥ V3.5 and most firmware send); on invalid
 * UTF-8 fall back to GB18030 for Chinese-language devices (ATT-DOC §1.2: GB2312 there) and to
 * Windows-1252 otherwise, so a stray Latin-1 name never makes the whole upload unreadable.
 * A UTF-8 BOM is dropped. Never throws.
 */
export function decodeBody(body: BodyInput, options: DecodeOptions = {}): { text: string; encoding: BodyEncoding } {
  if (typeof body === 'string') return { text: body, encoding: 'utf-8' };
  try {
    return { text: utf8Strict.decode(body), encoding: 'utf-8' };
  } catch {
    const language = String(options.language ?? '');
    if (language === '83' || language === '84') return { text: gb18030.decode(body), encoding: 'gb18030' };
    return { text: windows1252.decode(body), encoding: 'windows-1252' };
  }
}

/** Decode (if bytes) and return the text. */
export function bodyText(body: BodyInput, options?: DecodeOptions): string {
  return decodeBody(body, options).text;
}

/** Bytes a body is decoded at a time by `bodyLines` (each piece ends at a line break). */
export const BODY_PIECE_BYTES = 256 * 1024;

/**
 * The records of a body as `splitLines` gives them, decoded piece by piece: a valid UTF-8 body is
 * cut after a line break every `pieceBytes` and each piece is decoded when the caller reaches it,
 * so a 7 MB upload is never one 7 MB string decoded in one go while every other request waits.
 * A body that is not valid UTF-8 (checked without decoding) is decoded whole, with the fallback.
 */
export function* bodyLines(body: BodyInput, options?: DecodeOptions, refused?: RefusedLines, pieceBytes = BODY_PIECE_BYTES): Generator<BodyLine> {
  if (typeof body === 'string' || body.length <= pieceBytes || !isUtf8(body)) {
    yield* splitLines(bodyText(body, options), refused);
    return;
  }
  let firstLine = 0;
  for (let start = 0; start < body.length;) {
    const lf = body.indexOf(0x0a, Math.min(start + pieceBytes, body.length) - 1);
    const end = lf === -1 ? body.length : lf + 1;
    const piece = (start === 0 ? utf8Strict : utf8StrictKeepBom).decode(body.subarray(start, end));
    firstLine = yield* splitLines(piece, refused, firstLine);
    start = end;
  }
}

/** Where lines refused while splitting go (an array, or a sink that follows the caller's current slice). */
export interface RefusedLines {
  push(error: LineError): unknown;
}

/**
 * The records of a body, split on LF, dropping one trailing CR per record (devices send LF or CR LF).
 * Never splits on commas or spaces. A line with a NUL byte is left out and reported in `refused`. Empty lines (e.g. after the final LF) are skipped, but line
 * numbers still count them so errors point at the right line of the original body.
 *
 * Lazy: lines are cut from the text as the caller reaches them. A 200,000-line upload is stored
 * slice by slice, and an array of every line up front (two heap objects per line) kept ~15 MB of
 * small objects alive for the whole upload, which every full garbage collection had to mark and move.
 */
export function* splitLines(text: string, refused?: RefusedLines, firstLine = 0): Generator<BodyLine, number> {
  let index = firstLine;
  for (let start = 0; start <= text.length; index++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.length === 0) continue;
    // PostgreSQL cannot store a NUL in text: a line carrying one would fail its whole batch on
    // every retry. It costs its own line only (reported in `refused`), never the upload.
    if (line.includes('\u0000')) refused?.push({ line: index + 1, text: line, reason: 'contains a NUL byte' });
    else yield { line: index + 1, text: line };
  }
  // The line number a text continuing this one starts at (the empty line after a final LF is its first).
  return index - 1;
}

/** Split one record into TAB-separated fields. A trailing TAB yields a trailing empty field. */
export function splitFields(line: string): string[] {
  return line.split('\t');
}

/** Split `key=value` on the FIRST `=` (values such as base64 contain `=`). Null when there is no `=`. */
export function splitKeyValue(field: string): { key: string; value: string } | null {
  const at = field.indexOf('=');
  if (at <= 0) return null;
  return { key: field.slice(0, at), value: field.slice(at + 1) };
}

/** key=value fields of one record; keys are stored lower-cased because firmwares vary (`PIN`/`Pin`/`pin`). */
export interface KeyValueFields {
  /** lower-cased key → value (first occurrence wins). */
  map: Map<string, string>;
  /** Same pairs with the key spelling the device used, in wire order. */
  pairs: Array<{ key: string; value: string }>;
}

/**
 * Parse TAB-separated `key=value` fields. Empty fields (trailing TABs) are ignored.
 * Returns a reason string instead of fields when a field has no `=` or when the record looks like
 * its TABs were expanded to spaces by a log (`PIN=1 Name=x` in one field).
 */
export function parseKeyValueFields(fields: string[]): KeyValueFields | string {
  const map = new Map<string, string>();
  const pairs: Array<{ key: string; value: string }> = [];
  const nonEmpty = fields.filter((f) => f.length > 0);
  if (nonEmpty.length === 1 && /\S\s+[A-Za-z~][\w~]*=/.test(nonEmpty[0]!)) {
    return 'fields are separated by spaces, not TABs (TABs expanded by a log?)';
  }
  for (const field of nonEmpty) {
    const kv = splitKeyValue(field);
    if (!kv) return `field ${JSON.stringify(truncate(field))} is not key=value`;
    const lower = kv.key.toLowerCase();
    if (!map.has(lower)) map.set(lower, kv.value);
    pairs.push(kv);
  }
  return { map, pairs };
}

/** Plain object copy of a lower-cased key map, for records that expose all their fields. */
export function fieldsObject(map: Map<string, string>): Record<string, string> {
  return Object.fromEntries(map);
}

/** Shorten long texts (base64 templates) quoted in error reasons. */
export function truncate(text: string, max = 40): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Decimal integer with an optional leading minus, nothing else (no spaces, no `1e3`, no `0x`). */
export function parseIntStrict(text: string): number | null {
  if (!/^-?\d{1,15}$/.test(text)) return null;
  return Number(text);
}
