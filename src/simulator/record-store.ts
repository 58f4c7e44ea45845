// The terminal's own memory: user table, templates, door authorisations and the attendance /
// event log, the parameters it was set and the state of its door rules. Record indexes are assigned once and never reused, like the `index=` a security
// device puts in rtlog (servers dedupe on (SN, index)).

export interface UserRecord {
  /** Internal slot number, stable for the life of the user (`uid=` in security uploads). */
  uid: number;
  pin: string;
  name: string;
  privilege: string;
  password: string;
  card: string;
  group: string;
  timeZones: string;
  verify: string;
  startTime: string;
  endTime: string;
}

/** Biometric type index as the PUSH documents number them: 1 fingerprint, 2 NIR face, 9 visible-light face. */
export interface TemplateRecord {
  pin: string;
  type: number;
  no: number;
  index: number;
  valid: string;
  duress: string;
  majorVer: string;
  minorVer: string;
  format: string;
  tmp: string;
}

/** A `firstcard` row: this person may start the door's first-person-in in this time zone. */
export interface FirstCardRecord {
  pin: string;
  door: number;
  timezoneId: string;
}

/** A `multimcard` row: a combination of multi-card groups (one entry per person needed) that opens the door. */
export interface MultiCardRecord {
  index: string;
  door: number;
  groups: number[];
}

export interface AuthorizationRecord {
  pin: string;
  timezoneId: string;
  doorId: string;
  devId: string;
}

/** One attendance punch (attendance family) or real-time event (security family). */
export interface LogRecord {
  index: number;
  pin: string;
  /** Device local time, already formatted for the wire. */
  time: string;
  status: number;
  verify: number;
  workcode: string;
  /** Security event code: 0 normal verify, 8 remote open, 9 remote close, 27 not registered. */
  event: number;
  door: number;
  cardNo: string;
}

import { ControllerRuleState } from './door-rules';

/**
 * What a terminal keeps in flash, as JSON: its tables, parameters and counters (not its log, photos
 * or run-time door state). `RecordStore.snapshot()` writes it, `restore()` reads it back, so that a
 * simulated terminal can stop in one process and carry on in another.
 */
export interface StoreSnapshot {
  users: UserRecord[];
  templates: TemplateRecord[];
  authorizations: AuthorizationRecord[];
  timezones: Array<[string, Array<[string, number]>]>;
  accTimeZones: Array<[string, Array<[string, string]>]>;
  firstCards: FirstCardRecord[];
  multiCards: MultiCardRecord[];
  holidays: Array<[string, number]>;
  parameters: Array<[string, string]>;
  doorAlarmBits: number;
  doorOpen: boolean;
  nextUid: number;
  nextLogIndex: number;
}

const templateKey = (pin: string, type: number, no: number): string => `${pin}\u0000${type}\u0000${no}`;

export class RecordStore {
  readonly users = new Map<string, UserRecord>();
  readonly templates = new Map<string, TemplateRecord>();
  readonly authorizations = new Map<string, AuthorizationRecord>();
  /** `timezone` rows by id: field name (lower-case, e.g. `montime1`) -> the encoded interval. */
  readonly timezones = new Map<string, Map<string, number>>();
  /** Attendance terminals' `AccTimeZone` rows by UID: field (lower-case, e.g. `monstart`) -> `HHMM`. */
  readonly accTimeZones = new Map<string, Map<string, string>>();
  /** `firstcard` rows by `pin/door`. */
  readonly firstCards = new Map<string, FirstCardRecord>();
  /** `multimcard` rows by `Index`. */
  readonly multiCards = new Map<string, MultiCardRecord>();
  /** Per door, the verifications waiting for the rest of a multi-person combination. */
  readonly multiCardWaiting = new Map<number, Array<{ pin: string; group: number; at: number }>>();
  /** Doors in a first-person-in open period: door -> the time zone that ends it. */
  readonly firstCardOpenDoors = new Map<number, string>();
  /** `holiday` rows: YYYYMMDD -> holiday type (1–3). */
  readonly holidays = new Map<string, number>();
  readonly log: LogRecord[] = [];
  /** Comparison photos (BIOPHOTO) and display photos (USERPIC) by pin: the base64 content. */
  readonly bioPhotos = new Map<string, string>();
  readonly userPhotos = new Map<string, string>();
  /** Parameters written with `SET OPTIONS` (access control), by name as sent: `AntiPassback`, `InterLock`… */
  readonly parameters = new Map<string, string>();
  /** The door rules' run-time state (last passages, open doors). */
  readonly rules = new ControllerRuleState();
  doorOpens = 0;
  /** Door 1's rtstate alarm byte (bit 0 opened accidentally, bit 4 open too long; SEC-DOC §10.3). */
  doorAlarmBits = 0;
  /** Door 1's sensor. */
  doorOpen = false;
  /** Doors locked down by `CONTROL DEVICE 06<door>01` (every verification refused) until `06<door>00`. */
  readonly lockedDownDoors = new Set<number>();
  /** Doors held open by `CONTROL DEVICE 07<door>01` (emergency open) until `07<door>00`. */
  readonly emergencyOpenDoors = new Set<number>();
  private nextUid = 1;
  private nextLogIndex = 1;

  /** Bounded so a long bench run does not grow without limit; the oldest records go first. */
  constructor(private readonly maxLogRecords = 10_000) {}

  upsertUser(pin: string, fields: Partial<Omit<UserRecord, 'uid' | 'pin'>>): UserRecord {
    const existing = this.users.get(pin);
    const user: UserRecord = existing ?? {
      uid: this.nextUid++,
      pin,
      name: '',
      privilege: '0',
      password: '',
      card: '',
      group: '1',
      timeZones: '0000000000000000',
      verify: '0',
      startTime: '0',
      endTime: '0',
    };
    for (const [k, v] of Object.entries(fields) as [keyof typeof fields, string | undefined][]) {
      if (v !== undefined) user[k] = v;
    }
    this.users.set(pin, user);
    return user;
  }

