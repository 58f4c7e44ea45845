// In-memory buffers between the terminals' requests and the database: last-seen times (plus any
// reported value that changed) per device, and contacts of unknown serials. `drain()` hands each
// batch over once; the gateway writes it with one statement per batch.
//
// A poll allocates nothing here: its device id and time go into two typed arrays. Per-poll objects
// (an entry, a Date) would live until the next flush, long enough to be promoted to V8's old
// generation, whose growth is most of the service's memory per terminal (docs/decisions.md,
// "Memory per terminal"). The arrays hold one slot per poll until the flush; when they are full
// they are first compacted to one slot per device, so they never outgrow the number of devices
// polling between two flushes, even while flushes fail.
import type { PresenceEntry } from '../services/terminals/presence.service';
import type { ReportedInfo } from '../services/terminals/terminal.service';
import type { UnknownContact } from '../services/terminals/unknown-terminal.service';

const INITIAL_SLOTS = 1024;

export class PresenceBuffer {
  private ids = new Int32Array(INITIAL_SLOTS);
  /** Epoch milliseconds, parallel to `ids`. */
  private times = new Float64Array(INITIAL_SLOTS);
  private count = 0;
  private reported = new Map<number, Partial<ReportedInfo>>();
  private unknown = new Map<string, UnknownContact>();

  /** The device was seen at `atMs` (epoch ms); `reported` values override earlier ones in the batch. */
  touch(deviceId: number, atMs: number, reported?: Partial<ReportedInfo>): void {
    if (this.count === this.ids.length) this.makeRoom();
    this.ids[this.count] = deviceId;
    this.times[this.count] = atMs;
    this.count++;
    if (reported) this.reported.set(deviceId, { ...this.reported.get(deviceId), ...reported });
  }

  contact(contact: Omit<UnknownContact, 'firstSeenAt' | 'lastSeenAt' | 'requests'>, at: Date): void {
    const key = contact.serialNumber.toLowerCase();
    const entry = this.unknown.get(key);
    if (!entry) {
      this.unknown.set(key, { ...contact, firstSeenAt: at, lastSeenAt: at, requests: 1 });
      return;
    }
    entry.requests += 1;
    entry.ip = contact.ip;
    if (at > entry.lastSeenAt) entry.lastSeenAt = at;
    entry.model = contact.model ?? entry.model;
    entry.firmware = contact.firmware ?? entry.firmware;
    entry.protocol = contact.protocol ?? entry.protocol;
  }

  /** Takes everything buffered so far, one entry per device with its latest time (new requests start new batches). */
  drain(): { seen: PresenceEntry[]; unknown: UnknownContact[] } {
    const seen = [...this.latestTimes()].map(([deviceId, ms]): PresenceEntry => ({ deviceId, seenAt: new Date(ms), reported: this.reported.get(deviceId) }));
    const batch = { seen, unknown: [...this.unknown.values()] };
    this.count = 0;
    this.reported = new Map();
    this.unknown = new Map();
    return batch;
  }

  /** Puts a batch back after a failed write, without overwriting newer data. */
  restore(batch: { seen: PresenceEntry[]; unknown: UnknownContact[] }): void {
    for (const entry of batch.seen) {
      const newer = this.reported.get(entry.deviceId);
      this.touch(entry.deviceId, entry.seenAt.getTime());
      if (entry.reported) this.reported.set(entry.deviceId, { ...entry.reported, ...newer });
    }
    for (const contact of batch.unknown) {
      const key = contact.serialNumber.toLowerCase();
      const newer = this.unknown.get(key);
      this.unknown.set(key, newer ? { ...newer, firstSeenAt: contact.firstSeenAt, requests: newer.requests + contact.requests } : contact);
    }
  }

  /** Latest time per device, in the order the devices were first seen. */
  private latestTimes(): Map<number, number> {
    const latest = new Map<number, number>();
    for (let i = 0; i < this.count; i++) {
      const id = this.ids[i]!;
      const ms = this.times[i]!;
      const before = latest.get(id);
      if (before === undefined || ms > before) latest.set(id, ms);
    }
    return latest;
  }

  /** Full: keep one slot per device, and grow only if that is still more than half the slots. */
  private makeRoom(): void {
    const latest = this.latestTimes();
    if (latest.size > this.ids.length / 2) {
      this.ids = new Int32Array(this.ids.length * 2);
      this.times = new Float64Array(this.times.length * 2);
    }
    this.count = 0;
    for (const [id, ms] of latest) {
      this.ids[this.count] = id;
      this.times[this.count] = ms;
      this.count++;
    }
  }
}
