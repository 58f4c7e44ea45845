// Reply bodies, byte-exact. Line-ending policy (one rule for every multi-line reply): lines joined
// by a single LF, NO trailing LF — the shape of the attendance handshake block proven on live
// devices (PROTOCOL.md, DA-TESTS LEGACY_BLOCK_TEMPLATE). `RegistryCode=` and `<table>=<n>` are
// single lines without any newline (vendor example Content-Length 23). The adapter must send them
// with Content-Type text/plain, a GMT Date header, Content-Length, no chunking, no gzip.
import { formatCommandLine } from './commands';
import { encodeZkTime, instantToLocal, offsetHhmm } from './time';

/** Plain acknowledgement: ping, getrequest with nothing queued, devicecmd, options, rtlog/rtstate, photos. */
export const OK = 'OK';

/** Attendance upload acknowledgement `OK: <n>` (n = records accepted; the ATT-DOC form). */
export function uploadAck(accepted: number): string {
  if (!Number.isInteger(accepted) || accepted < 0) throw new RangeError(`accepted must be a non-negative integer, got ${accepted}`);
  return `OK: ${accepted}`;
}

function line(key: string, value: string | number): string {
  const v = String(value);
  if (/[\r\n\x00]/.test(v)) throw new RangeError(`option ${key} must not contain CR, LF or NUL`);
  return `${key}=${v}`;
}

/** All TransFlag text-form tokens (PROTOCOL.md). OpLog is needed for user/template uploads. */
export const ALL_TRANS_FLAGS = [
  'AttLog',
  'OpLog',
  'AttPhoto',
  'EnrollUser',
  'ChgUser',
  'EnrollFP',
  'ChgFP',
  'UserPic',
  'FACE',
  'WORKCODE',
  'BioPhoto',
] as const;

export interface AttendanceHandshakeSettings {
  /** Stamps: `9999` (normal) or `None`; `0` means "re-upload everything". Default `9999`. */
  attlogStamp?: string;
  operlogStamp?: string;
  /** Default `None`. */
  attphotoStamp?: string;
  /** Default `9999`. */
  biodataStamp?: string;
  /** Retry delay after a failed connection, s. Default 30. */
  errorDelay?: number;
  /** Poll interval, s (command latency, offline detection). Default 10. */
  delay?: number;
  /** `HH:MM;HH:MM`. Default `00:00;14:05`. */
  transTimes?: string;
  /** Minutes. Default 1. */
  transInterval?: number;
  /** Text-form TransFlag tokens. Default: all of `ALL_TRANS_FLAGS`. */
  transFlags?: readonly string[];
  /** Handshake TimeZone value, normally `timeZoneOption(zone, now)`. REQUIRED: a wrong value shifts the device clock. */
  timeZone: string | number;
  /** Default true (push each record immediately). */
  realtime?: boolean;
  /** Default `2.3.0`. */
  serverVer?: string;
  /** Default `2.3.0`: below 2.4.0, so the device never attempts ZK's proprietary key exchange. */
  pushProtVer?: string;
  /** Keys the device should report via `table=options`; sends `PushOptionsFlag=1` when non-empty. */
  pushOptions?: readonly string[];
  /** e.g. `0:1:0:0:0:0:0:0:0:1:0`; omitted when undefined. */
  multiBioDataSupport?: string;
  multiBioPhotoSupport?: string;
  /** `ATTPHOTOBase64=1` when true. */
  attPhotoBase64?: boolean;
}

/** Default PUSH version we advertise to attendance devices (see `pushProtVer`). */
export const ATTENDANCE_PUSH_PROT_VER = '2.3.0';

/**
 * Attendance handshake reply (`GET /iclock/cdata?options=all`): `GET OPTION FROM: <SN>` then one
 * option per line. `Encrypt=None` always: encryption needs ZK's closed library.
 */
export function attendanceHandshakeReply(sn: string, s: AttendanceHandshakeSettings): string {
  if (/[\r\n\x00]/.test(sn)) throw new RangeError('serial number must not contain CR, LF or NUL');
  const lines = [
    `GET OPTION FROM: ${sn}`,
    line('ATTLOGStamp', s.attlogStamp ?? '9999'),
    line('OPERLOGStamp', s.operlogStamp ?? '9999'),
    line('ATTPHOTOStamp', s.attphotoStamp ?? 'None'),
    line('BIODATAStamp', s.biodataStamp ?? '9999'),
    line('ErrorDelay', s.errorDelay ?? 30),
    line('Delay', s.delay ?? 10),
    line('TransTimes', s.transTimes ?? '00:00;14:05'),
    line('TransInterval', s.transInterval ?? 1),
    line('TransFlag', `TransData ${(s.transFlags ?? ALL_TRANS_FLAGS).join('\t')}`),
    line('TimeZone', s.timeZone),
    line('Realtime', s.realtime === false ? 0 : 1),
    line('Encrypt', 'None'),
    line('ServerVer', s.serverVer ?? ATTENDANCE_PUSH_PROT_VER),
    line('PushProtVer', s.pushProtVer ?? ATTENDANCE_PUSH_PROT_VER),
  ];
  if (s.pushOptions && s.pushOptions.length > 0) lines.push(line('PushOptionsFlag', 1), line('PushOptions', s.pushOptions.join(',')));
  if (s.multiBioDataSupport !== undefined) lines.push(line('MultiBioDataSupport', s.multiBioDataSupport));
  if (s.multiBioPhotoSupport !== undefined) lines.push(line('MultiBioPhotoSupport', s.multiBioPhotoSupport));
  if (s.attPhotoBase64) lines.push(line('ATTPHOTOBase64', 1));
  return lines.join('\n');
}

