import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { errorCodes } from '../../src/errors/error-codes';

describe('error codes', () => {
  it('every code has an HTTP status and a line in docs/errors.md with that status', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'errors.md'), 'utf8');
    for (const [code, { status }] of Object.entries(errorCodes)) {
      expect(status, code).to.be.within(400, 599);
      expect(doc, code).to.match(new RegExp(`\\| \`${code}\` \\| ${status} \\|`));
    }
  });

  it('every field detail code used in src/ is documented in docs/errors.md', () => {
    const root = path.resolve(__dirname, '..', '..', '..');
    const doc = fs.readFileSync(path.join(root, 'docs', 'errors.md'), 'utf8');
    const files = fs.readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const used = new Set<string>();
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, 'src', file), 'utf8');
      for (const pattern of [/(?:\.add|DomainError\.field)\(\s*[^,()]+(?:\([^)]*\))?[^,]*,\s*'([a-z_]+)'/g, /\bcode: '([a-z_]+)'/g]) {
        for (const match of text.matchAll(pattern)) used.add(match[1]);
      }
    }
    expect(used.size).to.be.greaterThan(20);
    const undocumented = [...used].filter((code) => !(code in errorCodes) && !doc.includes(`\`${code}\``));
    expect(undocumented).to.deep.equal([]);
  });
});
