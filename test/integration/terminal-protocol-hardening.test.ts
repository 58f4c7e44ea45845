import { expect } from 'chai';
import type { RequestContext } from '../../src/services/context';
import { enqueueCommand } from '../../src/services/commands/command-queue';
import { createWorkspace } from '../support/factories';
import { createTerminalDevice, fixtureBody, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// The terminal behaviours where two public PUSH servers' test suites (ported and run against
// Timegate) were right and Timegate was not. Real protocol bytes over HTTP.
describe('terminal protocol: behaviours the peer test suites check', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' }, 'terminal-protocol-hardening');
    key = (await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 20 })).key;
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const ctx = (): RequestContext => ({ principal: { kind: 'terminal', serialNumber: '*' }, em: t.app.database.orm.em.fork(), requestId: 'test', logger: t.app.logger, now: () => new Date(), config: t.config });
  /** An access-control terminal that registered (RegistryCode issued). */
  const accessTerminal = async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2&DeviceType=acc`);
    const registered = await iclock(t.url, 'POST', `/iclock/registry?SN=${sn}`, fixtureBody('33-zkdoc-acc-registry-F20M.txt'));
    expect(registered.text).to.match(/^RegistryCode=/);
    return device;
  };

  it('wrong HTTP methods on /iclock/* answer 405 with Allow, never a registry code', async () => {
    const device = await createTerminalDevice(t.url, key);
    for (const [method, path] of [['PUT', 'ping'], ['DELETE', 'registry'], ['PATCH', 'cdata'], ['DELETE', 'getrequest']] as const) {
      const reply = await iclock(t.url, method, `/iclock/${path}?SN=${device.serial_number}`);
      expect(reply.status, `${method} ${path}`).to.equal(405);
      expect(reply.headers.get('allow')).to.equal('GET, POST');
      expect(reply.text).to.not.match(/RegistryCode/);
    }
    expect((await iclock(t.url, 'GET', `/iclock/ping?SN=${device.serial_number}`)).status).to.equal(200);
  });

  it('an explicit DeviceType=att outranks a remembered access-control mode', async () => {
    const device = await accessTerminal();
    expect((await sql('select protocol from device where id = ?', [device.id]))[0].protocol).to.equal('acc-push');
    const handshake = await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all&pushver=2.4.1&DeviceType=att`);
    expect(handshake.text).to.match(/^GET OPTION FROM: /);
    expect((await sql('select protocol from device where id = ?', [device.id]))[0].protocol).to.equal('att-push');
  });

  it('the access-control handshake reply carries PushVersion= beside PushProtVer=', async () => {
    const device = await accessTerminal();
    const handshake = await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all&pushver=3.1.2`);
    expect(handshake.text).to.match(/\nPushVersion=[\d.]+\n/);
    expect(handshake.text).to.match(/\nPushProtVer=[\d.]+\n/);
  });

  it('tabledata without count= is answered with the number of records received', async () => {
    const device = await accessTerminal();
    // Three records received, one of them unreadable: the terminal must hear 3 (it compares with what
    // it sent, and re-sends the table on any other number).
    const reply = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=tabledata&tablename=user`, 'user uid=1\tpin=1\tname=A\nuser garbage\nuser uid=3\tpin=3\tname=C\n');
    expect(reply.text).to.equal('user=3');
  });

  it('rtlog events with codes Timegate does not know are stored with their raw code, not dropped', async () => {
    const device = await accessTerminal();
    const body = [
      'time=2026-01-15 10:00:00\tpin=0\tcardno=0\teventaddr=1\tevent=4001\tinoutstatus=2\tverifytype=0\tindex=901',
      'time=2026-01-15 10:00:01\tpin=0\tcardno=0\teventaddr=1\tevent=203\tinoutstatus=2\tverifytype=0\tindex=902',
    ].join('\n');
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=rtlog`, body)).text).to.equal('OK');
    const rows = await sql('select event_code, event_class from door_event where device_serial = ? order by event_code', [device.serial_number]);
    expect(rows.map((r) => r.event_code)).to.deep.equal([203, 4001]);
    expect(rows.find((r) => r.event_code === 4001)!.event_class).to.equal('unknown');
  });

  it('an ATTLOG line whose status or verify field is not numeric is kept, with the raw value', async () => {
    const device = await createTerminalDevice(t.url, key);
    const reply = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, '5\t2026-03-02 08:00:00\tin\t1\t\t0\n6\t2026-03-02 08:01:00\t0\tFP\t\t0\n');
    expect(reply.text).to.equal('OK: 2');
    const rows = await sql('select pin, punch_state, verify_type, verify_code from punch where device_serial = ? order by pin', [device.serial_number]);
    expect(rows).to.deep.equal([
      { pin: '5', punch_state: 'in', verify_type: 'fingerprint', verify_code: 1 },
      { pin: '6', punch_state: '0', verify_type: 'FP', verify_code: null },
    ]);
  });

  it('an attendance terminal\'s positive Return to DATA UPDATE is an enrolment error; an access terminal\'s is a success', async () => {
    const outcome = async (device: { id: number; serial_number: string }, returnCode: number) => {
      const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
      const { commandId } = await enqueueCommand(ctx(), { workspaceId: workspace_id, deviceId: device.id, kind: 'test', command: 'DATA UPDATE USERINFO PIN=1\tName=A' });
      await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`);
      await iclock(t.url, 'POST', `/iclock/devicecmd?SN=${device.serial_number}`, `ID=${commandId}&Return=${returnCode}&CMD=DATA`);
      return (await sql('select status, return_code from device_command where command_id = ?', [commandId]))[0];
    };
    const attendance = await createTerminalDevice(t.url, key);
    await iclock(t.url, 'GET', `/iclock/cdata?SN=${attendance.serial_number}&options=all&pushver=2.4.1`);
    expect(await outcome(attendance, 2)).to.deep.equal({ status: 'failed', return_code: 2 });
    expect(await outcome(attendance, 0)).to.deep.equal({ status: 'succeeded', return_code: 0 });
    const access = await accessTerminal();
    expect(await outcome(access, 2)).to.deep.equal({ status: 'succeeded', return_code: 2 });
  });
});
