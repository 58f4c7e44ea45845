// Server → device command texts (the part after `C:<id>:`). The wire has NO escaping: a TAB in a
// value starts a new field and a LF starts a new command, so every free-text value is sanitised
// and every identifier (PIN, ids, numbers) is validated instead — silently "cleaning" a PIN could
// address a different person, so those throw RangeError.
import { base64PayloadError } from './base64-payload';
import { DEFAULT_TERMINAL_DIALECT, type TerminalDialect } from './dialect';
import { encodeZkTime, type LocalDateTime } from './time';
import { isMultiRecordCommand } from './record-batches';

/** Remove characters that could end a field or a command line: C0 controls (TAB, CR, LF, NUL…), DEL, NEL, U+2028/2029. */
export function sanitizeValue(value: string | number): string {
  return String(value).replace(/[\x00-\x1f\x7f\x85\u2028\u2029]/g, '');
}

/** Command ids: letters and digits, 1–16 chars (ATT-DOC §12). */
export function isValidCommandId(id: string): boolean {
  return /^[A-Za-z0-9]{1,16}$/.test(id);
}

const PIN = /^[A-Za-z0-9]{1,24}$/;

function pin(value: string): string {
  if (!PIN.test(value)) throw new RangeError(`invalid PIN ${JSON.stringify(value)}: letters and digits only, 1–24 chars`);
  return value;
}

function int(value: number, name: string, min: number, max: number): string {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer ${min}..${max}, got ${value}`);
  return String(value);
}

function template(value: string, name: string): string {
  const bad = base64PayloadError(name, value);
  if (bad) throw new RangeError(bad);
  return value;
}

/** `k=v` pairs joined by TAB, skipping undefined values; values sanitised. */
function fields(pairs: Array<[string, string | number | undefined]>): string {
  return pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${sanitizeValue(v!)}`)
    .join('\t');
}

/**
 * `C:<id>:<command>` — throws when the id is invalid or the command contains CR/NUL, or a LF other
 * than between the records of a multi-record DATA command (record-batches.ts).
 */
export function formatCommandLine(id: string, command: string): string {
  if (!isValidCommandId(id)) throw new RangeError(`invalid command id ${JSON.stringify(id)}`);
  if (/[\r\x00]/.test(command) || (command.includes('\n') && !isMultiRecordCommand(command)))
    throw new RangeError('command text must not contain CR, LF or NUL');
  return `C:${id}:${command}`;
}

// ---------- attendance family ----------

export interface AttendanceUser {
  pin: string;
  name?: string;
  /** 0 user, 2 enroller, 6 admin, 10 custom, 14 super admin. */
  privilege?: 0 | 2 | 6 | 10 | 14;
  password?: string;
  /** Card number (decimal string). */
  card?: string;
  group?: number;
  /** 16-digit time-zone string. */
  timeZones?: string;
  verify?: number;
  viceCard?: string;
  /** `YYYY-MM-DDTHH:MM:SS` validity (needs `UserValidTimeFun=1` on the device). */
  startDatetime?: string;
  endDatetime?: string;
}

/** `DATA UPDATE USERINFO PIN=…\tName=…\t…` (only the given fields, in documented order). */
export function updateUserInfoCommand(u: AttendanceUser): string {
  return `DATA UPDATE USERINFO ${fields([
    ['PIN', pin(u.pin)],
    ['Name', u.name],
    ['Pri', u.privilege],
    ['Passwd', u.password],
    ['Card', u.card],
    ['Grp', u.group === undefined ? undefined : int(u.group, 'group', 0, 99)],
    ['TZ', u.timeZones],
    ['Verify', u.verify === undefined ? undefined : int(u.verify, 'verify', -1, 255)],
    ['ViceCard', u.viceCard],
    ['StartDatetime', u.startDatetime],
    ['EndDatetime', u.endDatetime],
  ])}`;
}

/** `DATA DELETE USERINFO PIN=…` (the device also removes the user's templates and photos). */
export function deleteUserInfoCommand(userPin: string): string {
  return `DATA DELETE USERINFO PIN=${pin(userPin)}`;
}

