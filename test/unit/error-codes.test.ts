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
});
