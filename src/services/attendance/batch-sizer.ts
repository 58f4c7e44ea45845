// How many outbox events the attendance worker takes in its next backlog batch. A batch holds the
// attendance lock from start to commit, and the live lane (live-days.ts) waits for that lock: a
// clock-in arriving during a 5,000-punch batch of a backfill waited for all of it. So while live
// punches are about, batches are sized by time: the cost per event measured on the recent batches,
// aimed at BATCH_TARGET_MS per batch. Large batches are cheaper per punch (a day is computed once
// for many of its punches), so without live punches (a backfill at night) they stay large; the
// figures of that trade are in docs/decisions.md.

/** What a backlog batch aims to take, lock held (the live lane's longest wait behind it). */
export const BATCH_TARGET_MS = 250;
/** Fewer events than this say little about the cost per event (the batch's fixed cost dominates). */
const MIN_SAMPLE_EVENTS = 50;

export class BatchSizer {
  private msPerEvent: number | null = null;

  constructor(
    private readonly min: number,
    private readonly max: number,
    private readonly targetMs = BATCH_TARGET_MS,
  ) {}

  /**
   * Events for the next batch: the largest page unless `liveAbout`; then sized by time, the
   * smallest page until a batch has been measured.
   */
  next(liveAbout = true): number {
    if (!liveAbout) return this.max;
    if (this.msPerEvent === null) return this.min;
    return Math.round(Math.min(this.max, Math.max(this.min, this.targetMs / this.msPerEvent)));
  }

  /** A batch took `events` events in `ms`; the estimate follows the recent batches (half weight each). */
  record(events: number, ms: number): void {
    if (events < MIN_SAMPLE_EVENTS) return;
    const cost = ms / events;
    this.msPerEvent = this.msPerEvent === null ? cost : (this.msPerEvent + cost) / 2;
  }
}
