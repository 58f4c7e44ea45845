import { expect } from 'chai';
import { uploadSlots } from '../../src/devices/upload-slots';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { query } from '../support/service-process';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression: a clock-in uploaded while terminals re-sent their history waited for a free upload
// slot behind every queued slice of that history (seconds under a backfill of 100,000 punches).
describe('terminal uploads: live before backlog', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_ATTENDANCE_WORKER: 'false' }, 'upload_lanes');
  });
  after(() => t.stop());

  it('a one-punch upload takes the next free slot before a backlog that queued first', async () => {
    const ws = await createWorkspace(t.url);
    const c = await createCompany(t.url, ws.key);
    const clock = await createDevice(t.url, ws.key, c.id);
    const history = await createDevice(t.url, ws.key, c.id);
    const live = await createEmployee(t.url, ws.key, c.id, { pin: '501' });
    const old = await createEmployee(t.url, ws.key, c.id, { pin: '502' });
    const releases: Array<() => void> = [];
    const holders = Array.from({ length: uploadSlots.size }, () => uploadSlots.run(() => new Promise<void>((resolve) => releases.push(resolve))));
    try {
      const backlog = Array.from(
        { length: 60 },
        (_, i) => `502\t2026-01-${String(1 + (i % 28)).padStart(2, '0')} 08:${String(i).padStart(2, '0')}:00\t0\t1\t0`,
      ).join('\n');
      const bulk = iclock(t.url, 'POST', `/iclock/cdata?SN=${history.serial_number}&table=ATTLOG&Stamp=1`, backlog);
      await waitUntil(
        'the backlog waits for an upload slot',
        async () => uploadSlots.queued,
        (v) => v === 1,
      );
      const clockIn = iclock(t.url, 'POST', `/iclock/cdata?SN=${clock.serial_number}&table=ATTLOG&Stamp=1`, '501\t2026-11-27 09:00:00\t0\t1\t0');
      await waitUntil(
        'the clock-in waits for an upload slot',
        async () => uploadSlots.queued,
        (v) => v === 2,
      );
      releases[0]!();
      expect((await clockIn).text).to.equal('OK: 1');
      expect((await bulk).text).to.equal('OK: 60');
    } finally {
      for (const release of releases) release();
      await Promise.all(holders);
    }
    const [order] = await query(
      t.config.databaseUrl!,
      `select max(id) filter (where employee_id = $1) as live, min(id) filter (where employee_id = $2) as backlog from punch where workspace_id = $3`,
      [live.id, old.id, ws.id],
    );
    expect(BigInt(order.live) < BigInt(order.backlog), 'the clock-in was stored before the backlog').to.equal(true);
  });
});
