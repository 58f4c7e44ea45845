import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { LONGEST_FIRST, PAIRED, SERIAL, longestFirst, plan } from '../../run';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const compiled = (source: string) => path.join(ROOT, 'dist', source.replace(/\.ts$/, '.js'));

describe('the test runner plan (test/run.ts)', () => {
  it('names only test files that exist, none of the serial pass among the longest first', () => {
    for (const file of [...LONGEST_FIRST, ...Object.keys(SERIAL)]) expect(fs.existsSync(path.join(ROOT, file)), file).to.equal(true);
    expect(LONGEST_FIRST.filter((file) => file in SERIAL)).to.deep.equal([]);
    expect(new Set(LONGEST_FIRST).size).to.equal(LONGEST_FIRST.length);
  });

  it('hands out the listed files first in their order, then the browser files, then the rest, each group as found', () => {
    const files = [
      'test/contract/areas.contract.test.ts',
      'test/browser/console.test.ts',
      LONGEST_FIRST[2]!,
      'test/integration/scim.test.ts',
      'test/browser/attendance.test.ts',
      LONGEST_FIRST[0]!,
    ].map(compiled);
    expect(longestFirst(files)).to.deep.equal(
      [
        LONGEST_FIRST[0]!,
        LONGEST_FIRST[2]!,
        'test/browser/console.test.ts',
        'test/browser/attendance.test.ts',
        'test/contract/areas.contract.test.ts',
        'test/integration/scim.test.ts',
      ].map(compiled),
    );
  });

  it('runs the serial files that time nothing two at a time after the parallel pass, and those that time the machine alone, last', () => {
    const serial = Object.keys(SERIAL);
    const alone = serial.filter((file) => SERIAL[file]!.alone);
    const paired = serial.filter((file) => !SERIAL[file]!.alone);
    expect(alone, 'the files that time what the machine does').to.include.members([
      'test/unit/gc-compaction.test.ts',
      'test/integration/input-ranges.test.ts',
      'test/integration/limits.test.ts',
    ]);
    expect(paired).to.not.be.empty;
    const files = ['test/unit/kernel/case.test.ts', 'test/integration/scim.test.ts', 'test/browser/console.test.ts', ...[...serial].reverse()].map(compiled);
    const passes = plan(files).map((p) => ({ name: p.name, files: p.files, parallel: p.parallel, jobs: p.jobs }));
    expect(passes).to.deep.equal([
      { name: 'unit', files: [compiled('test/unit/kernel/case.test.ts')], parallel: false, jobs: undefined },
      { name: 'parallel', files: ['test/browser/console.test.ts', 'test/integration/scim.test.ts'].map(compiled), parallel: true, jobs: undefined },
      { name: 'paired', files: paired.map(compiled), parallel: true, jobs: PAIRED },
      { name: 'serial', files: alone.map(compiled), parallel: false, jobs: undefined },
    ]);
    expect(PAIRED).to.equal(2);
    // One file, whichever: one mocha process, no workers.
    expect(plan([compiled(paired[0]!)]).map((p) => [p.name, p.parallel])).to.deep.equal([['one file', false]]);
  });
});
