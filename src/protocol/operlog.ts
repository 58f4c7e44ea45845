// OPERLOG upload (attendance PUSH, `table=OPERLOG`) and BIODATA upload (`table=BIODATA`):
// records that start with a tag and ONE space (`USER PIN=…`, `OPLOG 4\t…`), then TAB fields.
import { base64PayloadError } from './base64-payload';
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
import { parseLocalTime } from './time';

interface RecordBase {
  line: number;
  /** Every key=value of the record, keys lower-cased. */
  fields: Record<string, string>;
}

/** `OPLOG <OpType>\t<Operator>\t<OpTime>\t<Obj1>..<Obj4>`; codes in the operation log table of ATT-DOC. */
export interface OplogRecord {
  kind: 'oplog';
  line: number;
  opType: number;
  operator: string;
  localTime: string;
  /** Obj1..Obj4 as sent (trailing empty fields removed). */
  objects: string[];
}

/** `USER PIN=…\tName=…\tPri=……` — also accepted without the `USER ` tag (MB560-VL). */
export interface UserRecord extends RecordBase {
  kind: 'user';
  pin: string;
  name: string | null;
  privilege: number | null;
  password: string | null;
  /** Decimal string or `[15CD5B07]` hex form, as sent. */
  card: string | null;
  group: string | null;
  /** 16 digits: 4 × 4 time-zone ids. */
  timeZones: string | null;
  /** Empty or -1 = group default. */
  verify: string | null;
}

/** FP (fingerprint ≤ v10), FACE (NIR face) and FVEIN (finger vein) templates. */
export interface TemplateRecord extends RecordBase {
  kind: 'fingerprint' | 'face' | 'fingervein';
  pin: string;
  fid: number;
  valid: number | null;
  template: string;
}

/** BIODATA unified template (any biometric type). */
export interface BiodataRecord extends RecordBase {
  kind: 'biodata';
  pin: string;
  no: number;
  index: number;
  valid: number | null;
  duress: number | null;
  /** Biometric type index (1 fingerprint, 2 NIR face, 9 visible-light face, …). */
  type: number;
  majorVer: string | null;
  minorVer: string | null;
  /** `0` ZK / `1` ISO / `2` ANSI, or the text `ZK` some firmware writes. */
  format: string | null;
  template: string;
}

/** USERPIC (user photo) and BIOPHOTO (comparison photo), base64 content. */
export interface PhotoRecord extends RecordBase {
  kind: 'userpic' | 'biophoto';
  pin: string;
  fileName: string | null;
  /** BIOPHOTO only: biometric type index. */
  type: number | null;
  content: string;
}

/** IDCARD, ERRORLOG and other key=value records this layer does not type further. */
export interface OtherRecord extends RecordBase {
  kind: 'other';
  tag: string;
}

export type OperlogRecord = OplogRecord | UserRecord | TemplateRecord | BiodataRecord | PhotoRecord | OtherRecord;

export interface OperlogParseResult {
  records: OperlogRecord[];
  errors: LineError[];
}

const OTHER_TAGS = new Set(['IDCARD', 'ERRORLOG', 'WORKCODE', 'SMS', 'USER_SMS']);

/**
 * Parse an OPERLOG body (mixed OPLOG/USER/FP/FACE/FVEIN/USERPIC/BIOPHOTO/BIODATA/… records).
 * Tags are matched case-insensitively, keys too. Bad lines go to `errors`; never throws.
 */
export function parseOperlog(body: BodyInput, options?: DecodeOptions): OperlogParseResult {
  return parseTagged(body, options, null);
}

/** Parse a `table=BIODATA` body: only `BIODATA …` records are accepted. */
export function parseBiodata(body: BodyInput, options?: DecodeOptions): { records: BiodataRecord[]; errors: LineError[] } {
  const { records, errors } = parseTagged(body, options, 'BIODATA');
  return { records: records as BiodataRecord[], errors };
}

function parseTagged(body: BodyInput, options: DecodeOptions | undefined, onlyTag: string | null): OperlogParseResult {
  const records: OperlogRecord[] = [];
  const errors: LineError[] = [];
  for (const { line, text } of splitLines(bodyText(body, options), errors)) {
    const result = parseOperlogLine(text, line, onlyTag);
    if (typeof result === 'string') errors.push({ line, text, reason: result });
    else records.push(result);
  }
  return { records, errors };
}

function parseOperlogLine(text: string, line: number, onlyTag: string | null): OperlogRecord | string {
  const space = text.indexOf(' ');
  const firstTab = text.indexOf('\t');
  let tag: string;
  let rest: string;
  if (/^pin=/i.test(text)) {
    // MB560-VL sends user records without the `USER ` tag.
    tag = 'USER';
    rest = text;
  } else {
    if (space <= 0 || (firstTab >= 0 && firstTab < space)) return 'missing record tag (expected e.g. "USER " or "OPLOG ")';
    tag = text.slice(0, space).toUpperCase();
    rest = text.slice(space + 1);
  }
  if (onlyTag !== null && tag !== onlyTag) return `unexpected record tag ${JSON.stringify(text.slice(0, space))} in a ${onlyTag} upload`;
  if (tag === 'OPLOG') return parseOplog(rest, line);
  const isKnown = ['USER', 'FP', 'FACE', 'FVEIN', 'BIODATA', 'USERPIC', 'BIOPHOTO'].includes(tag) || OTHER_TAGS.has(tag);
  if (!isKnown) return `unknown record tag ${JSON.stringify(text.slice(0, space))}`;
  const kv = parseKeyValueFields(splitFields(rest));
  if (typeof kv === 'string') return kv;
  return typedRecord(tag, kv, line);
}

