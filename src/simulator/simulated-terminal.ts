// One simulated terminal. It behaves like firmware on the wire: handshake (and, on security
// devices, registry + push + token cookie), a poll every Delay/RequestDelay, real-time uploads,
// command execution with batched results, and it keeps whatever the server did not acknowledge.
//
// All traffic of one terminal is serial (one request in flight), as on a real device. The work
// loop is driven by two flags: `wantPoll` (poll timer fired: handshake if needed, upload, poll)
// and `wantFlush` (new data: upload only). Timers are plain setTimeout chains, so stop() and
// goOffline() can clear them and tear down the request in flight.
import { accessEvent } from './access-check';
import {
  FIRST_PERSON_OPEN,
  inFirstCardOpenPeriod,
  MULTI_PERSON_OPEN,
  MULTI_PERSON_WAIT,
  multiCardDecision,
  multiCardDoor,
  startsFirstCardOpenPeriod,
  VERIFIED_NORMALLY_OPEN,
} from './opening-rules';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { commandEcho, executeCommand, type CommandEffect, type CommandOutcome, type ExecutionContext, type TerminalFamily } from './command-executor';
import { parseCommandReply, type ParsedCommand } from './command-parser';
import { infoParameter, infoResultLines, optionsLine, registryLine, resolveProfile, VISIBLE_FACE_VERSION, type DeviceProfile } from './device-profile';
import { HttpStatusError, sendRequest, type HttpReply, type InFlight, type OutgoingRequest } from './http-transport';
import {
  accBiodataLine,
  accTemplatev10Line,
  accUserLine,
  attlogLine,
  biodataLine,
  operlogFingerprintLine,
  operlogUserLine,
  rtlogLine,
  rtstateLine,
} from './record-lines';
import { RecordStore, type LogRecord, type TemplateRecord, type UserRecord } from './record-store';
import { isUploadAcknowledged, optionValue, parseAttendanceOptions, parseKeyValueLines, parseRegistryCode, secondsOption } from './reply-parser';
import * as requests from './request-builder';
import { UploadQueues, type QueuedRecord } from './upload-queue';
import { fakeTemplate, formatDeviceTime, joinRecords, parseTimeZoneOption, sessionToken, type LineEnding } from './wire-format';

export interface SimulatedTerminalConfig {
  serverUrl: string;
  serialNumber: string;
  family: TerminalFamily;
  /** Overrides the server's Delay (attendance) / RequestDelay (security). */
  pollIntervalMs?: number;
  /** Overrides the server's ErrorDelay: wait before reconnecting after a failure. */
  errorDelayMs?: number;
  model?: string;
  firmware?: string;
  /** `pushver` of the handshake; defaults 2.4.1 (att) / 3.1.2 (acc). */
  pushVersion?: string;
  /** Minutes east of UTC for device local time; defaults to the server's TimeZone option, else 0. */
  timeZoneOffset?: number;
  lineEnding?: LineEnding;
  language?: number;
  macAddress?: string;
  ipAddress?: string;
  /** Fingerprint algorithm version the terminal reports and enrols with. Default `10`. */
  fingerprintVersion?: string;
  /** Shared agent (fleets); otherwise the terminal owns a one-socket agent. */
  agent?: http.Agent;
  /** See RequestContext.connection. Default `device`. */
  connection?: 'device' | 'keep-alive';
  /** Per-request timeout; the security TimeoutSec option applies when this is not set. Default 10 s. */
  requestTimeoutMs?: number;
  maxRecordsPerUpload?: number;
  maxLogRecords?: number;
  /** Re-upload users, templates and the whole log after every handshake (as some firmware does). */
  resendHistoryOnHandshake?: boolean;
  /** Time a REBOOT takes before the next handshake. Default 3 s. */
  rebootDelayMs?: number;
  /** Test hook: a number makes the command fail with that code without executing it. */
  failCommands?: (command: ParsedCommand) => number | null;
  /**
   * Access control: decide each verification from the tables the terminal holds (user validity,
   * `userauthorize`, `timezone`) and log the refusal a controller logs (27, 29, 23) instead of an
   * opening. Off by default: a plain simulator opens for everyone.
   */
  enforceAccess?: boolean;
  /**
   * The terminal's clock runs this many seconds off (default 0): its records carry the wrong time
   * until the server sets it (`CHECK` on attendance terminals, which re-handshakes and takes the
   * reply's time; `SET OPTIONS DateTime=` on access control).
   */
  clockSkewSeconds?: number;
  /** Visible-light faces: `photo` (enrols from comparison photos), `template` (takes templates only), `none` (default). */
  visibleFace?: 'photo' | 'template' | 'none';
  /** Shows user photos (USERPIC). Default false. */
  userPhoto?: boolean;
  /** Access control: doors (registry `LockCount`). Default 1. */
  lockCount?: number;
  /** Attendance terminals: holds the PUSH 2.x access settings (`AccTimeZone`). Default true; false answers -1004. */
  accessTables?: boolean;
  /**
   * Headers sent with every request after the device's own (a virtual terminal played by the
   * service itself proves so with one; docs/sandbox.md).
   */
  extraHeaders?: ReadonlyArray<readonly [string, string]>;
  /**
   * Security terminals: the RegistryCode and SessionID the terminal already holds (its flash kept
   * them), so that it proves its pairing from the first request, as a controller does after a restart.
   */
  credentials?: { registryCode: string; sessionId: string };
  /**
   * The answer to a comparison photo (BIOPHOTO) of a pin: `0` (default) enrols the face, or a
   * failure such as `D01E0001` (no face), `D01E0003` (not sharp), `-1001` (full).
   */
  photoEnrollResult?: (pin: string) => string;
}

