// The terminal commands that bring one desired-state row (`device_user`) to one terminal, and the
// rule deciding which stored templates a terminal can take. Pure: no database, no clock, so the
// whole mapping is unit-tested. Command texts come from the protocol builders (which strip
// TAB/CR/LF from names and validate pins).
import {
  deleteAccessBiodataCommand,
  deleteAccessRecordCommand,
  deleteBiodataCommand,
  deleteFaceCommand,
  deleteFingerprintCommand,
  deleteTemplateV10Command,
  deleteUserAuthorizeCommand,
  deleteUserInfoCommand,
  updateAccessBiodataCommand,
  updateAccessUserCommand,
  updateBiodataCommand,
  updateFaceCommand,
  updateFingerprintCommand,
  updateTemplateV10Command,
  updateUserAuthorizeCommand,
  updateUserInfoCommand,
  updateBioPhotoCommand,
  updateUserPicCommand,
  userTimeZonesField,
  terminalDialect,
  type BiodataTemplate,
  type TerminalDialect,
  reportedOption,
} from '../../protocol';

/** What the sync engine needs to know about a terminal. */
export interface SyncTerminal {
  access: boolean;
  /** Number of doors (access: `LockCount`, at least 1): the user is authorised on all of them. */
  doors: number;
  /** Major algorithm version per biometric type index the terminal reported. */
  versions: Map<number, number>;
  /** Access terminals with unified templates (`MultiBioDataSupport`) also get `biodata` deletes. */
  biodata: boolean;
  /** Enrols visible-light faces from a photo (BIOPHOTO). */
  facePhoto: boolean;
  /** Shows a photo of the user (USERPIC). */
  userPhoto: boolean;
  /** Attendance terminals: takes the PUSH 2.x access settings (`AccTimeZone`, the user's `TZ`) until it refuses them. */
  accessTables: boolean;
  /** Access control: how `user` validity and `userauthorize` DevID are written (its `DateFmtFunOn`, `AccSupportFunList`). */
  dialect: TerminalDialect;
}

export interface SyncTemplate {
  type: number;
  no: number;
  subIndex: number;
  version: string | null;
  format: number;
  valid: boolean;
  duress: boolean;
  data: string;
}

/** One `userauthorize` row: a time-zone id of the terminal and the doors (bitmask) it opens. */
export interface TerminalGrant {
  timezoneId: number;
  doorMask: number;
}

export interface SyncRow {
  pin: string;
  previousPin: string | null;
  name: string;
  privilege: number;
  present: boolean;
  /** Access control: the person's grants from access levels; null: no level (every door, time zone 1). */
  access?: TerminalGrant[] | null;
  /** The grants the terminal was last sent; null: what rows from before access levels hold (every door, time zone 1). */
  sentAccess?: TerminalGrant[] | null;
  /** Access control: the person's multi-card group on the terminal (the `user` row's `Group`; 0 or absent: none). */
  group?: number;
  /** The validity window (`YYYY-MM-DD`, inclusive); null: open. */
  validFrom?: string | null;
  validUntil?: string | null;
  /** The employee's photo (base64 JPEG) to enrol the face from (BIOPHOTO); the caller decides when it is due. */
  facePhoto?: string | null;
  /** The employee's photo (base64 JPEG) to show on the terminal (USERPIC). */
  userPhoto?: string | null;
}

/** `YYYY-MM-DD` as the `user` table's YYYYMMDD number; 0 (unlimited) for none. */
const yyyymmdd = (date: string | null | undefined) => (date ? Number(date.replaceAll('-', '')) : 0);

/**
 * The `userauthorize` commands taking the terminal from `sent` to `wanted`: a row no longer
 * wanted, or wanted with other doors, is deleted by its own key (pin and time zone, never a
 * wholesale delete); every wanted row is written.
 */
function authorizeCommands(pin: string, sent: readonly TerminalGrant[], wanted: readonly TerminalGrant[], dialect: TerminalDialect): string[] {
  const commands: string[] = [];
  for (const old of sent) {
    const now = wanted.find((g) => g.timezoneId === old.timezoneId);
    if (!now || now.doorMask !== old.doorMask) commands.push(deleteUserAuthorizeCommand(pin, old.timezoneId));
  }
  for (const grant of wanted) {
    const doors = Array.from({ length: 8 }, (_, i) => i + 1).filter((door) => grant.doorMask & (1 << (door - 1)));
    commands.push(updateUserAuthorizeCommand({ pin, timezoneId: grant.timezoneId, doors }, dialect));
  }
  return commands;
}

