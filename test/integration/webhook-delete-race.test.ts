import { expect } from 'chai';
import { startReceiver } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression for a deadlock seen once: deleting an endpoint (endpoint row, then its deliveries by
// cascade) while the worker recorded an attempt (delivery row, then the endpoint row) locked the
// same rows in opposite orders. Both now take the endpoint first; the race is run many times.
describe('webhooks: deleting an endpoint while its deliveries are recorded', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'webhook-delete-race');
  });
  after(() => t.stop());

  it('never deadlocks: every delete succeeds and every attempt is recorded or finds its endpoint gone', async function () {
    this.timeout(120_000);
    const ws = await createWorkspace(t.url, { maxCompanies: 2, maxDevices: 2 });
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '3' });
    const receiver = await startReceiver(() => 500);
    const errors: unknown[] = [];
    const logged = t.app.logger.error.bind(t.app.logger);
    t.app.logger.error = ((...args: unknown[]) => {
      errors.push(args[0]);
      return (logged as (...a: unknown[]) => void)(...args);
    }) as typeof t.app.logger.error;
    try {
      for (let round = 0; round < 25; round++) {
        const hook = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: receiver.url, event_types: ['attendance.created'] } });
        expect(hook.status).to.equal(201);
        for (let i = 0; i < 4; i++) {
          await rest(t.url, 'POST', '/public/v2/punches', {
            key: ws.key,
            body: {
              employee_id: employee.id,
              device_id: device.id,
              company_id: company.id,
              punch_time: new Date(Date.UTC(2026, 6, 1, 8, round, i)).toISOString(),
              punch_state: '0',
            },
          });
        }
        const [sent, deleted] = await Promise.all([t.app.webhooks.runOnce(), rest(t.url, 'DELETE', `/public/v2/webhooks/${hook.body.id}`, { key: ws.key })]);
        expect(deleted.status, `round ${round}: ${deleted.text}`).to.be.oneOf([200, 204]);
        expect(sent).to.be.a('number');
      }
      expect(errors).to.deep.equal([]);
    } finally {
      t.app.logger.error = logged;
      await receiver.close();
    }
  });
});
