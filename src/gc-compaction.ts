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
// So V8's own full GCs do not compact, and the service checks the old space every interval: when it
// holds more than FRAGMENTED_BYTES of committed memory that no object uses, it runs one compacting
// GC. A fragmented heap is compacted within one interval, at most once per interval, and a heap
// that does not fragment is never paid for. The flag is a plain runtime check in V8's collector,
// switched on for that one collection only.
import v8 from 'node:v8';
import vm from 'node:vm';

/** Free committed old-space memory that makes a compaction worth its pause (~400 B per terminal of a 10,000-terminal fleet). */
export const FRAGMENTED_BYTES = 4 * 1024 * 1024;

/** Committed old-space bytes that hold no object: free lists of partly used pages, and pages not yet swept. */
export function oldSpaceSlack(): number {
  const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
  return old ? old.space_size - old.space_used_size : 0;
}

/** V8's full collection, without `--expose-gc` on the command line (it is only needed while `gc` is looked up). */
function fullGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  v8.setFlagsFromString('--no-expose-gc');
  return gc;
}

/**
 * Now and every `intervalSeconds`, compacts the old generation when it is fragmented (above); 0
 * makes every full GC compact instead (`--compact-on-every-full-gc`). The timer does not keep the
 * process alive.
 */
export function compactWhenFragmented(intervalSeconds: number): void {
  if (intervalSeconds === 0) {
    v8.setFlagsFromString('--compact-on-every-full-gc');
    return;
  }
  v8.setFlagsFromString('--no-compact-on-every-full-gc');
  const gc = fullGc();
  const compactIfFragmented = () => {
    if (oldSpaceSlack() <= FRAGMENTED_BYTES) return;
    v8.setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      v8.setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
  // At once too: what start-up left (modules, migrations, the ORM's metadata) is compacted right
  // after it.
  compactIfFragmented();
  setInterval(compactIfFragmented, intervalSeconds * 1000).unref();
}
