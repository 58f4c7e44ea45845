import { expect } from 'chai';
import { RecordStore } from '../../../src/simulator/record-store';

// A virtual terminal's flash moves from one process to the next as JSON (docs/sandbox.md).
describe('simulator record store snapshots', () => {
  it('restores users, access tables, parameters and counters from JSON, replacing what was there', () => {
    const store = new RecordStore();
    store.upsertUser('1001', { name: 'Ada', card: '123' });
    store.upsertUser('1002', { name: 'Grace' });
    store.upsertAuthorization({ pin: '1001', timezoneId: '1', doorId: '1', devId: '1' });
    store.parameters.set('LockCount', '1');
    store.appendLog({ pin: '1001', time: '2026-03-02 09:00:00', status: 0, verify: 1, workcode: '0', event: 0, door: 1, cardNo: '0' });
    const json = JSON.parse(JSON.stringify(store.snapshot()));

    const next = new RecordStore();
    next.upsertUser('9999', { name: 'Stale' });
    next.restore(json);
    expect([...next.users.keys()]).to.deep.equal(['1001', '1002']);
    expect(next.users.get('1001')).to.deep.equal(store.users.get('1001'));
    expect([...next.authorizations.values()]).to.deep.equal([...store.authorizations.values()]);
    expect(next.parameters.get('LockCount')).to.equal('1');
    // The log itself is not carried; its numbering is, so indexes are never reused.
    expect(next.appendLog({ pin: '1002', time: '2026-03-02 09:01:00', status: 0, verify: 1, workcode: '0', event: 0, door: 1, cardNo: '0' }).index).to.equal(2);
    next.continueLogAfter(40);
    expect(next.appendLog({ pin: '1002', time: '2026-03-02 09:02:00', status: 0, verify: 1, workcode: '0', event: 0, door: 1, cardNo: '0' }).index).to.equal(
      41,
    );
  });
});
