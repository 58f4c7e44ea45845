import { expect } from 'chai';
import { deleteAccessUserCommands, encodeZkTime, instantToLocal, setClockCommand, updateAccessUserCommand } from '../../src/protocol';
import { enqueueCommand, enqueueCommands, registerCommandHandler, registeredCommandHandlers, type NewCommand } from '../../src/services/commands/command-queue';
import type { RequestContext } from '../../src/context/request-context';
import { syncLane } from '../../src/services/sync/device-sync.service';
import { createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

describe('command lanes, deadlines and delivery-time payloads', () => {
  let t: TestApp;
  let key: string;
  let clock = Date.parse('2026-03-01T08:00:00Z');
  const now = () => new Date(clock);
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'lanes', { now });
    key = (await createWorkspace(t.url, { maxCompanies: 100, maxDevices: 100 })).key;
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const ctx = (): RequestContext => ({
    principal: { kind: 'terminal', serialNumber: '*' },
    em: t.app.database.orm.em.fork(),
    requestId: 'test',
    logger: t.app.logger,
    now,
    config: t.config,
  });
  /** The `C:<id>:<command>` lines of a poll's reply, as [id, command]. */
  const lines = (text: string) =>
    text === 'OK'
      ? []
      : text.split('\n').map((line) => {
          const [, id, ...rest] = line.split(':');
          return [id!, rest.join(':')] as const;
        });
  const poll = async (serial: string) => lines((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${serial}`)).text);
  async function bulk(
    device: { id: number },
    count: number,
    command = (i: number) => updateAccessUserCommand({ pin: String(1000 + i), name: `Person ${i}`, privilege: 0, startTime: 0, endTime: 0 }),
  ) {
    const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
    const rows: NewCommand[] = Array.from({ length: count }, (_, i) => ({
      workspaceId: workspace_id,
      deviceId: device.id,
      kind: 'user_sync',
      command: command(i),
      reference: `bulk:${i}`,
    }));
    return enqueueCommands(t.app.database.orm.em.fork(), rows, now());
  }

  it("an unlock queued behind 1,000 bulk commands is in the next poll's reply, and bulk still gets its share", async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    const queued = await bulk(device, 1000);
    const unlock = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: device.serial_number, duration: 5 } });
    expect(unlock.status).to.equal(202);
    const [door] = await sql('select c.command_id from door_action a join device_command c on c.id = a.command_id where a.action_id = ?', [
      unlock.body.action_id,
    ]);
    const reply = await poll(device.serial_number);
    expect(reply[0]).to.deep.equal([door.command_id, 'CONTROL DEVICE 01010105']);
    // The other slots of the poll went to the bulk lane, oldest first.
    expect(reply.slice(1).map(([id]) => id)).to.deep.equal(queued.slice(0, 4).map((q) => q.commandId));
    const read = await rest(t.url, 'GET', `/v1/devices/door/actions/${unlock.body.action_id}`, { key });
    expect(read.body.status).to.equal('sent');
  });

  it('bulk work cannot starve: with interactive commands waiting, every poll still carries one bulk command', async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
    const queued = await bulk(device, 3);
    const interactive = [];
    for (let i = 0; i < 10; i++)
      interactive.push(
        await enqueueCommand(ctx(), {
          workspaceId: workspace_id,
          deviceId: device.id,
          kind: 'action_reboot',
          command: 'CONTROL DEVICE 03000000',
          lane: 'interactive',
        }),
      );
    const first = await poll(device.serial_number);
    expect(first.map(([id]) => id)).to.deep.equal([...interactive.slice(0, 4).map((q) => q.commandId), queued[0]!.commandId]);
    const second = await poll(device.serial_number);
    expect(second.map(([id]) => id)).to.deep.equal([...interactive.slice(4, 8).map((q) => q.commandId), queued[1]!.commandId]);
  });

  it("revocations go out ahead of additions queued before them, a person's deletes in their order (authorisations before the user)", async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
    const additions = await bulk(device, 6);
    const deletes = deleteAccessUserCommands('77');
    expect(deletes.map(syncLane)).to.deep.equal(deletes.map(() => 'revocation'));
    const revocations = await enqueueCommands(
      t.app.database.orm.em.fork(),
      deletes.map((command) => ({ workspaceId: workspace_id, deviceId: device.id, kind: 'user_sync', command, lane: syncLane(command) })),
      now(),
    );
    const reply = await poll(device.serial_number);
    expect(reply.map(([, command]) => command.split(' ').slice(0, 3).join(' '))).to.deep.equal([
      'DATA DELETE userauthorize',
      'DATA DELETE templatev10',
      'DATA DELETE user',
      'DATA UPDATE user',
      'DATA UPDATE user',
    ]);
    expect(reply.map(([id]) => id)).to.deep.equal([...revocations.map((q) => q.commandId), ...additions.slice(0, 2).map((q) => q.commandId)]);
  });

  it('a clock.sync carries the time the terminal fetched it, in its zone, not the time it was queued', async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc', time_zone: 'Asia/Kolkata' });
    const sync = await rest(t.url, 'POST', `/public/v2/devices/${device.id}/actions`, { key, body: { type: 'clock.sync' } });
    expect(sync.status).to.equal(202);
    clock += 101_000;
    const reply = await poll(device.serial_number);
    expect(reply).to.have.length(1);
    expect(reply[0]![1]).to.equal(setClockCommand(encodeZkTime(instantToLocal(now(), 'Asia/Kolkata'))));
    const [stored] = await sql('select command from device_command where reference = ?', [`device_action:${sync.body.action_id}`]);
    expect(stored.command).to.equal(reply[0]![1]);
  });

  it('a command past its deadline is never sent, even before the sweep runs, and its door action says expired', async () => {
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    const unlock = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: device.serial_number, duration: 5 } });
    clock += (t.config.doorActionExpirySeconds + 1) * 1000;
    expect(await poll(device.serial_number)).to.deep.equal([]);
    const read = await rest(t.url, 'GET', `/v1/devices/door/actions/${unlock.body.action_id}`, { key });
    expect(read.body).to.include({ status: 'expired', sent_at: null });
    const [command] = await sql(
      'select c.status, c.sent_at, c.attempts from device_command c join door_action a on a.command_id = c.id where a.action_id = ?',
      [unlock.body.action_id],
    );
    expect(command).to.deep.equal({ status: 'expired', sent_at: null, attempts: 0 });
  });

  it('the queue reaches the engines registered for a kind, and only them, at delivery and at the result', async () => {
    expect(registeredCommandHandlers()).to.include.members(['door_actions', 'device_actions', 'device_users', 'face_enrollments', 'access_tables']);
    const seen: number[][] = [];
    registerCommandHandler('probe', { kinds: ['probe_*'], onChange: async (_ctx, ids) => void seen.push(ids) });
    const device = await createTerminalDevice(t.url, key, { mode_type: 'acc' });
    const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
    const other = await enqueueCommand(ctx(), { workspaceId: workspace_id, deviceId: device.id, kind: 'unprobed', command: 'INFO' });
    const probe = await enqueueCommand(ctx(), { workspaceId: workspace_id, deviceId: device.id, kind: 'probe_one', command: 'INFO' });
    await poll(device.serial_number);
    await iclock(
      t.url,
      'POST',
      `/iclock/devicecmd?SN=${device.serial_number}`,
      `ID=${probe.commandId}&Return=0&CMD=INFO\nID=${other.commandId}&Return=0&CMD=INFO`,
    );
    expect(seen).to.deep.equal([[probe.id], [probe.id]]);
  });
});
