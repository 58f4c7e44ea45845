import { expect } from 'chai';
import pg from 'pg';
import { EVENT_CHANNEL, WEBHOOK_CHANNEL } from '../../src/events/outbox';
import { PunchRecordType } from '../../src/entities/punch.entity';
import type { RequestContext } from '../../src/context/request-context';
import { recordPunches } from '../../src/services/attendance/punch.service';
import { readOutbox, subscribe, type Subscription } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { Punch } from '../../src/entities';
import { punchData } from '../../src/events/event-payloads';
import type { EventStream } from '../../src/events/event-stream';
import { startTestApp, type TestApp } from '../support/test-app';

const PUNCHES = `subscription ($companyId: Int, $after: String) { punchCreated(companyId: $companyId, after: $after) { cursor punch { id companyId employeeId } } }`;

describe('event fan-out: shared executions, batched reads, webhook wake-ups', () => {
  let t: TestApp;
  const now = () => new Date('2026-05-04T08:00:00Z');
  before(async () => {
    // A wide batch window: reads of a busy workspace are grouped, which this suite must not notice.
    // No attendance worker: its day events would wake readers that this suite checks wake by themselves.
    t = await startTestApp(
      { TIMEGATE_EVENT_BATCH_MS: '200', TIMEGATE_WEBHOOK_POLL_MS: '3600000', TIMEGATE_EVENT_POLL_MS: '3600000', TIMEGATE_ATTENDANCE_WORKER: 'false' },
      'fanout',
      { now },
    );
  });
  after(() => t.stop());

  const terminalCtx = (): RequestContext => ({
    principal: { kind: 'terminal', serialNumber: '*' },
    em: t.app.database.orm.em.fork(),
    requestId: 'test',
    logger: t.app.logger,
    now,
    config: t.config,
  });

  const metricsText = async () => (await fetch(`${t.url}/metrics`)).text();
  const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);

  async function setup(ws?: TestWorkspace) {
    ws ??= await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 20 });
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: String(100 + Math.floor(Math.random() * 800)) });
    let second = 0;
    const line = () => {
      const at = new Date(Date.UTC(2026, 4, 4, 6, 0, second++));
      return {
        companyId: company.id,
        employeeId: employee.id,
        deviceId: device.id,
        deviceSerial: device.serial_number,
        pin: employee.pin!,
        punchTime: at,
        localTime: at.toISOString().slice(0, 19).replace('T', ' '),
        timeZone: 'UTC',
        punchState: '0',
        verifyType: 'fingerprint',
        verifyCode: 1,
        recordType: PunchRecordType.device,
        workCode: null,
        deviceRecordIndex: null,
        receivedAt: now(),
      };
    };
    /** `count` punches, each its own transaction, all at once. Returns the punch ids. */
    const burst = async (count: number) => {
      const results = await Promise.all(Array.from({ length: count }, () => recordPunches(terminalCtx(), ws!.id, [line()])));
      return results.map((r) => r.inserted[0]!.id);
    };
    return { ws, company, device, line, burst };
  }

  it('subscribers sharing an operation each get every event once, in order, with their own filter and workspace only', async () => {
    const a = await setup();
    const a2 = await setup(a.ws); // a second company of the same workspace
    const b = await setup();
    // Same document and variables twice (one shared execution), another filter, and the same
    // document and variables in another workspace (never shared across workspaces).
    const same1 = await subscribe(t.app, a.ws.id, a.ws.key, PUNCHES, { companyId: a.company.id });
    const same2 = await subscribe(t.app, a.ws.id, a.ws.key, PUNCHES, { companyId: a.company.id });
    const other = await subscribe(t.app, a.ws.id, a.ws.key, PUNCHES, { companyId: a2.company.id });
    const all = await subscribe(t.app, a.ws.id, a.ws.key, PUNCHES);
    const foreign = await subscribe(t.app, b.ws.id, b.ws.key, PUNCHES, { companyId: a.company.id });
    const foreignAll = await subscribe(t.app, b.ws.id, b.ws.key, PUNCHES);
    try {
      const [mine, theirs, bs] = await Promise.all([a.burst(25), a2.burst(10), b.burst(5)]);
      const ids = (events: { punch: { id: number } }[]) => events.map((e) => e.punch.id);
      const sorted = (values: number[]) => [...values].sort((x, y) => x - y);
      const [got1, got2, gotOther, gotAll, gotB] = await Promise.all([
        same1.waitFor(25),
        same2.waitFor(25),
        other.waitFor(10),
        all.waitFor(35),
        foreignAll.waitFor(5),
      ]);
      expect(sorted(ids(got1))).to.deep.equal(sorted(mine!));
      expect(got2, 'the same payloads to both subscribers of one operation').to.deep.equal(got1);
      expect(sorted(ids(gotOther))).to.deep.equal(sorted(theirs!));
      expect(sorted(ids(gotAll))).to.deep.equal(sorted([...mine!, ...theirs!]));
      expect(sorted(ids(gotB))).to.deep.equal(sorted(bs!));
      for (const events of [got1, gotOther, gotAll, gotB]) {
        const cursors = events.map((e) => BigInt(e.cursor));
        cursors.forEach((c, i) => i > 0 && expect(c > cursors[i - 1]!, 'in id order, once').to.equal(true));
      }
      const connection = t.app.database.orm.em.fork().getConnection();
      const outbox = await readOutbox((sql, params) => connection.execute(sql, params), a.ws.id, 'attendance.created');
      expect(
        gotAll.map((e) => e.cursor),
        'every punch event of the outbox, across both companies',
      ).to.deep.equal(outbox.map((e) => e.id));
      // Workspace b's subscriber with a's company filter got nothing: its last event is b's last punch, delivered after a's.
      expect(foreign.received).to.deep.equal([]);
      expect([same1, same2, other, all, foreign, foreignAll].flatMap((s) => s.errors)).to.deep.equal([]);
    } finally {
      for (const s of [same1, same2, other, all, foreign, foreignAll]) await s.close();
    }
  });

  it("a workspace's reader reads only the types its subscribers want, and moves past the rest: a subscriber of another type joining later gets what follows, nothing before", async () => {
    const s = await setup();
    const days = await subscribe(t.app, s.ws.id, s.ws.key, 'subscription { attendanceDayUpdated { day { date } } }');
    let punches: Subscription | null = null;
    try {
      await s.burst(5);
      const connection = t.app.database.orm.em.fork().getConnection();
      const lastPunch = BigInt((await readOutbox((sql, params) => connection.execute(sql, params), s.ws.id, 'attendance.created')).at(-1)!.id);
      // No event of a wanted type came: the reader is past the punches only by moving to its bound.
      await waitUntil(
        'the live reader passed the punches',
        async () => t.app.events.readPosition(s.ws.id) ?? 0n,
        (v) => v >= lastPunch,
      );
      punches = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES);
      const later = await s.burst(3);
      const got = await punches.waitFor(3);
      expect(got.map((e) => e.punch.id).sort((x: number, y: number) => x - y)).to.deep.equal([...later].sort((x, y) => x - y));
      expect(days.received, 'no day event was made').to.deep.equal([]);
      expect([...days.errors, ...punches.errors]).to.deep.equal([]);
    } finally {
      await days.close();
      await punches?.close();
    }
  });

  it('a replaying subscriber joining an operation others follow live gets the replay, then the shared live events', async () => {
    const s = await setup();
    const live = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES);
    try {
      const before = await s.burst(5);
      const seen = await live.waitFor(5);
      // Replays from the second event while a burst is committing: boundary without gap or repeat.
      const during = s.burst(10);
      const replay = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES, { after: seen[0].cursor });
      try {
        const later = await during;
        const events = await replay.waitFor(14);
        // Everything but the first event delivered (the lowest id of the first burst).
        const expected = [...before, ...later].filter((id) => id !== seen[0].punch.id).sort((x, y) => x - y);
        expect(events.map((e) => e.punch.id).sort((x: number, y: number) => x - y)).to.deep.equal(expected);
        expect(new Set(events.map((e) => e.cursor)).size).to.equal(events.length);
        expect((await live.waitFor(15)).slice(5).map((e) => e.cursor)).to.deep.equal(events.slice(4).map((e) => e.cursor));
      } finally {
        await replay.close();
      }
    } finally {
      await live.close();
    }
  });

  it('a terminal upload stores punches and events in one statement: the payload is the punch as the API shows it, a resend emits nothing', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 20 });
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id, { time_zone: 'Asia/Kolkata' });
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '77' });
    const sub = await subscribe(t.app, ws.id, ws.key, PUNCHES);
    try {
      const body = '77\t2026-05-04 09:15:30\t1\t15\t7\t0\t0\r\n88\t2026-05-04 09:16:00\t0\t1\t\t0\t0\r\n';
      const url = `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=9999`;
      await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all`);
      expect((await iclock(t.url, 'POST', url, body)).text).to.equal('OK: 2');
      expect((await iclock(t.url, 'POST', url, body)).text, 'the same records again').to.equal('OK: 2');
      const events = await sub.waitFor(2);
      const em = t.app.database.orm.em.fork();
      const stored = await em.find(Punch, { workspaceId: ws.id }, { orderBy: { id: 'asc' } });
      expect(stored).to.have.length(2);
      expect(events.map((e) => e.punch.id)).to.deep.equal(stored.map((p) => p.id));
      expect(events[0].punch.employeeId).to.equal(employee.id);
      // The two events are one outbox row (a batch, event-batch.ts); read back, each is its punch as punchData gives it.
      const rows = await em.getConnection().execute(`select id::text, span from event where workspace_id = ? and type = 'attendance.created'`, [ws.id]);
      expect(rows, 'the resend emitted nothing').to.deep.equal([{ id: events[0].cursor, span: 2 }]);
      const outbox = await readOutbox((sql, params) => em.getConnection().execute(sql, params), ws.id, 'attendance.created');
      expect(outbox.map((e) => e.data)).to.deep.equal(stored.map((p) => punchData(p)));
      expect(outbox.map((e) => e.id)).to.deep.equal(events.map((e) => e.cursor));
      // Keys in jsonb's order, as an event stored alone reads back: the same JSON text.
      for (const event of outbox) {
        const [{ text }] = await em.getConnection().execute('select ?::jsonb::text as text', [JSON.stringify(event.data)]);
        expect(JSON.stringify(event.data)).to.equal(JSON.stringify(JSON.parse(text)));
      }
    } finally {
      await sub.close();
    }
  });

  it("a subscriber resuming after an event inside an upload's batch gets exactly the events after it", async () => {
    const s = await setup();
    await createEmployee(t.url, s.ws.key, s.company.id, { pin: '31' });
    const body = '31\t2026-05-04 07:00:00\t0\t1\r\n31\t2026-05-04 12:00:00\t1\t1\r\n31\t2026-05-04 12:30:00\t0\t1\r\n31\t2026-05-04 17:00:00\t1\t1\r\n';
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${s.device.serial_number}&table=ATTLOG&Stamp=1`, body)).text).to.equal('OK: 4');
    const connection = t.app.database.orm.em.fork().getConnection();
    const outbox = await readOutbox((sql, params) => connection.execute(sql, params), s.ws.id, 'attendance.created');
    expect(outbox).to.have.length(4);
    expect(
      (await connection.execute(`select span from event where workspace_id = ? and type = 'attendance.created'`, [s.ws.id])).map((r) => r.span),
    ).to.deep.equal([4]);
    const sub = await subscribe<{ cursor: string; punch: { id: number } }>(t.app, s.ws.id, s.ws.key, PUNCHES, { after: outbox[1]!.id });
    try {
      const events = await sub.waitFor(2);
      expect(events.map((e) => e.cursor)).to.deep.equal([outbox[2]!.id, outbox[3]!.id]);
      expect(events.map((e) => e.punch.id)).to.deep.equal([outbox[2]!.data.id, outbox[3]!.data.id]);
      expect(sub.errors).to.deep.equal([]);
    } finally {
      await sub.close();
    }
  });

  it('writers of one workspace never wait for each other, and an event committed late is still delivered in id order', async () => {
    const s = await setup();
    await createEmployee(t.url, s.ws.key, s.company.id, { pin: '5' });
    await iclock(t.url, 'GET', `/iclock/cdata?SN=${s.device.serial_number}&options=all`);
    const sub = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES);
    const [{ before }] = await t.app.database.orm.em.fork().getConnection().execute(`select coalesce(max(id), 0)::text as before from event`);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let recorded!: () => void;
    const wasRecorded = new Promise<void>((resolve) => (recorded = resolve));
    let replay: EventStream | undefined;
    // An older transaction records a punch and its event, then stays open.
    const holder = t.app.database.orm.em.fork().transactional(async (em) => {
      const result = await recordPunches({ ...terminalCtx(), em }, s.ws.id, [s.line()]);
      recorded();
      await released;
      return result.inserted[0]!.id;
    });
    try {
      await wasRecorded;
      // A younger upload of the same workspace commits while the older one is open: no lock to wait for.
      const upload = await iclock(
        t.url,
        'POST',
        `/iclock/cdata?SN=${s.device.serial_number}&table=ATTLOG&Stamp=9999`,
        '5\t2026-05-04 10:00:00\t0\t1\t0\t0\t0\r\n',
      );
      expect(upload.text).to.equal('OK: 1');
      // A replay read now (it completes before subscribe returns) must stop at the younger event:
      // delivering it would move the cursor past the older event, which could then never be delivered.
      replay = await t.app.events.subscribe({ workspaceId: s.ws.id, types: ['attendance.created'], matches: () => true, after: before });
      expect(replay.backlog, 'nothing delivered while an older transaction is open').to.equal(0);
      // The held-back event shows in /metrics as outbox lag once the live reader has seen it.
      await waitUntil(
        'the outbox lag shows in /metrics',
        async () => gauge(await metricsText(), 'timegate_outbox_lag_seconds'),
        (v) => v > 0,
      );
      expect(gauge(await metricsText(), 'timegate_subscriptions_open'), 'the subscription and the replay').to.be.at.least(2);
    } finally {
      release();
    }
    const held = await holder;
    await waitUntil(
      'the outbox lag is back to 0',
      async () => gauge(await metricsText(), 'timegate_outbox_lag_seconds'),
      (v) => v === 0,
    );
    try {
      const replayed = [await replay!.next(), await replay!.next()].map((r) => r.value as { data: { id: number } });
      expect(replayed[0]!.data.id, 'the older event first').to.equal(held);
      // The younger event committed first, but its id is higher: the subscriber gets both, older first.
      const events = await sub.waitFor(2);
      expect(events[0].punch.id).to.equal(held);
      expect(events[1].punch.companyId).to.equal(s.company.id);
      expect(BigInt(events[1].cursor) > BigInt(events[0].cursor)).to.equal(true);
      expect(sub.errors).to.deep.equal([]);
    } finally {
      await sub.close();
      replay?.close();
    }
  });

  it('a replay stopped by an older transaction that writes no event still gets its events when that transaction ends', async () => {
    const s = await setup();
    // The older transaction: it has an id, so events written after it wait for it; it writes no
    // event, so its end sends no NOTIFY (and this suite's fallback poll is an hour).
    const holder = new pg.Client({ connectionString: t.app.database.url });
    await holder.connect();
    let sub: Awaited<ReturnType<typeof subscribe<{ punch: { id: number } }>>> | undefined;
    try {
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      const punches = await s.burst(2);
      // The workspace's first subscriber: its reader starts after the NOTIFYs of these events.
      sub = await subscribe<{ punch: { id: number } }>(t.app, s.ws.id, s.ws.key, PUNCHES, { after: '0' });
      expect(sub.received, 'held back while the older transaction runs').to.deep.equal([]);
      await holder.query('commit');
      const events = await sub.waitFor(2);
      expect(events.map((e) => e.punch.id).sort((a, b) => a - b)).to.deep.equal([...punches].sort((a, b) => a - b));
      expect(sub.errors).to.deep.equal([]);
    } finally {
      await sub?.close();
      await holder.end();
    }
  });

  it('NOTIFYs the webhook channel only from transactions that queued deliveries', async () => {
    const s = await setup();
    const client = new pg.Client({ connectionString: t.app.database.url });
    const heard: { channel: string; payload: string | undefined }[] = [];
    client.on('notification', (m) => heard.push({ channel: m.channel, payload: m.payload }));
    await client.connect();
    try {
      await client.query(`listen ${EVENT_CHANNEL}; listen ${WEBHOOK_CHANNEL}`);
      await s.burst(1);
      await waitUntil('the event channel was notified', async () => heard.some((h) => h.channel === EVENT_CHANNEL && h.payload === String(s.ws.id)));
      const created = await rest(t.url, 'POST', '/public/v2/webhooks', {
        key: s.ws.key,
        body: { url: 'https://hooks.example.com/x', event_types: ['attendance.created'] },
      });
      expect(created.status).to.equal(201);
      const marker = heard.length;
      await s.burst(1);
      await waitUntil('the webhook channel was notified', async () => heard.slice(marker).some((h) => h.channel === WEBHOOK_CHANNEL));
      // Both NOTIFYs of a transaction arrive together at its commit: the first punch (no endpoint yet) sent no webhook wake-up.
      expect(heard.slice(0, marker).filter((h) => h.channel === WEBHOOK_CHANNEL)).to.deep.equal([]);
      expect(heard.slice(marker).map((h) => h.channel)).to.include(EVENT_CHANNEL);
    } finally {
      await client.end();
    }
  });
});