/** The leading `major` of a version text (`10`, `10.0`, `VX10.0`, `12.0.1`); null when none. */
export function majorVersion(text: string | null | undefined): number | null {
  const match = /(\d+)/.exec(text ?? '');
  if (!match) return null;
  const major = Number(match[1]);
  return major > 0 ? major : null;
}

/**
 * Versions per biometric type: fingerprint from the INFO fingerprint algorithm or `FPVersion` /
 * `~ZKFPVersion`; NIR face from the INFO face algorithm or `FaceVersion`; any type from
 * `MultiBioVersion` (colon list by type index, `0` = none). Nothing reported: no templates.
 */
export function terminalOf(device: {
  access: boolean;
  fpAlgorithm?: string | null;
  faceAlgorithm?: string | null;
  reportedOptions?: Record<string, string> | null;
  accessTablesRefused?: boolean;
}): SyncTerminal {
  const options = device.reportedOptions ?? {};
  const versions = new Map<number, number>();
  const set = (type: number, text: string | null | undefined) => {
    const major = majorVersion(text);
    if (major !== null && !versions.has(type)) versions.set(type, major);
  };
  set(1, device.fpAlgorithm ?? reportedOption(options, 'FPVersion', 'ZKFPVersion'));
  set(2, device.faceAlgorithm ?? reportedOption(options, 'FaceVersion'));
  (reportedOption(options, 'MultiBioVersion') ?? '').split(':').forEach((text, type) => set(type, text));
  const lockCount = Number(reportedOption(options, 'LockCount'));
  const on = (name: string) => reportedOption(options, name) === '1';
  return {
    access: device.access,
    doors: Number.isInteger(lockCount) && lockCount >= 1 ? Math.min(lockCount, 8) : 1,
    versions,
    biodata: /1/.test(reportedOption(options, 'MultiBioDataSupport') ?? ''),
    // Comparison photos: the function flags, or visible-light faces (type 9) in the photo-support map.
    facePhoto: on('BioPhotoFun') || on('VisilightFun') || (reportedOption(options, 'MultiBioPhotoSupport') ?? '').split(':')[9] === '1',
    userPhoto: on('PhotoFunOn') || on('UserPicURLFunOn'),
    accessTables: !device.access && !device.accessTablesRefused,
    dialect: terminalDialect(options),
  };
}

/** A template fits a terminal when the terminal reported the same MAJOR algorithm version for its type. */
export function templateFits(terminal: SyncTerminal, template: Pick<SyncTemplate, 'type' | 'version'>): boolean {
  const major = majorVersion(template.version);
  return major !== null && terminal.versions.get(template.type) === major;
}

type TemplateForm = 'fingertmp' | 'face' | 'biodata' | 'templatev10';

/** Legacy forms for what they were made for (fingerprint ≤ 10, NIR face ≤ 7), unified BIODATA otherwise. */
function formOf(terminal: SyncTerminal, t: Pick<SyncTemplate, 'type' | 'version'>): TemplateForm {
  const major = majorVersion(t.version) ?? 0;
  if (terminal.access) return t.type === 1 && major === 10 ? 'templatev10' : 'biodata';
  if (t.type === 1 && major <= 10) return 'fingertmp';
  if (t.type === 2 && major <= 7) return 'face';
  return 'biodata';
}

function biodata(pin: string, t: SyncTemplate): BiodataTemplate {
  const [major = '0', minor = '0'] = (t.version ?? '0.0').split('.');
  return {
    pin,
    type: t.type,
    no: t.no,
    index: t.subIndex,
    valid: t.valid ? 1 : 0,
    duress: t.duress ? 1 : 0,
    majorVer: major,
    minorVer: minor,
    format: t.format,
    template: t.data,
  };
}

/** The command writing one template (the caller checked `templateFits`). */
export function templateUpdateCommand(terminal: SyncTerminal, pin: string, t: SyncTemplate): string {
  switch (formOf(terminal, t)) {
    case 'fingertmp':
      return updateFingerprintCommand({ pin, fid: t.no, template: t.data, valid: t.duress ? 3 : t.valid ? 1 : 0 });
    case 'face':
      return updateFaceCommand({ pin, fid: t.subIndex, template: t.data, valid: t.valid ? 1 : 0 });
    case 'templatev10':
      return updateTemplateV10Command({ pin, fingerId: t.no + (t.duress ? 16 : 0), template: t.data, valid: t.valid ? 1 : 0 });
    default:
      return terminal.access ? updateAccessBiodataCommand(biodata(pin, t)) : updateBiodataCommand(biodata(pin, t));
  }
}

