import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

const modulePath = path.resolve(__dirname, '..', '..', 'src', 'gc-compaction.js');

/**
 * Runs in a fresh node (started WITHOUT --compact-on-every-full-gc) three rounds of: promote 400,000
 * small objects to the old generation, drop every other one, run a full GC, and read the old space's
 * committed bytes minus its used bytes. A compacting GC returns the half-empty pages (a slack of
 * ~1 MB); a plain mark-sweep keeps them (~12 MB; V8's own heuristics only evacuate nearly empty
 * pages). Each round is synchronous, so the GC observer's switch happens only between rounds.
 * Rounds: at once after limitFullCompaction(interval); 200 ms later; `wait` ms after that.
 */
function slackAfterRounds(intervalSeconds: number, waitMs: number): number[] {
  const script = `
    const v8 = require('node:v8');
    const { limitFullCompaction } = require(${JSON.stringify(modulePath)});
    const slackMb = () => { const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'old_space'); return (s.space_size - s.space_used_size) / 1e6; };
    const kept = [];
    function round() {
      let all = [];
      for (let i = 0; i < 400000; i++) all.push({ a: i, b: i + 1, c: i + 2, d: i + 3 });
      gc(); gc();
      kept.push(all.filter((_, i) => i % 2 === 0));
      all = null;
      gc();
      return slackMb();
    }
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    (async () => {
      limitFullCompaction(${intervalSeconds});
      const slack = [round()];
      await sleep(200);
      slack.push(round());
      await sleep(${waitMs});
      slack.push(round());
      process.stdout.write(JSON.stringify(slack));
    })();`;
  const run = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).to.equal(0);
  return JSON.parse(run.stdout) as number[];
}

describe('full GC compaction limit', () => {
  it('compacts at the first full GC, not again within the interval, and again once it has passed', () => {
    const [first, within, after] = slackAfterRounds(3, 3500);
    expect(first, 'first full GC compacts').to.be.below(4);
    expect(within, 'a full GC within the interval does not compact').to.be.above(8);
    expect(after, 'the first full GC after the interval compacts').to.be.below(4);
  });

  it('compacts at every full GC with an interval of 0', () => {
    const slack = slackAfterRounds(0, 200);
    for (const mb of slack) expect(mb).to.be.below(4);
  });
});
