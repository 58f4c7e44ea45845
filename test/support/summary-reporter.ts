import fs from 'node:fs';
import Mocha from 'mocha';

/**
 * Mocha's spec reporter, which also writes the run's counts and failed tests to the JSON file named
 * by TIMEGATE_TEST_SUMMARY: test/run.ts runs several mocha passes and ends with one summary of all.
 */
class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const failed: { title: string; file?: string }[] = [];
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test: Mocha.Runnable) => failed.push({ title: test.fullTitle(), file: test.file }));
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const out = process.env.TIMEGATE_TEST_SUMMARY;
      if (!out) return;
      const stats = runner.stats;
      fs.writeFileSync(out, JSON.stringify({ passes: stats?.passes ?? 0, failures: stats?.failures ?? 0, pending: stats?.pending ?? 0, failed }));
    });
  }
}

export = SummaryReporter;
