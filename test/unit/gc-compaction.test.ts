import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

const modulePath = path.resolve(__dirname, '..', '..', 'src', 'gc-compaction.js');

interface Scenario {
  /** The check interval given to compactWhenWorthIt (0: every full GC compacts). */
  intervalSeconds: number;
  /**
   * What is done to the old space after compactWhenWorthIt: `fragment` keeps every other one of
   * 400,000 promoted objects and runs a full GC of V8's own (half-empty pages: slack ~12 MB, ~1 MB
   * once compacted); `grow` drops all of them without any full GC (~12 MB of used bytes that are
   * garbage no GC has collected, on full pages).
   */
  garbage: 'fragment' | 'grow';
  /** Seconds after the garbage at which the old space is observed. */
  observeAt: number[];
  /** Keeps the event loop ~80 % busy until this many seconds after the garbage (0: idle). */
  busySeconds?: number;
  /** API clients are served (a request every check, or one subscription open) until this many seconds after the garbage. */
  clients?: { until: number; by: 'requests' | 'subscription' };
  nodeFlags?: string[];
}

interface Observed {
  /** Old-space slack and used bytes (MB) right after the garbage was made, then at each `observeAt`. */
  slack: number[];
  used: number[];
  /** Full GCs in the whole run after the garbage was made. */
  fullGcs: number;
}

/**
 * Runs `script` in a fresh node (with `nodeFlags`) and answers its stdout, parsed. Each scenario is a
 * process of its own that mostly sleeps between its checks, so several run at once (at most
 * AT_ONCE): what each observes is its own old space, at times counted from its own start. The
 * scenarios that keep their event loop busy spin on the clock, so they are as busy beside the others
 * as alone.
 */
const AT_ONCE = Math.max(2, 2 * os.availableParallelism());
let running = 0;
const queued: (() => void)[] = [];
async function runNode<T>(nodeFlags: string[], script: string): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => queued.push(resolve));
  running++;
  try {
    const { status, stdout, stderr } = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [...nodeFlags, '-e', script], { encoding: 'utf8', timeout: 60_000 }, (_error, stdout, stderr) =>
        resolve({ status: child.exitCode, stdout, stderr }),
      );
    });
    expect(status, stderr).to.equal(0);
    return JSON.parse(stdout) as T;
  } finally {
    running--;
    queued.shift()?.();
  }
}

/**
 * A fresh node, started WITHOUT --expose-gc or --compact-on-every-full-gc, runs compactWhenWorthIt
 * and then the scenario. The script's own `gc` is looked up the way the module does it.
 */
function observe(scenario: Scenario): Promise<Observed> {
  const script = `
    const v8 = require('node:v8');
    const vm = require('node:vm');
    const { PerformanceObserver, performance, constants } = require('node:perf_hooks');
    const { compactWhenWorthIt } = require(${JSON.stringify(modulePath)});
    // Entries arrive asynchronously: counted by when the collection started.
    let fullGcs = 0;
    let countFrom = Infinity;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.startTime >= countFrom && e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullGcs++;
    }).observe({ entryTypes: ['gc'] });
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const old = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
    const slack = [], used = [];
    const look = () => { const o = old(); slack.push((o.space_size - o.space_used_size) / 1e6); used.push(o.space_used_size / 1e6); };
    (async () => {
      if (typeof globalThis.gc !== 'undefined') throw new Error('gc is exposed');
      // Nothing waits until the garbage is made; then the scenario's clients, if any, until their end.
      let requests = 0;
      let clientsUntil = 0;
      const served = () => performance.now() < clientsUntil;
      compactWhenWorthIt(${scenario.intervalSeconds}, () => ({
        apiRequests: served() && ${JSON.stringify(scenario.clients?.by)} === 'requests' ? ++requests : requests,
        openSubscriptions: served() && ${JSON.stringify(scenario.clients?.by)} === 'subscription' ? 1 : 0,
      }));
      let all = [];
      for (let i = 0; i < 400000; i++) all.push({ a: i, b: i + 1, c: i + 2, d: i + 3 });
      gc(); gc();
      let kept = null;
      if (${JSON.stringify(scenario.garbage)} === 'fragment') {
        kept = all.filter((_, i) => i % 2 === 0);
        all = null;
        gc();
      } else {
        // Promoted by the two collections above; dropped now, and no full GC follows.
        all = null;
      }
      const start = performance.now();
      countFrom = start;
      clientsUntil = start + ${(scenario.clients?.until ?? 0) * 1000};
      look();
      const busyUntil = start + ${(scenario.busySeconds ?? 0) * 1000};
      for (const at of ${JSON.stringify(scenario.observeAt)}) {
        while (performance.now() < start + at * 1000) {
          if (performance.now() < busyUntil) {
            const sliceEnd = performance.now() + 80;
            while (performance.now() < sliceEnd) {}
          }
          await sleep(20);
        }
        look();
      }
      await sleep(10);
      process.stdout.write(JSON.stringify({ slack, used, fullGcs, kept: kept && kept.length }));
    })().catch((error) => { console.error(error); process.exit(1); });`;
  return runNode<Observed>(scenario.nodeFlags ?? [], script);
}

