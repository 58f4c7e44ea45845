// Security PUSH (access-control) uploads: `table=rtlog`, `table=rtstate`, and
// `table=tabledata&tablename=…` / `/iclock/querydata` rows. All are key=value TSV parsed BY KEY:
// field order differs between firmwares (fx 19 vs fx 35).
import { base64PayloadError } from './base64-payload';
import { type BiodataRecord, biodataRecord } from './operlog';
import {
  type BodyInput,
  type DecodeOptions,
  type KeyValueFields,
  type LineError,
  bodyText,
  fieldsObject,
  parseIntStrict,
  parseKeyValueFields,
  splitFields,
  splitLines,
} from './records';
import { implausibleTime, parseLocalTime } from './time';
import { type RtlogEventClass, classifyRtlogEvent } from './verify-type';
import type { DoorState } from './door-state';

export type { DoorState } from './door-state';

export interface RtstateRecord {
  line: number;
  localTime: string;
  sensor: string;
  relay: string;
  alarm: string;
  doors: DoorState[];
  /** Non-fatal oddities (e.g. odd-length alarm field as printed in the vendor document). */
  warnings: string[];
  fields: Record<string, string>;
}

export interface RtlogRecord {
  line: number;
  localTime: string;
  /** PIN as sent; `0` (or empty) means a device/door event with no person. */
  pin: string;
  /** True when `pin` is `0` or empty: a device event, not a punch. */
  deviceEvent: boolean;
  cardNo: string | null;
  /** Door / reader address. */
  eventAddr: number | null;
  event: number;
  eventClass: RtlogEventClass;
  /** 0 in, 1 out, 2 none. */
  inOutStatus: number | null;
  /** Raw `verifytype` (a number, or a 16-char bit string with NewVFStyles). */
  verifyTypeRaw: string | null;
  /** Numeric verify code when `verifytype` is a plain number. */
  verifyType: number | null;
  /** Device record id; dedupe on (SN, index). */
  index: number;
  /** Every key=value (keys lower-cased), incl. sitecode, linkid, maskflag, temperature… */
  fields: Record<string, string>;
}

export interface RtlogParseResult {
  records: RtlogRecord[];
  errors: LineError[];
}

function kvLine(text: string): KeyValueFields | string {
  return parseKeyValueFields(splitFields(text));
}

/** Parse an rtlog body (one event per line, keys in any order). Never throws. */
export function parseRtlog(body: BodyInput, options?: DecodeOptions): RtlogParseResult {
  const records: RtlogRecord[] = [];
  const errors: LineError[] = [];
  for (const { line, text } of splitLines(bodyText(body, options), errors)) {
    const r = rtlogRecord(text, line);
    if (typeof r === 'string') errors.push({ line, text, reason: r });
    else records.push(r);
  }
  return { records, errors };
}

function rtlogRecord(text: string, line: number): RtlogRecord | string {
  const kv = kvLine(text);
  if (typeof kv === 'string') return kv;
  const m = kv.map;
  const time = m.get('time');
  if (time === undefined) return 'missing time';
  const parsed = parseLocalTime(time);
  if (!parsed.ok) return `bad date: ${parsed.reason}`;
  const implausible = implausibleTime(parsed.value);
  if (implausible) return `bad date: ${implausible}`;
  const eventText = m.get('event');
  if (eventText === undefined) return 'missing event';
  const event = parseIntStrict(eventText);
  if (event === null) return `non-numeric event ${JSON.stringify(eventText)}`;
  const indexText = m.get('index');
  if (indexText === undefined) return 'missing index';
  const index = parseIntStrict(indexText);
  if (index === null) return `non-numeric index ${JSON.stringify(indexText)}`;
  const pin = m.get('pin') ?? '';
  if (/[\s\x00-\x1f]/.test(pin)) return `PIN ${JSON.stringify(pin)} contains whitespace or control characters`;
  const int = (k: string): number | null => (m.has(k) ? parseIntStrict(m.get(k)!) : null);
  const verifyTypeRaw = m.get('verifytype') ?? null;
  return {
    line,
    localTime: time.replace('T', ' '),
    pin,
    deviceEvent: pin === '' || pin === '0',
    cardNo: m.get('cardno') ?? null,
    eventAddr: int('eventaddr'),
    event,
    eventClass: classifyRtlogEvent(event),
    inOutStatus: int('inoutstatus'),
    verifyTypeRaw,
    // A 16-char NewVFStyles bit string is not a verify code.
    verifyType: verifyTypeRaw !== null && verifyTypeRaw.length < 6 ? parseIntStrict(verifyTypeRaw) : null,
    index,
    fields: fieldsObject(m),
  };
}

