import { expect } from 'chai';
import { TerminalCache, type RefreshSource, type TerminalVersion } from '../../../src/devices/terminal-cache';
import { DeviceMode, DeviceStatus } from '../../../src/entities/device.entity';
import type { TerminalDevice } from '../../../src/services/terminals/terminal.service';

function device(id: number, serialNumber: string, version: string, timeZone = 'UTC'): TerminalDevice {
  return {
    id,
    workspaceId: 1,
    companyId: 1,
    serialNumber,
    modeType: DeviceMode.att,
    protocol: 'att-push',
    timeZone,
    status: DeviceStatus.online,
    registryCode: null,
    sessionId: null,
    paired: false,
    pushCommKey: null,
    allowedSourceCidrs: null,
    pollIntervalSeconds: 10,
    reported: {
      firmware: null,
      ip: null,
      userCount: null,
      fingerprintCount: null,
      faceCount: null,
      attlogCount: null,
      fpAlgorithm: null,
      faceAlgorithm: null,
      remoteAddress: null,
    },
    hasPendingCommands: false,
    version,
  };
}

/** A database stand-in that records what the cache asked for (changedTerminals and findTerminalsById run against PostgreSQL in terminal-fast-path.test.ts). */
function source(rows: Map<number, TerminalDevice>, pending: Set<number> = new Set()) {
  const asked = { changes: [] as number[][], devices: [] as number[][] };
  const src: RefreshSource = {
    changes: async (known) => {
      asked.changes.push(known.map((k) => k.id));
      return known
        .map((k): TerminalVersion => ({ id: k.id, version: rows.get(k.id)?.version ?? null, pending: pending.has(k.id) }))
        .filter((current, i) => current.version !== known[i]!.version || current.pending !== known[i]!.pending);
    },
    devices: async (ids) => {
      asked.devices.push(ids);
      return ids.filter((id) => rows.has(id)).map((id) => ({ ...rows.get(id)!, hasPendingCommands: pending.has(id) }));
    },
  };
  return { src, asked };
}

describe('terminal cache refresh', () => {
  it('asks for the differences in one batch, updates pending flags, and reloads only the devices whose version changed', async () => {
    const cache = new TerminalCache(60_000);
    const db = new Map([1, 2, 3].map((id) => [id, device(id, `SN${id}`, 'v1')]));
    for (const id of [1, 2, 3]) await cache.get(`SN${id}`, async () => ({ ...db.get(id)! }));
    db.set(2, device(2, 'SN2', 'v2', 'Europe/Paris'));
    const { src, asked } = source(db, new Set([3]));
    await cache.refresh(src);
    expect(asked.changes).to.deep.equal([[1, 2, 3]]);
    expect(asked.devices).to.deep.equal([[2]]);
    expect(cache.peek('SN2')!.timeZone).to.equal('Europe/Paris');
    expect(cache.peek('sn3')!.hasPendingCommands).to.equal(true);
    expect(cache.peek('SN1')!.hasPendingCommands).to.equal(false);
  });

  it('drops devices deleted or renamed in the database, and entries not served for idleMs', async () => {
    const db = new Map([1, 2, 3].map((id) => [id, device(id, `SN${id}`, 'v1')]));
    const cache = new TerminalCache(60_000);
    for (const id of [1, 2, 3]) await cache.get(`SN${id}`, async () => ({ ...db.get(id)! }));
    db.delete(1);
    db.set(2, device(2, 'SN2-NEW', 'v2'));
    await cache.refresh(source(db).src);
    expect(cache.peek('SN1')).to.equal(undefined);
    expect(cache.peek('SN2')).to.equal(undefined);
    expect(cache.peek('SN3')!.id).to.equal(3);

    const idle = new TerminalCache(60_000, 0);
    await idle.get('SN3', async () => ({ ...db.get(3)! }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { src, asked } = source(db);
    await idle.refresh(src);
    expect(idle.size).to.equal(0);
    expect(asked.changes).to.deep.equal([]);
  });

  it('keeps a command noticed in this process while the refresh was reading', async () => {
    const db = new Map([[1, device(1, 'SN1', 'v1')]]);
    const cache = new TerminalCache(60_000);
    await cache.get('SN1', async () => ({ ...db.get(1)! }));
    const { src } = source(db);
    const refreshing = cache.refresh({
      ...src,
      changes: async (known) => {
        cache.markPending([1]);
        return src.changes(known);
      },
    });
    await refreshing;
    expect(cache.peek('SN1')!.hasPendingCommands).to.equal(true);
  });

  it('keeps each device its own values when it stores shared copies of them, loaded, patched or reloaded, past the shared set', async () => {
    const cache = new TerminalCache(60_000);
    const devices = 1_200; // more distinct firmware values than the shared set keeps
    for (let id = 1; id <= devices; id++) {
      const row = device(id, `SN${id}`, 'v1', id % 2 ? 'Europe/Berlin' : 'Asia/Kolkata');
      row.reported = { ...row.reported, firmware: `Ver ${id}`, fpAlgorithm: '10', faceAlgorithm: id % 3 ? '7' : null };
      await cache.get(`SN${id}`, async () => row);
    }
    cache.patch('SN5', { reported: { ...cache.peek('SN5')!.reported, firmware: 'Ver 9.9', fpAlgorithm: '12' } });
    const db = new Map([[7, { ...device(7, 'SN7', 'v2', 'UTC'), reported: { ...device(7, 'SN7', 'v2').reported, firmware: 'Ver 7.7' } }]]);
    await cache.refresh({
      changes: async (known) => known.filter((k) => k.id === 7).map((k) => ({ id: k.id, version: 'v2', pending: false })),
      devices: async () => [db.get(7)!],
    });
    for (let id = 1; id <= devices; id++) {
      const cached = cache.peek(`SN${id}`)!;
      const [firmware, fp, zone] =
        id === 5 ? ['Ver 9.9', '12', 'Europe/Berlin'] : id === 7 ? ['Ver 7.7', null, 'UTC'] : [`Ver ${id}`, '10', id % 2 ? 'Europe/Berlin' : 'Asia/Kolkata'];
      expect([cached.reported.firmware, cached.reported.fpAlgorithm, cached.timeZone], `device ${id}`).to.deep.equal([firmware, fp, zone]);
      if (id !== 7) expect(cached.reported.faceAlgorithm, `device ${id}`).to.equal(id % 3 ? '7' : null);
    }
  });
});
