import { expect } from 'chai';
import { startReceiver } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query } from '../support/service-process';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression: deliveries went out in batches that waited for their slowest request, so one
// workspace's receiver that never answers delayed every workspace's webhooks.
describe("webhooks: one workspace's slow receiver never delays another's", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(
      { TIMEGATE_WEBHOOK_CONCURRENCY: '4', TIMEGATE_WEBHOOK_ENDPOINT_CONCURRENCY: '2', TIMEGATE_WEBHOOK_TIMEOUT_MS: '60000', TIMEGATE_WEBHOOK_POLL_MS: '100' },
      'webhook-fairness',
    );
  });
  after(() => t.stop());

  const punches = async (ws: TestWorkspace, count: number) => {
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '9' });
    for (let i = 0; i < count; i++) {
      const punch = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: {
          employee_id: employee.id,
          device_id: device.id,
          company_id: company.id,
          punch_time: new Date(Date.UTC(2026, 5, 1, 8, 0, i)).toISOString(),
          punch_state: '0',
        },
      });
      expect(punch.status).to.equal(201);
    }
  };

  it("B's deliveries arrive while A's receiver holds every request open; A holds at most its endpoint share of the pool", async function () {
    this.timeout(60_000);
    const slow = await startReceiver(() => 'hold');
    const fast = await startReceiver(() => 200);
    try {
      const a = await createWorkspace(t.url);
      const b = await createWorkspace(t.url);
      for (const [ws, receiver] of [
        [a, slow],
        [b, fast],
      ] as const) {
        const hook = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: receiver.url, event_types: ['attendance.created'] } });
        expect(hook.status).to.equal(201);
      }
      await punches(a, 10);
      await waitUntil(
        'the slow endpoint received two requests',
        async () => slow.received.length,
        (v) => v >= 2,
      );
      await punches(b, 5);

      await waitUntil(
        'the fast endpoint received five requests',
        async () => fast.received.length,
        (v) => v >= 5,
        30_000,
      );
      // Every one of A's requests is still open: B did not wait for any of them.
      const finishedA = await query(
        t.config.databaseUrl!,
        'select count(*)::int as n from webhook_attempt a join webhook_delivery d on d.id = a.delivery_id join webhook_endpoint w on w.id = d.endpoint_id where w.workspace_id = $1',
        [a.id],
      );
      expect(finishedA[0].n).to.equal(0);
      // A's endpoint never had more than its share in flight (2 of a pool of 4).
      expect(slow.received.length).to.equal(2);
      expect(fast.received.map((r) => r.json.workspace_id)).to.deep.equal([b.id, b.id, b.id, b.id, b.id]);
    } finally {
      await slow.close();
      await fast.close();
    }
  });
});

// Regression: a stopping process went on claiming webhook deliveries until its whole backlog had
// been attempted (the poll job, which stop waits for, kept refilling the pool as requests timed out).
describe('webhooks: a stopping process takes no new delivery', () => {
  it('only the requests already in flight finish; the rest stay pending for the next process', async function () {
    this.timeout(60_000);
    const t = await startTestApp(
      // The held requests time out after 3 s: long enough that the stop begins while both are still
      // in flight, however slow the machine (a 300 ms timeout let a third one go out first).
      { TIMEGATE_WEBHOOK_CONCURRENCY: '2', TIMEGATE_WEBHOOK_ENDPOINT_CONCURRENCY: '2', TIMEGATE_WEBHOOK_TIMEOUT_MS: '3000', TIMEGATE_WEBHOOK_POLL_MS: '100' },
      'webhook-stop',
    );
    const slow = await startReceiver(() => 'hold');
    let stopped = false;
    try {
      const ws = await createWorkspace(t.url);
      const hook = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: slow.url, event_types: ['attendance.created'] } });
      expect(hook.status).to.equal(201);
      const company = await createCompany(t.url, ws.key);
      const device = await createDevice(t.url, ws.key, company.id);
      const employee = await createEmployee(t.url, ws.key, company.id, { pin: '9' });
      for (let i = 0; i < 8; i++) {
        const punch = await rest(t.url, 'POST', '/public/v2/punches', {
          key: ws.key,
          body: {
            employee_id: employee.id,
            device_id: device.id,
            company_id: company.id,
            punch_time: new Date(Date.UTC(2026, 5, 1, 8, 0, i)).toISOString(),
            punch_state: '0',
          },
        });
        expect(punch.status).to.equal(201);
      }
      await waitUntil(
        'the slow endpoint received two requests',
        async () => slow.received.length,
        (v) => v >= 2,
      );
      await t.stop();
      stopped = true;
      // The two held requests timed out and were recorded; nothing else was sent.
      expect(slow.received).to.have.length(2);
      const rows = await query(t.config.databaseUrl!, 'select attempt_count, status from webhook_delivery where workspace_id = $1 order by id', [ws.id]);
      expect(rows).to.have.length(8);
      expect(rows.filter((r) => r.attempt_count === 1)).to.have.length(2);
      expect(
        rows.filter((r) => r.attempt_count === 0 && r.status === 'pending'),
        'left for the next process',
      ).to.have.length(6);
    } finally {
      if (!stopped) await t.stop();
      await slow.close();
    }
  });
});
