// N simulated terminals against one server: generated serials, staggered start, punches at a
// fleet-wide rate, aggregate counters. Built for thousands of terminals: one shared keep-alive
// agent with a socket cap, one start timer and one punch timer for the whole fleet (each
// terminal adds only its own poll timer), no per-terminal event listeners.
import http from 'node:http';
import https from 'node:https';
import type { TerminalFamily } from './command-executor';
import { SimulatedTerminal, type SimulatedTerminalConfig, type TerminalStats } from './simulated-terminal';

export interface TerminalFleetConfig {
  serverUrl: string;
  count: number;
  family: TerminalFamily;
  /** Serial = prefix + zero-padded index (SIM00001, ...). Default `SIM`. */
  serialPrefix?: string;
  pollIntervalMs?: number;
  errorDelayMs?: number;
  /** Starts are spread evenly over this window, so the server does not see a thundering herd. Default 1 s. */
  startSpreadMs?: number;
  /** Fleet-wide punches per second (0 = none). */
  punchesPerSecond?: number;
  /** PINs punches are drawn from. Default 1..10. */
  pins?: readonly string[];
  /** Socket cap of the shared agent. Default 256. */
  maxSockets?: number;
  /** Extra settings applied to every terminal. */
  terminal?: Partial<Omit<SimulatedTerminalConfig, 'serverUrl' | 'serialNumber' | 'family' | 'agent'>>;
}

export type FleetCounters = TerminalStats & { terminals: number; online: number; connected: number; pending: number };

const PUNCH_TICK_MS = 100;

export class TerminalFleet {
  readonly terminals: SimulatedTerminal[] = [];
  private readonly agent: http.Agent;
  private startTimer: NodeJS.Timeout | null = null;
  private punchTimer: NodeJS.Timeout | null = null;
  private punchCredit = 0;
  private started = 0;
  private stopped = false;

  constructor(private readonly config: TerminalFleetConfig) {
    const agentOptions = { keepAlive: true, maxSockets: config.maxSockets ?? 256, maxFreeSockets: config.maxSockets ?? 256 };
    this.agent = new URL(config.serverUrl).protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    const width = Math.max(5, String(config.count).length);
    for (let i = 1; i <= config.count; i++) {
      this.terminals.push(
        new SimulatedTerminal({
          connection: 'keep-alive',
          ...config.terminal,
          serverUrl: config.serverUrl,
          serialNumber: `${config.serialPrefix ?? 'SIM'}${String(i).padStart(width, '0')}`,
          family: config.family,
          pollIntervalMs: config.pollIntervalMs ?? config.terminal?.pollIntervalMs,
          errorDelayMs: config.errorDelayMs ?? config.terminal?.errorDelayMs,
          agent: this.agent,
        }),
      );
    }
  }

  start(): void {
    if (this.stopped || this.startTimer !== null || this.started > 0) return;
    const spread = this.config.startSpreadMs ?? 1_000;
    const begin = Date.now();
    const startDue = (): void => {
      const due = spread <= 0 ? this.terminals.length : Math.ceil(((Date.now() - begin) / spread) * this.terminals.length);
      while (this.started < Math.min(due, this.terminals.length)) this.terminals[this.started++]!.start();
      this.startTimer = this.started < this.terminals.length ? setTimeout(startDue, 10) : null;
    };
    startDue();
    if ((this.config.punchesPerSecond ?? 0) > 0) this.punchTimer = setInterval(() => this.punchTick(), PUNCH_TICK_MS);
  }

  /** Stops every terminal, the fleet timers and the shared agent. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.startTimer !== null) clearTimeout(this.startTimer);
    if (this.punchTimer !== null) clearInterval(this.punchTimer);
    this.startTimer = this.punchTimer = null;
    await Promise.all(this.terminals.map((t) => t.stop()));
    this.agent.destroy();
  }

  counters(): FleetCounters {
    const total: FleetCounters = {
      terminals: this.terminals.length,
      online: 0,
      connected: 0,
      pending: 0,
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
    for (const t of this.terminals) {
      if (t.isOnline) total.online++;
      if (t.isConnected) total.connected++;
      total.pending += t.pendingCount;
      for (const key of Object.keys(t.stats) as Array<keyof TerminalStats>) total[key] += t.stats[key];
    }
    return total;
  }

  /** Accumulates fractional credit so low rates (0.5/s) and high rates (500/s) both come out right. */
  private punchTick(): void {
    this.punchCredit += ((this.config.punchesPerSecond ?? 0) * PUNCH_TICK_MS) / 1000;
    const pins = this.config.pins && this.config.pins.length > 0 ? this.config.pins : DEFAULT_PINS;
    while (this.punchCredit >= 1) {
      this.punchCredit -= 1;
      if (this.started === 0) continue;
      const terminal = this.terminals[Math.floor(Math.random() * this.started)]!;
      if (!terminal.isOnline) continue;
      terminal.punch({ pin: pins[Math.floor(Math.random() * pins.length)]! });
    }
  }
}

const DEFAULT_PINS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'];
