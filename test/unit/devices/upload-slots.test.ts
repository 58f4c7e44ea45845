import { expect } from 'chai';
import { Slots } from '../../../src/devices/upload-slots';

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('upload slots', () => {
  it('runs at most `size` works at once and starts the waiting ones in arrival order', async () => {
    const slots = new Slots(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      slots.run(async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await settle();
    expect(started).to.deep.equal([0, 1]);
    expect(slots.queued).to.equal(2);
    gates[1]!.resolve();
    await settle();
    expect(started).to.deep.equal([0, 1, 2]);
    // A newcomer while others wait queues behind them instead of taking the freed slot.
    const late = slots.run(async () => started.push(9));
    gates[0]!.resolve();
    await settle();
    expect(started).to.deep.equal([0, 1, 2, 3]);
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all(runs)).to.deep.equal([0, 1, 2, 3]);
    await late;
    expect(started).to.deep.equal([0, 1, 2, 3, 9]);
    expect(slots.queued).to.equal(0);
  });

  it('gives the slot back when the work fails', async () => {
    const slots = new Slots(1);
    const failing = slots.run(async () => {
      throw new Error('store failed');
    });
    const next = slots.run(async () => 'stored');
    const error = await failing.then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.equal('store failed');
    expect(await next).to.equal('stored');
    expect(await slots.run(async () => 'free again')).to.equal('free again');
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new Slots(0)).to.throw(RangeError);
    expect(() => new Slots(1.5)).to.throw(RangeError);
  });
});
