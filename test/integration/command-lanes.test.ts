import { expect } from 'chai';
import { deleteAccessUserCommands, encodeZkTime, instantToLocal, setClockCommand, updateAccessUserCommand } from '../../src/protocol';
import { enqueueCommand, enqueueCommands, registerCommandHandler, registeredCommandHandlers, type NewCommand } from '../../src/services/commands/command-queue';
import type { RequestContext } from '../../src/context/request-context';
import { syncLane } from '../../src/services/sync/device-sync.service';
import pg from 'pg';
import { createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { waitForLockWait } from '../support/service-process';
import { createTerminalDevice, iclock, registerAccessTerminal } from '../support/terminal';
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

  it("a remote open queued while a controller has 500 people to sync is in its next poll's reply, even while that sync's rows are locked", async () => {
    const device = (await createTerminalDevice(t.url, key, { mode_type: 'acc' })) as any;
    await registerAccessTerminal(t.url, device.serial_number, 'DeviceType=acc,~DeviceName=inBio260,FirmVer=AC Ver 5.7.8,PushVersion=3.1.2,LockCount=2');
    const doors = (await rest(t.url, 'GET', `/public/v2/devices/${device.id}/doors`, { key })).body as Array<{ id: number }>;
    const always = (await rest(t.url, 'GET', `/public/v2/access_schedules?company_id=${device.company_id}`, { key })).body[0];
    const level = await rest(t.url, 'POST', '/public/v2/access_levels', {
      key,
      body: { company_id: device.company_id, name: 'Everyone', schedule_id: always.id, door_ids: doors.map((d) => d.id) },
    });
    const people = await sql(
      `insert into employee (workspace_id, company_id, name, lastname, code, pin, created_at, updated_at)
       select workspace_id, company_id, 'Person' || g, 'Sync', 'SYNC' || id || '-' || g, (70000 + g)::text, now(), now()
       from device, generate_series(1, 500) g where id = ? returning id`,
      [device.id],
    );
    const added = await rest(t.url, 'POST', `/public/v2/access_levels/${level.body.id}/employees`, {
      key,
      body: people.map((p) => ({ employee_id: p.id })),
    });
    expect(added.status).to.equal(200);
    expect((await sql("select count(*)::int as n from device_user where device_id = ? and sync_status = 'pending'", [device.id]))[0].n).to.equal(500);
    // Another writer of one of those people (a level change, a template upload) holds her row: the
    // sync build of the next poll would wait for it.
    const writer = new pg.Client({ connectionString: t.config.databaseUrl! });
    await writer.connect();
    await writer.query('begin');
    await writer.query('update device_user set sent_access = sent_access where id = (select min(id) from device_user where device_id = $1)', [device.id]);
    try {
      const unlock = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key, body: { device_serial: device.serial_number, door: 1, duration: 5 } });
      expect(unlock.status).to.equal(202);
      const [door] = await sql('select c.command_id from door_action a join device_command c on c.id = a.command_id where a.action_id = ?', [
        unlock.body.action_id,
      ]);
      const stalled = waitForLockWait(t.config.databaseUrl!, '%device_user%').then(() => 'the poll waited for the sync build');
      const reply = await Promise.race([poll(device.serial_number), stalled]);
      expect(reply).to.not.equal('the poll waited for the sync build');
      expect((reply as Array<readonly [string, string]>)[0]).to.deep.equal([door.command_id, 'CONTROL DEVICE 01010105']);
    } finally {
      await writer.query('commit');
      await writer.end();
    }
    // The build was only put off: the next poll builds and delivers the people.
    const next = await poll(device.serial_number);
    expect(next.map(([, command]) => command.split(' ').slice(0, 3).join(' '))).to.include('DATA UPDATE user');
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
