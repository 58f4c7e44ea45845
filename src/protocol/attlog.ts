// ATTLOG upload (attendance PUSH, `POST /iclock/cdata?table=ATTLOG`): positional TAB-separated punches.
import { type BodyInput, type DecodeOptions, type LineError, bodyLines, splitFields } from './records';
import { implausibleTime, parseLocalTime } from './time';

export interface AttlogRecord {
  /** 1-based line number in the body. */
  line: number;
  /** User PIN as sent (alphanumeric PINs exist). */
  pin: string;
  /** Device wall-clock time `YYYY-MM-DD HH:MM:SS`, validated, no zone. */
  localTime: string;
  /**
   * Attendance state (0 check-in, 1 check-out, … configurable per device); null when not a number.
   * 0 when the line has no state (`PIN\tTIME` only, or an empty field): the state a terminal without
   * state keys records.
   */
  status: number | null;
  /** The status field as sent (a firmware may send a letter: the punch is kept with it); '' when absent. */
  statusRaw: string;
  /** Verify mode code, see `verifyTypeName()`; null when not a number or not sent (`verifyRaw` is then ''). */
  verify: number | null;
  /** The verify field as sent; '' when absent. */
  verifyRaw: string;
  /** Field 5; often empty. */
  workCode: string;
  /** Fields 6+ (reserved and firmware extras), with trailing empty fields from trailing TABs removed. */
  extras: string[];
}

export interface AttlogParseResult {
  records: AttlogRecord[];
  errors: LineError[];
}

/** A slice of an ATTLOG body; `last` when no slice follows it. */
export interface AttlogChunk extends AttlogParseResult {
  last: boolean;
}

const PIN = /^[^\s\x00-\x1f\x7f]{1,64}$/;
const DIGITS = /^\d{1,9}$/;

/**
 * Parse an ATTLOG body (PIN and time required; state, verify mode and the rest optional). Each bad line is reported in `errors` with a precise reason and the good
 * lines are kept; never throws. Tolerates CR LF, trailing TABs, missing final LF, extra columns.
 */
export function parseAttlog(body: BodyInput, options?: DecodeOptions): AttlogParseResult {
  const records: AttlogRecord[] = [];
  const errors: LineError[] = [];
  for (const chunk of parseAttlogChunks(body, Infinity, options)) {
    records.push(...chunk.records);
    errors.push(...chunk.errors);
  }
  return { records, errors };
}

/**
 * `parseAttlog` a slice of `chunkLines` lines at a time: a 200,000-line upload is parsed and stored
 * slice by slice, and the caller yields between them, so other requests are served meanwhile.
 */
export function* parseAttlogChunks(body: BodyInput, chunkLines: number, options?: DecodeOptions): Generator<AttlogChunk> {
  let records: AttlogRecord[] = [];
  let errors: LineError[] = [];
  let taken = 0;
  // Refused lines (NUL bytes) go to the slice being read, in line order with the others.
  for (const { line, text } of bodyLines(body, options, { push: (error) => errors.push(error) })) {
    if (taken === chunkLines) {
      yield { records, errors, last: false };
      records = [];
      errors = [];
      taken = 0;
    }
    const result = parseAttlogLine(line, text);
    if (typeof result === 'string') errors.push({ line, text, reason: result });
    else records.push(result);
    taken++;
  }
  yield { records, errors, last: true };
}

/** The record of one line, or why it was refused. Fields are read by index: this runs once per uploaded punch. */
function parseAttlogLine(line: number, text: string): AttlogRecord | string {
  const fields = splitFields(text);
  if (fields.length === 1) {
    if (/^\S+ +\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} +\d/.test(text)) {
      return 'fields are separated by spaces, not TABs (TABs expanded by a log?)';
    }
    return 'not an ATTLOG record: no TAB-separated fields';
  }
  const pin = fields[0] ?? '';
  const time = fields[1] ?? '';
  const status = fields[2] ?? '';
  const verify = fields[3] ?? '';
  const workCode = fields[4] ?? '';
  if (pin === '') return 'missing PIN (field 1 empty)';
  if (!PIN.test(pin)) return `PIN ${JSON.stringify(pin)} contains whitespace or control characters`;
  if (time === '') return 'missing time (field 2 empty)';
  const parsedTime = parseLocalTime(time);
  if (!parsedTime.ok) return `bad date: ${parsedTime.reason}`;
  const implausible = implausibleTime(parsedTime.value);
  if (implausible) return `bad date: ${implausible}`;
  // PIN and time make a punch: a line without state or verify mode (some firmware writes only the
  // two) is kept, with state 0 and no verify mode, rather than losing a real punch.
  // A status or verify mode that is not a number is still a punch: kept with the raw value.
  const extras = fields.length > 5 ? fields.slice(5) : [];
  while (extras.length > 0 && extras[extras.length - 1] === '') extras.pop();
  return {
    line,
    pin,
    localTime: time.replace('T', ' '),
    status: status === '' ? 0 : DIGITS.test(status) ? Number(status) : null,
    statusRaw: status,
    verify: DIGITS.test(verify) ? Number(verify) : null,
    verifyRaw: verify,
    workCode,
    extras,
  };
}
