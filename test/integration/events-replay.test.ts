import { expect } from 'chai';
import type { EventStream } from '../../src/events/event-stream';
import type { StoredEvent } from '../../src/events/event-types';
import { wsClient } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query } from '../support/service-process';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// Regression: a replay from after:"0" read the whole retained history into the subscriber's queue
// before the client could take the first event (7.6 GB for ~200,000 events), and live events held
// during a replay grew without bound.
describe('event replay is paged with back-pressure; a subscriber too far behind is closed', () => {
  let t: TestApp;
  let workspaceId: number;
  before(async () => {
    t = await startTestApp({ TIMEGATE_EVENT_POLL_MS: '100' }, 'events-replay');
    const ws = await createWorkspace(t.url);
    workspaceId = ws.id;
    // One real event to copy the payload shape from.
    await punchIn(ws.key, 0);
  });

  const punchIn = async (key: string, second: number) => {
    const company = await createCompany(t.url, key);
    const device = await createDevice(t.url, key, company.id);
    const employee = await createEmployee(t.url, key, company.id, { pin: String(100 + second) });
    const punch = await rest(t.url, 'POST', '/public/v2/punches', {
      key,
      body: {
        employee_id: employee.id,
        device_id: device.id,
        company_id: company.id,
        punch_time: new Date(Date.UTC(2026, 5, 30, 8, 0, second)).toISOString(),
        punch_state: '0',
      },
    });
    expect(punch.status).to.equal(201);
  };
  after(() => t.stop());

  /** Appends `count` copies of the workspace's first event in one transaction, with outbox ids. */
  const appendEvents = (count: number) =>
    query(
      t.config.databaseUrl!,
      `with first as (select type, data from event where workspace_id = $1 order by id limit 1)
       insert into event (id, workspace_id, type, data, created_at)
       select pg_current_xact_id()::text::bigint * ${2 ** 20} + g, $1, first.type, first.data, now() from first, generate_series(0, $2 - 1) g`,
      [workspaceId, count],
    );
  const typeOfFirst = async () =>
    (await query(t.config.databaseUrl!, 'select type from event where workspace_id = $1 order by id limit 1', [workspaceId]))[0].type as string;
  const take = async (stream: EventStream, count: number) => {
    const out: StoredEvent[] = [];
    while (out.length < count) out.push((await stream.next()).value as StoredEvent);
    return out;
  };

  it('replays from after:"0" one page at a time, in id order, each event once, then goes live', async function () {
    this.timeout(60_000);
    const HISTORY = 3_000;
    await appendEvents(HISTORY - 1);
    const type = await typeOfFirst();
    const stream = await t.app.events.subscribe({ workspaceId, types: [type], matches: () => true, after: '0' });
    // The client has taken nothing: the server holds one page of the history, not all of it.
    // The replay pushed one page and now waits for the client: it reads no further page meanwhile.
    await waitUntil('the replay waits for the client', async () => stream.producerWaiting);
    expect(stream.backlog).to.equal(500);

    const replayed = await take(stream, HISTORY);
    const ids = replayed.map((e) => BigInt(e.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `id order at ${i}`).to.equal(true);
    expect(new Set(ids.map(String)).size).to.equal(HISTORY);

    await appendEvents(1);
    const [live] = await take(stream, 1);
    expect(BigInt(live!.id) > ids.at(-1)!).to.equal(true);
    await stream.return();
    expect(t.app.events.subscriberCount(workspaceId)).to.equal(0);
  });

  it('closes a live subscriber that falls 10,000 events behind with subscriber_too_slow, after what it was sent', async function () {
    this.timeout(60_000);
    const type = await typeOfFirst();
    const stream = await t.app.events.subscribe({ workspaceId, types: [type], matches: () => true, after: null });
    await appendEvents(10_050);
    await waitUntil('the slow subscriber is closed', async () => stream.isClosed, 20_000);
    let received = 0;
    let error: any = null;
    for (;;) {
      try {
        const next = await stream.next();
        if (next.done) break;
        received += 1;
      } catch (e) {
        error = e;
        break;
      }
    }
    expect(received).to.equal(10_000);
    expect(error?.code).to.equal('subscriber_too_slow');
    expect(error.message).to.match(/subscribe again with after: "\d+"/);
    expect(t.app.events.subscriberCount(workspaceId)).to.equal(0);
  });

  it('a subscription over graphql-ws replaying history still gets every event (the client drains the pages)', async function () {
    this.timeout(60_000);
    const ws = await createWorkspace(t.url, { maxCompanies: 5, maxDevices: 5 });
    for (let i = 0; i < 3; i++) await punchIn(ws.key, i);
    // Punch events only: the attendance worker may meanwhile add attendance.day.updated events for these punches.
    const stored = await query(t.config.databaseUrl!, "select count(*)::int as n from event where workspace_id = $1 and type = 'attendance.created'", [ws.id]);
    expect(stored[0].n).to.equal(3);
    const client = wsClient(t.url, { authorization: `Bearer ${ws.key}` });
    const received: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription { punchCreated(after: "0") { cursor } }' },
        {
          next: (value) => {
            if (value.errors) reject(new Error(JSON.stringify(value.errors)));
            received.push(value.data);
            if (received.length === stored[0].n) resolve();
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    await client.dispose();
    expect(received).to.have.length(stored[0].n);
    expect((await rest(t.url, 'GET', '/readyz')).status).to.equal(200);
  });
});
