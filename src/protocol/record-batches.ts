// Multi-record `DATA UPDATE` / `DATA DELETE` commands. The grammar takes many rows of one table in
// one command: the first record follows the table name, each further record goes on its own line
// (LF, no prefix) — the Security PUSH document, section 12.1.1 (UPDATE: "multi-record format") and
// 12.1.2 (DELETE: several conditions separated by LF); one result (`Return`) answers the command.
// The Attendance PUSH document states it only for `DATA UPDATE` of USERINFO, FINGERTMP, FACE,
// USERPIC and BIOPHOTO; its BIODATA, AccTimeZone and every DELETE take one record.
//
// A command must fit what the terminal receives at once (`MaxPackageSize` of its registry: "the
// maximum size of a communication package"); a poll's reply carries several commands, so each
// gets its share. Pure: records in, commands out.

export type RecordFamily = 'access' | 'attendance';

/** Attendance tables whose `DATA UPDATE` the document lets carry several records. */
const ATTENDANCE_MULTI_RECORD_UPDATES = new Set(['USERINFO', 'FINGERTMP', 'FACE', 'USERPIC', 'BIOPHOTO']);

/** The package assumed when a terminal reports no `MaxPackageSize` (8 KiB per command at 5 commands a poll). */
export const DEFAULT_PACKAGE_BYTES = 40 * 1024;
/** No command grows beyond this, whatever the terminal reports (vendor samples report 2,048,000). */
export const MAX_COMMAND_BYTES = 64 * 1024;
/** `C:` + the longest command id (16) + `:` and the LF between commands: what the wire adds to a command. */
const LINE_OVERHEAD_BYTES = 2 + 16 + 1 + 1;

/** One record as its own command text (`DATA UPDATE user Pin=1\t…`), built by the command builders. */
export interface RecordCommand<T> {
  command: string;
  /** What the caller needs back (the row and step the record belongs to). */
  item: T;
}

/** A command to queue: several records of one table, or one record alone (then `command` is the record's own text). */
export interface PackedCommand<T> {
  command: string;
  items: T[];
}

interface SplitRecord {
  /** `DATA UPDATE user` — what every record of one command shares. */
  header: string;
  /** The records a command may mix (biodata: one template type per command, section 12.1.1.32). */
  key: string;
  /** The record itself: `Pin=1\tName=…`. */
  body: string;
}

/**
 * The header and body of a record command, when the family's document lets it share a command
 * with others of its table; null when it must go alone (other verbs, `*` deletes, attendance
 * tables without a multi-record form).
 */
export function splitRecordCommand(family: RecordFamily, command: string): SplitRecord | null {
  const match = /^DATA (UPDATE|DELETE) ([A-Za-z0-9_]+) ([^\n]*)$/.exec(command);
  if (!match) return null;
  const [, verb, table, body] = match as unknown as [string, string, string, string];
  if (body.trim() === '' || body.trim() === '*') return null;
  if (family === 'attendance' && !(verb === 'UPDATE' && ATTENDANCE_MULTI_RECORD_UPDATES.has(table))) return null;
  const header = `DATA ${verb} ${table}`;
  const type = table.toLowerCase() === 'biodata' ? (/(?:^|\t)Type=(\d+)/i.exec(body)?.[1] ?? '') : '';
  return { header, key: type ? `${header} Type=${type}` : header, body };
}

/**
 * The bytes one command may take on a terminal: its `MaxPackageSize` shared among the commands of
 * one poll's reply, at most MAX_COMMAND_BYTES; DEFAULT_PACKAGE_BYTES shared when it reports none
 * (attendance terminals never do: their documents name no limit, so a conservative reply size).
 */
export function commandByteBudget(maxPackageSize: string | number | null | undefined, commandsPerPoll: number): number {
  const reported = Number(maxPackageSize);
  const packageBytes =
    maxPackageSize !== null && maxPackageSize !== undefined && String(maxPackageSize).trim() !== '' && Number.isInteger(reported) && reported > 0
      ? reported
      : DEFAULT_PACKAGE_BYTES;
  return Math.min(MAX_COMMAND_BYTES, Math.floor(packageBytes / Math.max(1, commandsPerPoll)));
}

