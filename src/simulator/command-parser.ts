// Reads the commands a server hands out in a poll reply: `C:<id>:<description>` lines joined by
// LF. A line that does not start with `C:` continues the previous command (the extra
// records of a multi-record `DATA UPDATE`). Field values are split on TAB only, key from value on
// the first `=`, because names contain spaces and template base64 contains `=`.

export interface ParsedCommand {
  id: string;
  /** Everything after `C:<id>:`, continuation lines included (LF-joined). */
  text: string;
  /** Upper-cased command verb: `DATA UPDATE`, `DATA DELETE`, `CONTROL DEVICE`, `REBOOT`, `SET OPTION`, ... */
  verb: string;
  /** Table of a `DATA` command as sent (`USERINFO`, `user`, `templatev10`, ...). */
  table?: string;
  /** Text after the verb (and table): the operand, e.g. `01010105` for `CONTROL DEVICE`. */
  operand: string;
  /** TAB-separated `key=value` records of a `DATA` command, keys lower-cased. */
  records: Array<Map<string, string>>;
  /** `DATA DELETE <table> *`: every record. */
  matchAll: boolean;
}

const TWO_WORD_VERBS = new Set([
  'CONTROL DEVICE',
  'SET OPTION',
  'SET OPTIONS',
  'GET OPTIONS',
  'RELOAD OPTIONS',
  'VERIFY SUM',
  'CLEAR LOG',
  'CLEAR PHOTO',
  'CLEAR DATA',
  'CLEAR BIODATA',
]);

export function parseFields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split('\t')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\r$/, ''));
  }
  return out;
}

export function parseCommand(id: string, text: string): ParsedCommand {
  const [head = '', ...more] = text.split('\n');
  const words = head.split(' ');
  const first = (words[0] ?? '').toUpperCase();
  if (first === 'DATA' && words.length >= 3) {
    const verb = `DATA ${words[1]!.toUpperCase()}`;
    const tableAndRest = words.slice(2).join(' ');
    // the table name ends at the first space or TAB
    const m = /^([^ \t]+)[ \t]?([\s\S]*)$/.exec(tableAndRest)!;
    const table = m[1]!;
    const operand = m[2]!;
    const bodies = [operand, ...more.map((l) => (l.startsWith(`${table} `) ? l.slice(table.length + 1) : l))];
    const matchAll = operand.trim() === '*';
    const records = matchAll ? [] : bodies.filter((b) => b.trim() !== '').map(parseFields);
    return { id, text, verb, table, operand, records, matchAll };
  }
  const two = `${first} ${(words[1] ?? '').toUpperCase()}`;
  const verbWords = TWO_WORD_VERBS.has(two) ? 2 : 1;
  const verb = verbWords === 2 ? two : first;
  const operand = words.slice(verbWords).join(' ');
  return { id, text, verb, operand, records: [], matchAll: false };
}

/** All commands of a poll reply; `OK` (nothing queued) gives none. */
export function parseCommandReply(body: string): ParsedCommand[] {
  const commands: Array<{ id: string; lines: string[] }> = [];
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const m = /^C:([^:]+):(.*)$/.exec(line);
    if (m) commands.push({ id: m[1]!, lines: [m[2]!] });
    else if (commands.length > 0 && line !== '') commands[commands.length - 1]!.lines.push(line);
  }
  return commands.map((c) => parseCommand(c.id, c.lines.join('\n')));
}
