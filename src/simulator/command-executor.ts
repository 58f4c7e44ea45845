// Executes one server command against the terminal's record store and says what to answer.
// Pure apart from the store it is given: no I/O, so each verb is unit-tested on its own.
// Return codes follow the two PUSH documents (ATT-DOC for attendance, SEC-DOC for security); tables a family does not have are
// refused with -1004, unknown verbs with -1002, as current firmware does.
import { decodeZkTime } from '../protocol';
import { parseFields, type ParsedCommand } from './command-parser';
import { createHash } from 'node:crypto';
import type { LogRecord, RecordStore, TemplateRecord } from './record-store';
import { fakeTemplate } from './wire-format';
import { accUserLine } from './record-lines';

export type TerminalFamily = 'att' | 'acc';

export const RC_OK = 0;
export const RC_PARAM_ERROR = -1;
export const RC_TEMPLATE_SIZE_MISMATCH = -9;
export const RC_BAD_PARAMS = -11;
export const RC_PHOTO_SIZE_MISMATCH = -2;
export const RC_NOT_SUPPORTED = -1002;
export const RC_TABLE_NOT_SUPPORTED = -1004;

export interface ExecutionContext {
  family: TerminalFamily;
  store: RecordStore;
  /** Current device local time, formatted for the wire (used to stamp door events). */
  now(): string;
  /** `key=value` lines a terminal appends after an `INFO` result (fx 15). */
  infoLines(): string[];
  /** Security PUSH: every parameter the terminal can answer to `GET OPTIONS` (its registry and inventory keys). */
  optionPairs?(): Array<[string, string]>;
  /** Attendance terminals: holds the PUSH 2.x access settings (`AccTimeZone`); false answers -1004 like firmware without them. */
  accessTables?: boolean;
  /** Photos: which the terminal takes, and its answer to a comparison photo (`0` or a code such as `D01E0001`). */
  photos?: { visibleFace: 'photo' | 'template' | 'none'; userPhoto: boolean; faceVersion: string; enrollResult(pin: string): string };
}

/** What the terminal does once the results are posted. */
export type CommandEffect = 'none' | 'reboot' | 'recheck' | 'upload-now';

export interface CommandOutcome {
  /** The Return value: a number, or the hexadecimal photo codes (`D01E0001`). */
  rc: number | string;
  /** The `CMD=` echo of the result line. */
  echo: string;
  extraLines: string[];
  effect: CommandEffect;
  /** Log records the command created (door events) that must be uploaded. */
  newLog: LogRecord[];
  /** Users or templates changed: the next poll reports fresh INFO counters. */
  dataChanged: boolean;
  /** Stored log records the command asks to upload again (`DATA QUERY ATTLOG`). */
  resend?: LogRecord[];
  /** Pins of users the command asks to upload again (`DATA QUERY USERINFO`). */
  resendUsers?: string[];
  /** `SET OPTIONS DateTime=<ZK seconds>`: the local wall time the clock was set to, read as if UTC. */
  clockSetTo?: Date;
  /** Templates the terminal made (a face enrolled from a photo with `PostBackTmpFlag=1`), to upload. */
  newTemplates?: TemplateRecord[];
  /** Security PUSH `DATA QUERY tablename=…` / `GET OPTIONS`: what to post to `/iclock/querydata` before the result. */
  queryAnswer?: { table: string; lines: string[]; type?: 'tabledata' | 'options' };
}

/** Attendance echoes only `DATA` for data commands (fx 12, 31); security echoes the full verb (fx 39). */
export function commandEcho(family: TerminalFamily, verb: string): string {
  if (family === 'acc') return verb;
  if (verb.startsWith('DATA ')) return 'DATA';
  if (/^CLEAR (LOG|PHOTO|DATA|BIODATA)$/.test(verb)) return verb.replace(' ', '_');
  return verb;
}

const int = (value: string | undefined, fallback: number): number => {
  const n = value === undefined || value.trim() === '' ? NaN : Number(value);
  return Number.isInteger(n) ? n : fallback;
};

