import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { LONGEST_FIRST, SERIAL, longestFirst } from '../../run';

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
});
