// Command results (`POST /iclock/devicecmd`): `ID=<id>&Return=<rc>&CMD=<desc>[&k=v…]` per line.
import { type BodyInput, type DecodeOptions, type LineError, bodyText, parseIntStrict, splitLines } from './records';

export interface CommandResult {
  /** 1-based line where the result starts. */
  line: number;
  /** Command id as echoed (alphanumeric ids exist: `info8487`). Match on (SN, id), never position. */
  id: string;
  /** `Return` code: ≥ 0 success (row count for queries), < 0 failure, -5000 pending on a sub-controller. */
  returnCode: number;
  /** `CMD` echo: `DATA` on attendance firmware, the full description (`CONTROL DEVICE`) on access firmware. */
  cmd: string;
  /** Sub-controller serial (`&SN=` on access panels). */
  sn?: string;
  /** Every other key with the device's spelling (INFO extras such as `~DeviceName`, `Content`, `AttlogSum`). */
  fields: Record<string, string>;
}

export interface CommandResultsParseResult {
  results: CommandResult[];
  errors: LineError[];
}

interface Pending {
  line: number;
  text: string;
  id: string;
  values: Map<string, string>;
  fields: Record<string, string>;
  lastKey: string | null;
}

const KEY = /^[~A-Za-z_][\w.~-]*$/;

/**
 * The photo-enrolment codes (`D01E0001`…: no face, face covered, ..., ATT-DOC appendix 9) are
 * written in hexadecimal; they become their signed 32-bit value, negative like every failure.
 */
function photoReturnCode(text: string): number | null {
  return /^[Dd]01[Ee][0-9A-Fa-f]{4}$/.test(text.trim()) ? parseInt(text.trim(), 16) | 0 : null;
}

/**
 * Parse a devicecmd body. Handles several results per body (one per line), lines without `ID=`
 * that continue the previous result (INFO extras, one-key-per-line Shell/GetFile results), the
 * lower-case `return` spelling and `&SN=`. A line that is not `key=value` continues the previous
 * value (multi-line Shell output). Never throws.
 */
export function parseCommandResults(body: BodyInput, options?: DecodeOptions): CommandResultsParseResult {
  const results: CommandResult[] = [];
  const errors: LineError[] = [];
  let current: Pending | null = null;

  const finish = (): void => {
    if (!current) return;
    const p: Pending = current;
    current = null;
    const rc = p.values.get('return');
    if (rc === undefined) return void errors.push({ line: p.line, text: p.text, reason: `result ${p.id} has no Return=` });
    const returnCode = parseIntStrict(rc) ?? photoReturnCode(rc);
    if (returnCode === null) return void errors.push({ line: p.line, text: p.text, reason: `result ${p.id}: non-numeric Return ${JSON.stringify(rc)}` });
    const result: CommandResult = { line: p.line, id: p.id, returnCode, cmd: p.values.get('cmd') ?? '', fields: p.fields };
    const sn = p.values.get('sn');
    if (sn !== undefined) result.sn = sn;
    results.push(result);
  };

  const add = (p: Pending, key: string, value: string): void => {
    const lower = key.toLowerCase();
    if (['return', 'cmd', 'sn'].includes(lower) && !p.values.has(lower)) p.values.set(lower, value);
    else p.fields[key] = value;
    p.lastKey = key;
  };

  for (const { line, text } of splitLines(bodyText(body, options), errors)) {
    if (/^id=/i.test(text)) {
      finish();
      const pairs = text.split(/&(?=[~A-Za-z_][\w.~-]*=)/);
      const id = pairs[0]!.slice(3);
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
        errors.push({ line, text, reason: `bad command id ${JSON.stringify(id)}` });
        continue;
      }
      const pending: Pending = { line, text, id, values: new Map(), fields: {}, lastKey: null };
      current = pending;
      for (const pair of pairs.slice(1)) {
        const at = pair.indexOf('=');
        add(pending, pair.slice(0, at), pair.slice(at + 1));
      }
      continue;
    }
    const p = current as Pending | null;
    if (!p) {
      errors.push({ line, text, reason: 'line before any ID= result' });
      continue;
    }
    const at = text.indexOf('=');
    const key = at > 0 ? text.slice(0, at) : '';
    if (at > 0 && KEY.test(key)) add(p, key, text.slice(at + 1));
    else if (p.lastKey !== null && p.lastKey in p.fields) p.fields[p.lastKey] += `\n${text}`;
    else errors.push({ line, text, reason: 'continuation line is not key=value' });
  }
  finish();
  return { results, errors };
}
