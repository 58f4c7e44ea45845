import { expect } from 'chai';
import { PresenceBuffer } from '../../../src/devices/presence-buffer';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

describe('PresenceBuffer', () => {
  it('drains one entry per device with its latest time and merged reported values', () => {
    const buffer = new PresenceBuffer();
    buffer.touch(1, T0 + 2000);
    buffer.touch(2, T0);
    buffer.touch(1, T0 + 1000, { firmware: 'Ver 6.60' });
    buffer.touch(1, T0 + 500, { ip: '10.0.0.9' });
    const { seen } = buffer.drain();
    expect(seen).to.deep.equal([
      { deviceId: 1, seenAt: new Date(T0 + 2000), reported: { firmware: 'Ver 6.60', ip: '10.0.0.9' } },
      { deviceId: 2, seenAt: new Date(T0), reported: undefined },
    ]);
    expect(buffer.drain().seen).to.deep.equal([]);
  });

  it('keeps every device when many more polls than slots arrive between two drains', () => {
    const buffer = new PresenceBuffer();
    const devices = 3000;
    for (let round = 0; round < 10; round++) for (let id = 1; id <= devices; id++) buffer.touch(id, T0 + round * 1000 + id);
    const { seen } = buffer.drain();
    expect(seen).to.have.length(devices);
    for (const entry of seen) expect(entry.seenAt.getTime()).to.equal(T0 + 9000 + entry.deviceId);
  });

  it('puts a failed batch back without overwriting newer times or reported values', () => {
    const buffer = new PresenceBuffer();
    buffer.touch(1, T0, { firmware: 'old', ip: '10.0.0.1' });
    buffer.touch(2, T0 + 5000);
    const failed = buffer.drain();
    buffer.touch(1, T0 + 3000, { firmware: 'new' });
    buffer.touch(2, T0 + 1000);
    buffer.restore(failed);
    const { seen } = buffer.drain();
    expect(seen).to.deep.equal([
      { deviceId: 1, seenAt: new Date(T0 + 3000), reported: { firmware: 'new', ip: '10.0.0.1' } },
      { deviceId: 2, seenAt: new Date(T0 + 5000), reported: undefined },
    ]);
  });

  it('counts the requests of an unknown serial and keeps its first contact', () => {
    const buffer = new PresenceBuffer();
    const contact = { serialNumber: 'NEW1', ip: '10.0.0.1', model: null, firmware: null, protocol: 'att-push' };
    buffer.contact(contact, new Date(T0));
    buffer.contact({ ...contact, serialNumber: 'new1', ip: '10.0.0.2', model: 'F22' }, new Date(T0 + 1000));
    const { unknown } = buffer.drain();
    expect(unknown).to.deep.equal([{ ...contact, ip: '10.0.0.2', model: 'F22', firstSeenAt: new Date(T0), lastSeenAt: new Date(T0 + 1000), requests: 2 }]);
  });
});
