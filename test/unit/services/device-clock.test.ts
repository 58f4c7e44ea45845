import { expect } from 'chai';
import { looksLikeWrongZone } from '../../../src/services/fleet/device-clock.service';

describe('device clock', () => {
  it('a skew of whole quarter hours, at least half an hour, looks like a wrong time zone; drift does not', () => {
    expect([9000, -3600, 1800, 19800 + 30, 20700].map(looksLikeWrongZone)).to.deep.equal([true, true, true, true, true]);
    expect([0, 300, 900, 1500, 9000 + 300, -4000].map(looksLikeWrongZone)).to.deep.equal([false, false, false, false, false, false]);
  });
});