/** Biometric type of each attendance template table. */
const ATT_TEMPLATE_TYPES: Record<string, number> = { FINGERTMP: 1, FACE: 2 };

export function executeCommand(ctx: ExecutionContext, cmd: ParsedCommand): CommandOutcome {
  const outcome: CommandOutcome = {
    rc: RC_OK,
    echo: commandEcho(ctx.family, cmd.verb),
    extraLines: [],
    effect: 'none',
    newLog: [],
    dataChanged: false,
  };
  switch (cmd.verb) {
    case 'DATA UPDATE':
    case 'DATA DELETE': {
      const table = (cmd.table ?? '').toLowerCase();
      if (table === 'biophoto' || table === 'userpic') outcome.rc = photoData(ctx, cmd.verb === 'DATA UPDATE', table, cmd, outcome);
      else if (ctx.family === 'att' && table === 'acctimezone')
        outcome.rc = ctx.accessTables === false ? RC_TABLE_NOT_SUPPORTED : accTimeZoneData(ctx.store, cmd.verb === 'DATA UPDATE', cmd);
      else {
        const run = ctx.family === 'att' ? attendanceData : accessData;
        outcome.rc = run(ctx.store, cmd.verb === 'DATA UPDATE', table, cmd);
      }
      outcome.dataChanged = outcome.rc === RC_OK;
      break;
    }
    case 'CONTROL DEVICE':
      if (ctx.family !== 'acc') outcome.rc = RC_NOT_SUPPORTED;
      else controlDevice(ctx, cmd.operand.trim(), outcome);
      break;
    case 'AC_UNLOCK':
      openDoor(ctx, 1, outcome);
      break;
    case 'REBOOT':
      outcome.effect = 'reboot';
      break;
    case 'CHECK':
      outcome.effect = 'recheck';
      break;
    case 'LOG':
      outcome.effect = 'upload-now';
      break;
    case 'INFO':
      // An attendance verb: access controllers do not know it (Security PUSH has GET OPTIONS).
      if (ctx.family === 'acc') outcome.rc = RC_NOT_SUPPORTED;
      else outcome.extraLines = ctx.infoLines();
      break;
    case 'GET OPTIONS': {
      // Security PUSH section 12.5.2: the values go to /iclock/querydata (type=options), then Return=0.
      if (ctx.family !== 'acc') {
        outcome.rc = RC_NOT_SUPPORTED;
        break;
      }
      const known = new Map((ctx.optionPairs?.() ?? []).map(([k, v]) => [k.replace(/^~/, '').toLowerCase(), [k, v] as const]));
      const pairs = cmd.operand
        .split(',')
        .map((k) => known.get(k.trim().replace(/^~/, '').toLowerCase()))
        .filter((p) => p !== undefined);
      outcome.queryAnswer = { table: 'options', type: 'options', lines: [pairs.map(([k, v]) => `${k}=${v}`).join(',')] };
      break;
    }
    case 'SET OPTIONS':
    case 'SET OPTION': {
      // The clock (`DateTime=<ZK-encoded local seconds>`) is set; access controllers keep every other
      // parameter (`AntiPassback`, `InterLock`…) for the door rules they enforce (door-rules.ts).
      if (ctx.family === 'acc') {
        for (const pair of cmd.operand.split(',')) {
          const eq = pair.indexOf('=');
          if (eq > 0 && pair.slice(0, eq).trim() !== 'DateTime') ctx.store.parameters.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
        }
      }
      const match = /(?:^|,)\s*DateTime=(\d+)/.exec(cmd.operand);
      if (match) {
        const t = decodeZkTime(Number(match[1]));
        outcome.clockSetTo = new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second));
      }
      break;
    }
    case 'CLEAR LOG':
      // Every attendance record is gone from the terminal (its counters follow).
      if (ctx.family !== 'att') outcome.rc = RC_NOT_SUPPORTED;
      else {
        ctx.store.log.length = 0;
        outcome.dataChanged = true;
      }
      break;
    case 'DATA QUERY': {
      const accessTable = /^tablename=(\w+)/i.exec(cmd.table ?? '')?.[1]?.toLowerCase();
      if (ctx.family === 'acc' && accessTable === 'user') {
        // The user table goes to /iclock/querydata; Return is the number of rows (fx 38).
        const lines = [...ctx.store.users.values()].map(accUserLine);
        outcome.queryAnswer = { table: 'user', lines };
        outcome.rc = lines.length;
        break;
      }
      if (ctx.family === 'att' && (cmd.table ?? '').toUpperCase() === 'USERINFO') {
        // Every user, uploaded again as OPERLOG USER records; Return is how many.
        outcome.resendUsers = [...ctx.store.users.keys()];
        outcome.rc = outcome.resendUsers.length;
        break;
      }
      // Attendance records of a local range, uploaded again as ATTLOG; Return is how many.
      const range = cmd.records[0];
      if (ctx.family !== 'att' || (cmd.table ?? '').toUpperCase() !== 'ATTLOG' || !range?.get('starttime') || !range.get('endtime')) {
        outcome.rc = ctx.family === 'att' ? RC_BAD_PARAMS : RC_NOT_SUPPORTED;
        break;
      }
      const found = recordsBetween(ctx.store, range.get('starttime')!, range.get('endtime')!);
      outcome.rc = found.length;
      outcome.resend = found;
      break;
    }
    case 'VERIFY SUM': {
      // `VERIFY SUM ATTLOG StartTime=…\tEndTime=…`: the count comes back as AttlogSum on the result line.
      const [table = '', ...rest] = cmd.operand.split(' ');
      const fields = parseFields(rest.join(' '));
      if (ctx.family !== 'att' || table.toUpperCase() !== 'ATTLOG' || !fields.get('starttime') || !fields.get('endtime')) {
        outcome.rc = ctx.family === 'att' ? RC_BAD_PARAMS : RC_NOT_SUPPORTED;
        break;
      }
      const count = recordsBetween(ctx.store, fields.get('starttime')!, fields.get('endtime')!).length;
      outcome.echo = `VERIFY SUM&StartTime=${fields.get('starttime')}&EndTime=${fields.get('endtime')}&AttlogSum=${count}`;
      break;
    }
    default:
      outcome.rc = RC_NOT_SUPPORTED;
  }
  return outcome;
}

