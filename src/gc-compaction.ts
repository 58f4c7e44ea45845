// When the old generation is compacted.
//
// A compacting full GC moves the live old-generation objects together, so the pages they leave go
// back to the system: a polling fleet's memory stays at what it uses (docs/decisions.md, "Memory
// per terminal"). V8's `--compact-on-every-full-gc` did that at every full GC, and the price was
// the pause: moving ~50 MB took 100-150 ms on the reference machine, and a busy process (a large
// upload, an attacker's requests) runs a full GC every second or so, each one a stall for every
// request in flight. Without the flag V8 only evacuates the pages it finds nearly empty, and the
// half-empty pages a burst leaves (the connection ramp of a fleet, a large upload) stay committed.
//
// So V8's own full GCs do not compact, and the service checks the old space every interval. It
// runs one compacting GC when the old space holds more than FRAGMENTED_BYTES of committed memory that
// no object uses, or when its used bytes grew by more than GROWN_BYTES since the last compaction:
// a fleet's connection ramp promotes tens of MB of short-lived objects (handshake queries, rows
// read), and a polling fleet afterwards promotes too little to start a full GC that would collect
// them, so that garbage would otherwise stay resident for good.
//
// The pause of a compaction is a stall for everyone the process serves (100-350 ms for a ~65 MB old
// space on the reference machine), so it waits for a moment nobody notices:
// - while API clients are served (an HTTP request other than a terminal's came in the interval, or
//   a subscription is open), it waits as long as that lasts: their requests must not stall over
//   100 ms (docs/limits.md), and V8's own collections, incremental and short, still free garbage;
// - while only terminals are served and the event loop was more than half busy over the interval,
//   it waits at most MAX_DEFERRED_INTERVALS intervals: a terminal waits out a pause unnoticed, and a
//   polling fleet never quiets, so it comes within one interval of a burst's end or after that bound.
// A heap that neither fragments nor grows is never paid for. The flag is a plain runtime check in
// V8's collector, switched on for that one collection only.
import v8 from 'node:v8';
import { performance } from 'node:perf_hooks';
import vm from 'node:vm';

/** Free committed old-space memory that makes a compaction worth its pause (~400 B per terminal of a 10,000-terminal fleet). */
export const FRAGMENTED_BYTES = 4 * 1024 * 1024;

/** Growth of the old space's used bytes since the last compaction that makes one worth its pause: garbage no full GC has collected yet, or new live objects spread over half-empty pages. */
export const GROWN_BYTES = 4 * 1024 * 1024;

/** The old space's committed bytes, and the bytes its objects (live, or garbage not yet collected) take; the difference is its slack (free lists of partly used pages, pages not yet swept). */
function oldSpace(): { size: number; used: number } {
  const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
  return old ? { size: old.space_size, used: old.space_used_size } : { size: 0, used: 0 };
}

/** V8's full collection, without `--expose-gc` on the command line (it is only needed while `gc` is looked up). */
function fullGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  v8.setFlagsFromString('--no-expose-gc');
  return gc;
}

/** Event-loop utilisation over an interval above which a compaction waits: a busy process would stall every request in flight. */
export const BUSY_UTILISATION = 0.5;

/** Intervals a compaction that is due waits at most for a quieter one. */
export const MAX_DEFERRED_INTERVALS = 6;

/**
 * Intervals skipped after a compaction before the next one: FIRST_SPACING, doubled (up to
 * MAX_DEFERRED_INTERVALS) by each compaction that finds the heap grown back at its first chance, and
 * halved by each check that finds nothing to do. A process whose work keeps promoting garbage (a
 * large upload, then its webhook deliveries) needs the memory it grows back to; compacting it every
 * interval returned pages only to take them again, with a pause of 250-320 ms each time on the slow
 * machine (55 MB live).
 */
export const FIRST_SPACING = 2;

/** What the process serves that must not wait out a compaction's pause (src/app.ts counts it). */
export interface ClientActivity {
  /** HTTP requests other than terminals' received so far (a count that only grows). */
  apiRequests: number;
  /** Subscriptions open now: their events must not wait either. */
  openSubscriptions: number;
}

/**
 * Compacts the old generation now, and then every `intervalSeconds` when it is fragmented or has
 * grown since the last compaction (above), in an interval without API clients, preferring one in
 * which the event loop was less than half busy; 0 makes every full GC compact instead
 * (`--compact-on-every-full-gc`). The timer does not keep the process alive.
 */
export function compactWhenWorthIt(intervalSeconds: number, clients: () => ClientActivity = () => ({ apiRequests: 0, openSubscriptions: 0 })): void {
  if (intervalSeconds === 0) {
    v8.setFlagsFromString('--compact-on-every-full-gc');
    return;
  }
  v8.setFlagsFromString('--no-compact-on-every-full-gc');
  const gc = fullGc();
  let usedAfterCompaction = 0;
  let deferred = 0;
  let spacing = 0;
  let sinceCompaction = 0;
  let utilisation = performance.eventLoopUtilization();
  let apiRequestsSeen = clients().apiRequests;
  const compact = () => {
    v8.setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      v8.setFlagsFromString('--no-compact-on-every-full-gc');
    }
    usedAfterCompaction = oldSpace().used;
    deferred = 0;
    sinceCompaction = 0;
  };
  const compactIfWorthIt = () => {
    const busy = performance.eventLoopUtilization(utilisation).utilization > BUSY_UTILISATION;
    utilisation = performance.eventLoopUtilization();
    const { apiRequests, openSubscriptions } = clients();
    const clientsWaited = apiRequests !== apiRequestsSeen || openSubscriptions > 0;
    apiRequestsSeen = apiRequests;
    const { size, used } = oldSpace();
    // V8's own full GCs collect garbage too: the growth counts from the lowest use seen.
    usedAfterCompaction = Math.min(usedAfterCompaction, used);
    sinceCompaction += 1;
    if (size - used <= FRAGMENTED_BYTES && used - usedAfterCompaction <= GROWN_BYTES) {
      spacing = Math.floor(spacing / 2);
      return;
    }
    if (sinceCompaction <= spacing) return;
    if (clientsWaited) return;
    if (busy && ++deferred < MAX_DEFERRED_INTERVALS) return;
    const grewBackAtOnce = sinceCompaction === spacing + 1;
    compact();
    spacing = spacing === 0 ? FIRST_SPACING : grewBackAtOnce ? Math.min(spacing * 2, MAX_DEFERRED_INTERVALS) : spacing;
  };
  // Unconditionally at once: what start-up left (modules, migrations, the ORM's metadata, garbage no
  // GC has collected yet) is compacted right after it, so an idle service starts from its live size.
  compact();
  setInterval(compactIfWorthIt, intervalSeconds * 1000).unref();
}