describe('old-generation compaction', () => {
  // Every scenario is started before the first test (AT_ONCE at a time, after the one that runs alone); each test awaits its own.
  const scenarios = {
    fragmented: { intervalSeconds: 1, garbage: 'fragment', observeAt: [1.5] },
    startedWithFlag: { intervalSeconds: 1, garbage: 'fragment', observeAt: [], nodeFlags: ['--compact-on-every-full-gc'] },
    grown: { intervalSeconds: 1, garbage: 'grow', observeAt: [1.5] },
    grownWithoutCheck: { intervalSeconds: 600, garbage: 'grow', observeAt: [1.5] },
    busyLong: { intervalSeconds: 1, garbage: 'fragment', observeAt: [2.5, 7.5], busySeconds: 7.5 },
    busyShort: { intervalSeconds: 1, garbage: 'fragment', observeAt: [2.5, 4.5], busySeconds: 2.6 },
    requests: { intervalSeconds: 1, garbage: 'fragment', observeAt: [7.5, 9.5], clients: { until: 8, by: 'requests' } },
    subscription: { intervalSeconds: 1, garbage: 'fragment', observeAt: [2.5, 4.5], clients: { until: 3, by: 'subscription' } },
    quiet: { intervalSeconds: 1, garbage: 'fragment', observeAt: [1.5, 3] },
    everyFullGc: { intervalSeconds: 0, garbage: 'fragment', observeAt: [] },
  } satisfies Record<string, Scenario>;
  const seen = {} as Record<keyof typeof scenarios, Promise<Observed>>;
  let fragmentedTwice: Promise<Record<string, number>>;
  /** The promise, its rejection left to the test that awaits it (not an unhandled one before that). */
  const started = <T>(promise: Promise<T>): Promise<T> => {
    promise.catch(() => undefined);
    return promise;
  };
  before(() => {
    // The scenario whose third check must come within 0.6 s of its time runs first, alone: beside the
    // others' start-ups its second fragmentation took long enough to push that check past it.
    fragmentedTwice = started(compactedThenFragmentedAgain());
    const thenTheOthers = fragmentedTwice.catch(() => undefined);
    // The longest first, so that the last to start is a short one.
    for (const name of ['requests', 'busyLong', 'busyShort', 'subscription'] as const) seen[name] = started(thenTheOthers.then(() => observe(scenarios[name])));
    for (const name of Object.keys(scenarios) as (keyof typeof scenarios)[]) seen[name] ??= started(thenTheOthers.then(() => observe(scenarios[name])));
  });

  it("V8's own full GCs do not compact; the check compacts a fragmented old space within an interval", async () => {
    const { slack } = await seen.fragmented;
    expect(slack[0], 'a full GC of V8 leaves the half-empty pages').to.be.above(8);
    expect(slack[1], 'the check compacted them').to.be.below(4);
  });

  it('takes the compaction out of full GCs also when node was started with --compact-on-every-full-gc', async () => {
    expect((await seen.startedWithFlag).slack[0]).to.be.above(8);
  });

  it('collects garbage that no full GC of V8 would collect, once the old space grew by more than 4 MB', async () => {
    const { slack, used } = await seen.grown;
    expect(used[0], 'the dropped objects still count as used').to.be.above(10);
    expect(slack[0], 'on full pages: not a fragmentation').to.be.below(4);
    expect(used[0]! - used[1]!, 'the check collected them').to.be.above(8);
  });

  it('(control) without a check in the window, V8 leaves that garbage where it is', async () => {
    const { used, fullGcs } = await seen.grownWithoutCheck;
    expect(used[0]! - used[1]!).to.be.below(1);
    expect(fullGcs).to.equal(0);
  });

  it('waits while the event loop is busy, and compacts after at most six busy intervals', async () => {
    const { slack } = await seen.busyLong;
    expect(slack[1], 'two busy checks passed: deferred').to.be.above(8);
    expect(slack[2], 'the sixth busy check compacts anyway').to.be.below(4);
  });

  it('compacts at the first check after a busy spell ends', async () => {
    const { slack } = await seen.busyShort;
    expect(slack[1], 'deferred while busy').to.be.above(8);
    expect(slack[2], 'compacted once the loop was quiet for an interval').to.be.below(4);
  });

  it('waits while API requests come in, however long, and compacts at the first check after they stop', async () => {
    const { slack } = await seen.requests;
    expect(slack[1], 'seven checks with requests: still deferred').to.be.above(8);
    expect(slack[2], 'compacted once an interval passed without a request').to.be.below(4);
  });

  it('waits while a subscription is open', async () => {
    const { slack } = await seen.subscription;
    expect(slack[1], 'deferred while the subscription is open').to.be.above(8);
    expect(slack[2], 'compacted once it closed').to.be.below(4);
  });

  it('runs no GC while the old space neither fragments nor grows', async () => {
    const { slack, fullGcs } = await seen.quiet;
    expect(slack[1]).to.be.below(4);
    // The compaction between 0 and 1.5 s is the only full GC; none in the quiet 1.5 s after it.
    expect(fullGcs).to.equal(1);
  });

  it('with an interval of 0, every full GC compacts', async () => {
    expect((await seen.everyFullGc).slack[0]).to.be.below(4);
  });

  it('after a compaction, a heap fragmented again at once waits two intervals, then is compacted', async () => {
    const seen = await fragmentedTwice;
    expect(seen.first, 'fragmented').to.be.above(8);
    expect(seen.afterFirst, 'compacted by a check').to.be.below(4);
    expect(seen.again, 'fragmented again at once').to.be.above(8);
    expect(seen.afterTwoChecks, 'the two checks after a compaction pass').to.be.above(8);
    expect(seen.afterThird, 'the third compacts').to.be.below(4);
  });
});