/** The command removing one template from a terminal. */
export function templateDeleteCommand(terminal: SyncTerminal, pin: string, t: Pick<SyncTemplate, 'type' | 'no' | 'version' | 'duress'>): string {
  switch (formOf(terminal, t)) {
    case 'fingertmp':
      return deleteFingerprintCommand(pin, t.no);
    case 'face':
      return deleteFaceCommand(pin);
    case 'templatev10':
      return deleteTemplateV10Command(pin, t.no + (t.duress ? 16 : 0));
    default:
      return terminal.access ? deleteAccessBiodataCommand({ pin, type: t.type, no: t.no }) : deleteBiodataCommand({ pin, type: t.type, no: t.no });
  }
}

/**
 * The `TZ` of an attendance terminal's user: with levels, the person's own time zones (the
 * `AccTimeZone` ids of their schedules' slots; the firmware holds 3, further ones are not sent);
 * levels taken away, back to the group's time zones (always open); never managed, nothing.
 */
function attendanceTimeZones(row: SyncRow): string | undefined {
  if (row.access && row.access.length > 0) return userTimeZonesField([...new Set(row.access.map((g) => g.timezoneId))].slice(0, 3));
  if (row.sentAccess && row.sentAccess.length > 0) return userTimeZonesField(null);
  return undefined;
}

/** Removes a person: attendance `DATA DELETE USERINFO` (takes the templates too); access in the reference's order. */
function deleteUser(terminal: SyncTerminal, pin: string): string[] {
  if (!terminal.access) return [deleteUserInfoCommand(pin)];
  const tables = ['userauthorize', 'templatev10', ...(terminal.biodata ? ['biodata' as const] : []), 'user'] as const;
  return tables.map((table) => deleteAccessRecordCommand(table, pin));
}

/**
 * The command sequence for one row, in order: a row leaving the terminal deletes its user; a
 * present row first deletes the user under a previous pin, then writes the user record (access:
 * plus its authorisation on every door, time zone 1), then each template that fits the terminal,
 * then the photos the caller found due (face from a photo, display photo) where the terminal takes them.
 */
export function syncCommands(terminal: SyncTerminal, row: SyncRow, templates: readonly SyncTemplate[]): string[] {
  if (!row.present) return deleteUser(terminal, row.pin);
  const commands = row.previousPin && row.previousPin !== row.pin ? deleteUser(terminal, row.previousPin) : [];
  if (terminal.access) {
    const everyDoor: TerminalGrant[] = [{ timezoneId: 1, doorMask: (1 << terminal.doors) - 1 }];
    // A user re-created under a new pin starts with no authorisation (the old pin's were deleted).
    const sent = commands.length > 0 ? [] : (row.sentAccess ?? everyDoor);
    commands.push(
      updateAccessUserCommand(
        {
          pin: row.pin,
          name: row.name,
          privilege: row.privilege,
          group: row.group ?? 0,
          startTime: yyyymmdd(row.validFrom),
          endTime: yyyymmdd(row.validUntil),
        },
        terminal.dialect,
      ),
      ...authorizeCommands(row.pin, sent, row.access ?? everyDoor, terminal.dialect),
    );
  } else {
    const timeZones = terminal.accessTables ? attendanceTimeZones(row) : undefined;
    commands.push(updateUserInfoCommand({ pin: row.pin, name: row.name, privilege: row.privilege as 0 | 2 | 6 | 14, ...(timeZones ? { timeZones } : {}) }));
  }
  const fitting = templates.filter((t) => templateFits(terminal, t));
  fitting.sort((a, b) => a.type - b.type || a.no - b.no || a.subIndex - b.subIndex);
  for (const t of fitting) commands.push(templateUpdateCommand(terminal, row.pin, t));
  const family = terminal.access ? 'access' : 'attendance';
  if (row.facePhoto && terminal.facePhoto) commands.push(updateBioPhotoCommand(family, { pin: row.pin, content: row.facePhoto }));
  if (row.userPhoto && terminal.userPhoto) commands.push(updateUserPicCommand(family, { pin: row.pin, content: row.userPhoto }));
  return commands;
}
