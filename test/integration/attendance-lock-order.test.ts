import { expect } from 'chai';
import { Client } from 'pg';
import { ATTENDANCE_LOCK } from '../../src/services/attendance/day-store';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression (a CI run failed with "deadlock detected"): creating an employee whose pin attaches
// earlier punches locked the workspace row FOR UPDATE, then waited for the attendance lock; the
// attendance worker held that lock while its day insert checked the day's workspace key, which
// waits for a FOR UPDATE lock. The workspace row is now locked FOR NO KEY UPDATE, which foreign-key
// checks do not wait for. The worker is played here by a connection that holds the attendance lock.
describe('attendance lock order: an admin change and the worker do not deadlock', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_ATTENDANCE_WORKER: 'false' }, 'attendance-lock-order');
  });
  after(() => t.stop());

  it('while a change waits for the attendance lock, the lock holder can still check a key of that workspace', async function () {
    this.timeout(30_000);
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    // A punch of a pin nobody has yet: the employee created below takes it over (and marks its days stale).
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, '4242\t2026-03-02 09:00:00\t0\t1\t0')).text).to.match(
      /^OK/,
    );

    const worker = new Client({ connectionString: t.config.databaseUrl! });
    await worker.connect();
    try {
      await worker.query('begin');
      await worker.query(`select pg_advisory_xact_lock(x'${ATTENDANCE_LOCK}'::bigint)`);
      const creation = createEmployee(t.url, ws.key, company.id, { pin: '4242' });
      // The creation is now inside its transaction, waiting for the attendance lock.
      await waitUntil(
        'the change waits for the attendance lock',
        async () => {
          const { rows } = await worker.query(
            `select 1 from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
          );
          return rows.length > 0;
        },
        10_000,
      );
      // What the worker's day insert does for its foreign key: it must not wait for the creation.
      await worker.query(`set local lock_timeout = '5s'`);
      const { rows } = await worker.query('select id from workspace where id = $1 for key share', [ws.id]);
      expect(rows).to.deep.equal([{ id: ws.id }]);
      await worker.query('commit');
      const employee = await creation;
      expect(employee.pin).to.equal('4242');
    } finally {
      await worker.end();
    }
  });
});