  /** Deleting a user also drops its templates, authorisations and photos, as firmware does. */
  deleteUser(pin: string): boolean {
    if (pin === '*') {
      const had = this.users.size > 0;
      this.users.clear();
      this.templates.clear();
      this.authorizations.clear();
      this.bioPhotos.clear();
      this.userPhotos.clear();
      return had;
    }
    this.deleteTemplates(pin);
    this.deleteAuthorizations(pin);
    this.bioPhotos.delete(pin);
    this.userPhotos.delete(pin);
    return this.users.delete(pin);
  }

  upsertTemplate(t: TemplateRecord): void {
    this.templates.set(templateKey(t.pin, t.type, t.no), t);
  }

  /** Removes matching templates; `undefined` criteria match anything, pin `*` means all pins. */
  deleteTemplates(pin: string, type?: number, no?: number): number {
    let removed = 0;
    for (const [key, t] of this.templates) {
      if (pin !== '*' && t.pin !== pin) continue;
      if (type !== undefined && t.type !== type) continue;
      if (no !== undefined && t.no !== no) continue;
      this.templates.delete(key);
      removed++;
    }
    return removed;
  }

  /** One row per person and time zone (the key Timegate deletes a grant by). */
  upsertAuthorization(a: AuthorizationRecord): void {
    this.authorizations.set(`${a.pin}\u0000${a.timezoneId}`, a);
  }

  /** Removes a person's authorisations (`pin` `*`: everyone's), or only the one of `timezoneId`. */
  deleteAuthorizations(pin: string, timezoneId?: string): number {
    let removed = 0;
    for (const [key, a] of this.authorizations) {
      if ((pin === '*' || a.pin === pin) && (timezoneId === undefined || a.timezoneId === timezoneId)) {
        this.authorizations.delete(key);
        removed++;
      }
    }
    return removed;
  }

  upsertFirstCard(row: FirstCardRecord): void {
    this.firstCards.set(`${row.pin}/${row.door}`, row);
  }

  /** Removes `firstcard` rows of a door (and of one person when `pin` is given); door undefined: every door. */
  deleteFirstCards(door: number | undefined, pin?: string): number {
    let removed = 0;
    for (const [key, row] of this.firstCards) {
      if ((door === undefined || row.door === door) && (pin === undefined || row.pin === pin)) {
        this.firstCards.delete(key);
        removed++;
      }
    }
    return removed;
  }

  /** The terminal's flash as JSON (see StoreSnapshot). */
  snapshot(): StoreSnapshot {
    return {
      users: [...this.users.values()].map((u) => ({ ...u })),
      templates: [...this.templates.values()].map((t) => ({ ...t })),
      authorizations: [...this.authorizations.values()].map((a) => ({ ...a })),
      timezones: [...this.timezones].map(([id, row]) => [id, [...row]]),
      accTimeZones: [...this.accTimeZones].map(([id, row]) => [id, [...row]]),
      firstCards: [...this.firstCards.values()].map((f) => ({ ...f })),
      multiCards: [...this.multiCards.values()].map((m) => ({ ...m, groups: [...m.groups] })),
      holidays: [...this.holidays],
      parameters: [...this.parameters],
      doorAlarmBits: this.doorAlarmBits,
      doorOpen: this.doorOpen,
      nextUid: this.nextUid,
      nextLogIndex: this.nextLogIndex,
    };
  }

  /** Replaces the flash with a snapshot's (what was in memory before is gone). */
  restore(snapshot: StoreSnapshot): void {
    this.users.clear();
    for (const u of snapshot.users) this.users.set(u.pin, { ...u });
    this.templates.clear();
    for (const t of snapshot.templates) this.upsertTemplate({ ...t });
    this.authorizations.clear();
    for (const a of snapshot.authorizations) this.upsertAuthorization({ ...a });
    this.timezones.clear();
    for (const [id, row] of snapshot.timezones) this.timezones.set(id, new Map(row));
    this.accTimeZones.clear();
    for (const [id, row] of snapshot.accTimeZones) this.accTimeZones.set(id, new Map(row));
    this.firstCards.clear();
    for (const f of snapshot.firstCards) this.upsertFirstCard({ ...f });
    this.multiCards.clear();
    for (const m of snapshot.multiCards) this.multiCards.set(m.index, { ...m, groups: [...m.groups] });
    this.holidays.clear();
    for (const [day, type] of snapshot.holidays) this.holidays.set(day, type);
    this.parameters.clear();
    for (const [name, value] of snapshot.parameters) this.parameters.set(name, value);
    this.doorAlarmBits = snapshot.doorAlarmBits;
    this.doorOpen = snapshot.doorOpen;
    this.nextUid = Math.max(1, snapshot.nextUid);
    this.nextLogIndex = Math.max(1, snapshot.nextLogIndex);
  }

  /**
   * Numbers the next log records after `index` at least: a terminal whose log was lost must not
   * reuse the indexes a server already holds (servers dedupe security records on them).
   */
  continueLogAfter(index: number): void {
    this.nextLogIndex = Math.max(this.nextLogIndex, index + 1);
  }

  appendLog(fields: Omit<LogRecord, 'index'>): LogRecord {
    const record: LogRecord = { index: this.nextLogIndex++, ...fields };
    this.log.push(record);
    if (this.log.length > this.maxLogRecords) this.log.splice(0, this.log.length - this.maxLogRecords);
    return record;
  }

  countTemplates(type: number): number {
    let n = 0;
    for (const t of this.templates.values()) if (t.type === type) n++;
    return n;
  }
}
