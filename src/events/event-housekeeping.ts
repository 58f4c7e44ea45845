import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import { purgeEvents } from './outbox';

/** Purges events past the retention periodically; any process may run it (a delete is idempotent). */
export class EventHousekeeping {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: { orm: MikroORM; config: Config; logger: Logger; now: () => Date }) {}

  start(): void {
    this.timer = setInterval(() => this.purge().catch((err) => this.deps.logger.error({ err }, 'event purge failed')), this.deps.config.eventPurgeMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
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
