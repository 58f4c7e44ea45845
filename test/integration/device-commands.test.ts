import { expect } from 'chai';
import { createApp, type App } from '../../src/app';
import type { RequestContext } from '../../src/context/request-context';
import { enqueueCommand } from '../../src/services/commands/command-queue';
import { SimulatedTerminal } from '../../src/simulator';
import pino from 'pino';
import { createKey, createWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { createTerminalDevice, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

describe('command queue and remote unlock', () => {
  let t: TestApp;
  let second: App;
  let key: string;
  let clock = Date.parse('2026-02-01T08:00:00Z');
  const now = () => new Date(clock);
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'commands', { now });
    second = await createApp(t.config, { logger: pino({ level: 'silent' }), now });
    key = (await createWorkspace(t.url, { maxCompanies: 100, maxDevices: 100 })).key;
  });
  after(async () => {
    await second.stop();
    await t.stop();
  });

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const ctx = (): RequestContext => ({
    principal: { kind: 'terminal', serialNumber: '*' },
    em: t.app.database.orm.em.fork(),
    requestId: 'test',
    logger: t.app.logger,
    now,
    config: t.config,
  });
  async function queue(device: { id: number }, count: number) {
    const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
    const ids: string[] = [];
    for (let i = 0; i < count; i++)
      ids.push((await enqueueCommand(ctx(), { workspaceId: workspace_id, deviceId: device.id, kind: 'test', command: `INFO` })).commandId);
    return ids;
  }
  const commandIds = (text: string) => (text === 'OK' ? [] : text.split('\n').map((line) => line.split(':')[1]!));

  it('delivers a few per poll, matches results by id, ignores unknown ids and retries after the timeout', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    const ids = await queue(device, 7);
    const first = commandIds((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text);
    const secondPoll = commandIds((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text);
    expect(first).to.deep.equal(ids.slice(0, 5));
    expect(secondPoll).to.deep.equal(ids.slice(5));
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text).to.equal('OK');

    const results = `ID=${ids[1]}&Return=0&CMD=INFO\nID=${ids[2]}&Return=-1002&CMD=INFO\nID=nosuchid&Return=0&CMD=INFO`;
    expect((await iclock(t.url, 'POST', `/iclock/devicecmd?SN=${sn}`, results)).text).to.equal('OK');
    const rows = await sql('select command_id, status, return_code from device_command where device_id = ? order by id', [device.id]);
    expect(rows.map((r) => r.status)).to.deep.equal(['sent', 'succeeded', 'failed', 'sent', 'sent', 'sent', 'sent']);
    expect(rows[2].return_code).to.equal(-1002);

    clock += 61_000;
    await t.app.terminals.sweep();
    const retried = commandIds((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`)).text);
    expect(retried).to.deep.equal([ids[0], ids[3], ids[4], ids[5], ids[6]]);
    const [{ attempts }] = await sql('select attempts from device_command where command_id = ?', [ids[0]]);
    expect(attempts).to.equal(2);
  });

  it('never delivers a command twice when two processes answer polls at once', async () => {
    const device = await createTerminalDevice(t.url, key);
    const ids = await queue(device, 40);
    const polls = await Promise.all(
      Array.from({ length: 16 }, (_, i) => iclock(i % 2 ? t.url : second.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`)),
    );
    const delivered = polls.flatMap((p) => commandIds(p.text));
    expect(new Set(delivered).size).to.equal(delivered.length);
    expect(delivered.sort()).to.deep.equal([...ids].sort());
  });

  it('unlock: queued -> sent -> succeeded with the simulated access terminal executing it, failed with its negative code', async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    const terminal = new SimulatedTerminal({
      serverUrl: t.url,
      serialNumber: device.serial_number,
      family: 'acc',
      pollIntervalMs: 50,
      failCommands: (c) => (c.text.includes('01020103') ? -11 : null),
    });
    try {
      const unlock = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: device.serial_number, duration: 5 } });
      expect(unlock.status).to.equal(202);
      expect(unlock.body).to.include({ status: 'queued', door: 1, duration: 5 });
      expect(unlock.body.action_id).to.match(/^da_[0-9a-f]{24}$/);
      expect(unlock.body.timestamp).to.be.a('string');
      const [command] = await sql('select command from device_command where reference = ?', [`door_action:${unlock.body.action_id}`]);
      expect(command.command).to.equal('CONTROL DEVICE 01010105');
      terminal.start();
      const done = await waitUntil('the unlock succeeded', async () => {
        const r = await rest(t.url, 'GET', `/v1/devices/door/actions/${unlock.body.action_id}`, { key });
        return r.body.status === 'succeeded' ? r.body : null;
      });
      expect(done).to.include({ return_code: 0, device_serial: device.serial_number });
      expect(done.sent_at).to.be.a('string');
      const failing = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: device.serial_number, duration: 3, door: 2 } });
      const failed = await waitUntil('the unlock with the refused door failed', async () => {
        const r = await rest(t.url, 'GET', `/v1/devices/door/actions/${failing.body.action_id}`, { key });
        return r.body.status === 'failed' ? r.body : null;
      });
      expect(failed.return_code).to.be.below(0);
    } finally {
      await terminal.stop();
    }
  });

  it('unlock on an offline terminal stays queued, says so, and expires', async () => {
    const device = await createTerminalDevice(t.url, key);
    await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`);
    await t.app.terminals.flush();
    clock += 120_000;
    await t.app.terminals.sweep();
    const unlock = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: device.serial_number, duration: 5 } });
    expect(unlock.status).to.equal(202);
    expect(unlock.body).to.include({ status: 'queued', device_status: 'offline' });
    const [command] = await sql('select command from device_command where reference = ?', [`door_action:${unlock.body.action_id}`]);
    expect(command.command).to.equal('AC_UNLOCK');
    clock += 61_000;
    await t.app.terminals.sweep();
    const read = await rest(t.url, 'GET', `/v1/devices/door/actions/${unlock.body.action_id}`, { key });
    expect(read.body.status).to.equal('expired');
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`)).text).to.equal('OK');
  });

  it("deviceCommands lists a device's queue newest first, by status, with verbs but never the command text; scoped and checked", async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
    await enqueueCommand(ctx(), {
      workspaceId: workspace_id,
      deviceId: device.id,
      kind: 'user_sync',
      command: 'DATA UPDATE user CardNo=\tPin=77\tName=Secret Person',
    });
    await enqueueCommand(ctx(), { workspaceId: workspace_id, deviceId: device.id, kind: 'door_unlock', command: 'CONTROL DEVICE 01010105' });
    const LIST = 'query ($id: Int!, $status: [String!]) { deviceCommands(deviceId: $id, status: $status) { totalCount nodes { kind verb status attempts } } }';
    const queued = await gql(t.url, key, LIST, { id: device.id, status: ['queued', 'sent'] });
    expect(queued.data.deviceCommands).to.deep.equal({
      totalCount: 2,
      nodes: [
        { kind: 'door_unlock', verb: 'CONTROL DEVICE 01010105', status: 'queued', attempts: 0 },
        { kind: 'user_sync', verb: 'DATA UPDATE user', status: 'queued', attempts: 0 },
      ],
    });
    expect(JSON.stringify(queued)).to.not.include('Secret');
    expect((await gql(t.url, key, LIST, { id: device.id, status: ['failed'] })).data.deviceCommands.totalCount).to.equal(0);
    const bad = await gql(t.url, key, LIST, { id: device.id, status: ['stuck'] });
    expect(bad.errors![0].extensions!.details![0]).to.include({ field: 'status.0', code: 'invalid_value' });
    const other = (await createWorkspace(t.url)).key;
    expect((await gql(t.url, other, LIST, { id: device.id })).errors![0].extensions!.code).to.equal('not_found');
  });

  it('unlock needs doors:unlock, checks duration and the serial, and keeps actions per workspace', async () => {
    const device = await createTerminalDevice(t.url, key);
    const writeKey = await createKey(t.url, key, ['write']);
    const denied = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: writeKey, body: { device_serial: device.serial_number, duration: 5 } });
    expect(denied.status).to.equal(403);
    for (const duration of [0, 255]) {
      const bad = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: device.serial_number, duration } });
      expect(bad.status).to.equal(422);
      expect(bad.body.error.details[0].field).to.equal('duration');
    }
    const other = await createWorkspace(t.url);
    const foreign = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: other.key, body: { device_serial: device.serial_number, duration: 5 } });
    expect(foreign.status).to.equal(422);
    expect(foreign.body.error.details[0].field).to.equal('device_serial');
    const [{ count }] = await sql('select count(*)::int as count from door_action where device_id = ?', [device.id]);
    expect(count).to.equal(0);

    const unlockKey = await createKey(t.url, key, ['doors:unlock']);
    const ok = await gql(t.url, unlockKey, 'mutation ($s: String!) { unlockDoor(input: { deviceSerial: $s, duration: 4 }) { id actionId status } }', {
      s: device.serial_number,
    });
    expect(ok.data.unlockDoor.status).to.equal('queued');
    expect(ok.data.unlockDoor.id, 'an id for normalising clients').to.equal(ok.data.unlockDoor.actionId);
    const hidden = await rest(t.url, 'GET', `/v1/devices/door/actions/${ok.data.unlockDoor.actionId}`, { key: other.key });
    expect(hidden.status).to.equal(404);
  });
});