/** `DATA UPDATE FINGERTMP PIN=\tFID=\tSize=\tValid=\tTMP=` (algorithm ≤ 10; Size = base64 length). */
export function updateFingerprintCommand(t: { pin: string; fid: number; template: string; valid?: number }): string {
  const tmp = template(t.template, 'TMP');
  return `DATA UPDATE FINGERTMP ${fields([
    ['PIN', pin(t.pin)],
    ['FID', int(t.fid, 'FID', 0, 9)],
    ['Size', tmp.length],
    ['Valid', int(t.valid ?? 1, 'Valid', 0, 3)],
    ['TMP', tmp],
  ])}`;
}

/** `DATA DELETE FINGERTMP PIN=…\tFID=…`: one finger of a user (algorithm ≤ 10 terminals). */
export function deleteFingerprintCommand(userPin: string, fid: number): string {
  return `DATA DELETE FINGERTMP ${fields([
    ['PIN', pin(userPin)],
    ['FID', int(fid, 'FID', 0, 9)],
  ])}`;
}

/** `DATA UPDATE FACE PIN=\tFID=\tValid=\tSize=\tTMP=` (NIR face). */
export function updateFaceCommand(t: { pin: string; fid: number; template: string; valid?: number }): string {
  const tmp = template(t.template, 'TMP');
  return `DATA UPDATE FACE ${fields([
    ['PIN', pin(t.pin)],
    ['FID', int(t.fid, 'FID', 0, 99)],
    ['Valid', int(t.valid ?? 1, 'Valid', 0, 3)],
    ['Size', tmp.length],
    ['TMP', tmp],
  ])}`;
}

/** `DATA DELETE FACE PIN=…`: the user's NIR face templates (the face set is one enrolment). */
export function deleteFaceCommand(userPin: string): string {
  return `DATA DELETE FACE PIN=${pin(userPin)}`;
}

export interface BiodataTemplate {
  pin: string;
  /** Biometric type index: 1 fingerprint, 2 NIR face, 9 visible-light face… */
  type: number;
  no: number;
  index?: number;
  valid?: number;
  duress?: number;
  majorVer: number | string;
  minorVer: number | string;
  format?: number;
  template: string;
}

function biodataFields(t: BiodataTemplate): string {
  return fields([
    ['Pin', pin(t.pin)],
    ['No', int(t.no, 'No', 0, 99)],
    ['Index', int(t.index ?? 0, 'Index', 0, 99)],
    ['Valid', int(t.valid ?? 1, 'Valid', 0, 1)],
    ['Duress', int(t.duress ?? 0, 'Duress', 0, 1)],
    ['Type', int(t.type, 'Type', 0, 10)],
    ['MajorVer', t.majorVer],
    ['MinorVer', t.minorVer],
    ['Format', int(t.format ?? 0, 'Format', 0, 2)],
    ['Tmp', template(t.template, 'Tmp')],
  ]);
}

/** `DATA UPDATE BIODATA Pin=…\tNo=…\t…\tTmp=…` (attendance). The device rejects other algorithm versions (-12/-30). */
export function updateBiodataCommand(t: BiodataTemplate): string {
  return `DATA UPDATE BIODATA ${biodataFields(t)}`;
}

/** `DATA DELETE BIODATA Pin=…\tType=…\tNo=…`: one unified template of a user (attendance). */
export function deleteBiodataCommand(t: { pin: string; type: number; no: number }): string {
  return `DATA DELETE BIODATA ${fields([
    ['Pin', pin(t.pin)],
    ['Type', int(t.type, 'Type', 0, 10)],
    ['No', int(t.no, 'No', 0, 99)],
  ])}`;
}

/** `AC_UNALARM`: silence the alarm of an attendance terminal with a lock output. */
export function acUnalarmCommand(): string {
  return 'AC_UNALARM';
}

/** `AC_UNLOCK`: pulse the lock relay of an attendance terminal. */
export function acUnlockCommand(): string {
  return 'AC_UNLOCK';
}

// ---------- access-control family ----------

/**
 * A `user` validity bound in the terminal's date format. `yyyymmdd` is the day as a number
 * (20261231); 0 is unlimited in both formats. ZK-encoded seconds name an instant, so the first day
 * starts at 00:00:00 and the last ends at 23:59:59 (terminal-local time): the window stays whole days.
 */
