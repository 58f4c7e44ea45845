// Keeps stored attendance days current, after the fact and in batches: terminal ingestion only
// writes punches (and their `attendance.created` events, which it writes anyway); this worker
// follows those events from the outbox with its own cursor, plus the days that changes marked stale
// and the days whose window has ended, and recomputes them (day-store.ts). A wake-up (the event
// NOTIFY) is delayed by `attendanceBatchDelayMs` so that one run takes many uploads together; a
// poll every `attendancePollMs` covers everything else. Live first: every wake-up also runs the
// live lane (live-days.ts), a job of its own, so the day of a punch made just now is computed within
// a fraction of a second even while the main job works through a backlog (or waits for it).
//
// One writer at a time across processes (the attendance advisory lock): a process that finds it
// taken leaves the work to the holder. The cursor advances in the transaction that stores the days,
// so a crash repeats a batch rather than losing it, and repeating it changes nothing.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import type { Metrics } from '../../observability/metrics';
import type { PeriodicJobs } from '../../jobs/periodic-jobs';
import type { RequestContext } from '../../context/request-context';
import { BatchSizer } from './batch-sizer';
import { processLiveDays } from './live-days';
import { MAX_EVENT_PAGE, processPendingDays } from './pending-days';

export const ATTENDANCE_JOB = 'attendance';
export const ATTENDANCE_LIVE_JOB = 'attendance-live';
/** Batches in one run before the job yields to the runner (the next run follows at once when woken). */
const MAX_BATCHES_PER_RUN = 50;
/** The smallest backlog batch: one terminal upload body of a backfill (500 lines). */
const MIN_EVENT_PAGE = 500;
/** Backlog batches are sized by time while the live lane found punches this recently. */
const LIVE_ABOUT_MS = 60_000;
/** Between two batches of a backlog, a pause this many times as long as the batch took. */
const BACKLOG_PAUSE_FACTOR = 3;
/** How long a batch waits at most for terminal uploads to stop queueing, and how often it looks. */
const MAX_INGESTION_WAIT_MS = 5000;
const INGESTION_LOOK_MS = 50;

export interface AttendanceWorkerDeps {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  now: () => Date;
  /** Where the days' delay behind their punches is observed (timegate_attendance_day_delay_seconds). */
  metrics?: Metrics;
  /** True while terminal uploads queue for this process's upload slots or a backfill is being stored (upload-slots.ts). */
  ingestionBusy?: () => boolean;
}

export class AttendanceWorker {
  private jobs: PeriodicJobs | null = null;
  private kickTimer: NodeJS.Timeout | null = null;
  private liveTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private readonly sizer = new BatchSizer(MIN_EVENT_PAGE, MAX_EVENT_PAGE);
  /** When the live lane last found live punches (performance.now()), or -Infinity. */
  private liveFoundAt = -Infinity;

  constructor(private readonly deps: AttendanceWorkerDeps) {}

  registerJobs(jobs: PeriodicJobs): void {
    this.jobs = jobs;
    jobs.add(ATTENDANCE_JOB, this.deps.config.attendancePollMs, () => this.runUntilIdle());
    jobs.add(ATTENDANCE_LIVE_JOB, this.deps.config.attendancePollMs, async () => void (await this.serveLive()));
  }

  /** New punches or stale marks were committed: run soon, once for everything that arrives meanwhile. */
  kick(): void {
    if (!this.jobs) return;
    const jobs = this.jobs;
    // The live lane runs on its own: a run of the main job in progress (a backlog) does not hold it.
    if (!this.liveTimer) {
      this.liveTimer = setTimeout(() => {
        this.liveTimer = null;
        void jobs.runNow(ATTENDANCE_LIVE_JOB);
      }, this.deps.config.attendanceBatchDelayMs);
      this.liveTimer.unref();
    }
    if (this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = null;
      void jobs.runNow(ATTENDANCE_JOB);
    }, this.deps.config.attendanceBatchDelayMs);
    this.kickTimer.unref();
  }

  /** No batch starts after this; the one in progress finishes (the process waits for it on stop). */
  stop(): void {
    this.stopping = true;
    if (this.kickTimer) clearTimeout(this.kickTimer);
    this.kickTimer = null;
    if (this.liveTimer) clearTimeout(this.liveTimer);
    this.liveTimer = null;
    this.jobs = null;
  }

  /** One run of the live lane: the days of punches made in the last minutes (live-days.ts); returns how many changed. */
  async serveLive(): Promise<number> {
    if (this.stopping) return 0;
    const result = await processLiveDays(this.context());
    if (result.punches > 0) this.liveFoundAt = performance.now();
    return result.changed;
  }

  /** Batches until nothing is left (or the per-run cap); returns how many days changed. */
  async runUntilIdle(): Promise<number> {
    let changed = 0;
    // A backlog is left for the next start rather than holding a stopping process: the cursor is
    // committed with each batch, so nothing is lost.
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN && !this.stopping; batch += 1) {
      await this.waitForIngestion();
      if (this.stopping) break;
      const began = performance.now();
      const result = await this.runBatch();
      this.sizer.record(result.events, performance.now() - began);
      changed += result.changed;
      if (!result.more) break;
      // A backlog (a burst of uploads) is worked off with a quarter of the time at most: terminal
      // requests keep the rest (ingestion comes first; days may lag by seconds under a burst), and
      // the pause lets more punches gather into the next batch.
      await new Promise((resolve) => setTimeout(resolve, BACKLOG_PAUSE_FACTOR * (performance.now() - began)));
    }
    return changed;
  }

  /**
   * While terminal uploads queue for a slot or a backfill is being stored, ingestion has the database
   * to itself: a batch waits until that ends, at most MAX_INGESTION_WAIT_MS, so under a burst the
   * days are computed after it, once for all its punches, and under a sustained overload a batch
   * still runs every few seconds (docs/decisions.md, "The attendance worker yields to a burst").
   */
  private async waitForIngestion(): Promise<void> {
    const busy = this.deps.ingestionBusy;
    if (!busy) return;
    const until = performance.now() + MAX_INGESTION_WAIT_MS;
    try {
      while (busy() && !this.stopping && performance.now() < until) {
        this.yieldingToUploads = true;
        await new Promise((resolve) => setTimeout(resolve, INGESTION_LOOK_MS));
      }
    } finally {
      this.yieldingToUploads = false;
    }
  }

  /** True while a batch waits for busy ingestion (for the readiness of tests and metrics). */
  yieldingToUploads = false;

  private runBatch() {
    const liveAbout = performance.now() - this.liveFoundAt < LIVE_ABOUT_MS;
    return processPendingDays(this.context(), { wait: false, eventPage: this.sizer.next(liveAbout) });
  }

  private context(): RequestContext {
    const { orm, config, logger, now, metrics } = this.deps;
    return { principal: { kind: 'operator' }, em: orm.em.fork(), requestId: 'attendance-worker', logger, now, config, metrics };
  }
}
