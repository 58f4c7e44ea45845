// Everything the terminal side of one process runs: the /iclock handler, the serial cache, the
// presence buffer flushed in batches, and the periodic sweep (offline detection, command timeouts
// and expiries), run by the process's PeriodicJobs. Tests call `flush()` and `sweep()` directly,
// with an injected clock.
import type http from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { Metrics } from '../observability/metrics';
import type { RequestContext } from '../context/request-context';
import { commandQueueChanges } from '../services/commands/command-queue-changes';
import { deviceChanges } from '../services/terminals/device-changes';
import { sweepCommands } from '../services/commands/command-queue';
import { buildAllSyncCommands } from '../services/sync/device-sync.service';
import { concludeClockSyncs } from '../services/fleet/device-action.service';
import { flushPresence, markSilentDevicesOffline } from '../services/terminals/presence.service';
import { changedTerminals, findTerminalsById } from '../services/terminals/terminal.service';
import { recordUnknownContacts } from '../services/terminals/unknown-terminal.service';
import { createIclockHandler } from './iclock-handler';
import { writeWithoutPoison } from '../jobs/poison';
import type { PeriodicJobs } from '../jobs/periodic-jobs';
import { PresenceBuffer } from './presence-buffer';
import { TerminalCache } from './terminal-cache';

export class TerminalGateway {
  /** Serves one `/iclock/*` request (the http.Server calls it directly, see app.ts). */
  readonly handle: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  private readonly cache: TerminalCache;
  private readonly presence = new PresenceBuffer();
  private readonly onDeviceChanged = (serials: string[]) => this.cache.invalidate(serials);
  private readonly onCommandsQueued = (deviceIds: number[]) => this.cache.markPending(deviceIds);
  private flushing: Promise<void> = Promise.resolve();
  private refreshing: Promise<void> | null = null;

  constructor(private readonly deps: { orm: MikroORM; config: Config; logger: Logger; metrics: Metrics; now: () => Date; sandboxProof?: string | null }) {
    // An entry not served for as long as it takes to call a terminal offline is dropped, not refreshed.
    const { config } = deps;
    const idleSeconds = Math.max(3 * Math.max(config.attendanceDelaySeconds, config.accessRequestDelaySeconds), config.offlineMinSeconds);
    this.cache = new TerminalCache(config.deviceCacheTtlMs, idleSeconds * 1000);
    this.handle = createIclockHandler({ ...deps, cache: this.cache, presence: this.presence });
    deviceChanges.on('changed', this.onDeviceChanged);
    commandQueueChanges.on('queued', this.onCommandsQueued);
  }

  /** Puts the terminal side's background work on the process's job runner. */
  registerJobs(jobs: PeriodicJobs): void {
    jobs.add('presence', this.deps.config.presenceFlushMs, () => this.flush());
    jobs.add('terminal_sweep', this.deps.config.terminalSweepMs, () => this.sweep());
    // Every half TTL, so a polled entry is renewed before it expires (TTL 0: nothing is cached).
    if (this.deps.config.deviceCacheTtlMs > 0)
      jobs.add('device_cache', Math.max(10, Math.floor(this.deps.config.deviceCacheTtlMs / 2)), () => this.refreshCache());
  }

  /**
   * Writes buffered last-seen times, changed terminal info and unknown-serial contacts (batched).
   * Flushes never overlap; one that fails rejects for its caller only (the next one runs). A row
   * the database refuses (a poison value) is dropped and logged, the rest of its batch written; a
   * batch that could not be written for another reason (database down) is put back for the next.
   */
  flush(): Promise<void> {
    const run = this.flushing
      .catch(() => undefined)
      .then(async () => {
        const batch = this.presence.drain();
        if (batch.seen.length === 0 && batch.unknown.length === 0) return;
        const ctx = this.context();
        const dropped = (what: string) => (item: unknown, error: unknown) => {
          this.deps.metrics.jobPoisonDropped.inc({ job: 'presence' });
          this.deps.logger.warn({ err: error, [what]: item }, 'presence: the database refused a row; dropped, the rest of the batch is written');
        };
        try {
          const online = await writeWithoutPoison(batch.seen, (entries) => flushPresence(ctx, entries), dropped('device'));
          batch.seen = [];
          await writeWithoutPoison(batch.unknown, async (contacts) => [await recordUnknownContacts(ctx, contacts)], dropped('contact'));
          if (online.length > 0) this.deps.logger.info({ devices: online }, 'terminals online');
        } catch (error) {
          this.presence.restore(batch);
          throw error;
        }
      });
    this.flushing = run;
    return run;
  }

  /** Re-reads the cached devices' versions and pending flags in batches (see TerminalCache). */
  refreshCache(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    const ctx = this.context();
    this.refreshing = this.cache.refresh({ changes: (known) => changedTerminals(ctx, known), devices: (ids) => findTerminalsById(ctx, ids) }).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Flushes, then marks silent terminals offline, applies command timeouts and deadlines, concludes clock syncs and builds pending sync commands. */
  async sweep(): Promise<void> {
    await this.flush();
    const ctx = this.context();
    const { config } = this.deps;
    const offline = await markSilentDevicesOffline(ctx, { minSeconds: config.offlineMinSeconds, defaultPollSeconds: config.attendanceDelaySeconds });
    if (offline.length > 0) this.deps.logger.info({ devices: offline }, 'terminals offline');
    await sweepCommands(ctx, { timeoutSeconds: config.commandTimeoutSeconds, maxAttempts: config.commandMaxAttempts });
    await concludeClockSyncs(ctx);
    await buildAllSyncCommands(ctx);
  }

  /** Stops listening for changes and writes what is still buffered (the job runner stops first). */
  async stop(): Promise<void> {
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