export function userValidityField(yyyymmdd: number, bound: 'start' | 'end', dialect: TerminalDialect): number {
  const day = Number(int(yyyymmdd, bound === 'start' ? 'startTime' : 'endTime', 0, 99991231));
  if (day === 0 || dialect.dateFormat === 'yyyymmdd') return day;
  const [year, month, date] = [Math.floor(day / 10000), Math.floor(day / 100) % 100, day % 100];
  if (month < 1 || month > 12 || date < 1 || date > 31) throw new RangeError(`${day} is not a YYYYMMDD date`);
  return bound === 'start'
    ? encodeZkTime({ year, month, day: date, hour: 0, minute: 0, second: 0 })
    : encodeZkTime({ year, month, day: date, hour: 23, minute: 59, second: 59 });
}

export interface AccessUser {
  pin: string;
  cardNo?: string;
  password?: string;
  group?: number;
  /** The validity window's first and last day, `YYYYMMDD` as a number (20261231); 0 = unlimited. Written as the dialect says. */
  startTime?: number;
  endTime?: number;
  /**
   * A validity window to the second (a visitor pass), device-local; wins over startTime/endTime.
   * `DateFmtFunOn=1` terminals get both instants exactly; `YYYYMMDD` terminals can only hold days,
   * so they get the first and the last day of the window (the terminal admits to that day's end).
   */
  window?: { start: LocalDateTime; end: LocalDateTime };
  name?: string;
  privilege?: number;
}

/** The `StartTime`/`EndTime` of a window to the second, in the terminal's format. */
function windowField(t: LocalDateTime, dialect: TerminalDialect): number {
  return dialect.dateFormat === 'zk-seconds' ? encodeZkTime(t) : t.year * 10000 + t.month * 100 + t.day;
}

/** `DATA UPDATE user CardNo=\tPin=\tPassword=\tGroup=\tStartTime=\tEndTime=\tName=\tPrivilege=` (validity in the terminal's `dialect`). */
export function updateAccessUserCommand(u: AccessUser, dialect: TerminalDialect = DEFAULT_TERMINAL_DIALECT): string {
  return `DATA UPDATE user ${fields([
    ['CardNo', u.cardNo ?? ''],
    ['Pin', pin(u.pin)],
    ['Password', u.password ?? ''],
    ['Group', int(u.group ?? 0, 'group', 0, 99)],
    ['StartTime', u.window ? windowField(u.window.start, dialect) : userValidityField(u.startTime ?? 0, 'start', dialect)],
    ['EndTime', u.window ? windowField(u.window.end, dialect) : userValidityField(u.endTime ?? 0, 'end', dialect)],
    ['Name', u.name ?? ''],
    ['Privilege', int(u.privilege ?? 0, 'privilege', 0, 14)],
  ])}`;
}

/**
 * `DATA UPDATE userauthorize Pin=\tAuthorizeTimezoneId=\tAuthorizeDoorId=<bitmask>[\tDevID=]`.
 * `doors` are 1-based door numbers, turned into the bitmask (door1=1, door2=2, door3=4, door4=8).
 * `DevID` (default 1, the terminal itself) only where the `dialect` says the tables have it.
 */
export function updateUserAuthorizeCommand(
  a: { pin: string; timezoneId: number; doors: number[]; devId?: number },
  dialect: TerminalDialect = DEFAULT_TERMINAL_DIALECT,
): string {
  if (a.doors.length === 0) throw new RangeError('doors must not be empty');
  const mask = a.doors.reduce((m, d) => m | (1 << (Number(int(d, 'door', 1, 8)) - 1)), 0);
  const devId = dialect.devIdInAuthorize ? int(a.devId ?? 1, 'devId', 0, 255) : undefined;
  return `DATA UPDATE userauthorize ${fields([
    ['Pin', pin(a.pin)],
    ['AuthorizeTimezoneId', int(a.timezoneId, 'timezoneId', 1, 9999)],
    ['AuthorizeDoorId', mask],
    ['DevID', devId],
  ])}`;
}

