import { expect } from 'chai';
import { createKey, createWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { createTerminalDevice, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

describe('bounded command queues per terminal', () => {
  let t: TestApp;
  let admin: string;
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'queue_bound');
    admin = (await createWorkspace(t.url, { maxCompanies: 100, maxDevices: 100 })).key;
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);

  it('a write key flooding device actions is refused with 429 device_queue_full and Retry-After after 100, while an unlock still goes out at the next poll', async () => {
    expect(t.config.pendingActionsPerDevice).to.equal(100);
    const device = await createTerminalDevice(t.url, admin, { mode_type: 'acc' });
    const writer = await createKey(t.url, admin, ['write']);
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof rest<any>>> | null = null;
    for (let i = 0; i < 150; i++) {
      const r = await rest(t.url, 'POST', `/public/v2/devices/${device.id}/actions`, { key: writer, body: { type: 'reboot' } });
      statuses.push(r.status);
      if (r.status === 429) refused ??= r;
    }
    expect(statuses.filter((s) => s === 202)).to.have.length(100);
    expect(statuses.slice(100)).to.deep.equal(Array(50).fill(429));
    expect(refused!.body.error.code).to.equal('device_queue_full');
    expect(Number(refused!.headers.get('retry-after'))).to.be.at.least(1);
    const [{ n }] = await sql('select count(*)::int as n from device_action where device_id = ?', [device.id]);
    expect(n, 'nothing queued for the refused ones').to.equal(100);

    // GraphQL says the same, with the seconds to wait.
    const viaGraphql = await gql(t.url, writer, 'mutation ($id: Int!) { createDeviceAction(deviceId: $id, input: { type: "reboot" }) { actionId } }', {
      id: device.id,
    });
    expect(viaGraphql.errors![0]!.extensions).to.include({ code: 'device_queue_full' });
    expect((viaGraphql.errors![0]!.extensions as { retryAfter?: number }).retryAfter).to.be.at.least(1);

    // Door actions have their own bound, and go out first.
    const unlock = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: admin, body: { device_serial: device.serial_number, duration: 5 } });
    expect(unlock.status).to.equal(202);
    const reply = (await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`)).text.split('\n');
    expect(reply[0]).to.match(/^C:[0-9a-f]+:CONTROL DEVICE 01010105$/);
    const read = await rest(t.url, 'GET', `/v1/devices/door/actions/${unlock.body.action_id}`, { key: admin });
    expect(read.body.status).to.equal('sent');
  });

  it('door actions are bounded per terminal too, and a slot frees once the terminal has taken and answered one', async () => {
    const device = await createTerminalDevice(t.url, admin, { mode_type: 'acc' });
    for (let i = 0; i < 100; i++) {
      const r = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: admin, body: { device_serial: device.serial_number, duration: 3 } });
      expect(r.status).to.equal(202);
    }
    const full = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: admin, body: { device_serial: device.serial_number, duration: 3 } });
    expect(full.status).to.equal(429);
    expect(full.body.error.code).to.equal('device_queue_full');
    expect(full.headers.get('retry-after')).to.match(/^\d+$/);
    const [line] = (await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`)).text.split('\n');
    await iclock(t.url, 'POST', `/iclock/devicecmd?SN=${device.serial_number}`, `ID=${line!.split(':')[1]}&Return=0&CMD=CONTROL DEVICE`);
    const again = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: admin, body: { device_serial: device.serial_number, duration: 3 } });
    expect(again.status).to.equal(202);
  });
});
