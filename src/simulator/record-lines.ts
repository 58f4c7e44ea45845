// Store records rendered as upload lines, per protocol family. Field order and spelling follow
// the fixtures: attendance ATTLOG is positional (fx 28), OPERLOG/BIODATA are tagged key=value
// (fx 30), security tables are lower-case key=value (fx 19, fx 21).
import type { LogRecord, TemplateRecord, UserRecord } from './record-store';
import { cleanField } from './wire-format';

/** `pin\ttime\tstatus\tverify\tworkcode\t0\t0` (7 fields, fx 28). */
export function attlogLine(r: LogRecord): string {
  return [r.pin, r.time, r.status, r.verify, r.workcode, 0, 0].join('\t');
}

/** The field list of fx 35: `time=..\tpin=..\tcardno=..\teventaddr=..\tevent=..\tinoutstatus=..\tverifytype=..\tindex=..`. */
export function rtlogLine(r: LogRecord): string {
  return (
    `time=${r.time}\tpin=${r.pin}\tcardno=${r.cardNo || '0'}\teventaddr=${r.door}\tevent=${r.event}` +
    `\tinoutstatus=${r.status}\tverifytype=${r.verify}\tindex=${r.index}`
  );
}

/**
 * Door sensor / relay / alarm snapshot for one door (fx 36): sensor 01 closed / 02 open; relay 00
 * energised (unlocked) / 01 released; `alarm` one byte per door, door 1 first.
 */
export function rtstateLine(time: string, doorOpen: boolean, alarmBits = 0, unlocked = doorOpen): string {
  return `time=${time}\tsensor=${doorOpen ? '02' : '01'}\trelay=${unlocked ? '00' : '01'}\talarm=${alarmBits.toString(16).padStart(2, '0').toUpperCase()}00000000000000`;
}

/** OPERLOG user record in the 2.4 form (fx 30 plus `Verify`/`ViceCard`). */
export function operlogUserLine(u: UserRecord): string {
  return (
    `USER PIN=${u.pin}\tName=${cleanField(u.name)}\tPri=${u.privilege}\tPasswd=${cleanField(u.password)}` +
    `\tCard=${u.card}\tGrp=${u.group}\tTZ=${u.timeZones}\tVerify=${u.verify}\tViceCard=`
  );
}

/** OPERLOG fingerprint record (algorithm <= 10): `Size` is the base64 length of `TMP`. */
export function operlogFingerprintLine(t: TemplateRecord): string {
  return `FP PIN=${t.pin}\tFID=${t.no}\tSize=${t.tmp.length}\tValid=${t.valid}\tTMP=${t.tmp}`;
}

export function biodataLine(t: TemplateRecord): string {
  return (
    `BIODATA Pin=${t.pin}\tNo=${t.no}\tIndex=${t.index}\tValid=${t.valid}\tDuress=${t.duress}\tType=${t.type}` +
    `\tMajorVer=${t.majorVer}\tMinorVer=${t.minorVer}\tFormat=${t.format}\tTmp=${t.tmp}`
  );
}

/** Security `tabledata` user row, field order of fx 21. */
export function accUserLine(u: UserRecord): string {
  return (
    `user uid=${u.uid}\tcardno=${u.card}\tpin=${u.pin}\tpassword=${cleanField(u.password)}\tgroup=${u.group}` +
    `\tstarttime=${u.startTime}\tendtime=${u.endTime}\tname=${cleanField(u.name)}\tprivilege=${u.privilege}` +
    `\tdisable=0\tverify=${u.verify}`
  );
}

export function accTemplatev10Line(t: TemplateRecord, uid: number): string {
  // "resverd" is the vendor's own spelling; duress fingers are reported as fingerid + 16.
  const fingerId = t.duress === '1' ? t.no + 16 : t.no;
  return `templatev10 size=${t.tmp.length}\tuid=${uid}\tpin=${t.pin}\tfingerid=${fingerId}\tvalid=${t.valid}` + `\ttemplate=${t.tmp}\tresverd=\tendtag=`;
}

export function accBiodataLine(t: TemplateRecord): string {
  return (
    `biodata pin=${t.pin}\tno=${t.no}\tindex=${t.index}\tvalid=${t.valid}\tduress=${t.duress}\ttype=${t.type}` +
    `\tmajorver=${t.majorVer}\tminorver=${t.minorVer}\tformat=${t.format}\ttmp=${t.tmp}`
  );
}