/** Bytes a command takes on the wire, `C:<id>:` and its LF included. */
export function commandWireBytes(command: string): number {
  return Buffer.byteLength(command, 'utf8') + LINE_OVERHEAD_BYTES;
}

/**
 * Packs record commands into multi-record commands of at most `maxBytes` on the wire.
 *
 * `sequences` are independent ordered lists (one person's records, in the order they must reach
 * the terminal: time zones before the authorisations naming them, a user's authorisations and
 * templates before the user is deleted). The order inside each sequence is kept: the packer
 * works in rounds, each round taking the table of the first unfinished sequence's next record and
 * collecting, from every sequence, the run of next records of that same table. A command never
 * mixes tables (or biodata types), never splits a record, and a record too big for a command of
 * its own still goes, alone. A record that cannot share a command goes alone, in its place.
 */
export function packRecordCommands<T>(family: RecordFamily, sequences: ReadonlyArray<ReadonlyArray<RecordCommand<T>>>, maxBytes: number): PackedCommand<T>[] {
  const split = sequences.map((sequence) => sequence.map((record) => ({ record, split: splitRecordCommand(family, record.command) })));
  const next = split.map(() => 0);
  const out: PackedCommand<T>[] = [];
  for (let first = 0; first < split.length;) {
    if (next[first]! >= split[first]!.length) {
      first++;
      continue;
    }
    const head = split[first]![next[first]!]!;
    if (!head.split) {
      out.push({ command: head.record.command, items: [head.record.item] });
      next[first]!++;
      continue;
    }
    const key = head.split.key;
    const round: Array<{ record: RecordCommand<T>; split: SplitRecord }> = [];
    for (let s = first; s < split.length; s++) {
      for (let at = next[s]!; at < split[s]!.length && split[s]![at]!.split?.key === key; at++) {
        round.push(split[s]![at]! as { record: RecordCommand<T>; split: SplitRecord });
        next[s]!++;
      }
    }
    out.push(...chunk(round, maxBytes));
  }
  return out;
}

/** Consecutive records of one table into commands of at most `maxBytes` on the wire. */
function chunk<T>(records: ReadonlyArray<{ record: RecordCommand<T>; split: SplitRecord }>, maxBytes: number): PackedCommand<T>[] {
  const out: PackedCommand<T>[] = [];
  let bodies: string[] = [];
  let items: T[] = [];
  let bytes = 0;
  const flush = () => {
    if (items.length === 1) out.push({ command: `${records[0]!.split.header} ${bodies[0]}`, items });
    else if (items.length > 1) out.push({ command: `${records[0]!.split.header} ${bodies.join('\n')}`, items });
    bodies = [];
    items = [];
  };
  for (const { record, split } of records) {
    const body = Buffer.byteLength(split.body, 'utf8');
    // The first record pays for the header, each further one for its LF.
    const grown = items.length === 0 ? commandWireBytes(split.header) + 1 + body : bytes + 1 + body;
    if (items.length > 0 && grown > maxBytes) {
      flush();
      bytes = commandWireBytes(split.header) + 1 + body;
    } else bytes = grown;
    bodies.push(split.body);
    items.push(record.item);
  }
  flush();
  return out;
}

/** The records of a multi-record command, each as its own command (what a refused command is retried as). */
export function unpackRecordCommand(command: string): string[] {
  const [head = '', ...more] = command.split('\n');
  if (more.length === 0) return [command];
  const header = /^DATA (?:UPDATE|DELETE) [A-Za-z0-9_]+ /.exec(head)?.[0];
  if (!header) return [command];
  return [head, ...more.map((body) => header + body)];
}

/**
 * Whether a command's further lines are records of a multi-record DATA command: each a
 * `Key=value…` record, so none can start another command (`C:…`) on the wire.
 */
export function isMultiRecordCommand(command: string): boolean {
  const [head = '', ...more] = command.split('\n');
  return more.length > 0 && /^DATA (?:UPDATE|DELETE) [A-Za-z0-9_]+ [A-Za-z]/.test(head) && more.every((line) => /^[A-Za-z][A-Za-z0-9]*=/.test(line));
}
