import { expect } from 'chai';
import pg from 'pg';
import { createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { waitForLockWait } from '../support/service-process';
import { createTerminalDevice, registerAccessTerminal } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

const TWO_DOORS = 'DeviceType=acc,~DeviceName=inBio260,FirmVer=AC Ver 5.7.8,PushVersion=3.1.2,LockCount=2,ReaderCount=2';

/**
 * Access-level writes against the controllers' sync transactions (the fleet bench: adding 100
 * people to a level while every controller synced answered 500). Two real transactions: the
 * sync side is held open on a connection of the test, on the person's terminal row, as a sync build
 * or a command result holds it; the level write is a REST request; `waitForLockWait` lets the held
 * transaction go on at the moment the request waits for it.
 */
describe('access-level writes while the controllers sync', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'access-level-sync-race');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 20 });
  });
  after(() => t.stop());

  const call = (method: string, path: string, body?: unknown) => rest(t.url, method, path, { key: ws.key, body });
  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);

  /** Two registered controllers of one company, a level over the doors of each, a person on the first level (her row on the first controller pending). */
  async function twoControllers() {
    const first = (await createTerminalDevice(t.url, ws.key, { mode_type: 'acc' })) as any;
    const second = (await createTerminalDevice(t.url, ws.key, { mode_type: 'acc', company_id: first.company_id })) as any;
    for (const device of [first, second]) await registerAccessTerminal(t.url, device.serial_number, TWO_DOORS);
    const always = (await call('GET', `/public/v2/access_schedules?company_id=${first.company_id}`)).body[0];
    const level = async (device: { id: number }, name: string) => {
      const doors = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body as Array<{ id: number }>;
      return (await call('POST', '/public/v2/access_levels', { company_id: first.company_id, name, schedule_id: always.id, door_ids: doors.map((d) => d.id) }))
        .body as { id: number };
    };
    const front = await level(first, 'Front');
    const back = await level(second, 'Back');
    const ada = await createEmployee(t.url, ws.key, first.company_id, { pin: '5101' });
    expect((await call('POST', `/public/v2/access_levels/${front.id}/employees`, [{ employee_id: ada.id }])).status).to.equal(200);
    const [row] = await sql('select id, changed_at::text as changed_at from device_user where device_id = ? and employee_id = ?', [first.id, ada.id]);
    return { first, second, front, back, ada, row: row as { id: number; changed_at: string } };
  }

  /** A sync transaction of the test's own, holding the terminal row `id` (as a build writing what it sent, or a result concluding it, does). */
  async function holdTerminalRow(id: number): Promise<pg.Client> {
    const sync = new pg.Client({ connectionString: t.config.databaseUrl! });
    await sync.connect();
    await sync.query('begin');
    // This side never detects the deadlock first: the level write, waiting since earlier, does.
    await sync.query("set local deadlock_timeout = '30s'");
    await sync.query('update device_user set sent_access = sent_access where id = $1', [id]);
    return sync;
  }

  it("putting a person on a second level neither rewrites nor waits for her rows on the first level's controller while it syncs them", async () => {
    const { first, second, back, ada, row } = await twoControllers();
    const sync = await holdTerminalRow(row.id);
    try {
      // Her row on the first controller does not change (same grants, same window): the request does
      // not touch it, so it neither waits for the sync transaction nor can deadlock with it.
      const waited = waitForLockWait(t.config.databaseUrl!, '%device_user%').then(() => 'waited for the sync transaction');
      const added = call('POST', `/public/v2/access_levels/${back.id}/employees`, [{ employee_id: ada.id }]).then((r) => r.status);
      expect(await Promise.race([added, waited])).to.equal(200);
    } finally {
      await sync.query('commit');
      await sync.end();
    }
    const rows = await sql('select device_id, changed_at::text as changed_at, sync_status from device_user where employee_id = ? order by device_id', [ada.id]);
    expect(rows.map((r) => r.device_id)).to.deep.equal([first.id, second.id].sort((a, b) => a - b));
    expect(rows.find((r) => r.device_id === first.id).changed_at).to.equal(row.changed_at);
  });

  it('a deadlock between a level write and a sync transaction is retried: the request succeeds, not a 500', async () => {
    const { first, front, ada, row } = await twoControllers();
    const sync = await holdTerminalRow(row.id);
    let syncDone: Promise<unknown> = Promise.resolve();
    try {
      // A window on her membership: her row on the controller must change, and the sync holds it.
      const changed = call('POST', `/public/v2/access_levels/${front.id}/employees`, [{ employee_id: ada.id, start_date: '2026-01-01' }]);
      await waitForLockWait(t.config.databaseUrl!, '%device_user%');
      // The sync side now wants the membership row the request has written: a cycle, which
      // PostgreSQL breaks by aborting the request's transaction (40P01).
      syncDone = sync.query('update access_level_employee set start_date = start_date where access_level_id = $1 and employee_id = $2', [front.id, ada.id]);
      await syncDone;
      // The request's retry now waits for the sync, which ends.
      await sync.query('commit');
      const response = await changed;
      expect(response.status, response.text).to.equal(200);
      expect(response.body.find((m: any) => m.employee_id === ada.id)).to.include({ start_date: '2026-01-01' });
    } finally {
      await syncDone.catch(() => undefined);
      await sync.query('rollback').catch(() => undefined);
      await sync.end();
    }
    const [after] = await sql('select valid_from::text as valid_from, sync_status from device_user where device_id = ? and employee_id = ?', [
      first.id,
      ada.id,
    ]);
    expect(after).to.deep.equal({ valid_from: '2026-01-01', sync_status: 'pending' });
  });
});
