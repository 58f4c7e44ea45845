// serial -> device row, per process, so heartbeats do not query the database. An entry is served
// while younger than the TTL. Rather than reloading each entry when it expires (one query per poll
// once the poll interval exceeds the TTL: 1,000 queries/s for 10,000 terminals polling every 10 s),
// the gateway calls `refresh()` every half TTL: one query per 2,000 cached devices sends the version
// (a hash of the cached columns) and pending-work flag the cache holds for each, and gets back only
// the devices where the database differs (usually none); only devices whose version changed are
// reloaded. An entry not served for `idleMs` is dropped instead of refreshed, so a
// terminal that stopped polling costs nothing after a while.
//
// Only hits are cached: an unknown serial is looked up on every request, so a terminal whose serial
// a workspace has just claimed is served on its very next request, whatever process answers it.
//
// The entry also carries whether the device has queued commands. A poll queries the queue only
// while that flag is set: it is set when this process queues a command for the device
// (`markPending`), cleared after a poll found the queue drained, and re-read from the database by
// every refresh or reload. A command queued by ANOTHER process is marked here by that process's
// NOTIFY (COMMAND_CHANNEL, docs/capacity.md), so it goes out at the device's next poll; if that
// wake-up is lost, at the latest on the first poll after the next refresh (TTL + the poll interval).
import type { TerminalDevice } from '../services/terminals/terminal.service';

interface Entry {
  device: TerminalDevice;
  /** When the data was read (a refresh counts from the moment it started reading). */
  loadedAt: number;
  /** Last time a request was served from this entry (or loaded it). */
  usedAt: number;
  /** Bumped by every markPending, so a drain observed by an older poll cannot clear a newer command. */
  pendingVersion: number;
  /** Bumped by every change this process makes to the entry, so a refresh read before it does not undo it. */
  changes: number;
}

export interface TerminalVersion {
  id: number;
  /** Null when the device no longer exists. */
  version: string | null;
  pending: boolean;
}

export interface RefreshSource {
  /** The devices among `known` whose version or pending flag in the database differs from it (or that are gone). */
  changes(known: TerminalVersion[]): Promise<TerminalVersion[]>;
  devices(ids: number[]): Promise<TerminalDevice[]>;
}

/** Devices per refresh query: keeps each result small and short-lived. */
const REFRESH_CHUNK = 2_000;

/** Distinct values kept in `SharedStrings`; past that, new values are cached as they are. */
const MAX_SHARED_STRINGS = 1_000;

/**
 * One copy of each value a fleet tends to have in common (time zone, firmware, algorithm
 * versions): every row read or INFO parsed is a new string, and the cache would otherwise hold one
 * copy per device for as long as the terminal polls.
 */
class SharedStrings {
  private readonly values = new Map<string, string>();

  get(value: string | null): string | null {
    if (value === null) return null;
    const shared = this.values.get(value);
    if (shared !== undefined) return shared;
    if (this.values.size < MAX_SHARED_STRINGS) this.values.set(value, value);
    return value;
  }
}