/** Default PUSH version we advertise to access devices: the vendor sample's 3.0.1 (encryption is 3.1.1+). */
export const ACCESS_PUSH_PROT_VER = '3.0.1';

export interface AccessConfigSettings {
  sessionId: string;
  /** Default `3.0.1`. */
  serverVersion?: string;
  /** Default `ADMS`. */
  serverName?: string;
  /** Default `3.0.1`. */
  pushProtVer?: string;
  /** Default 60. */
  errorDelay?: number;
  /** Poll interval, s. Default 2 (vendor sample). */
  requestDelay?: number;
  /** Default `00:00;14:00`. */
  transTimes?: string;
  /** Default 1. */
  transInterval?: number;
  /** Default `User Transaction`. */
  transTables?: string;
  /** Default true. */
  realtime?: boolean;
  /** Default 10. */
  timeoutSec?: number;
  /** Extra `key=value` lines appended in order (BioPhotoFun, MultiBioDataSupport, NewVFStyles…). */
  extra?: ReadonlyArray<readonly [string, string | number]>;
}

/**
 * `/iclock/push` config reply. Sends `PushVersion` (some builds read that name) and, unless
 * `includePushProtVer` is false, `PushProtVer` too; with false the output equals the vendor sample.
 */
export function pushConfigReply(s: AccessConfigSettings, includePushProtVer = true): string {
  const version = s.pushProtVer ?? ACCESS_PUSH_PROT_VER;
  const lines = [
    line('ServerVersion', s.serverVersion ?? ACCESS_PUSH_PROT_VER),
    line('ServerName', s.serverName ?? 'ADMS'),
    line('PushVersion', version),
    ...(includePushProtVer ? [line('PushProtVer', version)] : []),
    ...accessTimingLines(s),
  ];
  return lines.join('\n');
}

function accessTimingLines(s: AccessConfigSettings): string[] {
  return [
    line('ErrorDelay', s.errorDelay ?? 60),
    line('RequestDelay', s.requestDelay ?? 2),
    line('TransTimes', s.transTimes ?? '00:00;14:00'),
    line('TransInterval', s.transInterval ?? 1),
    line('TransTables', s.transTables ?? 'User Transaction'),
    line('Realtime', s.realtime === false ? 0 : 1),
    line('SessionID', s.sessionId),
    line('TimeoutSec', s.timeoutSec ?? 10),
    ...(s.extra ?? []).map(([k, v]) => line(k, v)),
  ];
}

function checkRegistryCode(code: string): string {
  if (!/^[A-Za-z0-9]{1,32}$/.test(code)) throw new RangeError('RegistryCode must be 1–32 letters/digits');
  return code;
}

/**
 * Access-control handshake reply for a REGISTERED device (`GET /iclock/cdata?options=all`):
 * `registry=ok`, `RegistryCode=`, then the config (with `PushVersion=` beside `PushProtVer=`). An unregistered device gets `OK` instead.
 */
export function accessHandshakeReply(registryCode: string, s: AccessConfigSettings): string {
  const version = s.pushProtVer ?? ACCESS_PUSH_PROT_VER;
  return [
    'registry=ok',
    line('RegistryCode', checkRegistryCode(registryCode)),
    line('ServerVersion', s.serverVersion ?? ACCESS_PUSH_PROT_VER),
    line('ServerName', s.serverName ?? 'ADMS'),
    // Both names: the vendor's server picks one by model, and firmware reads the one it knows.
    line('PushVersion', version),
    line('PushProtVer', version),
    ...accessTimingLines(s),
  ].join('\n');
}

/** `/iclock/registry` acceptance: exactly `RegistryCode=<code>`, no newline. Refusal is HTTP 406 (adapter). */
export function registryReply(registryCode: string): string {
  return `RegistryCode=${checkRegistryCode(registryCode)}`;
}

/**
 * tabledata / querydata acknowledgement `<tablename>=<count>`, echoing the DECLARED `count` query
 * value exactly (the device retries forever otherwise), not the number of rows we parsed.
 */
export function tableDataAck(tablename: string, declaredCount: string | number): string {
  const count = String(declaredCount);
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(tablename)) throw new RangeError(`invalid table name ${JSON.stringify(tablename)}`);
  if (!/^\d+$/.test(count)) throw new RangeError(`declared count ${JSON.stringify(count)} is not a number`);
  return `${tablename}=${count}`;
}

/** getrequest reply: `OK` when nothing is queued, else `C:<id>:<cmd>` lines joined by LF (no trailing LF). */
export function commandBatchReply(commands: ReadonlyArray<{ id: string; command: string }>): string {
  if (commands.length === 0) return OK;
  return commands.map((c) => formatCommandLine(c.id, c.command)).join('\n');
}

/**
 * `/iclock/rtdata?type=time` reply: `DateTime=<ZK-encoded seconds of GMT now>,ServerTZ=<±HHMM>`
 * where ServerTZ is the device's zone offset at `now`.
 */
export function rtdataTimeReply(now: Date, zone: string): string {
  return `DateTime=${encodeZkTime(instantToLocal(now, 'UTC'))},ServerTZ=${offsetHhmm(zone, now)}`;
}