/** `DATA DELETE userauthorize Pin=…\tAuthorizeTimezoneId=…`: exactly one authorisation row of a user. */
export function deleteUserAuthorizeCommand(userPin: string, timezoneId: number): string {
  return `DATA DELETE userauthorize ${fields([
    ['Pin', pin(userPin)],
    ['AuthorizeTimezoneId', int(timezoneId, 'timezoneId', 1, 9999)],
  ])}`;
}

/** A time-zone interval `HH:MM`–`HH:MM` as the terminal stores it: `(HHMM_start << 16) + HHMM_end` (08:30–12:30 → 54396110). */
export function timezoneInterval(start: string, end: string): number {
  const hhmm = (t: string) => {
    const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(t);
    if (!match) throw new RangeError(`time must be HH:MM, got ${JSON.stringify(t)}`);
    return Number(match[1]) * 100 + Number(match[2]);
  };
  return hhmm(start) * 65536 + hhmm(end);
}

/** The weekday field names of a `timezone` row, Sunday first as the table has them (ISO weekday 7, 1 … 6). */
const TIMEZONE_DAYS: Array<[string, number]> = [
  ['Sun', 7],
  ['Mon', 1],
  ['Tue', 2],
  ['Wed', 3],
  ['Thu', 4],
  ['Fri', 5],
  ['Sat', 6],
];

/**
 * `DATA UPDATE timezone TimezoneId=\tSunTime1..3\tMonTime1..3 … SatTime3\tHol1Time1..3 … Hol3Time3`:
 * up to 3 intervals per ISO weekday and per holiday type (1–3); a slot without an interval is 0.
 */
export function updateTimezoneCommand(tz: {
  timezoneId: number;
  intervals: ReadonlyArray<{ weekday: number; startTime: string; endTime: string }>;
  holidayIntervals: ReadonlyArray<{ holidayType: number; startTime: string; endTime: string }>;
}): string {
  const slots = (list: ReadonlyArray<{ startTime: string; endTime: string }>, name: string): Array<[string, number]> => {
    if (list.length > 3) throw new RangeError(`${name} has ${list.length} intervals; the table holds 3`);
    const sorted = [...list].sort((a, b) => a.startTime.localeCompare(b.startTime));
    return [1, 2, 3].map((n) => [`${name}Time${n}`, sorted[n - 1] ? timezoneInterval(sorted[n - 1]!.startTime, sorted[n - 1]!.endTime) : 0]);
  };
  return `DATA UPDATE timezone ${fields([
    ['TimezoneId', int(tz.timezoneId, 'timezoneId', 1, 9999)],
    ...TIMEZONE_DAYS.flatMap(([name, weekday]) =>
      slots(
        tz.intervals.filter((i) => i.weekday === weekday),
        name,
      ),
    ),
    ...[1, 2, 3].flatMap((type) =>
      slots(
        tz.holidayIntervals.filter((i) => i.holidayType === type),
        `Hol${type}`,
      ),
    ),
  ])}`;
}

/**
 * `DATA UPDATE holiday Holiday=YYYYMMDD\tHolidayType=1..3\tLoop=2`: a holiday of that date (Loop 2:
 * that year only; 1 would repeat it every year), whose opening hours are the time zones' HolNTime.
 */
export function updateHolidayCommand(h: { date: string; holidayType: number }): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(h.date)) throw new RangeError(`date must be YYYY-MM-DD, got ${JSON.stringify(h.date)}`);
  return `DATA UPDATE holiday ${fields([
    ['Holiday', h.date.replaceAll('-', '')],
    ['HolidayType', int(h.holidayType, 'holidayType', 1, 3)],
    ['Loop', 2],
  ])}`;
}

/** `DATA DELETE holiday Holiday=YYYYMMDD`. */
export function deleteHolidayCommand(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`date must be YYYY-MM-DD, got ${JSON.stringify(date)}`);
  return `DATA DELETE holiday Holiday=${date.replaceAll('-', '')}`;
}

/** `DATA DELETE timezone TimezoneId=…`: a schedule no longer used on the terminal. */
export function deleteTimezoneCommand(timezoneId: number): string {
  return `DATA DELETE timezone TimezoneId=${int(timezoneId, 'timezoneId', 1, 9999)}`;
}