function attendanceData(store: RecordStore, update: boolean, table: string, cmd: ParsedCommand): number {
  const upper = table.toUpperCase();
  if (upper === 'USERINFO') {
    return eachRecord(cmd, (r) => {
      const pin = r.get('pin');
      if (!pin) return RC_PARAM_ERROR;
      if (!update) {
        store.deleteUser(pin);
        return RC_OK;
      }
      store.upsertUser(pin, {
        name: r.get('name'),
        privilege: r.get('pri'),
        password: r.get('passwd'),
        card: r.get('card'),
        group: r.get('grp'),
        timeZones: r.get('tz'),
        verify: r.get('verify'),
      });
      return RC_OK;
    });
  }
  if (upper in ATT_TEMPLATE_TYPES || upper === 'BIODATA') {
    const fixedType = ATT_TEMPLATE_TYPES[upper];
    return eachRecord(cmd, (r) => {
      const pin = r.get('pin');
      if (!pin) return RC_PARAM_ERROR;
      const type = fixedType ?? int(r.get('type'), update ? 1 : NaN);
      const noKey = upper === 'BIODATA' ? 'no' : 'fid';
      if (!update) {
        const no = r.has(noKey) ? int(r.get(noKey), 0) : undefined;
        store.deleteTemplates(pin, Number.isNaN(type) ? undefined : type, no);
        return RC_OK;
      }
      const tmp = r.get('tmp') ?? '';
      if (tmp === '') return RC_PARAM_ERROR;
      const size = r.get('size');
      if (size !== undefined && int(size, -1) !== tmp.length) return RC_TEMPLATE_SIZE_MISMATCH;
      store.upsertTemplate({
        pin,
        type,
        no: int(r.get(noKey), 0),
        index: int(r.get('index'), 0),
        valid: r.get('valid') ?? '1',
        duress: r.get('duress') ?? '0',
        majorVer: r.get('majorver') ?? (type === 1 ? '10' : '0'),
        minorVer: r.get('minorver') ?? '0',
        format: r.get('format') ?? '0',
        tmp,
      });
      return RC_OK;
    });
  }
  return RC_TABLE_NOT_SUPPORTED;
}

