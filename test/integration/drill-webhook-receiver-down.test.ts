import http from 'node:http';
import { expect } from 'chai';
import { freePort } from '../../src/db/embedded-postgres';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';

const EVENTS = 25;

/** A receiver on a fixed port that can be started after the endpoint exists (refused until then). */
function receiverOn(port: number, status: () => number) {
  const answered: { id: string; status: number; json: any }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const code = status();
      answered.push({ id: String(req.headers['webhook-id']), status: code, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(code, { 'content-type': 'text/plain' }).end(code === 200 ? 'ok' : 'down');
    });
  });
  return {
    answered,
    listen: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('fault drill: a webhook receiver down (refused, then 500s), then up', () => {
  let clock = Date.parse('2026-07-01T08:00:00Z');
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'drill-webhooks', { now: () => new Date(clock) });
  });
  after(() => t.stop());

  it('every event is delivered once the receiver is up, exactly the set of events, each acknowledged once', async function () {
    this.timeout(60_000);
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '5' });
    const port = await freePort();
    const hook = await rest(t.url, 'POST', '/public/v2/webhooks', {
      key: ws.key,
      body: { url: `http://127.0.0.1:${port}/hook`, event_types: ['attendance.created'] },
    });
    expect(hook.status).to.equal(201);
    const punchIds: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const punch = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: {
          employee_id: employee.id,
          device_id: device.id,
          company_id: company.id,
          punch_time: new Date(Date.UTC(2026, 5, 30, 8, 0, i)).toISOString(),
          punch_state: '0',
        },
      });
      punchIds.push(punch.body.id);
    }
    const attempts = (error: string) =>
      query(
        t.config.databaseUrl!,
        `select d.id, count(a.id) filter (where a.error like $2) as n from webhook_delivery d left join webhook_attempt a on a.delivery_id = d.id where d.endpoint_id = $1 group by d.id`,
        [hook.body.id, error],
      );
    // Backoff is exponential from 30 s; each step moves the clock past every retry due so far.
    const round = async (ms: number) => {
      clock += ms;
      await t.app.webhooks.runOnce();
    };

    // Down: nothing listens on the port.
    for (const ms of [0, 60_000, 120_000, 300_000]) await round(ms);
    const refused = await attempts('%ECONNREFUSED%');
    expect(refused).to.have.length(EVENTS);
    for (const row of refused) expect(Number(row.n), 'refused attempts per delivery').to.be.at.least(3);

    // Up but failing: 500 to everything.
    let status = 500;
    const receiver = receiverOn(port, () => status);
    await receiver.listen();
    try {
      for (const ms of [600_000, 1_200_000, 2_400_000]) await round(ms);
      const failing = await attempts('HTTP 500');
      for (const row of failing) expect(Number(row.n), '500 attempts per delivery').to.be.at.least(2);
      expect(receiver.answered.filter((r) => r.status === 200)).to.deep.equal([]);

      // Up: within the retry window (4.5 h of the 72 h) every delivery goes through.
      status = 200;
      for (let i = 0; i < 6 && receiver.answered.filter((r) => r.status === 200).length < EVENTS; i++) await round(3_600_000);
      const ok = receiver.answered.filter((r) => r.status === 200);
      expect(
        ok.map((r) => r.json.data.id).sort((x, y) => x - y),
        'exactly the set of events',
      ).to.deep.equal([...punchIds].sort((x, y) => x - y));
      expect(new Set(ok.map((r) => r.id)).size, 'each event acknowledged once').to.equal(EVENTS);
      await round(24 * 3_600_000);
      expect(
        receiver.answered.filter((r) => r.status === 200),
        'nothing sent again after success',
      ).to.have.length(EVENTS);
      const deliveries = await rest(t.url, 'GET', `/public/v2/webhooks/${hook.body.id}/deliveries`, { key: ws.key });
      expect(deliveries.body.map((d: any) => d.status)).to.deep.equal(Array(EVENTS).fill('succeeded'));
      const endpoint = await rest(t.url, 'GET', `/public/v2/webhooks/${hook.body.id}`, { key: ws.key });
      expect(endpoint.body.enabled, 'a few hours of failures do not disable the endpoint').to.equal(true);
    } finally {
      await receiver.close();
    }
  });
});
