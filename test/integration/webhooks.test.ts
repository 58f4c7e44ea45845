import crypto from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { startReceiver } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { waitForLockWait } from '../support/service-process';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';
import { Punch } from '../../src/entities';
import { punchData } from '../../src/events/event-payloads';

/** Standard Webhooks verification, written from the specification (not the service's code). */
function expectedSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

describe('webhooks', () => {
  let t: TestApp;
  let clock = Date.parse('2026-04-01T10:00:00Z');
  const now = () => new Date(clock);
  before(async () => {
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000', TIMEGATE_WEBHOOK_TIMEOUT_MS: '500' }, 'webhooks', { now });
  });
  after(() => t.stop());

  async function setup() {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '42' });
    let second = 0;
    const punch = () =>
      rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: {
          employee_id: employee.id,
          device_id: device.id,
          company_id: company.id,
          punch_time: `2026-04-01T09:00:${String(second++).padStart(2, '0')}Z`,
          punch_state: '0',
        },
      });
    return { ws, company, device, employee, punch };
  }
  const endpoint = (ws: TestWorkspace, url: string, eventTypes = ['attendance.created']) =>
    rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url, event_types: eventTypes } });
  /** timegate_webhook_attempts_total by outcome, from /metrics. */
  const attemptCounts = async () => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const count = (outcome: string) => Number(new RegExp(`^timegate_webhook_attempts_total\\{outcome="${outcome}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    return { success: count('success'), http_error: count('http_error'), timeout: count('timeout'), network_error: count('network_error') };
  };
  const deliveries = async (ws: TestWorkspace, id: number) => (await rest(t.url, 'GET', `/public/v2/webhooks/${id}/deliveries`, { key: ws.key })).body;

  it('manages endpoints through REST and GraphQL; the secret is shown on create and rotate only', async () => {
    const { ws } = await setup();
    const created = await endpoint(ws, 'https://hooks.example.com/timegate', ['attendance.created', 'door.opened']);
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ url: 'https://hooks.example.com/timegate', enabled: true, disabled_reason: null });
    expect(created.body.secret).to.match(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(Buffer.from(created.body.secret.slice(6), 'base64').length).to.be.at.least(24);
    const id = created.body.id;
    expect((await rest(t.url, 'GET', `/public/v2/webhooks/${id}`, { key: ws.key })).body.secret).to.equal(null);
    expect((await rest(t.url, 'GET', '/public/v2/webhooks', { key: ws.key })).body.map((e: any) => [e.id, e.secret])).to.deep.equal([[id, null]]);
    const updated = await rest(t.url, 'PUT', `/public/v2/webhooks/${id}`, { key: ws.key, body: { event_types: ['device.offline'], description: 'ops' } });
    expect(updated.body).to.include({ description: 'ops', secret: null });
    expect(updated.body.event_types).to.deep.equal(['device.offline']);
    const rotated = await rest(t.url, 'POST', `/public/v2/webhooks/${id}/rotate_secret`, { key: ws.key });
    expect(rotated.status).to.equal(200);
    expect(rotated.body.secret)
      .to.match(/^whsec_/)
      .and.not.equal(created.body.secret);
    const viaGraphQL = await gqlData(t.url, ws.key, `{ webhookEndpoint(id: ${id}) { id eventTypes secret } }`);
    expect(viaGraphQL.webhookEndpoint).to.deep.equal({ id, eventTypes: ['device.offline'], secret: null });
    expect((await rest(t.url, 'DELETE', `/public/v2/webhooks/${id}`, { key: ws.key })).status).to.equal(200);
    expect((await rest(t.url, 'GET', `/public/v2/webhooks/${id}`, { key: ws.key })).status).to.equal(404);
  });

  it('refuses non-http(s) URLs and unknown event types with 422, creating nothing', async () => {
    const { ws } = await setup();
    const cases: Array<[string, string[], string, string]> = [
      ['ftp://hooks.example.com/x', ['attendance.created'], 'url', 'invalid_url'],
      ['not a url', ['attendance.created'], 'url', 'invalid_url'],
      ['https://user:pw@hooks.example.com/', ['attendance.created'], 'url', 'invalid_url'],
      ['https://hooks.example.com/', ['punch.made'], 'event_types.0', 'unknown_event_type'],
      ['https://hooks.example.com/', [], 'event_types', 'required'],
    ];
    for (const [url, types, field, code] of cases) {
      const r = await endpoint(ws, url, types);
      expect(r.status, url).to.equal(422);
      expect(r.body.error.details.map((d: any) => [d.field, d.code])).to.deep.include([field, code]);
    }
    expect((await rest(t.url, 'GET', '/public/v2/webhooks', { key: ws.key })).body).to.deep.equal([]);
  });

  it('signs each delivery per Standard Webhooks; the body is {id, type, created_at, workspace_id, data}', async () => {
    const s = await setup();
    const receiver = await startReceiver();
    try {
      const created = await endpoint(s.ws, receiver.url);
      const p = await s.punch();
      await t.app.webhooks.runOnce();
      expect(receiver.received).to.have.length(1);
      const [hook] = receiver.received;
      const id = hook!.headers['webhook-id'] as string;
      const timestamp = hook!.headers['webhook-timestamp'] as string;
      expect(hook!.headers['webhook-signature']).to.equal(expectedSignature(created.body.secret, id, timestamp, hook!.body));
      expect(timestamp).to.equal(String(Math.floor(clock / 1000)));
      expect(hook!.headers['content-type']).to.equal('application/json');
      expect(Object.keys(hook!.json)).to.deep.equal(['id', 'type', 'created_at', 'workspace_id', 'data']);
      expect(hook!.json).to.include({ id, type: 'attendance.created', workspace_id: s.ws.id, created_at: new Date(clock).toISOString() });
      expect(hook!.json.data).to.include({ id: p.body.id, employee_id: s.employee.id, pin: '42', punch_time: '2026-04-01T09:00:00.000Z' });
      const [delivery] = await deliveries(s.ws, created.body.id);
      expect(delivery).to.include({ status: 'succeeded', attempt_count: 1, event_id: id, event_type: 'attendance.created' });
      expect(delivery.attempts[0]).to.include({ status_code: 200, succeeded: true, response_excerpt: 'ok', error: null });
    } finally {
      await receiver.close();
    }
  });

  it('a terminal upload is one outbox row, and still one webhook per punch, each its own event and payload', async () => {
    const s = await setup();
    const receiver = await startReceiver();
    try {
      const created = await endpoint(s.ws, receiver.url);
      const body = '42\t2026-04-01 08:00:00\t0\t1\r\n42\t2026-04-01 12:00:00\t1\t1\r\n7\t2026-04-01 12:30:00\t0\t15\r\n';
      await iclock(t.url, 'GET', `/iclock/cdata?SN=${s.device.serial_number}&options=all`);
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${s.device.serial_number}&table=ATTLOG&Stamp=1`, body)).text).to.equal('OK: 3');
      const em = t.app.database.orm.em.fork();
      const [row] = await em.getConnection().execute(`select id::text, span from event where workspace_id = ? and type = 'attendance.created'`, [s.ws.id]);
      expect(row.span).to.equal(3);
      await t.app.webhooks.runOnce();
      expect(receiver.received).to.have.length(3);
      const stored = await em.find(Punch, { workspaceId: s.ws.id }, { orderBy: { id: 'asc' } });
      const hooks = [...receiver.received].sort((a, b) => a.json.data.id - b.json.data.id);
      expect(hooks.map((h) => h.json.data)).to.deep.equal(stored.map((p) => punchData(p)));
      expect(hooks.map((h) => h.headers['webhook-id'])).to.deep.equal([0n, 1n, 2n].map((n) => `evt_${BigInt(row.id) + n}`));
      expect(hooks.map((h) => h.json.id)).to.deep.equal(hooks.map((h) => h.headers['webhook-id']));
      const listed = await deliveries(s.ws, created.body.id);
      expect(listed.map((d: any) => [d.event_id, d.event_type, d.status]).sort()).to.deep.equal(
        hooks.map((h) => [h.json.id, 'attendance.created', 'succeeded']).sort(),
      );
    } finally {
      await receiver.close();
    }
  });

  it('retries after a 500 with backoff (injected clock), then succeeds; every attempt is readable', async () => {
    const s = await setup();
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
    const countsBefore = await attemptCounts();
    try {
      const created = await endpoint(s.ws, receiver.url);
      await s.punch();
      await t.app.webhooks.runOnce();
      expect(receiver.received).to.have.length(1);
      await t.app.webhooks.runOnce();
      expect(receiver.received, 'not due yet').to.have.length(1);
      const [pending] = await deliveries(s.ws, created.body.id);
      expect(pending).to.include({ status: 'pending', attempt_count: 1 });
      const delay = Date.parse(pending.next_attempt_at) - clock;
      expect(delay).to.be.within(24_000, 36_000);
      clock += 36_000;
      await t.app.webhooks.runOnce();
      expect(receiver.received).to.have.length(2);
      expect(receiver.received[1]!.headers['webhook-id']).to.equal(receiver.received[0]!.headers['webhook-id']);
      const data = await gqlData(
        t.url,
        s.ws.key,
        `query ($id: Int!) { webhookDeliveries(endpointId: $id) { nodes { status attemptCount attempts { statusCode succeeded responseExcerpt error durationMs } } } }`,
        { id: created.body.id },
      );
      const [delivery] = data.webhookDeliveries.nodes;
      expect(delivery).to.include({ status: 'succeeded', attemptCount: 2 });
      expect(delivery.attempts.map((a: any) => [a.statusCode, a.succeeded, a.error])).to.deep.equal([
        [500, false, 'HTTP 500'],
        [200, true, null],
      ]);
      expect(delivery.attempts[0].responseExcerpt)
        .to.match(/^failure 500 x+$/)
        .and.have.length(1024);
      const counts = await attemptCounts();
      expect([counts.http_error - countsBefore.http_error, counts.success - countsBefore.success], 'attempts in /metrics by outcome').to.deep.equal([1, 1]);
    } finally {
      await receiver.close();
    }
  });

  it('a timeout and a refused connection are failed attempts with their error', async () => {
    const s = await setup();
    const receiver = await startReceiver(() => 'hold');
    const closed = await startReceiver();
    await closed.close();
    const countsBefore = await attemptCounts();
    try {
      const slow = await endpoint(s.ws, receiver.url);
      const gone = await endpoint(s.ws, closed.url);
      await s.punch();
      await t.app.webhooks.runOnce();
      const [timedOut] = await deliveries(s.ws, slow.body.id);
      expect(timedOut.attempts[0]).to.include({ status_code: null, succeeded: false });
      expect(timedOut.attempts[0].error).to.match(/timed out after 500 ms/);
      const [refused] = await deliveries(s.ws, gone.body.id);
      expect(refused.attempts[0].error).to.match(/ECONNREFUSED/);
      expect(refused.status).to.equal('pending');
      const counts = await attemptCounts();
      expect([counts.timeout - countsBefore.timeout, counts.network_error - countsBefore.network_error], 'attempts in /metrics by outcome').to.deep.equal([
        1, 1,
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('redelivers by hand, and sends a test event to one endpoint', async () => {
    const s = await setup();
    const receiver = await startReceiver();
    try {
      const created = await endpoint(s.ws, receiver.url);
      await s.punch();
      await t.app.webhooks.runOnce();
      const [delivery] = await deliveries(s.ws, created.body.id);
      const again = await rest(t.url, 'POST', `/public/v2/webhook_deliveries/${delivery.id}/redeliver`, { key: s.ws.key });
      expect(again.status).to.equal(202);
      expect(again.body.status).to.equal('pending');
      await t.app.webhooks.runOnce();
      expect(receiver.received.map((r) => r.headers['webhook-id'])).to.deep.equal([delivery.event_id, delivery.event_id]);
      expect((await deliveries(s.ws, created.body.id))[0].attempts).to.have.length(2);
      const test = await rest(t.url, 'POST', `/public/v2/webhooks/${created.body.id}/test`, { key: s.ws.key });
      expect(test.status).to.equal(202);
      await t.app.webhooks.runOnce();
      expect(receiver.received[2]!.json).to.include({ type: 'webhook.test', id: test.body.event_id });
      expect((await rest(t.url, 'POST', '/public/v2/webhook_deliveries/999999/redeliver', { key: s.ws.key })).status).to.equal(404);
    } finally {
      await receiver.close();
    }
  });

  it('a redelivery asked while the worker completes the delivery is still sent again', async () => {
    const s = await setup();
    const receiver = await startReceiver();
    const worker = new pg.Client({ connectionString: t.config.databaseUrl! });
    await worker.connect();
    try {
      const created = await endpoint(s.ws, receiver.url);
      await s.punch();
      await t.app.webhooks.runOnce();
      await waitUntil(
        'the receiver got the delivery',
        async () => receiver.received.length,
        (v) => v === 1,
      );
      const [delivery] = await deliveries(s.ws, created.body.id);
      // A retry scheduled for later: pending, not due, so no worker of the app takes it.
      await worker.query("update webhook_delivery set status = 'pending', completed_at = null, next_attempt_at = $2 where id = $1", [
        delivery.id,
        new Date(clock + 3_600_000),
      ]);
      // Another worker holds the delivery while it sends it; the redelivery reads it pending and waits to write.
      await worker.query('begin');
      await worker.query('select 1 from webhook_delivery where id = $1 for update', [delivery.id]);
      const again = rest(t.url, 'POST', `/public/v2/webhook_deliveries/${delivery.id}/redeliver`, { key: s.ws.key });
      await waitForLockWait(t.config.databaseUrl!, 'update%webhook_delivery%next_attempt_at%');
      await worker.query("update webhook_delivery set status = 'succeeded', completed_at = now() where id = $1", [delivery.id]);
      await worker.query('commit');
      expect((await again).status).to.equal(202);
      // The redelivery is what was asked last: the event goes out again.
      await t.app.webhooks.runOnce();
      await waitUntil(
        'the receiver got the redelivery',
        async () => receiver.received.length,
        (v) => v === 2,
      );
      expect(receiver.received.map((r) => r.headers['webhook-id'])).to.deep.equal([delivery.event_id, delivery.event_id]);
    } finally {
      await worker.end();
      await receiver.close();
    }
  });

  it('delivery and attempt ids past 2^31 go through REST and GraphQL unchanged (64-bit, SafeInt)', async () => {
    const s = await setup();
    const receiver = await startReceiver();
    const sql = (query: string, params: unknown[]) => t.app.database.orm.em.fork().getConnection().execute(query, params);
    try {
      const created = await endpoint(s.ws, receiver.url);
      const deliveryId = 2 ** 31 + 3;
      const attemptId = 2 ** 40 + 9;
      await sql(`select setval('webhook_delivery_id_seq', ?, false)`, [deliveryId]);
      await sql(`select setval('webhook_attempt_id_seq', ?, false)`, [attemptId]);
      const test = await rest(t.url, 'POST', `/public/v2/webhooks/${created.body.id}/test`, { key: s.ws.key });
      expect(test.status).to.equal(202);
      expect(test.body.id).to.equal(deliveryId);
      await t.app.webhooks.runOnce();
      const [delivery] = await deliveries(s.ws, created.body.id);
      expect(delivery).to.include({ id: deliveryId, event_type: 'webhook.test', status: 'succeeded' });
      expect(delivery.attempts.map((a: any) => a.id)).to.deep.equal([attemptId]);

      const again = await rest(t.url, 'POST', `/public/v2/webhook_deliveries/${deliveryId}/redeliver`, { key: s.ws.key });
      expect(again.status, again.text).to.equal(202);
      expect(again.body.id).to.equal(deliveryId);
      await t.app.webhooks.runOnce();
      const redone = await gqlData(t.url, s.ws.key, 'mutation ($d: SafeInt!) { redeliverWebhook(deliveryId: $d) { id status } }', { d: deliveryId });
      expect(redone.redeliverWebhook).to.deep.equal({ id: deliveryId, status: 'pending' });
      await t.app.webhooks.runOnce();
      const listed = await gqlData(t.url, s.ws.key, 'query ($e: Int!) { webhookDeliveries(endpointId: $e) { nodes { id eventType attempts { id } } } }', {
        e: created.body.id,
      });
      expect(listed.webhookDeliveries.nodes).to.deep.equal([
        { id: deliveryId, eventType: 'webhook.test', attempts: [{ id: attemptId }, { id: attemptId + 1 }, { id: attemptId + 2 }] },
      ]);
      expect(receiver.received).to.have.length(3);
    } finally {
      await receiver.close();
    }
  });

  it('disables an endpoint that failed continuously for a day, with the reason; enabling clears it', async () => {
    const s = await setup();
    const receiver = await startReceiver(() => 503);
    try {
      const created = await endpoint(s.ws, receiver.url);
      const start = clock;
      await s.punch();
      await t.app.webhooks.runOnce();
      while (clock - start < 25 * 3_600_000) {
        clock += 3 * 3_600_000;
        await t.app.webhooks.runOnce();
      }
      const disabled = (await rest(t.url, 'GET', `/public/v2/webhooks/${created.body.id}`, { key: s.ws.key })).body;
      expect(disabled.enabled).to.equal(false);
      expect(disabled.disabled_reason).to.match(/failed for 24 hours.*HTTP 503/);
      const attempts = receiver.received.length;
      clock += 24 * 3_600_000;
      await s.punch();
      await t.app.webhooks.runOnce();
      expect(receiver.received.length, 'nothing sent to a disabled endpoint').to.equal(attempts);
      expect(await deliveries(s.ws, created.body.id), 'no delivery for events while disabled').to.have.length(1);
      const enabled = await rest(t.url, 'PUT', `/public/v2/webhooks/${created.body.id}`, { key: s.ws.key, body: { enabled: true } });
      expect(enabled.body).to.include({ enabled: true, disabled_reason: null });
    } finally {
      await receiver.close();
    }
  });

  it('Standard Webhooks: a 410 Gone disables the endpoint at once; Retry-After on 429/503 is honoured within the retry window; no test event for a disabled endpoint', async () => {
    const s = await setup();
    const gone = await startReceiver(() => 410);
    const busy = await startReceiver((n) =>
      n === 0
        ? { status: 429, headers: { 'retry-after': '600' } }
        : n === 1
          ? { status: 503, headers: { 'retry-after': new Date(clock + 1000 * 3_600_000).toUTCString() } }
          : 200,
    );
    try {
      const goneEndpoint = await endpoint(s.ws, gone.url);
      const busyEndpoint = await endpoint(s.ws, busy.url);
      await s.punch();
      await t.app.webhooks.runOnce();
      const disabled = (await rest(t.url, 'GET', `/public/v2/webhooks/${goneEndpoint.body.id}`, { key: s.ws.key })).body;
      expect(disabled).to.include({ enabled: false });
      expect(disabled.disabled_reason).to.match(/410 Gone/);
      expect((await deliveries(s.ws, goneEndpoint.body.id))[0]).to.include({ status: 'failed', attempt_count: 1 });
      const refused = await rest(t.url, 'POST', `/public/v2/webhooks/${goneEndpoint.body.id}/test`, { key: s.ws.key });
      expect(refused.status).to.equal(422);
      expect(refused.body.error.details[0]).to.include({ code: 'endpoint_disabled' });

      // 429 with Retry-After: 600 s, later than the 30 s backoff: the next attempt waits for it.
      const [first] = await deliveries(s.ws, busyEndpoint.body.id);
      expect(Date.parse(first.next_attempt_at) - clock).to.equal(600_000);
      clock += 600_000;
      await t.app.webhooks.runOnce();
      expect(busy.received).to.have.length(2);
      // 503 asking for 1000 hours: capped at the end of the 72-hour window, where the last attempt goes.
      const [second] = await deliveries(s.ws, busyEndpoint.body.id);
      expect(Date.parse(second.next_attempt_at)).to.equal(Date.parse(second.created_at) + 72 * 3_600_000);
    } finally {
      await gone.close();
      await busy.close();
    }
  });

  it('with TIMEGATE_WEBHOOK_ALLOW_PRIVATE=false: private targets are refused at creation (422) and after DNS at delivery time', async () => {
    const strict = await startTestApp({ TIMEGATE_WEBHOOK_ALLOW_PRIVATE: 'false', TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'webhooks-strict', { now });
    const receiver = await startReceiver();
    try {
      const ws = await createWorkspace(strict.url);
      for (const url of [
        'http://127.0.0.1:8080/x',
        'http://10.1.2.3/x',
        'http://169.254.169.254/latest',
        'http://[::1]/x',
        'http://localhost/x',
        'http://[::ffff:192.168.0.1]/x',
      ]) {
        const r = await rest(strict.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url, event_types: ['door.opened'] } });
        expect(r.status, url).to.equal(422);
        expect(r.body.error.details[0]).to.include({ field: 'url', code: 'private_address' });
      }
      // A name that resolved publicly at creation may point inside later: the delivery checks again.
      const company = await createCompany(strict.url, ws.key);
      const device = await createDevice(strict.url, ws.key, company.id);
      const employee = await createEmployee(strict.url, ws.key, company.id, { pin: '5' });
      const em = strict.app.database.orm.em.fork();
      const [row] = await em
        .getConnection()
        .execute(
          `insert into webhook_endpoint (workspace_id, url, event_types, secret, enabled, created_at, updated_at) values (?, ?, '{attendance.created}', 'whsec_AAAA', true, now(), now()) returning id`,
          [ws.id, receiver.url.replace('127.0.0.1', 'localhost')],
        );
      await rest(strict.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { employee_id: employee.id, device_id: device.id, company_id: company.id, punch_time: '2026-04-01T08:00:00Z', punch_state: '0' },
      });
      await strict.app.webhooks.runOnce();
      expect(receiver.received).to.have.length(0);
      const [delivery] = (await rest(strict.url, 'GET', `/public/v2/webhooks/${row.id}/deliveries`, { key: ws.key })).body;
      expect(delivery.attempts[0].error).to.match(/localhost resolves to .*private, loopback or link-local/);
    } finally {
      await receiver.close();
      await strict.stop();
    }
  });
});
