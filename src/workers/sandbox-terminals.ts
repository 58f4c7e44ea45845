// Plays the virtual terminals of sandbox workspaces (docs/sandbox.md): each is a SimulatedTerminal
// of src/simulator, run in this process against this process's own HTTP address, so it goes
// through the same /iclock handler, queue and events as a real terminal. Of several processes on one
// database, each sandbox is played by the one holding its lease (sandbox-lease.service.ts).
//
// Every poll (TIMEGATE_SANDBOX_POLL_MS) the player renews or takes leases (every third of the lease),
// reads its sandboxes' devices and settings, starts and stops terminals to match, carries out the
// waiting triggers and saves what the terminals keep (their flash: users, access tables) so that the
// next process to play them carries on. Punches come from each terminal's schedule, on a timer.
import crypto from 'node:crypto';
import http from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { PeriodicJobs } from '../jobs/periodic-jobs';
import { SANDBOX_PROOF_HEADER } from '../kernel/sandbox';
import { utcOffsetMinutes } from '../kernel/local-time';
import { claimSandboxes, releaseSandboxes } from '../services/sandbox/sandbox-lease.service';
import { nextStep, realAt, simulatedAt, type ScheduleStep } from '../services/sandbox/virtual-schedule';
import {
  saveVirtualTerminalState,
  startState,
  takeTriggers,
  virtualTerminalsOf,
  type TriggerAction,
  type VirtualTerminalRow,
} from '../services/sandbox/virtual-terminal.service';
import { SimulatedTerminal } from '../simulator/simulated-terminal';
import type { StoreSnapshot } from '../simulator/record-store';

/** A step whose time passed longer ago than this (nobody played the terminal) is skipped, not caught up. */
const STEP_GRACE_MS = 60_000;
/** A terminal not ready for its step (not connected, nobody on it yet) tries again after this. */
const NOT_READY_RETRY_MS = 500;
/** What a terminal keeps is saved at most this often (and when it stops). */
const SAVE_EVERY_MS = 5_000;
/** Timers are armed at most this far ahead (a slow schedule's step is re-armed when it comes closer). */
const MAX_TIMER_MS = 3_600_000;

/** What a virtual terminal saves between processes. */
interface SavedState {
  store: StoreSnapshot;
  /** The schedule's progress, valid for the settings version it was made under. */
  schedule: { version: string; lastStep: number | null; toggles: Array<[string, number]> } | null;
}

interface Runner {
  row: VirtualTerminalRow;
  /** Serial, family and zone: a change starts the terminal again. */
  identity: string;
  terminal: SimulatedTerminal;
  version: string;
  /** Simulated instant of the last step played (-Infinity: none yet). */
  lastStep: number;
  /** Each person's next attendance state when the schedule alternates (0 check-in, 1 check-out). */
  toggles: Map<string, number>;
  /** Whose turn a trigger without a person is. */
  turn: number;
  timer: NodeJS.Timeout | null;
  dirty: boolean;
  savedAt: number;
}

export interface SandboxTerminalsDeps {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  /** This process's own address (virtual terminals talk to the process that plays them). */
  url: string;
  /** The secret the /iclock handler of this process expects from virtual terminals. */
  proof: string;
}