function accessData(store: RecordStore, update: boolean, table: string, cmd: ParsedCommand): number {
  if (!update && cmd.matchAll) {
    if (table === 'user') store.deleteUser('*');
    else if (table === 'userauthorize' || table === 'userauthorized') store.deleteAuthorizations('*');
    else if (table === 'templatev10') store.deleteTemplates('*', 1);
    else if (table === 'biodata') store.deleteTemplates('*');
    else if (table === 'firstcard') store.deleteFirstCards(undefined);
    else if (table === 'multimcard') store.multiCards.clear();
    else return RC_TABLE_NOT_SUPPORTED;
    return RC_OK;
  }
  switch (table) {
    case 'user':
      return eachRecord(cmd, (r) => {
        const pin = r.get('pin');
        if (!pin) return RC_BAD_PARAMS;
        if (!update) store.deleteUser(pin);
        else
          store.upsertUser(pin, {
            card: r.get('cardno'),
            password: r.get('password'),
            group: r.get('group'),
            startTime: r.get('starttime'),
            endTime: r.get('endtime'),
            name: r.get('name'),
            privilege: r.get('privilege'),
          });
        return RC_OK;
      });
    case 'holiday':
      return eachRecord(cmd, (r) => {
        const date = r.get('holiday');
        if (!date) return RC_BAD_PARAMS;
        if (!update) store.holidays.delete(date);
        else store.holidays.set(date, int(r.get('holidaytype'), 1));
        return RC_OK;
      });
    case 'timezone':
      return eachRecord(cmd, (r) => {
        const id = r.get('timezoneid');
        if (!id) return RC_BAD_PARAMS;
        if (!update) store.timezones.delete(id);
        else
          store.timezones.set(
            id,
            new Map([...r].filter(([k]) => k.endsWith('time1') || k.endsWith('time2') || k.endsWith('time3')).map(([k, v]) => [k, int(v, 0)])),
          );
        return RC_OK;
      });
    case 'userauthorize':
    case 'userauthorized':
      return eachRecord(cmd, (r) => {
        const pin = r.get('pin');
        if (!pin) return RC_BAD_PARAMS;
        if (!update) store.deleteAuthorizations(pin, r.get('authorizetimezoneid'));
        else
          store.upsertAuthorization({
            pin,
            timezoneId: r.get('authorizetimezoneid') ?? r.get('authorizedtimezoneid') ?? '1',
            doorId: r.get('authorizedoorid') ?? r.get('authorizeddoorid') ?? '1',
            devId: r.get('devid') ?? '1',
          });
        return RC_OK;
      });
    case 'firstcard':
      // Pin, DoorID, TimezoneID; a delete by DoorID (every row of the door) or by Pin and DoorID.
      return eachRecord(cmd, (r) => {
        const door = int(r.get('doorid'), 0);
        if (!update) {
          if (door === 0 && !r.has('pin')) return RC_BAD_PARAMS;
          store.deleteFirstCards(door || undefined, r.get('pin'));
          return RC_OK;
        }
        const pin = r.get('pin');
        const timezoneId = r.get('timezoneid');
        if (!pin || door < 1 || !timezoneId) return RC_BAD_PARAMS;
        store.upsertFirstCard({ pin, door, timezoneId });
        return RC_OK;
      });
    case 'multimcard':
      // Index, DoorId, Group1…Group5 (0: no person); deleted by DoorId or Index.
      return eachRecord(cmd, (r) => {
        const index = r.get('index');
        const door = int(r.get('doorid'), 0);
        if (!update) {
          if (!index && door === 0) return RC_BAD_PARAMS;
          for (const [key, row] of store.multiCards) if ((!index || key === index) && (door === 0 || row.door === door)) store.multiCards.delete(key);
          return RC_OK;
        }
        const groups = [1, 2, 3, 4, 5].map((n) => int(r.get(`group${n}`), 0)).filter((g) => g > 0);
        if (!index || door < 1 || groups.length === 0) return RC_BAD_PARAMS;
        store.multiCards.set(index, { index, door, groups });
        return RC_OK;
      });
    case 'templatev10':
    case 'biodata':
      return eachRecord(cmd, (r) => {
        const pin = r.get('pin');
        if (!pin) return RC_BAD_PARAMS;
        const isV10 = table === 'templatev10';
        const noKey = isV10 ? 'fingerid' : 'no';
        const type = isV10 ? 1 : int(r.get('type'), update ? 1 : NaN);
        if (!update) {
          const no = r.has(noKey) ? int(r.get(noKey), 0) : undefined;
          store.deleteTemplates(pin, Number.isNaN(type) ? undefined : type, no);
          return RC_OK;
        }
        const tmp = r.get(isV10 ? 'template' : 'tmp') ?? '';
        if (tmp === '') return RC_BAD_PARAMS;
        const size = r.get('size');
        if (size !== undefined && int(size, -1) !== tmp.length) return RC_TEMPLATE_SIZE_MISMATCH;
        store.upsertTemplate({
          pin,
          type,
          no: int(r.get(noKey), 0),
          index: int(r.get('index'), 0),
          valid: r.get('valid') ?? '1',
          duress: r.get('duress') ?? '0',
          majorVer: r.get('majorver') ?? '10',
          minorVer: r.get('minorver') ?? '0',
          format: r.get('format') ?? '0',
          tmp,
        });
        return RC_OK;
      });
    default:
      return RC_TABLE_NOT_SUPPORTED;
  }
}

