import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

const modulePath = path.resolve(__dirname, '..', '..', 'src', 'gc-compaction.js');

interface Observed {
  /** Old-space slack (MB) after fragmenting it and running a full GC. */
  fragmented: number;
  /** The same, 1.5 intervals later. */
  later: number;
  /** Full GCs in a further 1.5 quiet intervals (nothing allocated). */
  fullGcsWhileQuiet: number;
}

/**
 * A fresh node, started WITHOUT --expose-gc or --compact-on-every-full-gc: compactWhenFragmented, then
 * 400,000 small objects promoted to the old generation, every other one dropped, and a full GC of
 * V8's own (the script's `gc`, looked up the way the module does). A compacting GC returns the
 * half-empty pages (old-space slack ~1 MB); a plain mark-sweep keeps them (~12 MB).
 */
function observe(intervalSeconds: number, nodeFlags: string[] = []): Observed {
  const script = `
    const v8 = require('node:v8');
    const vm = require('node:vm');
    const { PerformanceObserver, performance, constants } = require('node:perf_hooks');
    const { compactWhenFragmented, oldSpaceSlack } = require(${JSON.stringify(modulePath)});
    const fullGcs = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullGcs.push(e.startTime);
    }).observe({ entryTypes: ['gc'] });
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const mb = () => oldSpaceSlack() / 1e6;
    (async () => {
      if (typeof globalThis.gc !== 'undefined') throw new Error('gc is exposed');
      compactWhenFragmented(${intervalSeconds});
      let all = [];
      for (let i = 0; i < 400000; i++) all.push({ a: i, b: i + 1, c: i + 2, d: i + 3 });
      gc(); gc();
      const kept = all.filter((_, i) => i % 2 === 0);
      all = null;
      gc();
      const fragmented = mb();
      await sleep(${intervalSeconds * 1500 || 200});
      const later = mb();
      const quietFrom = performance.now();
      await sleep(${intervalSeconds * 1500 || 200});
      const fullGcsWhileQuiet = fullGcs.filter((t) => t >= quietFrom).length;
      process.stdout.write(JSON.stringify({ fragmented, later, fullGcsWhileQuiet, kept: kept.length }));
    })().catch((error) => { console.error(error); process.exit(1); });`;
  const run = spawnSync(process.execPath, [...nodeFlags, '-e', script], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).to.equal(0);
  return JSON.parse(run.stdout) as Observed;
}

describe('old-generation compaction', () => {
  it("V8's own full GCs do not compact; the check compacts a fragmented old space within an interval", () => {
    const seen = observe(1);
    expect(seen.fragmented, 'a full GC of V8 leaves the half-empty pages').to.be.above(8);
    expect(seen.later, 'the check compacted them').to.be.below(4);
  });

  it('takes the compaction out of full GCs also when node was started with --compact-on-every-full-gc', () => {
    expect(observe(1, ['--compact-on-every-full-gc']).fragmented).to.be.above(8);
  });

  it('runs no GC while the old space is not fragmented', () => {
    expect(observe(1).fullGcsWhileQuiet).to.equal(0);
  });

  it('with an interval of 0, every full GC compacts', () => {
    expect(observe(0).fragmented).to.be.below(4);
  });
});
