import { expect } from 'chai';
import { ingestionBusy, LIVE_UPLOAD_BYTES, Slots, storingUpload, uploadLane } from '../../../src/devices/upload-slots';

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

  it('serves a waiting live upload before every waiting bulk one, each lane in arrival order', async () => {
    const slots = new Slots(1);
    const holder = deferred();
    const order: string[] = [];
    const held = slots.run(() => holder.promise);
    const runs = [
      slots.run(async () => void order.push('bulk 1'), 'bulk'),
      slots.run(async () => void order.push('bulk 2'), 'bulk'),
      slots.run(async () => void order.push('live 1'), 'live'),
      slots.run(async () => void order.push('live 2'), 'live'),
    ];
    await settle();
    expect(slots.queued).to.equal(4);
    holder.resolve();
    await Promise.all([held, ...runs]);
    expect(order).to.deep.equal(['live 1', 'live 2', 'bulk 1', 'bulk 2']);
  });

  it('a body of a few records is live, a backlog is bulk', () => {
    expect(uploadLane('1\t2026-11-27 09:00:00\t0\t1\t0\n'.length)).to.equal('live');
    expect(uploadLane(LIVE_UPLOAD_BYTES)).to.equal('live');
    expect(uploadLane(LIVE_UPLOAD_BYTES + 1)).to.equal('bulk');
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

  it('ingestion is busy while a backfill is stored, between its slices too, and no longer once it ends or fails; a live upload does not count', async () => {
    expect(ingestionBusy()).to.equal(false);
    const gate = deferred();
    const backfill = storingUpload('bulk', async () => {
      await gate.promise;
      return 'stored';
    });
    expect(ingestionBusy()).to.equal(true);
    expect(await storingUpload('live', async () => ingestionBusy())).to.equal(true);
    gate.resolve();
    expect(await backfill).to.equal('stored');
    expect(ingestionBusy()).to.equal(false);
    expect(await storingUpload('live', async () => ingestionBusy())).to.equal(false);
    const failed = storingUpload('bulk', async () => {
      throw new Error('the database went away');
    });
    expect(ingestionBusy()).to.equal(true);
    await failed.catch(() => undefined);
    expect(ingestionBusy()).to.equal(false);
  });
});