export interface TerminalStats {
  /** Requests the server answered (any status). */
  requests: number;
  handshakes: number;
  polls: number;
  punchesQueued: number;
  punchesSent: number;
  punchesAcknowledged: number;
  commandsExecuted: number;
  uploadsRejected: number;
  errors: number;
}

export interface PunchInput {
  pin: string;
  at?: Date;
  /** Attendance state on att; inoutstatus on acc (0 the door's in reader, 1 its out reader). Default 0. */
  status?: number;
  /** Access control: the door verified at (rtlog `eventaddr`). Default 1. */
  door?: number;
  /** Verify mode. Default 1 (fingerprint). */
  verify?: number;
  workcode?: string;
  /** Security event code. Default 0 (normal verify open). */
  event?: number;
  cardNo?: string;
}

export interface HandshakeEvent {
  family: TerminalFamily;
  options: Map<string, string>;
  pollIntervalMs: number;
  registryCode?: string;
  sessionId?: string;
  token?: string;
}

export interface UploadEvent {
  table: string;
  count: number;
  status: number;
  reply: string;
  acknowledged: boolean;
}

export interface CommandEvent {
  command: ParsedCommand;
  rc: number | string;
  echo: string;
}

/**
 * What a security terminal keeps in its own storage once registered: the RegistryCode and SessionID
 * it was given and the token computed from them. Unlike the connection session, it survives
 * reconnects, errors and reboots, so the terminal proves itself on its next handshake and registry
 * (Security PUSH  examples carry the cookie even before registration).
 */
interface Credentials {
  registryCode: string;
  sessionId: string;
  token: string;
}

interface Session {
  options: Map<string, string>;
  pollMs: number;
  errorMs: number;
  realtime: boolean;
  timeoutMs: number;
  token?: string;
}

const ATT_TABLES = ['OPERLOG', 'BIODATA', 'ATTLOG'] as const;
const ACC_TABLES = ['user', 'templatev10', 'biodata', 'rtlog', 'rtstate'] as const;
const ACC_TABLEDATA = new Set(['user', 'templatev10', 'biodata']);

export class SimulatedTerminal extends EventEmitter {
  readonly serialNumber: string;
  readonly family: TerminalFamily;
  readonly store: RecordStore;
  readonly stats: TerminalStats = {
    requests: 0,
    handshakes: 0,
    polls: 0,
    punchesQueued: 0,
    punchesSent: 0,
    punchesAcknowledged: 0,
    commandsExecuted: 0,
    uploadsRejected: 0,
    errors: 0,
  };
  private readonly profile: DeviceProfile;
  private readonly queues: UploadQueues;
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly ownsAgent: boolean;
  private readonly execution: ExecutionContext;
  private tzOffset: number;
  /** How far the terminal's clock is off, in ms (see clockSkewSeconds). */
  private clockSkewMs: number;
  private session: Session | null = null;
  private credentials: Credentials | null = null;
  private online = false;
  private stopped = false;
  private busy = false;
  private wantPoll = false;
  private wantFlush = false;
  /** Bumped whenever connectivity changes, so a torn-down request's failure is not an error. */
  private epoch = 0;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: InFlight | null = null;
  private loop: Promise<void> = Promise.resolve();
  private pendingResults: string[] = [];
  private infoDue = true;

