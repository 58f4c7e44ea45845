import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { OperationsSnapshot } from '../observability/metrics';
import { oldestInteractiveWait } from '../services/commands/command-queue';
import { attendanceBacklogSeconds } from '../services/attendance/pending-days';
import { deviceStatusCounts } from '../services/terminals/presence.service';
import { webhookBacklogSeconds } from '../services/webhooks/webhook.service';

/** A statement of the snapshot taking longer is cancelled: a scrape never holds a connection for long. */
const STATEMENT_TIMEOUT_MS = 2000;

/**
 * Reads what the operations gauges report about the whole installation (terminals by status, the
 * oldest waiting interactive command, the attendance and webhook backlogs), in one short
 * transaction on one pooled connection. /metrics calls it at most every few seconds
 * (observability/metrics.ts); the alert rules of deploy/prometheus read it.
 */
export function operationsSnapshotReader(deps: { orm: MikroORM; config: Config; logger: Logger; now: () => Date }): () => Promise<OperationsSnapshot> {
  return async () => {
    try {
      return await deps.orm.em.fork().transactional(async (em) => {
        await em.execute(`set local statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
        const now = deps.now();
        return {
          devicesByStatus: await deviceStatusCounts(em),
          commandWaitSeconds: await oldestInteractiveWait(em, now),
          // Measured where the worker runs: a process without it has no say about its backlog.
          attendanceBacklogSeconds: deps.config.attendanceWorker ? await attendanceBacklogSeconds(em, now) : null,
          webhookBacklogSeconds: await webhookBacklogSeconds(em, now),
        };
      });
    } catch (error) {
      deps.logger.warn({ err: error }, 'operations gauges: the database read failed; they show NaN for this scrape');
      throw error;
    }
  };
}
