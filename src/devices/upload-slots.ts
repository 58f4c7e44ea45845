// How many terminal uploads this process parses and stores at once. Every upload needs a database
// connection, and the pool has DATABASE_POOL_SIZE of them. Without a limit, a burst of uploads is
// parsed as it arrives and then waits for a connection with its parsed records (some hundred bytes
// per punch) alive for the whole wait. Those objects outlive a young-generation collection, are
// copied into the old generation and cost full collections: measured, a third of the service's CPU
// per ingested punch (docs/decisions.md, "Uploads wait as bytes"). With the slots, a waiting upload
// holds only its body bytes and is parsed when it can be stored, so its records die young.
import { DATABASE_POOL_SIZE } from '../db/orm-config';

/** `live`: a small upload, a punch or door event sent as it happened; `bulk`: a terminal's backlog. */
export type UploadLane = 'live' | 'bulk';

/**
 * A counting semaphore with two first-come, first-served queues. `run` waits for a free slot, runs
 * the work and passes the slot straight to the next waiter (so a newcomer cannot overtake its
 * queue); a waiting `live` upload is served before any waiting `bulk` one, so a clock-in is stored
 * within one slice of a backfill instead of behind all of it. Live uploads are a few lines each,
 * so they cannot hold back a backlog for long.
 */
export class Slots {
  private active = 0;
  private readonly waiting: Record<UploadLane, Array<() => void>> = { live: [], bulk: [] };

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`slots need a positive integer size, got ${size}`);
  }

  /** Uploads waiting for a slot now. */
  get queued(): number {
    return this.waiting.live.length + this.waiting.bulk.length;
  }

  /** Every slot is taken and work waits for one. */
  get saturated(): boolean {
    return this.queued > 0;
  }

  async run<T>(work: () => Promise<T>, lane: UploadLane = 'bulk'): Promise<T> {
    if (this.active < this.size) this.active++;
    else await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.live.shift() ?? this.waiting.bulk.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** Bodies up to this size are live uploads (a few records sent as they happened): about 20 ATTLOG lines. */
export const LIVE_UPLOAD_BYTES = 1024;

export function uploadLane(bodyBytes: number): UploadLane {
  return bodyBytes <= LIVE_UPLOAD_BYTES ? 'live' : 'bulk';
}

/**
 * Two connections are left to everything else (API requests, heartbeats, the attendance worker),
 * so uploads never take the whole pool.
 */
export const uploadSlots = new Slots(Math.max(1, DATABASE_POOL_SIZE - 2));

let bulkUploads = 0;

/**
 * Runs an upload's slices; a bulk one (a terminal's backfill) counts as being stored meanwhile, from
 * its first slice to its last, also between slices, while it holds no slot.
 */
export async function storingUpload<T>(lane: UploadLane, work: () => Promise<T>): Promise<T> {
  if (lane !== 'bulk') return work();
  bulkUploads += 1;
  try {
    return await work();
  } finally {
    bulkUploads -= 1;
  }
}

/**
 * Ingestion is busy in this process: uploads queue for a slot, or a backfill is being stored. The
 * attendance worker's batches wait meanwhile (at most a few seconds): the days of a backfill are
 * computed after it is stored, and other tenants' requests do not meet both at once.
 */
export function ingestionBusy(): boolean {
  return uploadSlots.saturated || bulkUploads > 0;
}