/** `DATA UPDATE templatev10 Pin=\tFingerID=\tValid=\tTemplate=` (duress finger = fingerId + 16). */
export function updateTemplateV10Command(t: { pin: string; fingerId: number; template: string; valid?: number }): string {
  return `DATA UPDATE templatev10 ${fields([
    ['Pin', pin(t.pin)],
    ['FingerID', int(t.fingerId, 'fingerId', 0, 25)],
    ['Valid', int(t.valid ?? 1, 'Valid', 0, 3)],
    ['Template', template(t.template, 'Template')],
  ])}`;
}

/** `DATA UPDATE biodata …` (access-control table name is lower-case). */
export function updateAccessBiodataCommand(t: BiodataTemplate): string {
  return `DATA UPDATE biodata ${biodataFields(t)}`;
}

/** `DATA DELETE templatev10 Pin=…\tFingerID=…`: one finger of a user (access control). */
export function deleteTemplateV10Command(userPin: string, fingerId: number): string {
  return `DATA DELETE templatev10 ${fields([
    ['Pin', pin(userPin)],
    ['FingerID', int(fingerId, 'fingerId', 0, 25)],
  ])}`;
}

/** `DATA DELETE biodata Pin=…\tType=…\tNo=…`: one unified template of a user (access control). */
export function deleteAccessBiodataCommand(t: { pin: string; type: number; no: number }): string {
  return `DATA DELETE biodata ${fields([
    ['Pin', pin(t.pin)],
    ['Type', int(t.type, 'Type', 0, 10)],
    ['No', int(t.no, 'No', 0, 99)],
  ])}`;
}

export type AccessTable = 'userauthorize' | 'templatev10' | 'biodata' | 'user';

/** `DATA DELETE <table> Pin=…`. */
export function deleteAccessRecordCommand(table: AccessTable, userPin: string): string {
  return `DATA DELETE ${table} Pin=${pin(userPin)}`;
}

/** The three commands that remove a person from an access device, in the required order. */
export function deleteAccessUserCommands(userPin: string): string[] {
  return (['userauthorize', 'templatev10', 'user'] as const).map((t) => deleteAccessRecordCommand(t, userPin));
}

const hex2 = (n: number): string => n.toString(16).toUpperCase().padStart(2, '0');

/**
 * `CONTROL DEVICE 01<door>01<seconds>`: open door `door` (1–255; 0 = all) lock relay for
 * `seconds` (1–254). Each operand is a two-digit hex byte (SEC-DOC §12.4): door 1 for 5 s →
 * `CONTROL DEVICE 01010105`.
 */
export function openDoorCommand(door: number, seconds: number): string {
  return `CONTROL DEVICE 01${hex2(Number(int(door, 'door', 0, 255)))}01${hex2(Number(int(seconds, 'seconds', 1, 254)))}`;
}

/** `CONTROL DEVICE 01<door>01FF`: normally open until closed. */
export function holdDoorOpenCommand(door: number): string {
  return `CONTROL DEVICE 01${hex2(Number(int(door, 'door', 0, 255)))}01FF`;
}

/** `CONTROL DEVICE 01<door>0100`: close (lock) now. Some terminals reject all-zero operands (-13). */
export function closeDoorCommand(door: number): string {
  return `CONTROL DEVICE 01${hex2(Number(int(door, 'door', 0, 255)))}0100`;
}

/** `CONTROL DEVICE 02<door>0000`: cancel alarm (door 0 = all). */
export function cancelAlarmCommand(door: number): string {
  return `CONTROL DEVICE 02${hex2(Number(int(door, 'door', 0, 255)))}0000`;
}

/** `CONTROL DEVICE 01<output>02<seconds>`: pulse auxiliary output `output` (1–255) for 1–254 s (CC `02` = aux output). */
export function pulseAuxOutputCommand(output: number, seconds: number): string {
  return `CONTROL DEVICE 01${hex2(Number(int(output, 'output', 1, 255)))}02${hex2(Number(int(seconds, 'seconds', 1, 254)))}`;
}

