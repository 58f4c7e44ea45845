import { expect } from 'chai';
import { EVENT_ID_SHIFT, recordEvent, recordEvents } from '../../src/events/outbox';
import { SimulatedTerminal } from '../../src/simulator';
import type { RequestContext } from '../../src/context/request-context';
import { recordPunches } from '../../src/services/attendance/punch.service';
import { PunchRecordType } from '../../src/entities/punch.entity';
import { subscribe, wsClient } from '../support/events';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

const PUNCHES = `subscription ($companyId: Int, $deviceId: Int, $employeeId: Int, $after: String) {
  punchCreated(companyId: $companyId, deviceId: $deviceId, employeeId: $employeeId, after: $after) {
    cursor eventId type createdAt punch { id companyId employeeId deviceId pin punchTime punchState recordType } } }`;

describe('events and subscriptions', () => {
  let t: TestApp;
  let clock = Date.parse('2026-03-02T08:00:00Z');
  const now = () => new Date(clock);
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000', TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'events', {
      now,
    });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const terminalCtx = (): RequestContext => ({
    principal: { kind: 'terminal', serialNumber: '*' },
    em: t.app.database.orm.em.fork(),
    requestId: 'test',
    logger: t.app.logger,
    now,
    config: t.config,
  });

  async function setup(ws?: TestWorkspace) {
    ws ??= await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 20 });
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: String(100 + Math.floor(Math.random() * 800)) });
    let minute = 0;
    const punch = (overrides: Record<string, unknown> = {}) =>
      rest(t.url, 'POST', '/public/v2/punches', {
        key: ws!.key,
        body: {
          employee_id: employee.id,
          device_id: device.id,
          company_id: company.id,
          punch_time: `2026-03-02T08:${String(minute++).padStart(2, '0')}:00Z`,
          punch_state: '0',
          ...overrides,
        },
      });
    return { ws, company, device, employee, punch };
  }

  it('attendance.created: a manual punch reaches the subscriber with its cursor; a repeated punch emits nothing', async () => {
    const s = await setup();
    const sub = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES, { companyId: s.company.id });
    try {
      const first = await s.punch({ punch_time: '2026-03-02T07:00:00Z' });
      expect(first.status).to.equal(201);
      const [event] = await sub.waitFor(1);
      expect(event.type).to.equal('attendance.created');
      expect(event.eventId).to.equal(`evt_${event.cursor}`);
      expect(event.punch).to.deep.include({
        id: first.body.id,
        companyId: s.company.id,
        employeeId: s.employee.id,
        punchTime: '2026-03-02T07:00:00.000Z',
        recordType: 'manual',
      });
      expect((await s.punch({ punch_time: '2026-03-02T07:00:00Z' })).status, 'the same punch again').to.equal(200);
      const second = await s.punch({ punch_time: '2026-03-02T07:01:00Z' });
      const events = await sub.waitFor(2);
      expect(events.map((e) => e.punch.id)).to.deep.equal([first.body.id, second.body.id]);
      expect(BigInt(events[1].cursor) > BigInt(events[0].cursor), 'cursors grow').to.equal(true);
      const stored = await sql('select type, data from event where workspace_id = ? order by id', [s.ws.id]);
      expect(stored.filter((e) => e.type === 'attendance.created')).to.have.length(2);
    } finally {
      await sub.close();
    }
  });

  it('attendance.created from recordPunches as the terminal path calls it: inserted rows only', async () => {
    const s = await setup();
    const sub = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES, { deviceId: s.device.id });
    try {
      const line = (time: string) => ({
        companyId: s.company.id,
        employeeId: s.employee.id,
        deviceId: s.device.id,
        deviceSerial: s.device.serial_number,
        pin: s.employee.pin!,
        punchTime: new Date(time),
        localTime: time.slice(0, 19).replace('T', ' '),
        timeZone: 'UTC',
        punchState: '0',
        verifyType: 'fingerprint',
        verifyCode: 1,
        recordType: PunchRecordType.device,
        workCode: null,
        deviceRecordIndex: null,
        receivedAt: now(),
      });
      const a = await recordPunches(terminalCtx(), s.ws.id, [line('2026-03-02T06:00:00Z'), line('2026-03-02T06:01:00Z')]);
      const b = await recordPunches(terminalCtx(), s.ws.id, [line('2026-03-02T06:01:00Z'), line('2026-03-02T06:02:00Z')]);
      expect(b.duplicates).to.have.length(1);
      const events = await sub.waitFor(3);
      expect(events.map((e) => e.punch.id)).to.deep.equal([...a.inserted, ...b.inserted].map((p) => p.id));
      const [{ count }] = await sql(`select count(*)::int as count from event where workspace_id = ? and type = 'attendance.created'`, [s.ws.id]);
      expect(count).to.equal(3);
    } finally {
      await sub.close();
    }
  });

  it('filters by company, device and employee', async () => {
    const s = await setup();
    const otherEmployee = await createEmployee(t.url, s.ws.key, s.company.id, { pin: '999' });
    const otherCompany = await setup(s.ws);
    const byEmployee = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES, { employeeId: otherEmployee.id });
    const byCompany = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES, { companyId: otherCompany.company.id });
    try {
      await s.punch();
      const mine = await s.punch({ employee_id: otherEmployee.id });
      const theirs = await otherCompany.punch();
      expect((await byEmployee.waitFor(1)).map((e) => e.punch.id)).to.deep.equal([mine.body.id]);
      expect((await byCompany.waitFor(1)).map((e) => e.punch.id)).to.deep.equal([theirs.body.id]);
      // A later punch matching each filter arrives after nothing else: the earlier ones were filtered out.
      const mine2 = await s.punch({ employee_id: otherEmployee.id });
      expect((await byEmployee.waitFor(2)).map((e) => e.punch.id)).to.deep.equal([mine.body.id, mine2.body.id]);
      expect(byCompany.received).to.have.length(1);
    } finally {
      await byEmployee.close();
      await byCompany.close();
    }
  });

  it('replays with `after` across a disconnect, then continues live: in order, no gaps, no duplicates', async () => {
    const s = await setup();
    const first = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES);
    await s.punch();
    await s.punch();
    const seen = await first.waitFor(2);
    await first.close();
    const missed = [];
    for (let i = 0; i < 5; i++) missed.push((await s.punch()).body.id);
    const cursor = seen[1].cursor;
    // Punches keep coming while the subscriber reconnects: the replay/live boundary.
    const during = Promise.all(Array.from({ length: 10 }, () => s.punch()));
    const again = await subscribe(t.app, s.ws.id, s.ws.key, PUNCHES, { after: cursor });
    try {
      const concurrent = (await during).map((r) => r.body.id);
      const live = (await s.punch()).body.id;
      const events = await again.waitFor(16);
      const ids = events.map((e) => e.punch.id);
      expect(ids.slice(0, 5)).to.deep.equal(missed);
      expect(new Set(ids).size, 'no duplicates').to.equal(ids.length);
      expect([...ids].sort((a, b) => a - b)).to.deep.equal([...missed, ...concurrent, live].sort((a, b) => a - b));
      // No gaps: exactly the outbox's events after the cursor, in id order.
      const outbox = await sql(`select id from event where workspace_id = ? and type = 'attendance.created' and id > ? order by id`, [s.ws.id, cursor]);
      expect(events.map((e) => e.cursor)).to.deep.equal(outbox.map((r) => String(r.id)));
    } finally {
      await again.close();
    }
  });

  it('a subscriber only ever sees its own workspace, live or replayed', async () => {
    const a = await setup();
    const b = await setup();
    const subB = await subscribe(t.app, b.ws.id, b.ws.key, PUNCHES);
    try {
      await a.punch();
      const mine = await b.punch();
      expect((await subB.waitFor(1)).map((e) => e.punch.id)).to.deep.equal([mine.body.id]);
      const replay = await subscribe(t.app, b.ws.id, b.ws.key, PUNCHES, { after: '0' });
      await b.punch();
      const replayed = await replay.waitFor(2);
      expect(replayed.every((e) => e.punch.companyId === b.company.id)).to.equal(true);
      await replay.close();
    } finally {
      await subB.close();
    }
  });

  it('door.opened and door.action.updated follow an unlock executed by the simulated terminal', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 20 });
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const opened = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription ($d: Int) { doorOpened(deviceId: $d) { cursor type doorOpening { deviceId companyId deviceSerial door source actionId openedAt } } }`,
      { d: device.id },
    );
    const actions = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription ($d: Int) { doorActionUpdated(deviceId: $d) { cursor type doorAction { actionId status returnCode deviceSerial } } }`,
      { d: device.id },
    );
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'acc', pollIntervalMs: 50 });
    try {
      const unlock = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: ws.key, body: { device_serial: device.serial_number, duration: 5 } });
      expect(unlock.status).to.equal(202);
      terminal.start();
      const [door] = await opened.waitFor(1);
      expect(door.type).to.equal('door.opened');
      expect(door.doorOpening).to.include({
        deviceId: device.id,
        companyId: company.id,
        deviceSerial: device.serial_number,
        door: 1,
        source: 'remote_unlock',
        actionId: unlock.body.action_id,
      });
      const updates = await actions.waitFor(3);
      expect(updates.map((u) => u.doorAction.status)).to.deep.equal(['queued', 'sent', 'succeeded']);
      expect(updates.every((u) => u.doorAction.actionId === unlock.body.action_id)).to.equal(true);
    } finally {
      await terminal.stop();
      await opened.close();
      await actions.close();
    }
  });

  it('device.online from a terminal request, device.offline from the sweep with the injected clock', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 20 });
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const sub = await subscribe(
      t.app,
      ws.id,
      ws.key,
      `subscription ($c: Int) { deviceStatusChanged(companyId: $c) { cursor type change { deviceId companyId serialNumber status at } } }`,
      { c: company.id },
    );
    try {
      await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`);
      await t.app.terminals.flush();
      const [online] = await sub.waitFor(1);
      expect(online.type).to.equal('device.online');
      expect(online.change).to.include({ deviceId: device.id, companyId: company.id, serialNumber: device.serial_number, status: 'online' });
      clock += 10 * 60_000;
      await t.app.terminals.sweep();
      const [, offline] = await sub.waitFor(2);
      expect(offline.type).to.equal('device.offline');
      expect(offline.change).to.include({ deviceId: device.id, status: 'offline', at: new Date(clock).toISOString() });
    } finally {
      await sub.close();
    }
  });

  it('event ids carry their transaction id, and later statements of a transaction continue its ranks', async () => {
    const s = await setup();
    const em = t.app.database.orm.em.fork();
    const { ids, txid } = await em.transactional(async (tx) => {
      const ctx = { ...terminalCtx(), em: tx };
      const first = await recordEvents(ctx, [
        { workspaceId: s.ws.id, type: 'door.opened', data: { n: 1 } },
        { workspaceId: s.ws.id, type: 'door.opened', data: { n: 2 } },
      ]);
      const third = await recordEvent(ctx, { workspaceId: s.ws.id, type: 'door.opened', data: { n: 3 } });
      const [{ txid }] = await tx.execute(`select pg_current_xact_id()::text as txid`);
      return { ids: [...first, third].map(BigInt), txid: BigInt(txid) };
    });
    const base = txid << BigInt(EVENT_ID_SHIFT);
    expect(ids).to.deep.equal([base, base + 1n, base + 2n]);
    const stored = await sql(`select id, data from event where workspace_id = ? and id >= ? order by id`, [s.ws.id, String(base)]);
    expect(stored.map((r) => r.data.n)).to.deep.equal([1, 2, 3]);
  });

  it('a rolled-back change emits nothing', async () => {
    const s = await setup();
    await s.punch();
    const em = t.app.database.orm.em.fork();
    await em
      .transactional(async (tx) => {
        await recordEvent({ ...terminalCtx(), em: tx }, { workspaceId: s.ws.id, type: 'door.opened', data: { device_id: s.device.id } });
        throw new Error('rolled back');
      })
      .catch((error) => expect(error.message).to.equal('rolled back'));
    await s.punch();
    // The types this test writes (the attendance worker may add its own day events meanwhile).
    const rows = await sql(`select type from event where workspace_id = ? and type in ('attendance.created', 'door.opened') order by id`, [s.ws.id]);
    expect(rows.map((r) => r.type)).to.deep.equal(['attendance.created', 'attendance.created']);
    // Outside a transaction there is no change to tie the event to: refused.
    const outside = await recordEvent(terminalCtx(), { workspaceId: s.ws.id, type: 'door.opened', data: {} }).catch((e: Error) => e);
    expect(outside).to.be.instanceOf(Error);
  });

  it('closes with 4401 without a valid key and 4403 for a key without `read`', async () => {
    const ws = await createWorkspace(t.url);
    const unlockOnly = await createKey(t.url, ws.key, ['doors:unlock']);
    const closeCode = (params: Record<string, unknown>) =>
      new Promise<number>((resolve) => {
        const client = wsClient(t.url, params, (event) => resolve(event.code));
        client.subscribe({ query: 'subscription { punchCreated { cursor } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
      });
    expect(await closeCode({})).to.equal(4401);
    expect(await closeCode({ authorization: 'Bearer tg_live_nope' })).to.equal(4401);
    expect(await closeCode({ apiKey: unlockOnly })).to.equal(4403);
    const readKey = await createKey(t.url, ws.key, ['read']);
    const ok = await subscribe(t.app, ws.id, readKey, PUNCHES);
    expect(ok.errors).to.deep.equal([]);
    await ok.close();
    const viaApiKey = wsClient(t.url, { apiKey: readKey });
    const result = await new Promise<any>((resolve, reject) => {
      viaApiKey.subscribe({ query: '{ __typename }' }, { next: resolve, error: reject, complete: () => undefined });
    });
    expect(result.data).to.deep.equal({ __typename: 'Query' });
    await viaApiKey.dispose();
  });
});
