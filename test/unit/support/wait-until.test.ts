import { expect } from 'chai';
import { waitUntil } from '../../support/wait-until';

describe('waitUntil, the one wait of the tests', () => {
  it('answers the first value that ok accepts, reading again until then', async () => {
    let reads = 0;
    const value = await waitUntil(
      'the third read',
      () => ++reads,
      (n) => n >= 3,
    );
    expect(value).to.equal(3);
    expect(reads).to.equal(3);
  });

  it('without ok, answers the first truthy value (null, undefined and false mean not yet)', async () => {
    const answers = [null, undefined, false, { id: 7 }];
    const value = await waitUntil('a row', async () => answers.shift());
    expect(value).to.deep.equal({ id: 7 });
  });

  it('fails after its time, naming what it waited for and the last value read', async () => {
    let reads = 0;
    const started = Date.now();
    const error = await waitUntil(
      'both punches are stored',
      () => ({ punches: ++reads > 1 ? 1 : 0 }),
      (v) => v.punches === 2,
      300,
    ).then(
      () => null,
      (e: Error) => e,
    );
    expect(Date.now() - started).to.be.within(300, 5000);
    expect(error?.message).to.match(/^waited 0\.\d s for both punches are stored; the last value read was \{ punches: 1 \}$/);
  });

  it('the truthy form fails with the time as its third argument, showing the falsy value', async () => {
    const error = await waitUntil('the terminal is connected', () => false, 100).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/for the terminal is connected; the last value read was false$/);
  });

  it('an error thrown by read ends the wait at once', async () => {
    const started = Date.now();
    const error = await waitUntil('never', () => {
      throw new Error('subscription errors: boom');
    }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.equal('subscription errors: boom');
    expect(Date.now() - started).to.be.below(1000);
  });
});
