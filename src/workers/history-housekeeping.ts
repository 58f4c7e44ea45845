import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { PeriodicJobs } from '../jobs/periodic-jobs';
import { archiveFinishedCommands } from '../services/commands/device-command-archive.service';
import { dropExpiredAttempts, dropExpiredCommandLog, dropExpiredEvents, ensurePartitions } from '../db/partitions';

/**
 * Keeps the partitioned history in shape: the coming months' partitions exist before rows need
 * them, event months past the retention are dropped, and finished device commands move to the
 * command log archive, whose months past its retention are dropped. Any process may run any of
 * these jobs: partition changes take the same advisory lock and check what another process
 * already did, and the archive moves rows it locked (others skip them).
 */
export class HistoryHousekeeping {
  constructor(private readonly deps: { orm: MikroORM; config: Config; logger: Logger; now: () => Date }) {}

  registerJobs(jobs: PeriodicJobs): void {
    jobs.add('partitions', this.deps.config.eventPurgeMs, () => this.ensurePartitions());
    jobs.add('event_purge', this.deps.config.eventPurgeMs, () => this.purge());
    jobs.add('command_archive', this.deps.config.eventPurgeMs, () => this.archiveCommands());
  }

  /** Moves finished commands past the archive age, then drops archive months past the retention. */
  async archiveCommands(): Promise<{ archived: number; dropped: number }> {
    const { orm, config, logger, now } = this.deps;
    const archived = await archiveFinishedCommands(orm.em.fork(), new Date(now().getTime() - config.commandArchiveDays * 86_400_000));
    const dropped = await dropExpiredCommandLog(orm.em.fork(), new Date(now().getTime() - config.commandLogRetentionDays * 86_400_000));
    if (archived > 0 || dropped > 0) logger.info({ archived, dropped }, 'device commands archived');
    return { archived, dropped };
  }

  async ensurePartitions(): Promise<string[]> {
    const created = await ensurePartitions(this.deps.orm.em.fork(), this.deps.now());
    if (created.length > 0) this.deps.logger.info({ created }, 'history partitions created');
    return created;
  }

  /**
   * Drops the events (and their webhook deliveries) and the webhook attempts of months wholly past
   * the retention. Returns how many events went.
   */
  async purge(): Promise<number> {
    const { orm, config, logger, now } = this.deps;
    const cutoff = new Date(now().getTime() - config.eventRetentionDays * 86_400_000);
    // Attempts first: the deliveries the event purge deletes then have no attempts left to cascade to.
    const attempts = await dropExpiredAttempts(orm.em.fork(), cutoff);
    const purged = await dropExpiredEvents(orm.em.fork(), cutoff);
    if (purged > 0 || attempts > 0) logger.info({ purged, attempts }, 'events purged');
    return purged;
  }
}
