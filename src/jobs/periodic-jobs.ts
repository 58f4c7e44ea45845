// The one place background work is scheduled. Each job runs every `everyMs`, never overlapping
// itself; a run that throws is logged and counted, and the next run starts on time as if nothing
// happened. Chaining runs onto the previous promise (what the presence flush once did) stops a job
// for good after one rejection: this runner has no chain to break.
//
// A job that fails `FAILING_AFTER` runs in a row is reported by `failing()`, which /readyz turns
// into a 503, so an orchestrator stops routing to (or restarts) a process whose background work
// is stuck, while one transient failure does not flap readiness. A run that failed only because the
// database was unreachable (`databaseUnavailable`: an outage, a failover in progress) is not such a
// failure: /readyz reports the database itself, and a job's count of failures from the outage would
// otherwise keep the process out of the balancer after the database is back, until the job's next
// complete run (for the attendance worker working off the backlog of re-sent uploads, a minute).
import type { Logger } from 'pino';

export const FAILING_AFTER = 3;

export interface JobOutcomeSink {
  jobRun(job: string, outcome: 'ok' | 'failed'): void;
  jobConsecutiveFailures(job: string, failures: number): void;
}

interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  consecutiveFailures: number;
  lastError: string | null;
  /** The last run failed because the database was unreachable (not counted in consecutiveFailures). */
  waitingForDatabase: boolean;
}

export class PeriodicJobs {
  private readonly jobs = new Map<string, Job>();
  private started = false;
  private stopped = false;

  constructor(
    private readonly deps: {
      logger: Logger;
      sink?: JobOutcomeSink;
      /** True when a run's error only says the database is unreachable (the app passes errors/database-unavailable.ts). */
      databaseUnavailable?: (error: unknown) => boolean;
    },
  ) {}

  /** Registers a job; it starts with `start()` (or at once when the runner already started). */
  add(name: string, everyMs: number, run: () => Promise<unknown>): void {
    if (this.jobs.has(name)) throw new Error(`periodic job ${name} registered twice`);
    const job: Job = { name, everyMs, run, timer: null, running: null, consecutiveFailures: 0, lastError: null, waitingForDatabase: false };
    this.jobs.set(name, job);
    this.deps.sink?.jobConsecutiveFailures(name, 0);
    if (this.started && !this.stopped) this.schedule(job);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs.values()) this.schedule(job);
  }

  /** Runs a job now (tests, and callers that want a run sooner); resolves when that run ended, never rejects. */
  runNow(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no periodic job ${name}`);
    return this.runOnce(job);
  }

  /** Names of the jobs whose last FAILING_AFTER runs or more all failed. */
  failing(): string[] {
    return [...this.jobs.values()].filter((job) => job.consecutiveFailures >= FAILING_AFTER).map((job) => job.name);
  }

  /** Each job's state, for logs and /readyz. */
  states(): Array<{ name: string; consecutiveFailures: number; lastError: string | null; waitingForDatabase: boolean }> {
    return [...this.jobs.values()].map(({ name, consecutiveFailures, lastError, waitingForDatabase }) => ({
      name,
      consecutiveFailures,
      lastError,
      waitingForDatabase,
    }));
  }

  /** Cancels every timer and waits for the runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs.values()) {
      if (job.timer) clearTimeout(job.timer);
      job.timer = null;
    }
    await Promise.all([...this.jobs.values()].map((job) => job.running));
  }

  private schedule(job: Job): void {
    if (this.stopped) return;
    // The next run is timed from the end of this one: a slow run delays, never stacks, the next.
    job.timer = setTimeout(() => {
      job.timer = null;
      void this.runOnce(job).finally(() => this.schedule(job));
    }, job.everyMs);
    job.timer.unref();
  }

  private runOnce(job: Job): Promise<void> {
    // A run asked for while one is in progress waits for it and then runs: callers such as
    // `sweep()` need a run that started after their call.
    const previous = job.running ?? Promise.resolve();
    const run = previous.then(() => this.execute(job));
    job.running = run;
    void run.finally(() => {
      if (job.running === run) job.running = null;
    });
    return run;
  }

  private async execute(job: Job): Promise<void> {
    try {
      await job.run();
      if (job.consecutiveFailures > 0) this.deps.logger.info({ job: job.name, after: job.consecutiveFailures }, 'periodic job recovered');
      if (job.waitingForDatabase) this.deps.logger.info({ job: job.name }, 'periodic job resumed: the database is back');
      job.consecutiveFailures = 0;
      job.lastError = null;
      job.waitingForDatabase = false;
      this.deps.sink?.jobRun(job.name, 'ok');
    } catch (error) {
      job.lastError = error instanceof Error ? error.message : String(error);
      this.deps.sink?.jobRun(job.name, 'failed');
      if (this.deps.databaseUnavailable?.(error)) {
        // Counted as a failed run in the metrics, not as the job's own failure; logged once per outage.
        if (!job.waitingForDatabase) this.deps.logger.warn({ err: error, job: job.name }, 'periodic job waits for the database');
        job.waitingForDatabase = true;
        return;
      }
      job.waitingForDatabase = false;
      job.consecutiveFailures += 1;
      // The first failure and then every tenth: a job failing every second must not flood the log.
      if (job.consecutiveFailures === 1 || job.consecutiveFailures % 10 === 0) {
        this.deps.logger.error({ err: error, job: job.name, consecutiveFailures: job.consecutiveFailures }, 'periodic job failed');
      }
    }
    this.deps.sink?.jobConsecutiveFailures(job.name, job.consecutiveFailures);
  }
}
