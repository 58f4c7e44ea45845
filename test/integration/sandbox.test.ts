import crypto from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import pino from 'pino';
import { createApp, type App } from '../../src/app';
import { startReceiver, subscribe } from '../support/events';
import { createCompany, createWorkspace, unique, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { query, waitForLockWait } from '../support/service-process';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { MASTER_KEY, startTestApp, type TestApp } from '../support/test-app';

/** Standard Webhooks verification, written from the specification (not the service's code). */
function expectedSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

interface Sandbox {
  id: number;
  key: string;
  seed: { company_id: number; area_id: number; shift_id: number; employee_ids: number[]; clock_id: number; controller_id: number };
}

// Short polls and leases: a trigger is carried out within 100 ms, a stopped process's sandboxes are
// taken over within a second.
const ENV = { TIMEGATE_SANDBOX_POLL_MS: '100', TIMEGATE_SANDBOX_LEASE_SECONDS: '3', TIMEGATE_WEBHOOK_POLL_MS: '3600000' };

describe('sandbox workspaces', () => {
  let t: TestApp;
  let live: TestWorkspace;
  let liveCompany: { id: number };
  before(async () => {
    t = await startTestApp(ENV, 'sandbox');
    live = await createWorkspace(t.url);
    liveCompany = await createCompany(t.url, live.key);
  });
  after(() => t.stop());

  const sql = (text: string, params: unknown[] = []) => query(t.config.databaseUrl!, text, params);

  async function createSandboxByRest(url = t.url): Promise<Sandbox> {
    const created = await rest(url, 'POST', '/public/v2/workspaces', { key: MASTER_KEY, body: { sandbox: true } });
    expect(created.status, created.text).to.equal(201);
    return { id: created.body.workspace.id, key: created.body.api_key.key, seed: created.body.sandbox };
  }
  const deviceAction = (sandbox: Sandbox, doorId: number, body: Record<string, unknown>) =>
    rest(t.url, 'POST', `/public/v2/doors/${doorId}/actions`, { key: sandbox.key, body });
  const trigger = (sandbox: Sandbox, deviceId: number, body: Record<string, unknown>) =>
    rest(t.url, 'POST', `/public/v2/virtual_terminals/${deviceId}/triggers`, { key: sandbox.key, body });

  it('is created through GraphQL with a tg_test_ key, the sandbox plan and its seed; REST creates the same in one call', async () => {
    const data = await gqlData(
      t.url,
      MASTER_KEY,
      `mutation { createWorkspace(input: { sandbox: true }) {
        workspace { id name sandbox maxCompanies maxDevices maxEmployees }
        apiKey { key prefix scopes }
        sandbox { companyId areaId shiftId employeeIds clockId controllerId } } }`,
    );
    const { workspace, apiKey, sandbox } = data.createWorkspace;
    expect(workspace).to.deep.include({ name: 'Sandbox', sandbox: true, maxCompanies: 1, maxDevices: 5, maxEmployees: 50 });
    expect(apiKey.key).to.match(/^tg_test_[0-9A-Za-z]{40}$/);
    expect(apiKey.prefix).to.equal(apiKey.key.slice(0, 12));
    expect(apiKey.scopes).to.deep.equal(['admin']);
    expect(sandbox.employeeIds).to.have.length(4);

    const devices = (await rest(t.url, 'GET', '/public/v2/devices', { key: apiKey.key })).body;
    expect(devices.map((d: any) => [d.id, d.mode_type])).to.deep.equal([
      [sandbox.clockId, 'att'],
      [sandbox.controllerId, 'acc'],
    ]);
    for (const d of devices) expect(d.serial_number).to.match(/^TGSBX[0-9A-Z]{10}$/);
    const terminals = await gqlData(t.url, apiKey.key, '{ virtualTerminals { deviceId enabled punchesPerHour speed device { serialNumber } } }');
    expect(terminals.virtualTerminals.map((v: any) => [v.deviceId, v.enabled, v.punchesPerHour, v.speed])).to.deep.equal([
      [sandbox.clockId, true, 60, 1],
      [sandbox.controllerId, true, 12, 1],
    ]);

    const viaRest = await createSandboxByRest();
    expect(viaRest.key).to.match(/^tg_test_/);
    expect(viaRest.seed.employee_ids).to.have.length(4);
    const me = await gqlData(t.url, viaRest.key, '{ workspace { id sandbox } }');
    expect(me.workspace).to.deep.equal({ id: viaRest.id, sandbox: true });
    // A live workspace's keys stay tg_live_; the master key alone creates workspaces.
    expect(live.key).to.match(/^tg_live_/);
    expect((await rest(t.url, 'POST', '/public/v2/workspaces', { key: live.key, body: { sandbox: true } })).status).to.equal(403);
    const sandboxPlan = await rest(t.url, 'POST', '/public/v2/companies', { key: viaRest.key, body: { name: 'Second', code: 'S2' } });
    expect(sandboxPlan.status).to.equal(403);
    expect(sandboxPlan.body.error.code).to.equal('plan_limit_reached');
  });

  it('keys never cross: a live key is refused on a sandbox and a test key on a live workspace; sandbox operations refuse live keys', async () => {
    const sandbox = await createSandboxByRest();
    // Ids of the other kind of workspace are unknown.
    expect((await rest(t.url, 'GET', `/public/v2/devices/${sandbox.seed.clock_id}`, { key: live.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/companies/${liveCompany.id}`, { key: sandbox.key })).status).to.equal(404);
    // Sandbox operations exist only for sandboxes.
    const refused = await rest(t.url, 'GET', '/public/v2/virtual_terminals', { key: live.key });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('sandbox_only');
    expect((await rest(t.url, 'POST', '/public/v2/sandbox/reset', { key: live.key })).body.error.code).to.equal('sandbox_only');
    // A key is bound to its kind of workspace by its prefix as well: a tg_test_ secret stored for a
    // live workspace (or a tg_live_ one for a sandbox) authenticates nothing.
    const hash = (key: string) => crypto.createHash('sha256').update(key).digest('hex');
    const forgedTest = `tg_test_${'A'.repeat(40)}`;
    const forgedLive = `tg_live_${'B'.repeat(40)}`;
    await sql(
      `insert into api_key (workspace_id, name, key_hash, prefix, last4, scopes, created_at) values ($1, 'forged', $2, 'tg_test_AAAA', 'AAAA', '{admin}', now()), ($3, 'forged', $4, 'tg_live_BBBB', 'BBBB', '{admin}', now())`,
      [live.id, hash(forgedTest), sandbox.id, hash(forgedLive)],
    );
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: forgedTest })).status).to.equal(401);
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: forgedLive })).status).to.equal(401);
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: sandbox.key })).status).to.equal(200);
  });

  it('reserves TGSBX serials: a live workspace cannot register one, a sandbox registers nothing else, and a real terminal with one is refused', async () => {
    const reserved = await rest(t.url, 'POST', '/public/v2/devices', {
      key: live.key,
      body: { name: 'Copy', serial_number: 'tgsbx0000000001', company_id: liveCompany.id },
    });
    expect(reserved.status).to.equal(422);
    expect(reserved.body.error.details[0]).to.include({ field: 'serial_number', code: 'reserved_serial' });
    const sandbox = await createSandboxByRest();
    const real = await rest(t.url, 'POST', '/public/v2/devices', {
      key: sandbox.key,
      body: { name: 'Real', serial_number: unique('REAL').toUpperCase(), company_id: sandbox.seed.company_id },
    });
    expect(real.status).to.equal(422);
    expect(real.body.error.details[0]).to.include({ field: 'serial_number', code: 'sandbox_serial_required' });
    const [clock] = await sql('select serial_number from device where id = $1', [sandbox.seed.clock_id]);
    // A terminal outside the service presenting the virtual clock's serial, with or without a made-up proof.
    for (const headers of [{}, { 'x-timegate-sandbox': 'guess' }] as Record<string, string>[]) {
      const answer = await iclock(t.url, 'GET', `/iclock/cdata?SN=${clock.serial_number}&options=all`, undefined, headers);
      expect(answer.status).to.equal(403);
    }
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=TGSBXNOTADEVICE`)).status).to.equal(403);
  });

  it("its virtual clock punches on its own (first punch within a minute), and a sped-up schedule's punch reaches a subscription and a signed webhook", async () => {
    const sandbox = await createSandboxByRest();
    const clockId = sandbox.seed.clock_id;
    // The default schedule: the first punch comes without anyone asking.
    await waitUntil(
      "the virtual clock's first punch is stored",
      async () => (await rest(t.url, 'GET', `/public/v2/punches?device_id=${clockId}`, { key: sandbox.key })).body.length > 0,
      60_000,
    );

    const receiver = await startReceiver();
    try {
      const hook = await rest(t.url, 'POST', '/public/v2/webhooks', { key: sandbox.key, body: { url: receiver.url, event_types: ['attendance.created'] } });
      expect(hook.status).to.equal(201);
      const punches = await subscribe(
        t.app,
        sandbox.id,
        sandbox.key,
        `subscription { punchCreated(deviceId: ${clockId}) { punch { id deviceId employeeId punchState } } }`,
      );
      try {
        // A punch every simulated minute at 60 simulated seconds per second: one step a real second,
        // the first at once.
        const updated = await rest(t.url, 'PUT', `/public/v2/virtual_terminals/${clockId}`, { key: sandbox.key, body: { punches_per_hour: 60, speed: 60 } });
        expect(updated.status, updated.text).to.equal(200);
        expect(updated.body).to.include({ punches_per_hour: 60, speed: 60, enabled: true, daily_pattern: null });
        const [event] = await punches.waitFor(1);
        expect(event.punch.deviceId).to.equal(clockId);
        expect(sandbox.seed.employee_ids).to.include(event.punch.employeeId);
        const delivered = await waitUntil("the webhook of the virtual clock's punch arrives", async () =>
          receiver.received.find((r) => r.json.data.device_id === clockId),
        );
        expect(delivered.json.type).to.equal('attendance.created');
        expect(String(delivered.headers['webhook-signature'])).to.equal(
          expectedSignature(hook.body.secret, String(delivered.headers['webhook-id']), String(delivered.headers['webhook-timestamp']), delivered.body),
        );
      } finally {
        await punches.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it('a daily pattern and a bad schedule: settings are checked and change nothing when refused', async () => {
    const sandbox = await createSandboxByRest();
    const clockId = sandbox.seed.clock_id;
    const pattern = await gql(
      t.url,
      sandbox.key,
      `mutation ($id: Int!) { updateVirtualTerminal(deviceId: $id, input: { dailyPattern: [{ time: "09:00", punchState: 0 }, { time: "17:00", punchState: 1 }], speed: 600 }) { punchesPerHour dailyPattern { time punchState } speed nextStepAt } }`,
      { id: clockId },
    );
    expect(pattern.errors).to.equal(undefined);
    expect(pattern.data.updateVirtualTerminal).to.deep.include({ punchesPerHour: null, speed: 600 });
    expect(pattern.data.updateVirtualTerminal.dailyPattern).to.deep.equal([
      { time: '09:00', punchState: 0 },
      { time: '17:00', punchState: 1 },
    ]);
    for (const body of [{ speed: 0 }, { speed: 5000 }, { punches_per_hour: 0 }, { daily_pattern: [{ time: '25:00', punch_state: 0 }] }]) {
      const bad = await rest(t.url, 'PUT', `/public/v2/virtual_terminals/${clockId}`, { key: sandbox.key, body });
      expect(bad.status, JSON.stringify(body)).to.equal(422);
    }
    // Door alarms happen at controllers only.
    const alarmOnClock = await trigger(sandbox, clockId, { action: 'forced_open' });
    expect(alarmOnClock.status).to.equal(422);
    expect(alarmOnClock.body.error.details[0]).to.include({ field: 'action', code: 'unsupported_by_device' });
    const unknownAction = await gql(
      t.url,
      sandbox.key,
      `mutation ($id: Int!, $a: String!) { triggerVirtualTerminal(deviceId: $id, input: { action: $a }) { id } }`,
      {
        id: clockId,
        a: 'x'.repeat(5000),
      },
    );
    // Past its bound (a keyword: 32 characters) it is refused before the resolver runs; within it, as unknown.
    expect(unknownAction.errors![0]!.extensions!.details![0]).to.include({ field: 'action', code: 'too_long' });
    expect(unknownAction.errors![0]!.extensions!.details![0]!.message.length).to.be.below(200);
    const unknownShort = await gql(t.url, sandbox.key, `mutation ($id: Int!) { triggerVirtualTerminal(deviceId: $id, input: { action: "explode" }) { id } }`, {
      id: clockId,
    });
    expect(unknownShort.errors![0]!.extensions!.details![0]).to.include({ field: 'action', code: 'invalid_value' });
    const after = (await rest(t.url, 'GET', `/public/v2/virtual_terminals/${clockId}`, { key: sandbox.key })).body;
    expect(after).to.include({ punches_per_hour: null, speed: 600 });
  });

  it('its virtual controller opens on a remote unlock, refuses an unknown badge and raises a door alarm, each as its event', async () => {
    const sandbox = await createSandboxByRest();
    const controllerId = sandbox.seed.controller_id;
    // Only the triggers: the scheduled badges stay out of the way.
    await rest(t.url, 'PUT', `/public/v2/virtual_terminals/${controllerId}`, { key: sandbox.key, body: { enabled: false } });
    const [door] = (await rest(t.url, 'GET', `/public/v2/devices/${controllerId}/doors`, { key: sandbox.key })).body;
    const opened = await subscribe(t.app, sandbox.id, sandbox.key, `subscription { doorOpened(deviceId: ${controllerId}) { doorOpening { door } } }`);
    const denied = await subscribe(t.app, sandbox.id, sandbox.key, `subscription { accessDenied(deviceId: ${controllerId}) { denial { reason } } }`);
    const alarms = await subscribe(t.app, sandbox.id, sandbox.key, `subscription { doorAlarm(doorId: ${door.id}) { type alarm { kind } } }`);
    try {
      // The controller is online (played by this process) before the unlock is sent.
      await waitUntil(
        'the virtual controller is online',
        async () => (await rest(t.url, 'GET', `/public/v2/devices/${controllerId}`, { key: sandbox.key })).body.status === 'online',
        30_000,
      );
      const unlock = await deviceAction(sandbox, door.id, { action: 'unlock', duration: 3 });
      expect(unlock.status, unlock.text).to.equal(202);
      await waitUntil(
        'the unlock succeeded',
        async () => (await rest(t.url, 'GET', `/v1/devices/door/actions/${unlock.body.action_id}`, { key: sandbox.key })).body.status === 'succeeded',
        30_000,
      );
      expect((await opened.waitFor(1))[0].doorOpening.door).to.equal(1);

      expect((await trigger(sandbox, controllerId, { action: 'unknown_badge' })).status).to.equal(202);
      expect((await denied.waitFor(1))[0].denial.reason).to.equal('not_registered');

      expect((await trigger(sandbox, controllerId, { action: 'forced_open' })).status).to.equal(202);
      const [raised] = await alarms.waitFor(1);
      expect(raised).to.deep.equal({ type: 'door.alarm', alarm: { kind: 'forced_open' } });
    } finally {
      await opened.close();
      await denied.close();
      await alarms.close();
    }
  });

  it('reset empties the sandbox and seeds it anew; its keys and webhook endpoints stay', async () => {
    const sandbox = await createSandboxByRest();
    await waitUntil(
      "the virtual clock's first punch is stored",
      async () => (await rest(t.url, 'GET', `/public/v2/punches?device_id=${sandbox.seed.clock_id}`, { key: sandbox.key })).body.length > 0,
      60_000,
    );
    const receiver = await startReceiver();
    try {
      expect(
        (await rest(t.url, 'POST', '/public/v2/webhooks', { key: sandbox.key, body: { url: receiver.url, event_types: ['attendance.created'] } })).status,
      ).to.equal(201);
      await rest(t.url, 'POST', '/public/v2/employees', {
        key: sandbox.key,
        body: { company_id: sandbox.seed.company_id, name: 'Extra', lastname: 'Person', pin: '7777' },
      });
      const oldDevices = [sandbox.seed.clock_id, sandbox.seed.controller_id];

      const reset = await rest(t.url, 'POST', '/public/v2/sandbox/reset', { key: sandbox.key });
      expect(reset.status, reset.text).to.equal(200);
      const seed = reset.body;
      expect(seed.employee_ids).to.have.length(4);
      expect(seed.company_id).to.not.equal(sandbox.seed.company_id);
      // Only the new seed is there: no old device, employee, company or punch.
      const employees = (await rest(t.url, 'GET', '/public/v2/employees', { key: sandbox.key })).body;
      expect(employees.map((e: any) => e.id).sort()).to.deep.equal([...seed.employee_ids].sort());
      const devices = (await rest(t.url, 'GET', '/public/v2/devices', { key: sandbox.key })).body;
      expect(devices.map((d: any) => d.id)).to.deep.equal([seed.clock_id, seed.controller_id]);
      const [rows] = await sql(
        'select (select count(*)::int from punch where workspace_id = $1 and device_id = any($2::int[])) as old_punches, (select count(*)::int from company where workspace_id = $1) as companies',
        [sandbox.id, oldDevices],
      );
      expect(rows).to.deep.equal({ old_punches: 0, companies: 1 });
      // The same key works, the endpoint is still there, and the new clock punches and delivers.
      expect((await rest(t.url, 'GET', '/public/v2/webhooks', { key: sandbox.key })).body).to.have.length(1);
      await waitUntil('the webhook of the reseeded clock arrives', async () => receiver.received.find((r) => r.json.data.device_id === seed.clock_id), 60_000);
      expect(t.app.sandboxTerminals.serials().filter((s) => devices.some((d: any) => d.serial_number === s))).to.have.length(2);
      // The old terminals, calling until their player noticed the reset, never became unclaimed terminals.
      await t.app.terminals.flush();
      expect(await sql("select serial_number from unknown_terminal where serial_number like 'TGSBX%'")).to.deep.equal([]);
    } finally {
      await receiver.close();
    }
  });
  it('a reset that meets a terminal request holding its clock waits for it, then succeeds (never a deadlock answered 503)', async () => {
    // Regression: the reset deleted the sandbox's rows table by table and its devices late, so a
    // virtual terminal's request holding a device (an upload's punch refers to it) and then touching
    // a person met it in a deadlock, and the reset answered 503 service_unavailable.
    const sandbox = await createSandboxByRest();
    const terminal = new pg.Client({ connectionString: t.config.databaseUrl! });
    await terminal.connect();
    let finished = false;
    try {
      await terminal.query('begin');
      // This side never detects the deadlock first: the reset would, and give up.
      await terminal.query("set local deadlock_timeout = '30s'");
      await terminal.query('select 1 from device where id = $1 for key share', [sandbox.seed.clock_id]);
      const reset = rest(t.url, 'POST', '/public/v2/sandbox/reset', { key: sandbox.key }).finally(() => (finished = true));
      await waitForLockWait(t.config.databaseUrl!, '%device%');
      // The request goes on to one of the sandbox's people, as the upload of a punch does.
      await terminal.query('update employee set name = name where id = $1', [sandbox.seed.employee_ids[0]]);
      expect(finished, 'the reset waited for the terminal request').to.equal(false);
      await terminal.query('commit');
      const answer = await reset;
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.body.company_id).to.not.equal(sandbox.seed.company_id);
    } finally {
      await terminal.query('rollback').catch(() => undefined);
      await terminal.end();
    }
  });
});

describe('sandbox workspaces with several processes on one database', () => {
  let t: TestApp;
  let second: App;
  before(async () => {
    t = await startTestApp(ENV, 'sandbox-multi');
    second = await createApp(t.config, { logger: pino({ level: 'silent' }) });
  });
  after(async () => {
    await second.stop();
    await t.stop();
  });

  it("each sandbox's terminals run in exactly one process, and another process takes them over when it stops", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await rest(i % 2 ? second.url : t.url, 'POST', '/public/v2/workspaces', { key: MASTER_KEY, body: { sandbox: true } });
      expect(created.status).to.equal(201);
      ids.push(created.body.workspace.id);
    }
    const apps = [t.app, second];
    const playing = () => apps.map((app) => app.sandboxTerminals.playing());
    await waitUntil(
      'each sandbox is played by one process',
      async () =>
        playing().flat().length === ids.length && apps.every((app) => app.sandboxTerminals.serials().length === 2 * app.sandboxTerminals.playing().length),
      30_000,
    );
    const [first, other] = playing();
    expect(
      first!.filter((id) => other!.includes(id)),
      'a sandbox played by both',
    ).to.deep.equal([]);
    expect([...first!, ...other!].sort((a, b) => a - b)).to.deep.equal(ids);
    const serials = apps.map((app) => app.sandboxTerminals.serials());
    expect(
      serials[0]!.filter((s) => serials[1]!.includes(s)),
      'a terminal played by both',
    ).to.deep.equal([]);
    // The lease table agrees: one holder per sandbox.
    const leases = await query(t.config.databaseUrl!, 'select count(distinct holder)::int as holders from sandbox_lease where holder is not null');
    expect(leases[0].holders).to.equal(first!.length > 0 && other!.length > 0 ? 2 : 1);

    // The process playing sandboxes stops (the second if it plays any): it gives its leases up and
    // the remaining process plays every sandbox.
    const [stopping, remaining] = other!.length > 0 ? [second, t.app] : [t.app, second];
    await stopping.stop();
    await waitUntil(
      'the remaining process plays every sandbox',
      async () => remaining.sandboxTerminals.playing().length === ids.length && remaining.sandboxTerminals.serials().length === 2 * ids.length,
      30_000,
    );
    expect(remaining.sandboxTerminals.playing()).to.deep.equal(ids);
  });
});
