// How many terminal uploads this process parses and stores at once. Every upload needs a database
// connection, and the pool has DATABASE_POOL_SIZE of them. Without a limit, a burst of uploads is
// parsed as it arrives and then waits for a connection with its parsed records (some hundred bytes
// per punch) alive for the whole wait. Those objects outlive a young-generation collection, are
// copied into the old generation and cost full collections: measured, a third of the service's CPU
// per ingested punch (docs/decisions.md, "Uploads wait as bytes"). With the slots, a waiting upload
// holds only its body bytes and is parsed when it can be stored, so its records die young.
import { DATABASE_POOL_SIZE } from '../db/orm-config';

/**
 * A first-come, first-served counting semaphore. `run` waits for a free slot, runs the work and
 * passes the slot straight to the next waiter (so a newcomer cannot overtake the queue).
 */
export class Slots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`slots need a positive integer size, got ${size}`);
  }

  /** Uploads waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Every slot is taken and work waits for one. */
  get saturated(): boolean {
    return this.waiting.length > 0;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.size) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * Two connections are left to everything else (API requests, heartbeats, the attendance worker),
 * so uploads never take the whole pool.
 */
export const uploadSlots = new Slots(Math.max(1, DATABASE_POOL_SIZE - 2));