/**
 * A fresh node: fragment, wait for the check's compaction (slack back under 4 MB), fragment again
 * at once; the next two checks pass, the third compacts. Times are counted from the moment the
 * first compaction was seen, so a slow start-up shifts nothing.
 */
function compactedThenFragmentedAgain(): Promise<Record<string, number>> {
  const script = `
    const v8 = require('node:v8');
    const vm = require('node:vm');
    const { performance } = require('node:perf_hooks');
    const { compactWhenWorthIt } = require(${JSON.stringify(modulePath)});
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const slack = () => { const o = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space'); return (o.space_size - o.space_used_size) / 1e6; };
    const fragment = () => {
      let all = [];
      for (let i = 0; i < 400000; i++) all.push({ a: i, b: i + 1, c: i + 2, d: i + 3 });
      gc(); gc();
      const kept = all.filter((_, i) => i % 2 === 0);
      all = null;
      gc();
      return kept;
    };
    (async () => {
      compactWhenWorthIt(1);
      let kept = fragment();
      const first = slack();
      const deadline = performance.now() + 10000;
      while (slack() > 4 && performance.now() < deadline) await sleep(20);
      const compactedAt = performance.now();
      const afterFirst = slack();
      kept = [kept, fragment()];
      const again = slack();
      while (performance.now() < compactedAt + 2500) await sleep(20);
      const afterTwoChecks = slack();
      while (performance.now() < compactedAt + 3600) await sleep(20);
      process.stdout.write(JSON.stringify({ first, afterFirst, again, afterTwoChecks, afterThird: slack(), kept: kept.length }));
    })().catch((error) => { console.error(error); process.exit(1); });`;
  return runNode<Record<string, number>>([], script);
}
