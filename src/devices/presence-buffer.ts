// In-memory buffers between the terminals' requests and the database: last-seen times (plus any
// reported value that changed) per device, and contacts of unknown serials. `drain()` hands each
// batch over once; the gateway writes it with one statement per batch.
import type { PresenceEntry } from '../services/presence.service';
import type { ReportedInfo } from '../services/terminal.service';
import type { UnknownContact } from '../services/unknown-terminal.service';

export class PresenceBuffer {
  private seen = new Map<number, PresenceEntry>();
  private unknown = new Map<string, UnknownContact>();

  touch(deviceId: number, at: Date, reported?: Partial<ReportedInfo>): void {
    const entry = this.seen.get(deviceId);
    if (!entry) {
      this.seen.set(deviceId, { deviceId, seenAt: at, reported: reported ? { ...reported } : undefined });
      return;
    }
    if (at > entry.seenAt) entry.seenAt = at;
    if (reported) entry.reported = { ...entry.reported, ...reported };
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

  /** Takes everything buffered so far (new requests start new batches). */
  drain(): { seen: PresenceEntry[]; unknown: UnknownContact[] } {
    const batch = { seen: [...this.seen.values()], unknown: [...this.unknown.values()] };
    this.seen = new Map();
    this.unknown = new Map();
    return batch;
  }

  /** Puts a batch back after a failed write, without overwriting newer data. */
  restore(batch: { seen: PresenceEntry[]; unknown: UnknownContact[] }): void {
    for (const entry of batch.seen) {
      const newer = this.seen.get(entry.deviceId);
      this.seen.set(entry.deviceId, newer ? { ...newer, seenAt: newer.seenAt > entry.seenAt ? newer.seenAt : entry.seenAt, reported: { ...entry.reported, ...newer.reported } } : entry);
    }
    for (const contact of batch.unknown) {
      const key = contact.serialNumber.toLowerCase();
      const newer = this.unknown.get(key);
      this.unknown.set(key, newer ? { ...newer, firstSeenAt: contact.firstSeenAt, requests: newer.requests + contact.requests } : contact);
    }
  }
}
