import { expect } from 'chai';
import pino from 'pino';
import { DomainError } from '../../../src/errors/domain-error';
import { DATABASE_UNAVAILABLE_MESSAGE, toPublicError } from '../../../src/errors/public-error';

/** A real logger writing to memory: what it logged, as [level, message]. */
function recorder() {
  const lines: Array<[string, string]> = [];
  const logger = pino(
    { formatters: { level: (label) => ({ level: label }) } },
    {
      write: (line: string) => {
        const entry = JSON.parse(line);
        lines.push([entry.level, entry.msg]);
      },
    },
  );
  return { lines, logger };
}

describe('the public error mapper', () => {
  it('answers a domain error as it is, logging nothing', () => {
    const { lines, logger } = recorder();
    const refused = new DomainError('not_found', 'Employee 7 not found.');
    expect(toPublicError(refused, { debug: false, logger })).to.equal(refused);
    expect(lines).to.deep.equal([]);
  });

  it('answers a lost database connection as service_unavailable with the one message, as a warning', () => {
    const { lines, logger } = recorder();
    const lost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const answer = toPublicError(lost, { debug: false, logger });
    expect([answer.code, answer.message]).to.deep.equal(['service_unavailable', DATABASE_UNAVAILABLE_MESSAGE]);
    expect(lines).to.deep.equal([['warn', 'database unavailable']]);
  });

  it('answers anything else as internal_error: its cause shown only with TIMEGATE_DEBUG_ERRORS, always logged', () => {
    const { lines, logger } = recorder();
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(toPublicError(bug, { debug: false, logger }).message).to.equal('Internal error.');
    const local = toPublicError(bug, { debug: true, logger });
    expect([local.code, local.message]).to.deep.equal(['internal_error', "Internal error: Cannot read properties of undefined (reading 'id')"]);
    expect(toPublicError('a thrown string', { debug: true }).message).to.equal('Internal error: a thrown string');
    expect(lines).to.deep.equal([
      ['error', 'unexpected error'],
      ['error', 'unexpected error'],
    ]);
  });
});
