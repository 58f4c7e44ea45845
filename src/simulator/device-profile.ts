// What a simulated terminal says about itself: model, firmware, addresses, capacities. Rendered
// as the attendance INFO list, the `table=options` line, the security registry
// capability line (fx 23/33) and the key=value lines after an INFO result.
import type { TerminalFamily } from './command-executor';
import type { RecordStore } from './record-store';
import { derivedAddresses } from './wire-format';

export interface DeviceProfile {
  serialNumber: string;
  family: TerminalFamily;
  model: string;
  firmware: string;
  pushVersion: string;
  language: number;
  mac: string;
  ip: string;
  /** Fingerprint algorithm major version (INFO, `FPVersion`, `~ZKFPVersion`, enrolled templates). */
  fingerprintVersion: string;
  /**
   * Visible-light faces: `photo` enrols them from comparison photos (BioPhotoFun, VisilightFun,
   * MultiBioPhotoSupport) and takes templates; `template` only takes templates of its version;
   * `none` (default) reports no visible-light face algorithm.
   */
  visibleFace: 'photo' | 'template' | 'none';
  /** Shows user photos (USERPIC, `PhotoFunOn`). */
  userPhoto: boolean;
  /** Doors of an access controller (registry `LockCount`). */
  lockCount: number;
}

/** The visible-light face algorithm the simulator reports and enrols with (type 9, as in MultiBioVersion). */
export const VISIBLE_FACE_VERSION = '58';

const DEFAULTS: Record<TerminalFamily, { model: string; firmware: string; pushVersion: string }> = {
  att: { model: 'MB560-VL', firmware: 'Ver 8.0.4.7-20230615', pushVersion: '2.4.1' },
  acc: { model: 'F20/M', firmware: 'Ver 8.0.1.3-20151229', pushVersion: '3.1.2' },
};

export function resolveProfile(input: {
  serialNumber: string;
  family: TerminalFamily;
  model?: string;
  firmware?: string;
  pushVersion?: string;
  language?: number;
  macAddress?: string;
  ipAddress?: string;
  fingerprintVersion?: string;
  visibleFace?: 'photo' | 'template' | 'none';
  userPhoto?: boolean;
  lockCount?: number;
}): DeviceProfile {
  const d = DEFAULTS[input.family];
  const addr = derivedAddresses(input.serialNumber);
  return {
    serialNumber: input.serialNumber,
    family: input.family,
    model: input.model ?? d.model,
    firmware: input.firmware ?? d.firmware,
    pushVersion: input.pushVersion ?? d.pushVersion,
    language: input.language ?? 69,
    mac: input.macAddress ?? addr.mac,
    ip: input.ipAddress ?? addr.ip,
    fingerprintVersion: input.fingerprintVersion ?? '10',
    visibleFace: input.visibleFace ?? 'none',
    userPhoto: input.userPhoto ?? false,
    lockCount: input.lockCount ?? 1,
  };
}

/** Face and photo keys: the algorithm versions by biometric type, photo support (ATT-DOC §10.1, "比对照片"). */
function faceOptions(p: DeviceProfile): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (p.visibleFace !== 'none') pairs.push(['MultiBioVersion', `0:${p.fingerprintVersion}.0:7.0:0:0:0:0:0:0:${VISIBLE_FACE_VERSION}.0:0`]);
  if (p.visibleFace === 'photo') pairs.push(['BioPhotoFun', '1'], ['VisilightFun', '1'], ['MultiBioPhotoSupport', '0:0:0:0:0:0:0:0:0:1:0']);
  if (p.userPhoto) pairs.push(['PhotoFunOn', '1']);
  return pairs;
}

/** INFO: fw, users, fingerprints, attlogs, ip, fp alg, face alg, faces per enrolment, faces, feature bits (fx 27). */
export function infoParameter(p: DeviceProfile, store: RecordStore): string {
  const faces = store.countTemplates(2) + store.countTemplates(9);
  return [p.firmware, store.users.size, store.countTemplates(1), store.log.length, p.ip, p.fingerprintVersion, 7, 15, faces, 111].join(',');
}

/** Inventory keys, shared by `table=options` and the INFO result lines. */
function inventory(p: DeviceProfile, store: RecordStore): Array<[string, string]> {
  return [
    ['~DeviceName', p.model],
    ['MAC', p.mac],
    ['TransactionCount', String(store.log.length)],
    ['UserCount', String(store.users.size)],
    ['FingerFunOn', '1'],
    ['FPVersion', p.fingerprintVersion],
    ['FPCount', String(store.countTemplates(1))],
    ['FaceFunOn', '1'],
    ['FaceVersion', '7'],
    ['FaceCount', String(store.countTemplates(2) + store.countTemplates(9))],
    ['FWVersion', p.firmware],
    ['PushVersion', p.pushVersion],
    ['Language', String(p.language)],
    ['IPAddress', p.ip],
    ['MultiBioDataSupport', '0:1:1:0:0:0:0:0:0:1:0'],
    ...faceOptions(p),
  ];
}

/** `table=options` body: one comma-separated line, limited to the keys the server asked for if it did. */
export function optionsLine(p: DeviceProfile, store: RecordStore, requested?: readonly string[]): string {
  let pairs = inventory(p, store);
  if (requested && requested.length > 0) {
    const wanted = new Set(requested.map((k) => k.replace(/^~/, '').toLowerCase()));
    pairs = pairs.filter(([k]) => wanted.has(k.replace(/^~/, '').toLowerCase()));
  }
  return pairs.map(([k, v]) => `${k}=${v}`).join(',');
}

export function infoResultLines(p: DeviceProfile, store: RecordStore): string[] {
  return inventory(p, store).map(([k, v]) => `${k}=${v}`);
}

/** Registry body: `DeviceType=acc,~DeviceName=..,FirmVer=..,PushVersion=..,MAC=..,LockCount=1,...` on one line. */
export function registryLine(p: DeviceProfile): string {
  const pairs: Array<[string, string]> = [
    ['DeviceType', 'acc'],
    ['~DeviceName', p.model],
    ['FirmVer', p.firmware],
    ['PushVersion', p.pushVersion],
    ['MAC', p.mac],
    ['LockCount', String(p.lockCount)],
    ['ReaderCount', '2'],
    ['AuxInCount', '1'],
    ['AuxOutCount', '1'],
    ['CommType', 'ethernet'],
    ['MaxPackageSize', '2048000'],
    ['MachineType', '101'],
    ['~IsOnlyRFMachine', '0'],
    ['~MaxUserCount', '10000'],
    ['~MaxAttLogCount', '100000'],
    ['~MaxUserFingerCount', '10'],
    ['IPAddress', p.ip],
    ['~ZKFPVersion', p.fingerprintVersion],
    ['FingerFunOn', '1'],
    ['FaceFunOn', '1'],
    ['MultiBioDataSupport', '0:1:1:0:0:0:0:0:0:1:0'],
    // Validity as YYYYMMDD, and tables with a DevID field (position 26 of AccSupportFunList).
    ['DateFmtFunOn', '0'],
    ['AccSupportFunList', `${'0'.repeat(26)}1${'0'.repeat(7)}`],
    ...faceOptions(p),
  ];
  return pairs.map(([k, v]) => `${k}=${v}`).join(',');
}