/**
 * Parse an rtstate body. Bit layout (our reading of SEC-DOC §10.3, documented in PROTOCOL.md):
 * `sensor` and `relay` are hex strings read byte by byte in order; inside a byte door n of that
 * byte uses the least-significant bits first (sensor: bits 2(n-1)..2(n-1)+1, relay: bit n-1);
 * `alarm` is one byte (2 hex chars) per door, door 1 first. The door count comes from `sensor`
 * (4 doors per byte).
 */
export function parseRtstate(body: BodyInput, options?: DecodeOptions): { records: RtstateRecord[]; errors: LineError[] } {
  const records: RtstateRecord[] = [];
  const errors: LineError[] = [];
  for (const { line, text } of splitLines(bodyText(body, options), errors)) {
    const r = rtstateRecord(text, line);
    if (typeof r === 'string') errors.push({ line, text, reason: r });
    else records.push(r);
  }
  return { records, errors };
}

const HEX = /^[0-9A-Fa-f]*$/;

function hexBytes(hex: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i + 1 < hex.length; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
  return bytes;
}

function rtstateRecord(text: string, line: number): RtstateRecord | string {
  const kv = kvLine(text);
  if (typeof kv === 'string') return kv;
  const m = kv.map;
  const time = m.get('time');
  if (time === undefined) return 'missing time';
  const parsed = parseLocalTime(time);
  if (!parsed.ok) return `bad date: ${parsed.reason}`;
  const sensor = m.get('sensor');
  const relay = m.get('relay') ?? '';
  const alarm = m.get('alarm') ?? '';
  if (sensor === undefined) return 'missing sensor';
  for (const [name, value] of [
    ['sensor', sensor],
    ['relay', relay],
    ['alarm', alarm],
  ] as const) {
    if (!HEX.test(value)) return `${name} ${JSON.stringify(value)} is not hex`;
  }
  const warnings: string[] = [];
  for (const [name, value] of [
    ['sensor', sensor],
    ['relay', relay],
    ['alarm', alarm],
  ] as const) {
    if (value.length % 2 === 1) warnings.push(`${name} has an odd number of hex digits (${value.length}); the last digit is ignored`);
  }
  const sensorBytes = hexBytes(sensor);
  const relayBytes = hexBytes(relay);
  const alarmBytes = hexBytes(alarm);
  const doors: DoorState[] = [];
  for (let d = 0; d < sensorBytes.length * 4; d++) {
    const sensorBits = (sensorBytes[d >> 2]! >> ((d % 4) * 2)) & 0b11;
    const relayByte = relayBytes[d >> 3];
    const a = alarmBytes[d] ?? null;
    const flag = (bit: number): boolean => a !== null && (a & (1 << bit)) !== 0;
    doors.push({
      door: d + 1,
      sensor: sensorBits === 0 ? 'none' : sensorBits === 1 ? 'closed' : sensorBits === 2 ? 'open' : 'unknown',
      relay: relayByte === undefined ? null : ((relayByte >> (d % 8)) & 1) === 0 ? 'energised' : 'released',
      alarmByte: a,
      alarms: {
        accidentalOpen: flag(0),
        tamper: flag(1),
        duressPassword: flag(2),
        duressFingerprint: flag(3),
        doorOpenTimeout: flag(4),
        mainsLost: flag(5),
        batteryLost: flag(6),
        readerTamper: flag(7),
      },
    });
  }
  return { line, localTime: time.replace('T', ' '), sensor, relay, alarm, doors, warnings, fields: fieldsObject(m) };
}

/** `user` table row (tabledata upload or querydata answer). */
export interface AccessUserRow {
  kind: 'user';
  line: number;
  pin: string;
  uid: number | null;
  cardNo: string | null;
  password: string | null;
  group: string | null;
  /** ZK encoded seconds or 0 = unlimited (see `decodeZkTime`), as sent. */
  startTime: string | null;
  endTime: string | null;
  name: string | null;
  privilege: number | null;
  disabled: boolean | null;
  verify: string | null;
  fields: Record<string, string>;
}

/** `templatev10` row. Finger ids ≥ 16 are duress fingers (fingerId − 16 is the real finger). */
export interface TemplateV10Row {
  kind: 'templatev10';
  line: number;
  pin: string;
  fingerId: number;
  duress: boolean;
  valid: number | null;
  template: string;
  fields: Record<string, string>;
}

/** `userpic` / `biophoto` rows (base64 in `content=` or `photo=`). */
export interface AccessPhotoRow {
  kind: 'userpic' | 'biophoto';
  line: number;
  pin: string;
  fileName: string | null;
  content: string;
  fields: Record<string, string>;
}