/**
 * `CONTROL DEVICE 06<door><01|00>00`: lock the door down (`01`: every verification refused, the
 * relay kept locked) or lift the lock (`00`). Operation 06 of the ControlDevice table (SEC-DOC
 * §12.4); the door in BB and the switch in CC follow the table's layout for operations 01, 02 and
 * 04 (PROTOCOL.md, "Lockdown").
 */
export function lockDownDoorCommand(door: number, locked: boolean): string {
  return `CONTROL DEVICE 06${hex2(Number(int(door, 'door', 1, 255)))}${locked ? '01' : '00'}00`;
}

/**
 * `CONTROL DEVICE 07<door><01|00>00`: emergency open of the door (`01`: released and held open,
 * whatever the schedules) or its end (`00`: back to normal operation). Operation 07 (SEC-DOC §12.4,
 * "emergency double open/close"), same layout as 06.
 */
export function emergencyOpenDoorCommand(door: number, open: boolean): string {
  return `CONTROL DEVICE 07${hex2(Number(int(door, 'door', 1, 255)))}${open ? '01' : '00'}00`;
}

// ---------- device operations ----------

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

function localRange(from: string, to: string): Array<[string, string]> {
  if (!LOCAL_DATE.test(from) || !LOCAL_DATE.test(to)) throw new RangeError(`dates must be YYYY-MM-DD, got ${JSON.stringify(from)}..${JSON.stringify(to)}`);
  return [
    ['StartTime', `${from} 00:00:00`],
    ['EndTime', `${to} 23:59:59`],
  ];
}

/**
 * `DATA QUERY ATTLOG StartTime=YYYY-MM-DD 00:00:00\tEndTime=YYYY-MM-DD 23:59:59` (attendance 2.x):
 * the terminal uploads its records of that device-local range again as ATTLOG (the server dedupes).
 */
export function queryAttlogCommand(from: string, to: string): string {
  return `DATA QUERY ATTLOG ${localRange(from, to)
    .map(([k, v]) => `${k}=${v}`)
    .join('\t')}`;
}

/** `VERIFY SUM ATTLOG StartTime=…\tEndTime=…`: the terminal answers its record count of the range (`AttlogSum=`). */
export function verifySumAttlogCommand(from: string, to: string): string {
  return `VERIFY SUM ATTLOG ${localRange(from, to)
    .map(([k, v]) => `${k}=${v}`)
    .join('\t')}`;
}

/** `INFO` (attendance PUSH): the terminal answers its firmware, counts and capacities as result lines. */
export function infoCommand(): string {
  return 'INFO';
}

/**
 * What an access-control terminal is asked for by `info.refresh`: the keys of the Security PUSH
 * document's own `GET OPTIONS` examples (section 12.5.2: identity, doors, readers, capacities,
 * algorithm, event and verify support; `DateFmtFunOn`; the biometric switches), without `ComPwd`
 * (the terminal's communication password, which Timegate has no use for and should not hold).
 */
export const ACCESS_INFO_OPTION_KEYS = [
  '~SerialNumber',
  'FirmVer',
  '~DeviceName',
  'LockCount',
  'ReaderCount',
  'AuxInCount',
  'AuxOutCount',
  'MachineType',
  '~IsOnlyRFMachine',
  '~MaxUserCount',
  '~MaxAttLogCount',
  '~MaxFingerCount',
  '~MaxUserFingerCount',
  'MThreshold',
  'IPAddress',
  'NetMask',
  'GATEIPAddress',
  '~ZKFPVersion',
  'SimpleEventType',
  'VerifyStyles',
  'EventTypes',
  'DateFmtFunOn',
  'FingerFunOn',
  'FvFunOn',
  'FaceFunOn',
] as const;

/**
 * `GET OPTIONS k1,k2,…` (Security PUSH, section 12.5.2): the access-control terminal posts the
 * values as one `k=v,k=v` line to `/iclock/querydata?type=options&cmdid=<id>&tablename=options`,
 * then answers `Return=0&CMD=GET OPTIONS`. Access controllers have no `INFO` verb.
 */
export function getOptionsCommand(keys: readonly string[]): string {
  if (keys.length === 0) throw new RangeError('GET OPTIONS needs at least one key');
  for (const key of keys) if (!/^~?[A-Za-z][A-Za-z0-9]{0,63}$/.test(key)) throw new RangeError(`invalid option name ${JSON.stringify(key)}`);
  return `GET OPTIONS ${keys.join(',')}`;
}

