// Everything the terminal side of one process runs: the /iclock handler, the serial cache, the
// presence buffer flushed in batches, and the periodic sweep (offline detection, command timeouts
// and expiries). Tests call `flush()` and `sweep()` directly, with an injected clock.
import type http from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { Metrics } from '../observability/metrics';
import type { RequestContext } from '../services/context';
import { commandQueueChanges } from '../services/command-queue-changes';
import { deviceChanges } from '../services/device-changes';
import { sweepCommands } from '../services/device-command.service';
import { buildAllSyncCommands } from '../services/device-sync.service';
import { flushPresence, markSilentDevicesOffline } from '../services/presence.service';
import { changedTerminals, findTerminalsById } from '../services/terminal.service';
import { recordUnknownContacts } from '../services/unknown-terminal.service';
import { createIclockHandler } from './iclock-handler';
import { PresenceBuffer } from './presence-buffer';
import { TerminalCache } from './terminal-cache';

export class TerminalGateway {
  /** Serves one `/iclock/*` request (the http.Server calls it directly, see app.ts). */
  readonly handle: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  private readonly cache: TerminalCache;
  private readonly presence = new PresenceBuffer();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly onDeviceChanged = (serials: string[]) => this.cache.invalidate(serials);
  private readonly onCommandsQueued = (deviceIds: number[]) => this.cache.markPending(deviceIds);
  private flushing: Promise<void> = Promise.resolve();
  private refreshing: Promise<void> | null = null;

  constructor(private readonly deps: { orm: MikroORM; config: Config; logger: Logger; metrics: Metrics; now: () => Date }) {
    // An entry not served for as long as it takes to call a terminal offline is dropped, not refreshed.
    const { config } = deps;
    const idleSeconds = Math.max(3 * Math.max(config.attendanceDelaySeconds, config.accessRequestDelaySeconds), config.offlineMinSeconds);
    this.cache = new TerminalCache(config.deviceCacheTtlMs, idleSeconds * 1000);
    this.handle = createIclockHandler({ ...deps, cache: this.cache, presence: this.presence });
    deviceChanges.on('changed', this.onDeviceChanged);
    commandQueueChanges.on('queued', this.onCommandsQueued);
  }

  start(): void {
    const every = (ms: number, task: () => Promise<void>, what: string) => {
      const timer = setInterval(() => task().catch((err) => this.deps.logger.error({ err }, `${what} failed`)), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.deps.config.presenceFlushMs, () => this.flush(), 'presence flush');
    every(this.deps.config.terminalSweepMs, () => this.sweep(), 'terminal sweep');
    // Every half TTL, so a polled entry is renewed before it expires (TTL 0: nothing is cached).
    if (this.deps.config.deviceCacheTtlMs > 0) every(Math.max(10, Math.floor(this.deps.config.deviceCacheTtlMs / 2)), () => this.refreshCache(), 'device cache refresh');
  }

  /** Writes buffered last-seen times, changed terminal info and unknown-serial contacts (batched). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const batch = this.presence.drain();
      if (batch.seen.length === 0 && batch.unknown.length === 0) return;
      try {
        const ctx = this.context();
        const online = await flushPresence(ctx, batch.seen);
        await recordUnknownContacts(ctx, batch.unknown);
        if (online.length > 0) this.deps.logger.info({ devices: online }, 'terminals online');
      } catch (error) {
        this.presence.restore(batch);
        throw error;
      }
    });
    return this.flushing;
  }

  /** Re-reads the cached devices' versions and pending flags in batches (see TerminalCache). */
  refreshCache(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    const ctx = this.context();
    this.refreshing = this.cache
      .refresh({ changes: (known) => changedTerminals(ctx, known), devices: (ids) => findTerminalsById(ctx, ids) })
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  /** Flushes, then marks silent terminals offline, applies command timeouts and expiries and builds pending sync commands. */
  async sweep(): Promise<void> {
    await this.flush();
    const ctx = this.context();
    const { config } = this.deps;
    const offline = await markSilentDevicesOffline(ctx, { minSeconds: config.offlineMinSeconds, defaultPollSeconds: config.attendanceDelaySeconds });
    if (offline.length > 0) this.deps.logger.info({ devices: offline }, 'terminals offline');
    await sweepCommands(ctx, { timeoutSeconds: config.commandTimeoutSeconds, maxAttempts: config.commandMaxAttempts });
    await buildAllSyncCommands(ctx);
  }

  /** Stops the timers and writes what is still buffered. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    deviceChanges.off('changed', this.onDeviceChanged);
    commandQueueChanges.off('queued', this.onCommandsQueued);
    await this.refreshing?.catch(() => {});
    await this.flush().catch((err) => this.deps.logger.error({ err }, 'final presence flush failed'));
  }

  private context(): RequestContext {
    return {
      principal: { kind: 'terminal', serialNumber: '*' },
      em: this.deps.orm.em.fork(),
      requestId: 'terminal-gateway',
      logger: this.deps.logger,
      now: this.deps.now,
      config: this.deps.config,
      metrics: this.deps.metrics,
    };
  }
}