/** `AccTimeZone` rows by `UID`: the fields as sent (`SunStart`, `SunEnd`, … lower-cased). */
function accTimeZoneData(store: RecordStore, update: boolean, cmd: ParsedCommand): number {
  return eachRecord(cmd, (r) => {
    const uid = r.get('uid');
    if (!uid) return RC_PARAM_ERROR;
    if (!update) store.accTimeZones.delete(uid);
    else store.accTimeZones.set(uid, new Map([...r].filter(([k]) => k !== 'uid')));
    return RC_OK;
  });
}

/**
 * BIOPHOTO / USERPIC (both families, the table name in either case). A comparison photo is checked
 * (`Size` against the content, -2 otherwise), answered with the configured result, and on success
 * kept with the visible-light face "extracted" from it (a template derived from the photo bytes),
 * uploaded when `PostBackTmpFlag=1`. Terminals without photo support answer -1002.
 */
function photoData(ctx: ExecutionContext, update: boolean, table: string, cmd: ParsedCommand, outcome: CommandOutcome): number | string {
  const photos = ctx.photos;
  const supported = table === 'biophoto' ? photos?.visibleFace === 'photo' : photos?.userPhoto === true;
  if (!photos || !supported) return RC_NOT_SUPPORTED;
  const store = table === 'biophoto' ? ctx.store.bioPhotos : ctx.store.userPhotos;
  let result: number | string = RC_OK;
  for (const r of cmd.records) {
    const pin = r.get('pin');
    if (!pin) return RC_PARAM_ERROR;
    if (!update) {
      store.delete(pin);
      continue;
    }
    const content = r.get('content') ?? '';
    if (content === '' || int(r.get('size'), -1) !== content.length) return RC_PHOTO_SIZE_MISMATCH;
    if (table === 'userpic') {
      store.set(pin, content);
      continue;
    }
    result = photos.enrollResult(pin);
    if (result !== '0') return result;
    store.set(pin, content);
    const template: TemplateRecord = {
      pin,
      type: 9,
      no: 0,
      index: 0,
      valid: '1',
      duress: '0',
      majorVer: photos.faceVersion,
      minorVer: '0',
      format: '0',
      tmp: fakeTemplate(`face-from-photo/${createHash('sha256').update(content).digest('hex')}`),
    };
    ctx.store.upsertTemplate(template);
    if (r.get('postbacktmpflag') === '1') (outcome.newTemplates ??= []).push(template);
  }
  return cmd.records.length === 0 ? RC_PARAM_ERROR : RC_OK;
}