/** Restart: `REBOOT` (attendance) or `CONTROL DEVICE 03000000` (access control). */
export function rebootCommand(family: 'attendance' | 'access'): string {
  return family === 'access' ? 'CONTROL DEVICE 03000000' : 'REBOOT';
}

/** `CLEAR LOG`: the terminal deletes every attendance record it holds (attendance 2.x). */
export function clearLogCommand(): string {
  return 'CLEAR LOG';
}

/**
 * Sets an access-control terminal's clock: `SET OPTIONS DateTime=<ZK-encoded local seconds>` (the
 * terminal's local wall time, `encodeZkTime`; SEC-DOC). Attendance terminals take the time from
 * the handshake reply instead (the `Date` header and `TimeZone`), which `CHECK` makes them repeat.
 */
export function setClockCommand(encodedLocalTime: number): string {
  return `SET OPTIONS DateTime=${int(encodedLocalTime, 'DateTime', 0, 2 ** 31 - 1)}`;
}

/** `CHECK`: the attendance terminal repeats its handshake (options, stamps, and its clock from the reply). */
export function checkCommand(): string {
  return 'CHECK';
}

/** `DATA QUERY USERINFO`: the attendance terminal uploads every user it holds (OPERLOG `USER` records). */
export function queryUsersCommand(): string {
  return 'DATA QUERY USERINFO';
}

/**
 * `DATA QUERY tablename=user,fielddesc=*,filter=*` (Security PUSH): the terminal posts its user
 * table to `/iclock/querydata` (`type=tabledata&tablename=user`, in packets), then answers with the
 * number of rows as Return.
 */
export function queryAccessUsersCommand(): string {
  return 'DATA QUERY tablename=user,fielddesc=*,filter=*';
}

/** Protocol table names: attendance firmware spells them upper-case, access-control firmware lower-case. */
const photoTable = (family: 'attendance' | 'access', table: 'BIOPHOTO' | 'USERPIC') => (family === 'access' ? table.toLowerCase() : table);

/**
 * `DATA UPDATE BIOPHOTO PIN=…\tType=9\tNo=0\tIndex=0\tSize=…\tContent=<base64 JPEG>\tFormat=0\tUrl=\tPostBackTmpFlag=1`:
 * a comparison photo the terminal enrols a visible-light face from (ATT-DOC §10.1, "比对照片");
 * `PostBackTmpFlag=1` asks it to upload the template it extracted, as a BIODATA record.
 * `Format=0` carries the photo inline (1 would make the terminal fetch `Url`).
 */
export function updateBioPhotoCommand(family: 'attendance' | 'access', p: { pin: string; content: string }): string {
  const content = template(p.content, 'Content');
  return `DATA UPDATE ${photoTable(family, 'BIOPHOTO')} ${fields([
    ['PIN', pin(p.pin)],
    ['Type', 9],
    ['No', 0],
    ['Index', 0],
    ['Size', content.length],
    ['Content', content],
    ['Format', 0],
    ['Url', ''],
    ['PostBackTmpFlag', 1],
  ])}`;
}

/** `DATA DELETE BIOPHOTO PIN=…\tType=9`: the user's comparison photo. */
export function deleteBioPhotoCommand(family: 'attendance' | 'access', userPin: string): string {
  return `DATA DELETE ${photoTable(family, 'BIOPHOTO')} ${fields([
    ['PIN', pin(userPin)],
    ['Type', 9],
  ])}`;
}

/** `DATA UPDATE USERPIC PIN=…\tSize=…\tContent=<base64 JPEG>`: the photo a terminal shows when the user verifies. */
export function updateUserPicCommand(family: 'attendance' | 'access', p: { pin: string; content: string }): string {
  const content = template(p.content, 'Content');
  return `DATA UPDATE ${photoTable(family, 'USERPIC')} ${fields([
    ['PIN', pin(p.pin)],
    ['Size', content.length],
    ['Content', content],
  ])}`;
}

