// Long computations on the request path (a timesheet that computes a year of days for hundreds of
// employees, a pay period being locked, the attendance worker's batches) run in slices: after
// SLICE_MS of CPU the computation waits for the next event-loop turn, so that other requests,
// terminal polls and /healthz are answered in between. Node runs every request on one thread, so a
// computation that never gives the loop back stops the whole service for its duration.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** CPU time one slice may take before the computation gives the event loop back. */
export const SLICE_MS = 10;

export class CpuSlice {
  private started = performance.now();
  constructor(private readonly budgetMs = SLICE_MS) {}

  /** Whether this slice has used its budget (cheap: call it between items, `pause` only when true). */
  spent(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  /** Waits for the next event-loop turn, after the I/O that came meanwhile, and starts a new slice. */
  async pause(): Promise<void> {
    await nextTurn();
    this.started = performance.now();
  }
}
