import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { PeriodicJobs } from '../jobs/periodic-jobs';
import { dropExpiredAttempts, dropExpiredEvents, ensurePartitions } from './partitions';

/**
 * Keeps the partitioned history in shape: the coming months' partitions exist before rows need
 * them, and event months past the retention are dropped. Any process may run either job: both
 * take the same advisory lock and check what another process already did.
 */
export class HistoryHousekeeping {
  constructor(private readonly deps: { orm: MikroORM; config: Config; logger: Logger; now: () => Date }) {}

  registerJobs(jobs: PeriodicJobs): void {
    jobs.add('partitions', this.deps.config.eventPurgeMs, () => this.ensurePartitions());
    jobs.add('event_purge', this.deps.config.eventPurgeMs, () => this.purge());
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
