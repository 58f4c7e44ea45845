import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { PeriodicJobs } from '../jobs/periodic-jobs';
import { purgeEvents } from './outbox';

/** Purges events past the retention periodically; any process may run it (a delete is idempotent). */
export class EventHousekeeping {
  constructor(private readonly deps: { orm: MikroORM; config: Config; logger: Logger; now: () => Date }) {}

  registerJobs(jobs: PeriodicJobs): void {
    jobs.add('event_purge', this.deps.config.eventPurgeMs, () => this.purge());
  }

  async purge(): Promise<number> {
    const { orm, config, logger, now } = this.deps;
    const purged = await purgeEvents(
      { principal: { kind: 'operator' }, em: orm.em.fork(), requestId: 'event-purge', logger, now, config },
      config.eventRetentionDays,
    );
    if (purged > 0) logger.info({ purged }, 'events purged');
    return purged;
  }
}