/** Any other table: fields only. */
export interface GenericRow {
  kind: 'generic';
  line: number;
  fields: Record<string, string>;
}

export type TableRow = AccessUserRow | TemplateV10Row | BiodataRecord | AccessPhotoRow | GenericRow;

export interface TableDataParseResult {
  /** Table name as given (lower-cased). */
  table: string;
  rows: TableRow[];
  errors: LineError[];
}

/**
 * The table the rows of a tabledata/querydata body name with their leading tag (`biodata pin=1…`),
 * lower-cased; null when the first record has no tag. The vendor's Security PUSH document shows
 * query answers posted without `tablename=` (its biodata query example,
 * `querydata?…&type=tablename&count=1&packcnt=2&packidx=1`) and acknowledged with the rows' table
 * (`biodata=1`): this is where that name comes from.
 */
export function tableDataTag(body: BodyInput, options?: DecodeOptions): string | null {
  for (const { text } of splitLines(bodyText(body, options))) {
    const match = /^([A-Za-z][A-Za-z0-9_]{0,63}) [^=\t ]+=/.exec(text);
    return match ? match[1]!.toLowerCase() : null;
  }
  return null;
}

/**
 * Parse `table=tabledata&tablename=<t>` uploads and `/iclock/querydata?type=tabledata` rows:
 * `<tablename> k=v\tk=v…` per line (the tag is optional and matched case-insensitively).
 * Typed rows for `user`, `templatev10`, `biodata`, `userpic`, `biophoto`; generic otherwise.
 * The reply must echo the DECLARED count (`tableDataAck`), not `rows.length`.
 */
export function parseTableData(tablename: string, body: BodyInput, options?: DecodeOptions): TableDataParseResult {
  const table = tablename.toLowerCase();
  const rows: TableRow[] = [];
  const errors: LineError[] = [];
  for (const { line, text } of splitLines(bodyText(body, options), errors)) {
    const r = tableRow(table, text, line);
    if (typeof r === 'string') errors.push({ line, text, reason: r });
    else rows.push(r);
  }
  return { table, rows, errors };
}

function tableRow(table: string, text: string, line: number): TableRow | string {
  let rest = text;
  const space = text.indexOf(' ');
  const firstEq = text.indexOf('=');
  if (space > 0 && (firstEq < 0 || space < firstEq)) {
    const tag = text.slice(0, space);
    if (tag.toLowerCase() !== table) return `row tag ${JSON.stringify(tag)} does not match table ${JSON.stringify(table)}`;
    rest = text.slice(space + 1);
  }
  const kv = parseKeyValueFields(splitFields(rest));
  if (typeof kv === 'string') return kv;
  const m = kv.map;
  const fields = fieldsObject(m);
  if (!['user', 'templatev10', 'biodata', 'userpic', 'biophoto'].includes(table)) return { kind: 'generic', line, fields };
  const pin = m.get('pin');
  if (pin === undefined || pin === '') return 'missing pin';
  if (/[\s\x00-\x1f]/.test(pin)) return `PIN ${JSON.stringify(pin)} contains whitespace or control characters`;
  const int = (k: string): number | null => (m.has(k) ? parseIntStrict(m.get(k)!) : null);
  switch (table) {
    case 'user': {
      const disable = m.get('disable');
      return {
        kind: 'user',
        line,
        pin,
        uid: int('uid'),
        cardNo: m.get('cardno') ?? null,
        password: m.get('password') ?? null,
        group: m.get('group') ?? null,
        startTime: m.get('starttime') ?? null,
        endTime: m.get('endtime') ?? null,
        name: m.get('name') ?? null,
        privilege: int('privilege'),
        disabled: disable === undefined ? null : disable !== '0',
        verify: m.get('verify') ?? null,
        fields,
      };
    }
    case 'templatev10': {
      const fingerId = int('fingerid');
      if (fingerId === null) return `missing or non-numeric fingerid ${JSON.stringify(m.get('fingerid') ?? '')}`;
      const template = m.get('template') ?? '';
      const bad = base64PayloadError('template', template, m.get('size'));
      if (bad) return bad;
      return { kind: 'templatev10', line, pin, fingerId, duress: fingerId >= 16, valid: int('valid'), template, fields };
    }
    case 'biodata':
      return biodataRecord(kv, line, pin);
    default: {
      const content = m.get('content') ?? m.get('photo') ?? '';
      const bad = base64PayloadError('content', content, m.get('size'));
      if (bad) return bad;
      return { kind: table as 'userpic' | 'biophoto', line, pin, fileName: m.get('filename') ?? null, content, fields };
    }
  }
}
