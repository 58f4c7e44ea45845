import { expect } from 'chai';
import { commandQueueChanges, notifyCommandsQueued } from '../../../src/services/command-queue-changes';

describe('queued-work notices', () => {
  it('are given at once and again after the change had time to commit, deduplicated, and not at all for no device', async () => {
    const seen: Array<{ at: number; ids: number[] }> = [];
    const started = Date.now();
    const listener = (ids: number[]) => seen.push({ at: Date.now() - started, ids });
    commandQueueChanges.on('queued', listener);
    try {
      notifyCommandsQueued([]);
      notifyCommandsQueued([7, 7, 9]);
      expect(seen.map((s) => s.ids)).to.deep.equal([[7, 9]]);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(seen.map((s) => s.ids)).to.deep.equal([[7, 9], [7, 9]]);
      expect(seen[1]!.at).to.be.at.least(200);
    } finally {
      commandQueueChanges.off('queued', listener);
    }
  });
});