/** `DATA DELETE USERPIC PIN=…`. */
export function deleteUserPicCommand(family: 'attendance' | 'access', userPin: string): string {
  return `DATA DELETE ${photoTable(family, 'USERPIC')} ${fields([['PIN', pin(userPin)]])}`;
}

/** Time-zone ids of attendance terminals' access settings (ZKTeco attendance firmware: 50). */
export const MAX_ACC_TIMEZONE_ID = 50;

/**
 * How many `AccTimeZone` rows a schedule needs on an attendance terminal: such a row holds ONE
 * interval per weekday, so slot k holds each day's k-th interval (1 to 3 rows).
 */
export function accTimeZoneSlots(intervals: ReadonlyArray<{ weekday: number }>): number {
  const perDay = [1, 2, 3, 4, 5, 6, 7].map((weekday) => intervals.filter((i) => i.weekday === weekday).length);
  return Math.min(3, Math.max(1, ...perDay));
}

/**
 * `DATA UPDATE AccTimeZone UID=…\tSunStart=HHMM\tSunEnd=HHMM … SatStart\tSatEnd` (attendance PUSH
 * access settings): slot `slot` (0-based) of a schedule, i.e. each weekday's interval of that rank.
 * A day without one is closed: 2359–0000, a window that ends before it starts (the convention of
 * ZKTeco's own tools for "no access").
 */
export function updateAccTimeZoneCommand(tz: {
  id: number;
  slot: number;
  intervals: ReadonlyArray<{ weekday: number; startTime: string; endTime: string }>;
}): string {
  const hhmm = (t: string) => {
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(t)) throw new RangeError(`time must be HH:MM, got ${JSON.stringify(t)}`);
    return t.replace(':', '');
  };
  return `DATA UPDATE AccTimeZone ${fields([
    ['UID', int(tz.id, 'id', 1, MAX_ACC_TIMEZONE_ID)],
    ...TIMEZONE_DAYS.flatMap(([name, weekday]): Array<[string, string]> => {
      const day = tz.intervals.filter((i) => i.weekday === weekday).sort((a, b) => a.startTime.localeCompare(b.startTime))[tz.slot];
      return day
        ? [
            [`${name}Start`, hhmm(day.startTime)],
            [`${name}End`, hhmm(day.endTime)],
          ]
        : [
            [`${name}Start`, '2359'],
            [`${name}End`, '0000'],
          ];
    }),
  ])}`;
}

/** `DATA DELETE AccTimeZone UID=…`. */
export function deleteAccTimeZoneCommand(id: number): string {
  return `DATA DELETE AccTimeZone UID=${int(id, 'id', 1, MAX_ACC_TIMEZONE_ID)}`;
}

/**
 * The USERINFO `TZ` field: four 4-digit hexadecimal groups, [own time zones?][tz1][tz2][tz3].
 * `null`: the group's time zones (`0000000100000000`, what terminals are given by default: group 1,
 * whose time zone 1 is always open); ids: the person's own time zones (at most 3).
 */
export function userTimeZonesField(ids: readonly number[] | null): string {
  if (ids === null) return '0000000100000000';
  if (ids.length === 0 || ids.length > 3) throw new RangeError(`a person holds 1 to 3 time zones, got ${ids.length}`);
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  return [1, ...ids, 0, 0]
    .slice(0, 4)
    .map((n, i) => (i === 0 ? hex(n) : hex(Number(int(n, 'timezone', 0, MAX_ACC_TIMEZONE_ID)))))
    .join('');
}

/** `DATA UPDATE USERINFO PIN=…` → `DATA UPDATE USERINFO`; `CONTROL DEVICE 01010105` → `CONTROL DEVICE 01010105` (no personal data in it). */
export function commandVerb(command: string): string {
  const data = /^(DATA (?:UPDATE|DELETE|QUERY|COUNT)) ([^\s,=]+)/.exec(command);
  if (data) return `${data[1]} ${data[2]}`;
  const control = /^(CONTROL DEVICE [0-9A-Fa-f]+|SET OPTIONS? DateTime|VERIFY SUM ATTLOG|CLEAR \w+|[A-Z_]+)/.exec(command);
  return control?.[1] ?? command.split(/\s/)[0]!.slice(0, 40);
}
