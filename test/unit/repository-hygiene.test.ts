// The repository explains itself: nothing in it points at the notes its authors worked from or at
// a path of one machine (a reader of the code has neither).
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

describe('repository hygiene', () => {
  it('no tracked file refers to a machine path or to the authors\' private notes', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file && !file.endsWith('package-lock.json'));
    const offenders: string[] = [];
    for (const file of files) {
      if (file === 'test/unit/repository-hygiene.test.ts') continue;
      let text: string;
      try {
        text = readFileSync(path.join(root, file), 'utf8');
      } catch {
        continue; // listed but absent in this checkout
      }
      // Also `reference §N`: section numbers of a protocol reference that is not in the repository.
      for (const pattern of ['/work/', '../shared/', 'reference §']) if (text.includes(pattern)) offenders.push(`${file}: ${pattern}`);
    }
    expect(offenders).to.deep.equal([]);
  });
});
