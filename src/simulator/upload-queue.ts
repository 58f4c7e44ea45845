// Records waiting for the server's acknowledgement, per upload table. A record leaves its queue
// only when the server acknowledged the exact line that was sent: a real terminal keeps
// unacknowledged data and sends it again later (protocol).

export interface QueuedRecord {
  /** Identity of the record (e.g. `log:17`, `user:42`): re-queuing the same record never doubles it. */
  key: string;
  line: string;
  /** Counts towards the punch counters (attendance punches / person events). */
  punch: boolean;
}

export class UploadQueues {
  private readonly queues = new Map<string, Map<string, QueuedRecord>>();

  /** `order` is the flush order: users and templates before the log that refers to them. */
  constructor(private readonly order: readonly string[]) {
    for (const table of order) this.queues.set(table, new Map());
  }

  add(table: string, record: QueuedRecord): void {
    const queue = this.queues.get(table);
    if (!queue) throw new Error(`no upload queue for table ${table}`);
    queue.set(record.key, record);
  }

  /** The oldest records of the first non-empty table, at most `max` of them. */
  nextBatch(max: number): { table: string; records: QueuedRecord[] } | null {
    for (const table of this.order) {
      const queue = this.queues.get(table)!;
      if (queue.size === 0) continue;
      const records: QueuedRecord[] = [];
      for (const r of queue.values()) {
        records.push(r);
        if (records.length >= max) break;
      }
      return { table, records };
    }
    return null;
  }

  /** Drops the sent records, unless the record changed while the upload was in flight. */
  acknowledge(table: string, sent: readonly QueuedRecord[]): void {
    const queue = this.queues.get(table)!;
    for (const r of sent) if (queue.get(r.key)?.line === r.line) queue.delete(r.key);
  }

  size(table?: string): number {
    if (table !== undefined) return this.queues.get(table)?.size ?? 0;
    let n = 0;
    for (const q of this.queues.values()) n += q.size;
    return n;
  }
}