export class TerminalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byId = new Map<number, Entry>();
  private readonly shared = new SharedStrings();

  constructor(
    private readonly ttlMs: number,
    private readonly idleMs: number = Infinity,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached device when its entry is fresh (no I/O), else undefined. */
  peek(serialNumber: string): TerminalDevice | undefined {
    const hit = this.entries.get(serialNumber.toLowerCase());
    if (!hit) return undefined;
    const now = Date.now();
    if (now - hit.loadedAt >= this.ttlMs) return undefined;
    hit.usedAt = now;
    return hit.device;
  }

  async get(serialNumber: string, load: (serial: string) => Promise<TerminalDevice | null>): Promise<TerminalDevice | null> {
    const fresh = this.peek(serialNumber);
    if (fresh) return fresh;
    const key = serialNumber.toLowerCase();
    const changesBefore = this.entries.get(key)?.changes;
    const loadedAt = Date.now();
    const device = await load(serialNumber);
    const hit = this.entries.get(key);
    if (device) {
      this.share(device);
      if (hit && hit.device.id === device.id) {
        // Same device: keep the entry and its pendingVersion. A command noticed while the row was
        // being read stays pending (one extra queue read at worst).
        if (hit.changes !== changesBefore && hit.device.hasPendingCommands) device.hasPendingCommands = true;
        hit.device = device;
        hit.loadedAt = loadedAt;
        hit.usedAt = loadedAt;
        hit.changes++;
      } else {
        if (hit) this.remove(key, hit);
        const entry: Entry = { device, loadedAt, usedAt: loadedAt, pendingVersion: 0, changes: 0 };
        this.entries.set(key, entry);
        this.byId.set(device.id, entry);
      }
    } else if (hit) this.remove(key, hit);
    return device;
  }

  /** Changes this process made itself (session, protocol, reported values) keep the entry fresh. */
  patch(serialNumber: string, change: Partial<TerminalDevice>): void {
    const hit = this.entries.get(serialNumber.toLowerCase());
    if (!hit) return;
    Object.assign(hit.device, change);
    this.share(hit.device);
    hit.changes++;
  }

  invalidate(serialNumbers: readonly string[]): void {
    for (const serial of serialNumbers) {
      const key = serial.toLowerCase();
      const hit = this.entries.get(key);
      if (hit) this.remove(key, hit);
    }
  }

  /** Commands were queued for these devices: their next poll reads the queue. */
  markPending(deviceIds: readonly number[]): void {
    for (const id of deviceIds) {
      const hit = this.byId.get(id);
      if (!hit) continue;
      hit.device.hasPendingCommands = true;
      hit.pendingVersion++;
      hit.changes++;
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

  /**
   * Re-reads every entry served within `idleMs` and drops the others: the versions and pending
   * flags that differ from the cached ones first, then the whole row of the devices whose version changed. An
   * entry that this process changed while the read was under way is left as it is (and expires
   * unless the next refresh renews it); a device deleted, or whose serial changed, is dropped.
   */
  async refresh(source: RefreshSource): Promise<void> {
    const startedAt = Date.now();
    const due: Entry[] = [];
    for (const [key, entry] of this.entries) {
      if (startedAt - entry.usedAt > this.idleMs) this.remove(key, entry);
      else due.push(entry);
    }
    for (let from = 0; from < due.length; from += REFRESH_CHUNK) {
      const chunk = due.slice(from, from + REFRESH_CHUNK);
      const changesBefore = chunk.map((entry) => entry.changes);
      const readAt = Date.now();
      const changes = await source.changes(
        chunk.map((entry) => ({ id: entry.device.id, version: entry.device.version, pending: entry.device.hasPendingCommands })),
      );
      const changed = new Map<number, TerminalVersion>();
      for (const c of changes) changed.set(c.id, c);
      const stale: Entry[] = [];
      chunk.forEach((entry, i) => {
        if (this.byId.get(entry.device.id) !== entry) return; // invalidated or replaced meanwhile
        const current = changed.get(entry.device.id);
        if (current && current.version === null) return this.remove(entry.device.serialNumber.toLowerCase(), entry);
        if (entry.changes !== changesBefore[i]) return;
        if (current && current.version !== entry.device.version) return void stale.push(entry);
        if (current) entry.device.hasPendingCommands = current.pending;
        entry.loadedAt = readAt;
      });
      if (stale.length === 0) continue;
      const staleChanges = stale.map((entry) => entry.changes);
      const reloadAt = Date.now();
      const rows = await source.devices(stale.map((entry) => entry.device.id));
      const reloaded = new Map<number, TerminalDevice>();
      for (const device of rows) reloaded.set(device.id, device);
      stale.forEach((entry, i) => {
        if (this.byId.get(entry.device.id) !== entry || entry.changes !== staleChanges[i]) return;
        const key = entry.device.serialNumber.toLowerCase();
        const device = reloaded.get(entry.device.id);
        if (!device || device.serialNumber.toLowerCase() !== key) return this.remove(key, entry);
        entry.device = this.share(device);
        entry.loadedAt = reloadAt;
      });
    }
  }

  private share(device: TerminalDevice): TerminalDevice {
    device.timeZone = this.shared.get(device.timeZone)!;
    const { reported } = device;
    reported.firmware = this.shared.get(reported.firmware);
    reported.fpAlgorithm = this.shared.get(reported.fpAlgorithm);
    reported.faceAlgorithm = this.shared.get(reported.faceAlgorithm);
    return device;
  }

  private remove(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    if (this.byId.get(entry.device.id) === entry) this.byId.delete(entry.device.id);
  }
}
