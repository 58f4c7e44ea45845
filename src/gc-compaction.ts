// How often a full garbage collection compacts the whole old generation.
//
// V8's `--compact-on-every-full-gc` makes every full collection move all live old-generation objects
// together, so the pages they leave empty go back to the system: a polling fleet's memory stays at
// what it uses (docs/decisions.md, "Memory per terminal"). Its price is the pause: moving ~50 MB
// took 100-150 ms on the reference machine, and a busy process (a large upload, an attacker's
// requests) runs a full collection every second or so, each one a stall for every request in
// flight. The old generation only fragments slowly, so one compacting collection in a while keeps
// the memory; the collections in between are plain mark-sweeps (V8's own heuristics still
// evacuate the most fragmented pages). The flag is a plain runtime check in V8's collector, so it is switched off
// after each compacting collection and on again when the interval has passed.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import v8 from 'node:v8';

/** Makes a full GC compact the whole old generation at most once every `intervalSeconds` (0: every full GC). Returns a stop function. */
export function limitFullCompaction(intervalSeconds: number): () => void {
  v8.setFlagsFromString('--compact-on-every-full-gc');
  if (intervalSeconds === 0) return () => undefined;
  let pause: NodeJS.Timeout | null = null;
  // GC entries arrive after the collection, batched: a second full GC before this callback runs
  // also compacts, which costs only that pause.
  const observer = new PerformanceObserver((list) => {
    if (pause !== null) return;
    if (!list.getEntries().some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) return;
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
    pause = setTimeout(() => {
      pause = null;
      v8.setFlagsFromString('--compact-on-every-full-gc');
    }, intervalSeconds * 1000);
    pause.unref();
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    if (pause !== null) clearTimeout(pause);
  };
}
