import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { startReceiver } from '../support/events';
import { createCompany, createDevice, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

/** Linkage rules: a door event on a controller starts a lockdown, an aux-output pulse and linkage.triggered. */
describe('linkage rules', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'linkage');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 50 });
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const doorsOf = async (deviceId: number) => (await rest(t.url, 'GET', `/public/v2/devices/${deviceId}/doors`, { key: ws.key })).body as any[];
  const triggered = async () =>
    (await sql("select data from event where workspace_id = ? and type = 'linkage.triggered' order by id", [ws.id])).map((r) => r.data);

  it('a forced door locks the company down and pulses an aux output; a second one reports the lockdown already active; webhooks carry linkage.triggered', async () => {
    const receiver = await startReceiver();
    const company = await createCompany(t.url, ws.key);
    const entrance = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const store = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const [door] = await doorsOf(entrance.id);
    await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: receiver.url, event_types: ['linkage.triggered'] } });
    const rule = await rest(t.url, 'POST', '/public/v2/linkage_rules', {
      key: ws.key,
      body: { name: 'Forced entrance', trigger: 'forced_open', door_id: door.id, lockdown_mode: 'lockdown', aux_output: 1, aux_output_seconds: 30 },
    });
    expect(rule.status, rule.text).to.equal(201);
    expect(rule.body).to.deep.include({ company_id: company.id, device_id: entrance.id, door_id: door.id, trigger: 'forced_open', last_triggered_at: null });
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: entrance.serial_number, family: 'acc', pollIntervalMs: 50 });
    terminal.start();
    try {
      await waitUntil('the controller is connected', async () => terminal.isConnected);
      terminal.doorAlarm('forced_open');
      const [first] = await waitUntil('the rule was triggered once', async () => ((await triggered()).length === 1 ? triggered() : null));
      expect(first).to.deep.include({
        rule_id: rule.body.id,
        trigger: 'forced_open',
        device_id: entrance.id,
        door: 1,
        event_code: 102,
        aux_output_queued: true,
        lockdown_error: null,
      });
      const lockdown = (await rest(t.url, 'GET', `/public/v2/lockdowns/${first.lockdown_id}`, { key: ws.key })).body;
      expect(lockdown).to.deep.include({
        company_id: company.id,
        scope: 'company',
        mode: 'lockdown',
        status: 'active',
        reason: `Linkage rule ${rule.body.id}: Forced entrance`,
      });
      expect(lockdown.doors.map((d: any) => d.device_id).sort()).to.deep.equal([entrance.id, store.id].sort());
      // The controller carries out the lockdown and the pulse of its aux output 1 for 30 s.
      await waitUntil('the controller locks the door', async () => terminal.store.lockedDownDoors.has(1));
      const aux = await sql("select command, status from device_command where device_id = ? and kind = 'linkage_aux_output'", [entrance.id]);
      expect(aux.map((c) => c.command)).to.deep.equal(['CONTROL DEVICE 0101021E']);
      expect((await rest(t.url, 'GET', `/public/v2/linkage_rules/${rule.body.id}`, { key: ws.key })).body.last_triggered_at).to.be.a('string');

      // Forced again while the lockdown holds: the rule fires, the lockdown is refused, the events are stored.
      terminal.closeDoor();
      terminal.doorAlarm('forced_open');
      const [, second] = await waitUntil('the rule was triggered twice', async () => ((await triggered()).length === 2 ? triggered() : null));
      expect(second).to.deep.include({ lockdown_id: null, lockdown_error: 'lockdown_active', aux_output_queued: true });
      expect((await sql('select count(*)::int as n from door_event where device_id = ? and event_code = 102', [entrance.id]))[0].n).to.equal(2);

      await t.app.webhooks.runOnce();
      expect(receiver.received.map((r) => [r.json.type, r.json.data.rule_id, r.json.data.lockdown_error])).to.deep.equal([
        ['linkage.triggered', rule.body.id, null],
        ['linkage.triggered', rule.body.id, 'lockdown_active'],
      ]);
      await rest(t.url, 'POST', `/public/v2/lockdowns/${first.lockdown_id}/release`, { key: ws.key });
    } finally {
      await terminal.stop();
      await receiver.close();
    }
  });

  it('N refusals within M minutes fire once per window; other events and other doors do not count', async () => {
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const rule = await rest(t.url, 'POST', '/public/v2/linkage_rules', {
      key: ws.key,
      body: {
        name: 'Card guessing',
        trigger: 'refusals',
        device_id: device.id,
        refusal_count: 3,
        refusal_window_minutes: 5,
        aux_output: 2,
        aux_output_seconds: 5,
      },
    });
    expect(rule.status, rule.text).to.equal(201);
    const before = (await triggered()).length;
    const post = (lines: string[]) => iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=rtlog`, `${lines.join('\n')}\n`);
    const line = (time: string, event: number, index: number) =>
      `time=2026-11-20 ${time}\tpin=0\tcardno=123\teventaddr=1\tevent=${event}\tinoutstatus=0\tverifytype=4\tindex=${index}`;
    // Two refusals and a granted entry, then a refusal 6 minutes later: never 3 in 5 minutes.
    await post([line('08:00:00', 27, 1), line('08:01:00', 27, 2), line('08:02:00', 0, 3)]);
    await post([line('08:07:00', 27, 4)]);
    expect((await triggered()).length).to.equal(before);
    // Two more within the window of the 08:07 one: the third fires.
    await post([line('08:08:00', 29, 5), line('08:09:00', 27, 6)]);
    const fired = (await triggered()).slice(before);
    expect(fired).to.have.length(1);
    expect(fired[0]).to.deep.include({
      rule_id: rule.body.id,
      trigger: 'refusals',
      event_code: 27,
      lockdown_id: null,
      aux_output_queued: true,
      at: '2026-11-20T08:09:00.000Z',
    });
    // A fourth inside the same window does not fire again.
    await post([line('08:10:00', 27, 7)]);
    expect((await triggered()).length).to.equal(before + 1);
    expect(
      (await sql("select command from device_command where device_id = ? and kind = 'linkage_aux_output'", [device.id])).map((c) => c.command),
    ).to.deep.equal(['CONTROL DEVICE 01020205']);
  });

  it('a rule locking down a list of doors, created with the REST body as documented, starts that lockdown (the ids were compared as text)', async () => {
    const company = await createCompany(t.url, ws.key);
    const entrance = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const vault = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const [vaultDoor] = await doorsOf(vault.id);
    const [entranceDoor] = await doorsOf(entrance.id);
    const rule = await rest(t.url, 'POST', '/public/v2/linkage_rules', {
      key: ws.key,
      body: {
        name: 'Duress at the entrance',
        trigger: 'duress',
        device_id: entrance.id,
        lockdown_mode: 'lockdown',
        lockdown_door_ids: [vaultDoor.id, entranceDoor.id],
      },
    });
    expect(rule.status, rule.text).to.equal(201);
    const read = await rest(t.url, 'GET', `/public/v2/linkage_rules/${rule.body.id}`, { key: ws.key });
    expect(read.body.lockdown_door_ids).to.deep.equal([vaultDoor.id, entranceDoor.id]);
    const before = (await triggered()).length;
    const duress = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${entrance.serial_number}&table=rtlog`,
      'time=2026-11-20 09:00:00\tpin=0\tcardno=0\teventaddr=1\tevent=101\tinoutstatus=0\tverifytype=4\tindex=1\n',
    );
    expect(duress.status, duress.text).to.equal(200);
    const [fired] = (await triggered()).slice(before);
    expect(fired).to.deep.include({ rule_id: rule.body.id, trigger: 'duress', lockdown_error: null });
    expect(fired.lockdown_id).to.be.a('number');
    const lockdown = (await rest(t.url, 'GET', `/public/v2/lockdowns/${fired.lockdown_id}`, { key: ws.key })).body;
    expect(lockdown).to.deep.include({ company_id: company.id, scope: 'doors', mode: 'lockdown', status: 'active' });
    expect(lockdown.doors.map((d: any) => d.door_id).sort()).to.deep.equal([vaultDoor.id, entranceDoor.id].sort());
    expect((await rest(t.url, 'POST', `/public/v2/lockdowns/${fired.lockdown_id}/release`, { key: ws.key, body: {} })).status).to.equal(202);
  });

  it('refuses a bad rule precisely; rules are listed, deleted and scoped to their workspace', async () => {
    const company = await createCompany(t.url, ws.key);
    const controller = await createDevice(t.url, ws.key, company.id, { mode_type: 'acc' });
    const clock = await createDevice(t.url, ws.key, company.id);
    const create = (body: Record<string, unknown>, key = ws.key) => rest(t.url, 'POST', '/public/v2/linkage_rules', { key, body });
    const detail = async (body: Record<string, unknown>) => {
      const r = await create(body);
      expect(r.status, r.text).to.equal(422);
      return r.body.error.details[0].code;
    };
    expect(await detail({ name: 'x', trigger: 'refusals', device_id: controller.id })).to.equal('required');
    expect(await detail({ name: 'x', trigger: 'duress', device_id: controller.id, refusal_count: 3 })).to.equal('not_allowed');
    expect(await detail({ name: 'x', trigger: 'duress' })).to.equal('one_scope_required');
    expect(await detail({ name: 'x', trigger: 'duress', device_id: clock.id, aux_output: 1, aux_output_seconds: 5 })).to.equal('unsupported_by_device');
    expect(await detail({ name: 'x', trigger: 'duress', device_id: controller.id, aux_output: 1 })).to.equal('required');
    const other = await createWorkspace(t.url);
    expect((await create({ name: 'x', trigger: 'duress', device_id: controller.id }, other.key)).status).to.equal(422);
    const reader = await createKey(t.url, ws.key, ['read']);
    expect((await create({ name: 'x', trigger: 'duress', device_id: controller.id }, reader)).status).to.equal(403);
    const rule = await create({ name: 'Duress', trigger: 'duress', device_id: controller.id, lockdown_mode: 'evacuate' });
    expect(rule.status).to.equal(201);
    expect((await rest(t.url, 'GET', `/public/v2/linkage_rules?device_id=${controller.id}`, { key: ws.key })).body.map((r: any) => r.id)).to.deep.equal([
      rule.body.id,
    ]);
    expect((await rest(t.url, 'GET', `/public/v2/linkage_rules/${rule.body.id}`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', '/public/v2/linkage_rules', { key: other.key })).body).to.deep.equal([]);
    expect((await rest(t.url, 'DELETE', `/public/v2/linkage_rules/${rule.body.id}`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'DELETE', `/public/v2/linkage_rules/${rule.body.id}`, { key: ws.key })).status).to.equal(200);
    expect((await rest(t.url, 'GET', `/public/v2/linkage_rules/${rule.body.id}`, { key: ws.key })).status).to.equal(404);
  });
});