function parseOplog(rest: string, line: number): OplogRecord | string {
  const fields = splitFields(rest);
  if (fields.length === 1 && / \d{4}-\d{2}-\d{2} /.test(rest)) return 'fields are separated by spaces, not TABs (TABs expanded by a log?)';
  const [opType = '', operator = '', time = '', ...objects] = fields;
  const op = parseIntStrict(opType);
  if (op === null) return `non-numeric OPLOG operation code ${JSON.stringify(opType)}`;
  if (fields.length < 3) return `record cut short: OPLOG has ${fields.length} fields, need at least 3 (op, operator, time)`;
  const parsed = parseLocalTime(time);
  if (!parsed.ok) return `bad date: ${parsed.reason}`;
  while (objects.length > 0 && objects[objects.length - 1] === '') objects.pop();
  return { kind: 'oplog', line, opType: op, operator, localTime: time.replace('T', ' '), objects };
}

const optional = (kv: KeyValueFields, key: string): string | null => kv.map.get(key) ?? null;
const optionalInt = (kv: KeyValueFields, key: string): number | null => {
  const v = kv.map.get(key);
  return v === undefined ? null : parseIntStrict(v);
};

function requireInt(kv: KeyValueFields, key: string, label: string): number | string {
  const v = kv.map.get(key);
  if (v === undefined) return `missing ${label}`;
  const n = parseIntStrict(v);
  return n === null ? `non-numeric ${label} ${JSON.stringify(v)}` : n;
}

function typedRecord(tag: string, kv: KeyValueFields, line: number): OperlogRecord | string {
  const fields = fieldsObject(kv.map);
  const pin = kv.map.get('pin');
  if (OTHER_TAGS.has(tag)) return { kind: 'other', tag, line, fields };
  if (pin === undefined || pin === '') return 'missing PIN';
  if (/[\s\x00-\x1f]/.test(pin)) return `PIN ${JSON.stringify(pin)} contains whitespace or control characters`;
  switch (tag) {
    case 'USER':
      return {
        kind: 'user',
        line,
        fields,
        pin,
        name: optional(kv, 'name'),
        privilege: optionalInt(kv, 'pri'),
        password: optional(kv, 'passwd'),
        card: optional(kv, 'card'),
        group: optional(kv, 'grp'),
        timeZones: optional(kv, 'tz'),
        verify: optional(kv, 'verify'),
      };
    case 'FP':
    case 'FACE':
    case 'FVEIN': {
      const fid = requireInt(kv, 'fid', 'FID');
      if (typeof fid === 'string') return fid;
      const template = kv.map.get('tmp') ?? '';
      const bad = base64PayloadError('TMP', template, kv.map.get('size'));
      if (bad) return bad;
      const kind = tag === 'FP' ? 'fingerprint' : tag === 'FACE' ? 'face' : 'fingervein';
      return { kind, line, fields, pin, fid, valid: optionalInt(kv, 'valid'), template };
    }
    case 'BIODATA':
      return biodataRecord(kv, line, pin);
    default: {
      // USERPIC / BIOPHOTO
      const content = kv.map.get('content') ?? '';
      const bad = base64PayloadError('Content', content, kv.map.get('size'));
      if (bad) return bad;
      return {
        kind: tag === 'USERPIC' ? 'userpic' : 'biophoto',
        line,
        fields,
        pin,
        fileName: optional(kv, 'filename'),
        type: optionalInt(kv, 'type'),
        content,
      };
    }
  }
}

/** Shared with the access-control `biodata` table, which uses the same keys in lower case. */
export function biodataRecord(kv: KeyValueFields, line: number, pin: string): BiodataRecord | string {
  const no = requireInt(kv, 'no', 'No');
  if (typeof no === 'string') return no;
  const type = requireInt(kv, 'type', 'Type');
  if (typeof type === 'string') return type;
  const template = kv.map.get('tmp') ?? '';
  const bad = base64PayloadError('Tmp', template, kv.map.get('size'));
  if (bad) return bad;
  return {
    kind: 'biodata',
    line,
    fields: fieldsObject(kv.map),
    pin,
    no,
    index: optionalInt(kv, 'index') ?? 0,
    valid: optionalInt(kv, 'valid'),
    duress: optionalInt(kv, 'duress'),
    type,
    majorVer: optional(kv, 'majorver'),
    minorVer: optional(kv, 'minorver'),
    format: optional(kv, 'format'),
    template,
  };
}
