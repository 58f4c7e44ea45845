// serial -> device row, per process, with a short TTL so heartbeats do not query the database.
// Only hits are cached: an unknown serial is looked up on every request, so a terminal whose serial
// a workspace has just claimed is served on its very next request, whatever process answers it.
//
// The entry also carries whether the device has queued commands. A poll queries the queue only
// while that flag is set: it is set when this process queues a command for the device
// (`markPending`), cleared after a poll found the queue drained, and re-read from the database
// whenever the entry is reloaded — so a command queued by ANOTHER process goes out at the latest
// on the first poll after this process's entry expires (TTL + the device's poll interval).
import type { TerminalDevice } from '../services/terminal.service';

interface Entry {
  device: TerminalDevice;
  loadedAt: number;
  /** Bumped by every markPending, so a drain observed by an older poll cannot clear a newer command. */
  pendingVersion: number;
}

export class TerminalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byId = new Map<number, Entry>();

  constructor(private readonly ttlMs: number) {}

  /** The cached device when its entry is fresh (no I/O), else undefined. */
  peek(serialNumber: string): TerminalDevice | undefined {
    const hit = this.entries.get(serialNumber.toLowerCase());
    return hit && Date.now() - hit.loadedAt < this.ttlMs ? hit.device : undefined;
  }

  async get(serialNumber: string, load: (serial: string) => Promise<TerminalDevice | null>): Promise<TerminalDevice | null> {
    const key = serialNumber.toLowerCase();
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.loadedAt < this.ttlMs) return hit.device;
    const device = await load(serialNumber);
    if (hit) this.byId.delete(hit.device.id);
    if (device) {
      const entry = { device, loadedAt: Date.now(), pendingVersion: 0 };
      this.entries.set(key, entry);
      this.byId.set(device.id, entry);
    } else this.entries.delete(key);
    return device;
  }

  /** Changes this process made itself (session, protocol, reported values) keep the entry fresh. */
  patch(serialNumber: string, change: Partial<TerminalDevice>): void {
    const hit = this.entries.get(serialNumber.toLowerCase());
    if (hit) Object.assign(hit.device, change);
  }

  invalidate(serialNumbers: readonly string[]): void {
    for (const serial of serialNumbers) {
      const key = serial.toLowerCase();
      const hit = this.entries.get(key);
      if (hit) this.byId.delete(hit.device.id);
      this.entries.delete(key);
    }
  }

  /** Commands were queued for these devices: their next poll reads the queue. */
  markPending(deviceIds: readonly number[]): void {
    for (const id of deviceIds) {
      const hit = this.byId.get(id);
      if (!hit) continue;
      hit.device.hasPendingCommands = true;
      hit.pendingVersion++;
    }
  }

  /** The version to hand back to `drained` after reading the queue. */
  pendingVersion(serialNumber: string): number {
    return this.entries.get(serialNumber.toLowerCase())?.pendingVersion ?? 0;
  }

  /** A poll read the queue and left nothing behind: clear the flag unless a command was queued meanwhile. */
  drained(serialNumber: string, versionBeforeRead: number): void {
    const hit = this.entries.get(serialNumber.toLowerCase());
    if (hit && hit.pendingVersion === versionBeforeRead) hit.device.hasPendingCommands = false;
  }
}
