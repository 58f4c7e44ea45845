import { expect } from 'chai';
import { LOCK_KEYS, LOCK_SPACES } from '../../../src/kernel/lock-keys';

describe('advisory lock keys', () => {
  it('no two locks share a key (single keys as bigint, namespaces as their first key)', () => {
    const keys = [
      ...Object.values(LOCK_KEYS).map((k) => (typeof k === 'string' ? BigInt(`0x${k}`) : BigInt(k))),
      ...Object.values(LOCK_SPACES).map((k) => BigInt(k)),
    ];
    expect(new Set(keys).size).to.equal(keys.length);
  });
});
