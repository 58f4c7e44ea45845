import { expect } from 'chai';
import { isDatabaseUnavailable } from '../../../src/errors/database-unavailable';

// What the failover drill met: errors that mean "the database cannot serve now" answer 503 with
// Retry-After; anything else stays a 500.
describe('isDatabaseUnavailable', () => {
  it('takes connection SQLSTATEs, socket codes and the messages of a lost connection as unavailable', () => {
    for (const code of ['08006', '57P01', '53300', '25006', 'ECONNREFUSED', 'ECONNRESET']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).to.equal(true);
    }
    for (const message of [
      'Connection terminated unexpectedly',
      'update audit_event set outcome = 1 - Client has encountered a connection error and is not queryable',
      // knex, on a query in a transaction whose connection died under it (a failover).
      'Transaction query already complete, run with DEBUG=knex:tx for more info',
      'the database system is starting up',
    ]) {
      expect(isDatabaseUnavailable(new Error(message)), message).to.equal(true);
    }
  });

  it('leaves the request’s own faults and other errors alone', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('protocol'), { code: '08P01' }))).to.equal(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate'), { code: '23505' }))).to.equal(false);
    expect(isDatabaseUnavailable(new Error('Cannot read properties of undefined'))).to.equal(false);
    expect(isDatabaseUnavailable(null)).to.equal(false);
  });
});
