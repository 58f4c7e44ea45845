import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { createApp, type App } from '../../src/app';
import { freePort } from '../../src/db/embedded-postgres';
import { startReceiver, subscribe } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

const root = path.resolve(__dirname, '..', '..', '..');

async function workspaceWithPunches(baseUrl: string) {
  const ws = await createWorkspace(baseUrl);
  const company = await createCompany(baseUrl, ws.key);
  const device = await createDevice(baseUrl, ws.key, company.id);
  const employee = await createEmployee(baseUrl, ws.key, company.id, { pin: '77' });
  let second = 0;
  const punch = (url = baseUrl) =>
    rest(url, 'POST', '/public/v2/punches', {
      key: ws.key,
      body: {
        employee_id: employee.id,
        device_id: device.id,
        company_id: company.id,
        punch_time: new Date(Date.UTC(2026, 4, 1, 8, 0, second++)).toISOString(),
        punch_state: '0',
      },
    });
  return { ws, punch };
}

describe('events with several processes on one database', () => {
  let t: TestApp;
  let second: App;
  before(async () => {
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'events-multi');
    second = await createApp(t.config, { logger: pino({ level: 'silent' }) });
  });
  after(async () => {
    await second.stop();
    await t.stop();
  });

  it('a subscriber on one process receives the events caused on the other', async () => {
    const s = await workspaceWithPunches(t.url);
    const sub = await subscribe(second, s.ws.id, s.ws.key, 'subscription { punchCreated { cursor punch { id } } }');
    try {
      const made = [(await s.punch(t.url)).body.id, (await s.punch(second.url)).body.id, (await s.punch(t.url)).body.id];
      expect((await sub.waitFor(3)).map((e) => e.punch.id)).to.deep.equal(made);
    } finally {
      await sub.close();
    }
  });

  it('each webhook delivery is sent by exactly one process', async () => {
    const s = await workspaceWithPunches(t.url);
    const receiver = await startReceiver();
    try {
      await rest(t.url, 'POST', '/public/v2/webhooks', { key: s.ws.key, body: { url: receiver.url, event_types: ['attendance.created'] } });
      await Promise.all(Array.from({ length: 30 }, (_, i) => s.punch(i % 2 ? t.url : second.url)));
      await waitUntil('the 30 webhook deliveries are received', async () => {
        await Promise.all([t.app.webhooks.runOnce(), second.webhooks.runOnce(), t.app.webhooks.runOnce(), second.webhooks.runOnce()]);
        return receiver.received.length >= 30;
      });
      await Promise.all([t.app.webhooks.runOnce(), second.webhooks.runOnce()]);
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(ids).to.have.length(30);
      expect(new Set(ids).size).to.equal(30);
    } finally {
      await receiver.close();
    }
  });

  it('a process killed right after the commit: the event is still delivered after a restart', async function () {
    this.timeout(60_000);
    const s = await workspaceWithPunches(t.url);
    // Whatever the doomed process sends before it dies gets no answer (so it cannot have delivered);
    // requests after the kill get 200. Whether it got to send at all is a race, and either way works.
    let killed = false;
    const receiver = await startReceiver(() => (killed ? 200 : 'hold'));
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js')], {
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl!, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    let restarted: App | null = null;
    try {
      const childUrl = `http://127.0.0.1:${port}`;
      await waitUntil('the restarted process is healthy', async () => (await fetch(`${childUrl}/healthz`).catch(() => null))?.ok, 30_000);
      const hook = await rest(childUrl, 'POST', '/public/v2/webhooks', { key: s.ws.key, body: { url: receiver.url, event_types: ['attendance.created'] } });
      const committed = await s.punch(childUrl);
      expect(committed.status).to.equal(201);
      child.kill('SIGKILL');
      expect(await exited).to.equal('SIGKILL');
      killed = true;

      // Another instance, its clock past any lease the dead process held on the delivery.
      restarted = await createApp(t.config, { logger: pino({ level: 'silent' }), now: () => new Date(Date.now() + 3_600_000) });
      await restarted.webhooks.runOnce();
      const delivered = receiver.received.filter((r) => r.json.data.id === committed.body.id);
      expect(delivered.length).to.be.at.least(1);
      const [delivery] = (await rest(t.url, 'GET', `/public/v2/webhooks/${hook.body.id}/deliveries`, { key: s.ws.key })).body;
      expect(delivery.status).to.equal('succeeded');
      expect(delivery.attempts.at(-1)).to.include({ status_code: 200, succeeded: true });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await restarted?.stop();
      await receiver.close();
    }
  });
});