/** Runs `apply` per record; the first failure is the command's result, like a firmware batch. */
function eachRecord(cmd: ParsedCommand, apply: (r: Map<string, string>) => number): number {
  if (cmd.records.length === 0) return RC_PARAM_ERROR;
  for (const r of cmd.records) {
    const rc = apply(r);
    if (rc !== RC_OK) return rc;
  }
  return RC_OK;
}

/** The terminal's attendance records (people, not door events) between two local times, inclusive. */
function recordsBetween(store: RecordStore, from: string, to: string): LogRecord[] {
  return store.log.filter((r) => r.pin !== '0' && r.time >= from && r.time <= to);
}

/** `CONTROL DEVICE AABBCCDD[EE]`: 01 output, 02 cancel alarm, 03 reboot, 04 normally open, 06 lock down, 07 emergency open. */
function controlDevice(ctx: ExecutionContext, operand: string, outcome: CommandOutcome): void {
  if (!/^([0-9A-Fa-f]{2}){4,5}$/.test(operand)) {
    outcome.rc = RC_BAD_PARAMS;
    return;
  }
  const bytes = (operand.match(/../g) ?? []).map((h) => parseInt(h, 16));
  const [action, door, flag, duration] = bytes as [number, number, number, number];
  if (action === 0x01) {
    if (duration === 0) closeDoor(ctx, door || 1, outcome);
    else openDoor(ctx, door || 1, outcome);
  } else if (action === 0x02) {
    // Cancel alarm: the alarms end, logged as event 7 (alarm cancelled).
    ctx.store.doorAlarmBits = 0;
    outcome.newLog.push(doorEvent(ctx, door || 1, 7));
  } else if (action === 0x03) {
    outcome.effect = 'reboot';
  } else if ((action === 0x06 || action === 0x07) && ctx.family === 'acc') {
    // 06 lock down (01) / lift it (00); 07 emergency open (01) / back to normal (00). Door 0 is no door.
    if (door === 0 || flag > 1) {
      outcome.rc = RC_BAD_PARAMS;
      return;
    }
    const doors = action === 0x06 ? ctx.store.lockedDownDoors : ctx.store.emergencyOpenDoors;
    if (flag === 1) doors.add(door);
    else doors.delete(door);
  } else if (![0x02, 0x04, 0x05, 0x06, 0x07].includes(action)) {
    outcome.rc = RC_BAD_PARAMS;
  }
}

/** A remote open: counted, and on security terminals logged as rtlog event 8 (remote open). */
function openDoor(ctx: ExecutionContext, door: number, outcome: CommandOutcome): void {
  ctx.store.doorOpens++;
  if (ctx.family === 'acc') outcome.newLog.push(doorEvent(ctx, door, 8));
}

function closeDoor(ctx: ExecutionContext, door: number, outcome: CommandOutcome): void {
  outcome.newLog.push(doorEvent(ctx, door, 9));
}

function doorEvent(ctx: ExecutionContext, door: number, event: number): LogRecord {
  // pin=0 marks a device event with no person; verifytype 200 = "other / door event"
  return ctx.store.appendLog({ pin: '0', time: ctx.now(), status: 2, verify: 200, workcode: '0', event, door, cardNo: '0' });
}
