// serial -> device row, per process, with a short TTL so heartbeats do not query the database.
// Only hits are cached: an unknown serial is looked up on every request, so a terminal whose serial
// a workspace has just claimed is served on its very next request, whatever process answers it.
import type { TerminalDevice } from '../services/terminal.service';

interface Entry {
  device: TerminalDevice;
  loadedAt: number;
}

export class TerminalCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number) {}

  async get(serialNumber: string, load: (serial: string) => Promise<TerminalDevice | null>): Promise<TerminalDevice | null> {
    const key = serialNumber.toLowerCase();
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.loadedAt < this.ttlMs) return hit.device;
    const device = await load(serialNumber);
    if (device) this.entries.set(key, { device, loadedAt: Date.now() });
    else this.entries.delete(key);
    return device;
  }

  /** Changes this process made itself (session, protocol, reported values) keep the entry fresh. */
  patch(serialNumber: string, change: Partial<TerminalDevice>): void {
    const hit = this.entries.get(serialNumber.toLowerCase());
    if (hit) Object.assign(hit.device, change);
  }

  invalidate(serialNumbers: readonly string[]): void {
    for (const serial of serialNumbers) this.entries.delete(serial.toLowerCase());
  }
}
