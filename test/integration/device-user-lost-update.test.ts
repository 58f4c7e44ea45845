import { expect } from 'chai';
import pg from 'pg';
import { createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { waitForLockWait } from '../support/service-process';
import { createTerminalDevice } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression: a person's change that landed while their previous version's commands were
// completing was lost. The change's transaction had read the row `pending`; the commands'
// completion then marked it `synced` (for the previous version); the change wrote its new version
// but not the status, which had not changed from the row as read. The row stayed `synced` with a
// version that was never built, and the terminal kept the old state (seen in CI as an access level
// removal that never reached an attendance terminal).
describe('device users: a change racing the completion of the previous version', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'device-user-race');
  });
  after(() => t.stop());

  it('stays pending with its new version when the previous version is marked synced meanwhile', async () => {
    const ws = await createWorkspace(t.url);
    const device = await createTerminalDevice(t.url, ws.key);
    const [{ company_id: companyId }] = await t.app.database.orm.em.fork().getConnection().execute('select company_id from device where id = ?', [device.id]);
    const ann = await createEmployee(t.url, ws.key, companyId, { pin: '71', name: 'Ann', lastname: 'Lee' });
    expect(
      (await rest(t.url, 'POST', `/public/v2/employees/${ann.id}/devices`, { key: ws.key, body: [{ device_id: device.id, permission_id: 0 }] })).status,
    ).to.equal(200);

    // The previous version's commands complete in another transaction, which holds the row while the change runs.
    const completion = new pg.Client({ connectionString: t.config.databaseUrl! });
    await completion.connect();
    try {
      await completion.query('begin');
      const [row] = (await completion.query('select id, changed_at from device_user where employee_id = $1 for update', [ann.id])).rows;
      expect(row, 'the assignment made a desired-state row').to.exist;
      const renamed = rest(t.url, 'PUT', `/public/v2/employees/${ann.id}`, { key: ws.key, body: { name: 'Anne' } });
      // The rename has read the row (pending) and now waits to write it.
      await waitForLockWait(t.config.databaseUrl!, 'update "device_user" set %');
      await completion.query("update device_user set sync_status = 'synced' where id = $1 and changed_at = $2", [row.id, row.changed_at]);
      await completion.query('commit');
      expect((await renamed).status).to.equal(200);
    } finally {
      await completion.end();
    }

    const [after] = await t.app.database.orm.em.fork().getConnection().execute('select name, sync_status from device_user where employee_id = ?', [ann.id]);
    expect(after).to.deep.equal({ name: 'Anne Lee', sync_status: 'pending' });
  });
});