export class SandboxTerminals {
  /** This process among the players (the lease holder's name). */
  readonly holder = `${process.pid}-${crypto.randomUUID()}`;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  /** Held sandboxes → their terminals by device id. */
  private readonly sandboxes = new Map<number, Map<number, Runner>>();
  private nextClaimAt = 0;
  private stopping = false;
  private current: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SandboxTerminalsDeps) {}

  registerJobs(jobs: PeriodicJobs): void {
    jobs.add('sandbox_terminals', this.deps.config.sandboxPollMs, () => this.poll());
  }

  /** The sandboxes this process plays now (tests and logs). */
  playing(): number[] {
    return [...this.sandboxes.keys()].sort((a, b) => a - b);
  }

  /** The serials of the terminals this process plays now. */
  serials(): string[] {
    return [...this.sandboxes.values()].flatMap((runners) => [...runners.values()].map((r) => r.row.serialNumber)).sort();
  }

  /** One pass; passes never overlap (the job runner does not overlap a job, and stop() waits for it). */
  poll(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    this.current = this.pass();
    return this.current;
  }

  /** Stops every terminal (saving what they keep) and gives the leases up, so another process takes them at once. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.current.catch(() => undefined);
    const em = this.deps.orm.em.fork();
    for (const runners of this.sandboxes.values()) {
      for (const runner of runners.values()) await this.stopRunner(runner, true).catch((err) => this.deps.logger.warn({ err }, 'virtual terminal not saved'));
    }
    this.sandboxes.clear();
    await releaseSandboxes(em, this.holder).catch((err) => this.deps.logger.warn({ err }, 'sandbox leases not released; they run out'));
    this.agent.destroy();
  }

  private async pass(): Promise<void> {
    const em = this.deps.orm.em.fork();
    const now = Date.now();
    if (now >= this.nextClaimAt) {
      const leaseSeconds = this.deps.config.sandboxLeaseSeconds;
      const held = new Set(await claimSandboxes(em, this.holder, leaseSeconds));
      this.nextClaimAt = now + (leaseSeconds * 1000) / 3;
      if (this.stopping) return;
      for (const [workspaceId, runners] of this.sandboxes) {
        if (held.has(workspaceId)) continue;
        // The lease ran out (this process stalled) and another process may play it now: stop, save nothing.
        this.deps.logger.warn({ workspaceId }, 'sandbox lease lost: its terminals stop here');
        for (const runner of runners.values()) await this.stopRunner(runner, false);
        this.sandboxes.delete(workspaceId);
      }
      for (const workspaceId of held) if (!this.sandboxes.has(workspaceId)) this.sandboxes.set(workspaceId, new Map());
    }
    if (this.sandboxes.size === 0) return;
    const rows = await virtualTerminalsOf(em, [...this.sandboxes.keys()]);
    if (this.stopping) return;
    await this.reconcile(rows);
    const runners = new Map([...this.sandboxes.values()].flatMap((r) => [...r.entries()]));
    for (const trigger of await takeTriggers(em, [...runners.keys()])) {
      const runner = runners.get(trigger.deviceId);
      if (runner) this.carryOut(runner, trigger.action, trigger.pin);
    }
    for (const runner of runners.values()) {
      if (runner.dirty && Date.now() - runner.savedAt >= SAVE_EVERY_MS) await this.save(runner);
    }
  }

  /** Starts, restarts, re-schedules and stops terminals so that they are the sandboxes' devices. */
  private async reconcile(rows: VirtualTerminalRow[]): Promise<void> {
    const seen = new Set<number>();
    for (const row of rows) {
      const runners = this.sandboxes.get(row.workspaceId);
      if (!runners) continue;
      seen.add(row.deviceId);
      let runner = runners.get(row.deviceId);
      const identity = `${row.serialNumber}|${row.family}|${row.timeZone}`;
      if (runner && runner.identity !== identity) {
        await this.stopRunner(runner, true);
        runners.delete(row.deviceId);
        runner = undefined;
      }
      if (!runner) {
        const started = await this.startRunner(row, identity);
        if (started && !this.stopping) runners.set(row.deviceId, started);
        else if (started) await this.stopRunner(started, false);
        continue;
      }
      runner.row = row;
      if (runner.version !== row.settingsVersion) {
        // A new schedule: its simulated clock starts now, its first step comes next.
        runner.version = row.settingsVersion;
        runner.lastStep = -Infinity;
        runner.dirty = true;
        this.arm(runner);
      }
    }
    for (const runners of this.sandboxes.values()) {
      for (const [deviceId, runner] of runners) {
        if (seen.has(deviceId)) continue;
        // The device is gone (deleted, or the sandbox was reset): nothing to save.
        await this.stopRunner(runner, false);
        runners.delete(deviceId);
      }
    }
  }

  private async startRunner(row: VirtualTerminalRow, identity: string): Promise<Runner | null> {
    const state = await startState(this.deps.orm.em.fork(), row.deviceId);
    if (!state || this.stopping) return null;
    const saved = state.snapshot as SavedState | null;
    const terminal = new SimulatedTerminal({
      serverUrl: this.deps.url,
      serialNumber: row.serialNumber,
      family: row.family,
      agent: this.agent,
      connection: 'keep-alive',
      model: row.family === 'acc' ? 'Timegate virtual controller' : 'Timegate virtual clock',
      // A controller decides each badge from the tables Timegate sent it, as a real one does.
      enforceAccess: row.family === 'acc',
      timeZoneOffset: utcOffsetMinutes(row.timeZone, new Date()),
      extraHeaders: [[SANDBOX_PROOF_HEADER, this.deps.proof]],
      credentials: state.registryCode && state.sessionId ? { registryCode: state.registryCode, sessionId: state.sessionId } : undefined,
    });
    if (saved?.store) terminal.store.restore(saved.store);
    // Timegate keeps a controller's records by index: the next ones follow the last it holds.
    terminal.store.continueLogAfter(state.lastRecordIndex);
    const progress = saved?.schedule?.version === row.settingsVersion ? saved.schedule : null;
    const runner: Runner = {
      row,
      identity,
      terminal,
      version: row.settingsVersion,
      lastStep: progress?.lastStep ?? -Infinity,
      toggles: new Map(progress?.toggles ?? []),
      turn: 0,
      timer: null,
      dirty: false,
      savedAt: Date.now(),
    };
    // Commands change what the terminal keeps (users, access tables): saved at the next save.
    terminal.on('command', () => (runner.dirty = true));
    terminal.on('error', (err: Error) => this.deps.logger.debug({ err, serial: row.serialNumber }, 'virtual terminal request failed'));
    terminal.start();
    this.arm(runner);
    this.deps.logger.info({ workspaceId: row.workspaceId, deviceId: row.deviceId, serial: row.serialNumber }, 'virtual terminal started');
    return runner;
  }

  private async stopRunner(runner: Runner, save: boolean): Promise<void> {
    if (runner.timer) clearTimeout(runner.timer);
    runner.timer = null;
    await runner.terminal.stop();
    if (save) await this.save(runner);
  }

  private async save(runner: Runner): Promise<void> {
    const state: SavedState = {
      store: runner.terminal.store.snapshot(),
      schedule: { version: runner.version, lastStep: Number.isFinite(runner.lastStep) ? runner.lastStep : null, toggles: [...runner.toggles] },
    };
    runner.dirty = false;
    runner.savedAt = Date.now();
    await saveVirtualTerminalState(this.deps.orm.em.fork(), runner.row.deviceId, state as unknown as Record<string, unknown>, new Date());
  }

  /** Who punches at this terminal: a clock's enrolled users; at a controller, anyone of the company may present a badge. */
  private people(runner: Runner): string[] {
    if (runner.row.family === 'acc') return runner.row.companyPins;
    return [...runner.terminal.store.users.keys()].filter((pin) => pin !== '0').sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  }

  /** Sets the timer of the schedule's next step (none while the schedule is disabled). */
  private arm(runner: Runner): void {
    if (runner.timer) clearTimeout(runner.timer);
    runner.timer = null;
    const schedule = runner.row.schedule;
    if (!schedule.enabled || this.stopping) return;
    const people = Math.max(1, this.people(runner).length);
    const grace = simulatedAt(schedule, Date.now() - STEP_GRACE_MS);
    if (runner.lastStep < grace && nextStep(schedule, runner.lastStep, people).at < grace) runner.lastStep = grace;
    const step = nextStep(schedule, runner.lastStep, people);
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, realAt(schedule, step.at) - Date.now()));
    runner.timer = setTimeout(() => this.fire(runner, step), delay);
    runner.timer.unref();
  }

  private fire(runner: Runner, step: ScheduleStep): void {
    runner.timer = null;
    if (this.stopping) return;
    if (realAt(runner.row.schedule, step.at) > Date.now() + 5) return this.arm(runner);
    const people = this.people(runner);
    if (!runner.terminal.isConnected || people.length === 0) {
      // Not ready (connecting, or nobody on the clock yet): the same step, a little later.
      runner.timer = setTimeout(() => this.fire(runner, step), NOT_READY_RETRY_MS);
      runner.timer.unref();
      return;
    }
    this.punch(runner, people[step.slot % people.length]!, step.punchState);
    runner.lastStep = step.at;
    runner.dirty = true;
    this.arm(runner);
  }

  /** A person at the terminal: a clock records the punch; a controller decides the badge from its tables. */
  private punch(runner: Runner, pin: string, punchState: number | null): void {
    if (runner.row.family === 'acc') {
      runner.terminal.punch({ pin, status: 0, verify: 4 });
      return;
    }
    const state = punchState ?? runner.toggles.get(pin) ?? 0;
    if (punchState === null) runner.toggles.set(pin, state === 0 ? 1 : 0);
    runner.terminal.punch({ pin, status: state });
  }

  private carryOut(runner: Runner, action: TriggerAction, pin: string | null): void {
    const terminal = runner.terminal;
    runner.dirty = true;
    try {
      switch (action) {
        case 'punch': {
          const people = this.people(runner);
          const who = pin ?? people[runner.turn++ % Math.max(1, people.length)];
          if (who === undefined) return this.deps.logger.info({ serial: runner.row.serialNumber }, 'punch trigger: nobody on the terminal yet');
          return this.punch(runner, who, null);
        }
        case 'unknown_badge':
          // A card nobody holds (pin 0: the controller knows no person), refused as unregistered.
          terminal.punch({ pin: '0', status: 0, verify: 4, cardNo: String(crypto.randomInt(10_000_000, 99_999_999)) });
          return;
        case 'forced_open':
        case 'held_open':
          terminal.doorAlarm(action);
          return;
        case 'close_door':
          terminal.closeDoor();
          return;
      }
    } catch (err) {
      this.deps.logger.warn({ err, serial: runner.row.serialNumber, action }, 'virtual terminal trigger not carried out');
    }
  }
}
