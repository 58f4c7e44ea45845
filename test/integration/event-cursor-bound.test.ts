import { expect } from 'chai';
import { subscribe } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression for a gap after a database failover: a caught-up reader used to move its cursor to
// the snapshot bound (the oldest running transaction), but a promoted standby hands out again the
// transaction ids (and so outbox ids) its predecessor gave to transactions that never reached it,
// so an event committed after the failover could get an id below that bound and be skipped. The
// cursor now stops at the newest event that exists, which is on the standby.
describe('event feed: a caught-up reader never moves past the newest event', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'cursor-bound');
  });
  after(() => t.stop());

  it("stops at the workspace's newest event, not at the snapshot bound beyond it", async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '5' });
    const sub = await subscribe<{ eventId: string }>(t.app, ws.id, ws.key, 'subscription { punchCreated { eventId } }');
    try {
      const punch = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { employee_id: employee.id, device_id: device.id, company_id: company.id, punch_time: '2026-06-01T08:00:00Z', punch_state: '0' },
      });
      expect(punch.status).to.equal(201);
      const [event] = await sub.waitFor(1);
      const eventId = BigInt(event!.eventId.replace(/^evt_/, ''));
      await waitUntil("the feed's read position reaches the event", async () => (t.app.events.readPosition(ws.id) ?? 0n) >= eventId);
      // The read that delivered it saw no running transaction: its bound lies beyond the event. The
      // cursor stops at the event all the same.
      expect(t.app.events.readPosition(ws.id)).to.equal(eventId);
      expect(sub.errors).to.deep.equal([]);
    } finally {
      await sub.close();
    }
  });
});
