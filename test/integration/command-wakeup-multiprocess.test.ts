import { once } from 'node:events';
import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { freshDatabaseUrl } from '../support/database';
import { createCompany, createDevice, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitUntil } from '../support/wait-until';

// Behind a balancer a terminal polls one process while an API client queues its command on another.
// The polled process answers heartbeats from its device cache ("nothing queued"); before the
// COMMAND_CHANNEL NOTIFY it learnt of the other process's command only at its next cache refresh
// (every half TIMEGATE_DEVICE_CACHE_TTL_MS): a lockdown behind three processes waited seconds. Here
// the TTL is an hour, so only the NOTIFY can deliver the command.
describe('a command queued on one process wakes the poll on another', function () {
  this.timeout(120_000);
  const processes: ServiceProcess[] = [];
  let terminal: SimulatedTerminal | null = null;

  after(async () => {
    await terminal?.stop();
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  });

  it('an unlock made through process A is delivered at the next poll of the terminal on process B, without a cache refresh', async () => {
    const databaseUrl = await freshDatabaseUrl('command-wakeup');
    const admin = new URL(databaseUrl);
    const name = admin.pathname.slice(1);
    admin.pathname = '/postgres';
    await query(admin.toString(), `create database "${name}"`);
    const env = { TIMEGATE_DEVICE_CACHE_TTL_MS: '3600000' };
    processes.push(await startServiceProcess(databaseUrl, env));
    processes.push(await startServiceProcess(databaseUrl, env));
    const [a, b] = processes as [ServiceProcess, ServiceProcess];

    const ws = await createWorkspace(a.url);
    const company = await createCompany(a.url, ws.key);
    const device = await createDevice(a.url, ws.key, company.id, { time_zone: 'UTC' });
    terminal = new SimulatedTerminal({ serverUrl: b.url, serialNumber: device.serial_number, family: 'att', pollIntervalMs: 200, connection: 'keep-alive' });
    const executed: string[] = [];
    terminal.on('command', ({ command }: { command: { verb: string } }) => executed.push(command.verb));
    terminal.start();
    await once(terminal, 'handshake');
    // B has the device cached and has seen its queue empty: its polls are answered from memory.
    const polled = () => new Promise((resolve) => terminal!.once('poll', resolve));
    await waitUntil('the first INFO and option commands are done', async () => {
      const [{ n }] = await query(databaseUrl, "select count(*)::int as n from device_command where device_id = $1 and status in ('queued', 'sent')", [
        device.id,
      ]);
      return n === 0;
    });
    await polled();
    await polled();
    const before = executed.length;

    const unlock = await rest(a.url, 'POST', '/v1/devices/door/unlock', { key: ws.key, body: { device_serial: device.serial_number, duration: 3 } });
    expect(unlock.status, JSON.stringify(unlock.body)).to.equal(202);
    const actionId = unlock.body.action_id;
    await waitUntil(
      'the unlock is sent to the terminal polling process B',
      async () => {
        const [row] = await query(databaseUrl, 'select sent_at from door_action where action_id = $1', [actionId]);
        return row?.sent_at ? true : null;
      },
      30_000,
    );
    expect(executed.length).to.be.greaterThan(before);
    expect(executed.slice(before).join('\n')).to.include('AC_UNLOCK');
  });
});