  constructor(private readonly config: SimulatedTerminalConfig) {
    super();
    this.serialNumber = config.serialNumber;
    this.family = config.family;
    this.base = new URL(config.serverUrl);
    this.store = new RecordStore(config.maxLogRecords);
    this.profile = resolveProfile(config);
    this.queues = new UploadQueues(config.family === 'att' ? ATT_TABLES : ACC_TABLES);
    this.tzOffset = config.timeZoneOffset ?? 0;
    this.clockSkewMs = (config.clockSkewSeconds ?? 0) * 1000;
    if (config.credentials) {
      const { registryCode, sessionId } = config.credentials;
      this.credentials = { registryCode, sessionId, token: sessionToken(registryCode, config.serialNumber, sessionId) };
    }
    this.ownsAgent = config.agent === undefined;
    const agentOptions = { keepAlive: config.connection === 'keep-alive', maxSockets: 1 };
    this.agent = config.agent ?? (this.base.protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions));
    this.execution = {
      family: config.family,
      store: this.store,
      now: () => this.deviceNow(),
      infoLines: () => infoResultLines(this.profile, this.store),
      optionPairs: () =>
        [...registryLine(this.profile).split(','), ...infoResultLines(this.profile, this.store)].map((pair): [string, string] => [
          pair.slice(0, pair.indexOf('=')),
          pair.slice(pair.indexOf('=') + 1),
        ]),
      accessTables: config.accessTables ?? true,
      photos: {
        visibleFace: this.profile.visibleFace,
        userPhoto: this.profile.userPhoto,
        faceVersion: VISIBLE_FACE_VERSION,
        enrollResult: (pin) => this.photoEnrollResult(pin),
      },
    };
  }

  get isOnline(): boolean {
    return this.online;
  }

  get isConnected(): boolean {
    return this.session !== null;
  }

  /** Records waiting for an acknowledgement (uploads and command results). */
  get pendingCount(): number {
    return this.queues.size() + this.pendingResults.length;
  }

  start(): void {
    this.goOnline();
  }

  /** Stops all traffic for good and releases the terminal's own agent. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.goOffline();
    await this.loop;
    if (this.ownsAgent) this.agent.destroy();
  }

  /** Network unplugged: no more requests; everything not acknowledged stays queued. */
  goOffline(): void {
    this.online = false;
    this.epoch++;
    this.session = null;
    this.clearTimer();
    this.inFlight?.abort();
  }

  /**
   * The controller loses power and starts again: what it holds in memory only is gone (doors locked
   * down or held open by `CONTROL DEVICE 06`/`07`, first-person-in open periods, multi-person
   * verifications waiting), its tables, parameters, log and credentials stay (flash). An access
   * controller logs 206 (device start-up); then it handshakes again and uploads what it had not.
   */
  restart(): void {
    this.store.lockedDownDoors.clear();
    this.store.emergencyOpenDoors.clear();
    this.store.firstCardOpenDoors.clear();
    this.store.multiCardWaiting.clear();
    this.goOffline();
    if (this.family === 'acc') {
      const started = this.store.appendLog({ pin: '0', time: this.deviceNow(), status: 2, verify: 200, workcode: '0', event: 206, door: 0, cardNo: '0' });
      this.queueLog(started);
    }
    this.goOnline();
  }

  /** Network back: a fresh handshake, then the queued records. */
  goOnline(): void {
    if (this.stopped || this.online) return;
    this.online = true;
    this.epoch++;
    this.session = null;
    this.wantPoll = true;
    this.drain();
  }

  /**
   * A person verifies at the terminal (access control: at `door`, by its in or out reader as
   * `status` says). With Realtime on, it is uploaded at once.
   */
  punch(input: PunchInput): LogRecord {
    const time = formatDeviceTime(input.at ?? new Date(Date.now() + this.clockSkewMs), this.tzOffset);
    const door = input.door ?? 1;
    const decided = this.family === 'acc' ? this.doorDecision(input.pin, door, input.status ?? 0, time) : 0;
    const record = this.store.appendLog({
      pin: input.pin,
      time,
      status: input.status ?? 0,
      verify: input.verify ?? 1,
      workcode: input.workcode ?? '0',
      event: input.event ?? decided,
      door,
      cardNo: input.cardNo ?? '0',
    });
    this.queueLog(record);
    this.stats.punchesQueued++;
    if (this.session?.realtime !== false) this.kick();
    return record;
  }

  /**
   * Access control: a door locked down (`CONTROL DEVICE 06`) refuses everyone — logged with the
   * generic refusal 23, as the vendor's table has no code of its own for it; a door held open for
   * an evacuation (`07`) lets everyone through (1, verified during a normally-open period); else
   * the tables decide when `enforceAccess` is on.
   */
  private doorDecision(pin: string, door: number, direction: number, time: string): number {
    if (this.store.lockedDownDoors.has(door)) return 23;
    if (this.store.emergencyOpenDoors.has(door)) return 1;
    return this.config.enforceAccess ? this.decide(pin, door, direction, time) : 0;
  }

  /**
   * What the controller decides: the person's rights (user, validity, authorisations; access-check.ts),
   * then its door rules (door-rules.ts). A granted verification is a passage, and opens the door;
   * during a first-person-in open period it is logged as 1, and the first person's starts one (2);
   * at a multi-person door it waits (26) until a combination is complete (3; opening-rules.ts).
   */
  private decide(pin: string, door: number, direction: number, time: string): number {
    const rights = accessEvent(this.store, pin, door, time);
    if (rights !== 0) return rights;
    if (inFirstCardOpenPeriod(this.store, door, time)) return VERIFIED_NORMALLY_OPEN;
    const ruled = this.store.rules.decide(this.store.parameters, this.profile.lockCount, pin, door, direction);
    if (ruled !== 0) return ruled;
    const multi = multiCardDoor(this.store, door) ? multiCardDecision(this.store, pin, door, time) : 0;
    if (multi === MULTI_PERSON_WAIT) return multi;
    this.store.rules.pass(this.store.parameters, this.profile.lockCount, pin, door, direction);
    if (multi === MULTI_PERSON_OPEN) return multi;
    return startsFirstCardOpenPeriod(this.store, pin, door, time) ? FIRST_PERSON_OPEN : 0;
  }

  /** A user enrolled on the terminal's own keypad: reported as OPERLOG `USER` / tabledata `user`. */
  enrollUser(pin: string, fields: Partial<Omit<UserRecord, 'uid' | 'pin'>> = {}): UserRecord {
    const user = this.store.upsertUser(pin, { name: fields.name ?? `User ${pin}`, ...fields });
    this.queueUser(user);
    this.infoDue = true;
    this.kick();
    return user;
  }

  /** A fingerprint enrolled on the terminal: OPERLOG `FP` (att) / tabledata `templatev10` (acc). */
  enrollFingerprint(pin: string, fingerId = 0): TemplateRecord {
    return this.enrollTemplate(pin, 1, fingerId);
  }

  /** Any biometric type (e.g. 9 visible-light face): `table=BIODATA` (att) / tabledata `biodata` (acc). */
  enrollBiometric(pin: string, type: number, no = 0): TemplateRecord {
    return this.enrollTemplate(pin, type, no);
  }

  /**
   * Door 1 is forced (opened without an unlock: rtlog 102 and the rtstate alarm bit 0) or left open
   * too long (rtlog 28, bit 4). Access-control terminals only. The alarm lasts until cancelled
   * (`CONTROL DEVICE 02…`); a held-open alarm also ends when the door closes.
   */
  doorAlarm(kind: 'forced_open' | 'held_open'): LogRecord {
    if (this.family !== 'acc') throw new Error('door alarms are simulated on access-control terminals');
    this.store.doorOpen = true;
    this.store.doorAlarmBits |= kind === 'forced_open' ? 0x01 : 0x10;
    const record = this.store.appendLog({
      pin: '0',
      time: this.deviceNow(),
      status: 2,
      verify: 200,
      workcode: '0',
      event: kind === 'forced_open' ? 102 : 28,
      door: 1,
      cardNo: '0',
    });
    this.queueLog(record);
    this.queueDoorState(false);
    this.kick();
    return record;
  }

  /** A door closes (rtlog 201; door 1 by default), which ends door 1's held-open alarm. */
  closeDoor(door = 1): LogRecord {
    if (this.family !== 'acc') throw new Error('door states are simulated on access-control terminals');
    this.store.rules.close(door);
    if (door === 1) {
      this.store.doorOpen = false;
      this.store.doorAlarmBits &= ~0x10;
    }
    const record = this.store.appendLog({ pin: '0', time: this.deviceNow(), status: 2, verify: 200, workcode: '0', event: 201, door, cardNo: '0' });
    this.queueLog(record);
    this.queueDoorState(false);
    this.kick();
    return record;
  }

  /** Queues users, templates and the whole log again, as firmware does after a handshake. */
  resendHistory(): void {
    for (const user of this.store.users.values()) this.queueUser(user);
    for (const t of this.store.templates.values()) this.queueTemplate(t);
    for (const r of this.store.log) this.queueLog(r);
    this.kick();
  }

  private enrollTemplate(pin: string, type: number, no: number): TemplateRecord {
    if (!this.store.users.has(pin)) this.enrollUser(pin);
    const template: TemplateRecord = {
      pin,
      type,
      no,
      index: 0,
      valid: '1',
      duress: '0',
      majorVer: type === 1 ? this.profile.fingerprintVersion : type === 9 ? '58' : '7',
      minorVer: '0',
      format: '0',
      tmp: fakeTemplate(`${this.serialNumber}/${pin}/${type}/${no}`),
    };
    this.store.upsertTemplate(template);
    this.queueTemplate(template);
    this.infoDue = true;
    this.kick();
    return template;
  }

  // ---- queueing -------------------------------------------------------------------------

  private queueLog(r: LogRecord): void {
    const punch = r.pin !== '0';
    if (this.family === 'att') this.queues.add('ATTLOG', { key: `log:${r.index}`, line: attlogLine(r), punch });
    else this.queues.add('rtlog', { key: `log:${r.index}`, line: rtlogLine(r), punch });
  }

  private queueUser(u: UserRecord): void {
    if (this.family === 'att') this.queues.add('OPERLOG', { key: `user:${u.pin}`, line: operlogUserLine(u), punch: false });
    else this.queues.add('user', { key: `user:${u.pin}`, line: accUserLine(u), punch: false });
  }

  private queueTemplate(t: TemplateRecord): void {
    const key = `tmp:${t.pin}:${t.type}:${t.no}`;
    if (this.family === 'att') {
      if (t.type === 1) this.queues.add('OPERLOG', { key, line: operlogFingerprintLine(t), punch: false });
      else this.queues.add('BIODATA', { key, line: biodataLine(t), punch: false });
      return;
    }
    const uid = this.store.users.get(t.pin)?.uid ?? 0;
    if (t.type === 1) this.queues.add('templatev10', { key, line: accTemplatev10Line(t, uid), punch: false });
    else this.queues.add('biodata', { key, line: accBiodataLine(t), punch: false });
  }

  private queueDoorState(unlocked: boolean): void {
    this.queues.add('rtstate', {
      key: 'rtstate',
      line: rtstateLine(this.deviceNow(), this.store.doorOpen || unlocked, this.store.doorAlarmBits, unlocked),
      punch: false,
    });
  }

  // ---- work loop ------------------------------------------------------------------------

  private kick(): void {
    this.wantFlush = true;
    this.drain();
  }

  private drain(): void {
    if (this.busy || !this.online) return;
    this.busy = true;
    this.loop = this.runLoop().finally(() => {
      this.busy = false;
      if (this.online && (this.wantPoll || this.wantFlush)) this.drain();
    });
  }

  private async runLoop(): Promise<void> {
    while (this.online && (this.wantPoll || this.wantFlush)) {
      const epoch = this.epoch;
      const poll = this.wantPoll;
      this.wantPoll = false;
      this.wantFlush = false;
      try {
        const nextMs = await this.cycle(poll);
        if (nextMs !== null && epoch === this.epoch) this.schedule(nextMs);
      } catch (err) {
        // a request torn down by goOffline()/stop() is not a failure
        if (epoch !== this.epoch || !this.online) continue;
        this.fail(err);
        this.session = null;
        this.schedule(this.config.errorDelayMs ?? this.lastErrorDelayMs);
      }
    }
  }

  private lastErrorDelayMs = 30_000;

  /** One pass; returns when the next poll is due, or null when this pass was upload-only. */
  private async cycle(poll: boolean): Promise<number | null> {
    if (this.session === null) {
      if (!poll) return null; // new data while disconnected waits for the reconnect timer
      await this.handshake();
    }
    await this.flushResults();
    await this.flushUploads();
    if (!poll) return null;
    const effect = await this.poll();
    await this.flushUploads();
    if (effect === 'reboot') {
      this.session = null;
      return this.config.rebootDelayMs ?? 3_000;
    }
    if (effect === 'recheck') {
      // Re-handshaking, the terminal takes the server's time from the reply (Date header + TimeZone).
      this.clockSkewMs = 0;
      this.session = null;
      return 0;
    }
    return this.session!.pollMs;
  }

  private schedule(ms: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wantPoll = true;
      this.drain();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private fail(err: unknown): void {
    this.stats.errors++;
    // EventEmitter throws on an unhandled 'error'; a fleet of thousands should not need listeners
    if (this.listenerCount('error') > 0) this.emit('error', err instanceof Error ? err : new Error(String(err)));
  }

  private deviceNow(): string {
    return formatDeviceTime(new Date(Date.now() + this.clockSkewMs), this.tzOffset);
  }

  private context(): requests.RequestContext {
    return {
      serialNumber: this.serialNumber,
      family: this.family,
      connection: this.config.connection ?? 'device',
      token: this.session?.token ?? this.credentials?.token,
    };
  }

  private async send(request: OutgoingRequest, timeoutMs?: number): Promise<HttpReply> {
    if (this.config.extraHeaders)
      request = { ...request, headers: [...request.headers, ...this.config.extraHeaders.map(([k, v]): [string, string] => [k, v])] };
    const inFlight = sendRequest(this.base, request, {
      agent: this.agent,
      timeoutMs: this.config.requestTimeoutMs ?? timeoutMs ?? this.session?.timeoutMs ?? 10_000,
    });
    this.inFlight = inFlight;
    try {
      const reply = await inFlight.reply;
      // Counted once answered: a request torn down by stop() may or may not have reached the server.
      this.stats.requests++;
      return reply;
    } finally {
      if (this.inFlight === inFlight) this.inFlight = null;
    }
  }

  private async sendOk(request: OutgoingRequest): Promise<HttpReply> {
    const reply = await this.send(request);
    if (reply.status !== 200) throw new HttpStatusError(reply.status, request.path);
    return reply;
  }

  // ---- handshakes -----------------------------------------------------------------------

  private async handshake(): Promise<void> {
    const event = this.family === 'att' ? await this.attendanceHandshake() : await this.accessHandshake();
    this.stats.handshakes++;
    this.infoDue = true;
    const session = this.session!;
    if (optionValue(session.options, 'PushOptionsFlag')?.trim() === '1') {
      const requested = optionValue(session.options, 'PushOptions')
        ?.split(',')
        .filter((k) => k.trim() !== '');
      await this.uploadOptions(optionsLine(this.profile, this.store, requested));
    }
    if (this.config.resendHistoryOnHandshake) this.resendHistory();
    this.emit('handshake', event);
  }

  private sessionFrom(options: Map<string, string>, delayKey: string): Session {
    const errorMs = secondsOption(options, 'ErrorDelay', 30_000);
    this.lastErrorDelayMs = errorMs;
    if (this.config.timeZoneOffset === undefined) {
      this.tzOffset = parseTimeZoneOption(optionValue(options, 'TimeZone')) ?? this.tzOffset;
    }
    return {
      options,
      pollMs: this.config.pollIntervalMs ?? secondsOption(options, delayKey, 30_000),
      errorMs,
      realtime: optionValue(options, 'Realtime')?.trim() !== '0',
      timeoutMs: secondsOption(options, 'TimeoutSec', 10_000),
    };
  }

  /** The `GET OPTION FROM: <SN>` block; a bare `OK` leaves firmware defaults (pitfall 14). */
  private async attendanceHandshake(): Promise<HandshakeEvent> {
    const reply = await this.sendOk(requests.attendanceHandshake(this.context(), this.profile.pushVersion, this.profile.language));
    const { options } = parseAttendanceOptions(reply.body, this.serialNumber);
    this.session = this.sessionFrom(options, 'Delay');
    // stamp 0 means "upload everything of that table again"
    if (optionValue(options, 'ATTLOGStamp')?.trim() === '0') for (const r of this.store.log) this.queueLog(r);
    if (optionValue(options, 'OPERLOGStamp')?.trim() === '0') {
      for (const u of this.store.users.values()) this.queueUser(u);
      for (const t of this.store.templates.values()) if (t.type === 1) this.queueTemplate(t);
    }
    return { family: 'att', options, pollIntervalMs: this.session.pollMs };
  }

  /** Security PUSH start: handshake, registry when unregistered, push for SessionID, then the token cookie. */
  private async accessHandshake(): Promise<HandshakeEvent> {
    const first = await this.sendOk(requests.accessHandshake(this.context(), this.profile.pushVersion));
    const greeting = parseKeyValueLines(first.body);
    const registered = optionValue(greeting, 'registry')?.trim().toLowerCase() === 'ok';
    let registryCode = registered ? optionValue(greeting, 'RegistryCode')?.trim() : undefined;
    let sessionId = registryCode !== undefined ? optionValue(greeting, 'SessionID')?.trim() : undefined;
    if (registryCode === undefined) {
      const reg = await this.sendOk(requests.registry(this.context(), registryLine(this.profile)));
      const code = parseRegistryCode(reg.body);
      if (code === null) throw new Error(`registry not acknowledged (reply ${JSON.stringify(reg.body.slice(0, 60))})`);
      registryCode = code;
    }
    // After a fresh registration the terminal has no SessionID yet; its stored token (if any) goes along.
    const pushCtx = { ...this.context(), token: sessionId ? sessionToken(registryCode, this.serialNumber, sessionId) : this.credentials?.token };
    const push = await this.sendOk(requests.pushConfig(pushCtx));
    const config = parseKeyValueLines(push.body);
    sessionId = optionValue(config, 'SessionID')?.trim() || sessionId;
    if (!sessionId) throw new Error(`push reply carries no SessionID (reply ${JSON.stringify(push.body.slice(0, 60))})`);
    const options = new Map([...greeting, ...config]);
    const session = this.sessionFrom(options, 'RequestDelay');
    session.token = sessionToken(registryCode, this.serialNumber, sessionId);
    this.credentials = { registryCode, sessionId, token: session.token };
    this.session = session;
    this.queueDoorState(false);
    return { family: 'acc', options, pollIntervalMs: session.pollMs, registryCode, sessionId, token: session.token };
  }

  // ---- uploads --------------------------------------------------------------------------

  private async uploadOptions(line: string): Promise<void> {
    const reply = await this.send(requests.dataUpload(this.context(), [['table', 'options']], line));
    const acknowledged = reply.status === 200 && isUploadAcknowledged(reply.body, { count: 1 });
    if (!acknowledged) this.stats.uploadsRejected++;
    this.emit('upload', { table: 'options', count: 1, status: reply.status, reply: reply.body, acknowledged } satisfies UploadEvent);
  }

  private uploadParams(table: string, count: number): { params: Array<[string, string]>; tableName?: string } {
    if (this.family === 'att') {
      const stamp = optionValue(this.session!.options, `${table}Stamp`)?.trim();
      return {
        params: [
          ['table', table],
          ['Stamp', stamp && /^\d+$/.test(stamp) && stamp !== '0' ? stamp : '9999'],
        ],
      };
    }
    if (ACC_TABLEDATA.has(table)) {
      return {
        params: [
          ['table', 'tabledata'],
          ['tablename', table],
          ['count', String(count)],
        ],
        tableName: table,
      };
    }
    return { params: [['table', table]] };
  }

  private async flushUploads(): Promise<void> {
    for (;;) {
      const batch = this.queues.nextBatch(this.config.maxRecordsPerUpload ?? 100);
      if (batch === null) return;
      const { table, records } = batch;
      const { params, tableName } = this.uploadParams(table, records.length);
      const body = joinRecords(
        records.map((r) => r.line),
        this.config.lineEnding ?? 'lf',
      );
      const punches = countPunches(records);
      this.stats.punchesSent += punches;
      const reply = await this.send(requests.dataUpload(this.context(), params, body));
      const acknowledged = reply.status === 200 && isUploadAcknowledged(reply.body, { tableName, count: records.length });
      this.emit('upload', { table, count: records.length, status: reply.status, reply: reply.body, acknowledged } satisfies UploadEvent);
      if (!acknowledged) {
        // kept for the next cycle, like firmware that got no acknowledgement
        this.stats.uploadsRejected++;
        this.stats.errors++;
        return;
      }
      this.queues.acknowledge(table, records);
      this.stats.punchesAcknowledged += punches;
    }
  }

  // ---- commands -------------------------------------------------------------------------

  private async poll(): Promise<CommandEffect> {
    const info = this.family === 'att' && this.infoDue ? infoParameter(this.profile, this.store) : undefined;
    const reply = await this.sendOk(requests.getRequest(this.context(), info));
    this.stats.polls++;
    if (info !== undefined) this.infoDue = false;
    const commands = parseCommandReply(reply.body);
    this.emit('poll', { reply: reply.body, commands: commands.length });
    let effect: CommandEffect = 'none';
    for (const command of commands) {
      const outcome = this.run(command);
      for (const r of outcome.newLog) this.queueLog(r);
      for (const r of outcome.resend ?? []) this.queueLog(r);
      for (const pin of outcome.resendUsers ?? []) this.queueUser(this.store.users.get(pin)!);
      for (const template of outcome.newTemplates ?? []) this.queueTemplate(template);
      if (outcome.queryAnswer) await this.postQueryAnswer(command.id, outcome.queryAnswer);
      if (outcome.newLog.some((r) => r.event === 8)) this.queueDoorState(true);
      else if (outcome.newLog.some((r) => r.event === 7 || r.event === 9)) this.queueDoorState(false);
      if (outcome.dataChanged) this.infoDue = true;
      if (outcome.clockSetTo !== undefined) this.clockSkewMs = outcome.clockSetTo.getTime() - this.tzOffset * 60_000 - Date.now();
      if (outcome.effect === 'reboot' || (outcome.effect === 'recheck' && effect === 'none')) effect = outcome.effect;
      const line = `ID=${command.id}&Return=${outcome.rc}&CMD=${outcome.echo}`;
      this.pendingResults.push([line, ...outcome.extraLines].join('\n'));
      this.stats.commandsExecuted++;
      this.emit('command', { command, rc: outcome.rc, echo: outcome.echo } satisfies CommandEvent);
    }
    await this.flushResults();
    return effect;
  }

  /** The rows of a `DATA QUERY` in one packet, before the command's result (fx 38). */
  private async postQueryAnswer(commandId: string, answer: { table: string; lines: string[]; type?: 'tabledata' | 'options' }): Promise<void> {
    const params: Array<[string, string]> = [
      ['type', answer.type ?? 'tabledata'],
      ['cmdid', commandId],
      ['tablename', answer.table],
      ['count', String(answer.lines.length)],
      ['packcnt', '1'],
      ['packidx', '1'],
    ];
    const reply = await this.send(requests.queryData(this.context(), params, joinRecords(answer.lines, this.config.lineEnding ?? 'lf')));
    this.emit('upload', {
      table: `querydata:${answer.table}`,
      count: answer.lines.length,
      status: reply.status,
      reply: reply.body,
      acknowledged: reply.status === 200,
    } satisfies UploadEvent);
  }

  private photoEnrollResult(pin: string): string {
    return this.config.photoEnrollResult?.(pin) ?? '0';
  }

  private run(command: ParsedCommand): CommandOutcome {
    const injected = this.config.failCommands?.(command) ?? null;
    if (injected === null) return executeCommand(this.execution, command);
    return { rc: injected, echo: commandEcho(this.family, command.verb), extraLines: [], effect: 'none', newLog: [], dataChanged: false };
  }

  /** All results of a poll in one `devicecmd` body, LF-joined (fx 12, 31); kept until a 200. */
  private async flushResults(): Promise<void> {
    if (this.pendingResults.length === 0) return;
    const results = this.pendingResults.slice();
    const reply = await this.send(requests.commandResults(this.context(), results.join('\n')));
    const acknowledged = reply.status === 200;
    this.emit('upload', { table: 'devicecmd', count: results.length, status: reply.status, reply: reply.body, acknowledged } satisfies UploadEvent);
    if (!acknowledged) throw new HttpStatusError(reply.status, '/iclock/devicecmd');
    this.pendingResults.splice(0, results.length);
  }
}

function countPunches(records: readonly QueuedRecord[]): number {
  let n = 0;
  for (const r of records) if (r.punch) n++;
  return n;
}
