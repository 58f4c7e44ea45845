import { expect } from 'chai';
import type { RequestContext } from '../../src/context/request-context';
import { enqueueCommand } from '../../src/services/commands/command-queue';
import { createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { createTerminalDevice, fixtureBody, iclock, registerAccessTerminal } from '../support/terminal';
import { encodeZkTime } from '../../src/protocol';
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
  const ctx = (): RequestContext => ({
    principal: { kind: 'terminal', serialNumber: '*' },
    em: t.app.database.orm.em.fork(),
    requestId: 'test',
    logger: t.app.logger,
    now: () => new Date(),
    config: t.config,
  });
  /** An access-control terminal that registered (RegistryCode issued). */
  const accessTerminal = async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2&DeviceType=acc`);
    const session = await registerAccessTerminal(t.url, sn, fixtureBody('33-zkdoc-acc-registry-F20M.txt'));
    return { ...device, cookie: session.cookie };
  };

  it('wrong HTTP methods on /iclock/* answer 405 with Allow, never a registry code', async () => {
    const device = await createTerminalDevice(t.url, key);
    for (const [method, path, allow] of [
      ['PUT', 'ping', 'GET, POST'],
      ['DELETE', 'registry', 'GET, POST'],
      ['PATCH', 'cdata', 'GET, POST'],
      ['DELETE', 'getrequest', 'GET'],
    ] as const) {
      const reply = await iclock(t.url, method, `/iclock/${path}?SN=${device.serial_number}`);
      expect(reply.status, `${method} ${path}`).to.equal(405);
      expect(reply.headers.get('allow')).to.equal(allow);
      expect(reply.text).to.not.match(/RegistryCode/);
    }
    expect((await iclock(t.url, 'GET', `/iclock/ping?SN=${device.serial_number}`)).status).to.equal(200);
  });

  // Regression: a POST poll and a GET result were answered 200 like real requests.
  it('the command poll takes only GET and command results only POST: 405 with Allow otherwise', async () => {
    const device = await createTerminalDevice(t.url, key);
    const poll = await iclock(t.url, 'POST', `/iclock/getrequest?SN=${device.serial_number}`, '');
    expect(poll.status).to.equal(405);
    expect(poll.headers.get('allow')).to.equal('GET');
    const results = await iclock(t.url, 'GET', `/iclock/devicecmd?SN=${device.serial_number}`);
    expect(results.status).to.equal(405);
    expect(results.headers.get('allow')).to.equal('POST');
    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${device.serial_number}`)).status).to.equal(200);
    expect((await iclock(t.url, 'POST', `/iclock/devicecmd?SN=${device.serial_number}`, 'ID=1&Return=0&CMD=INFO')).status).to.equal(200);
  });

  // Regression: a PIN-and-time ATTLOG line was refused as cut short: a real punch lost.
  it('an ATTLOG line of PIN and time only is stored, with state 0 and no verify mode', async () => {
    const device = await createTerminalDevice(t.url, key);
    const reply = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`,
      '7\t2026-03-02 08:00:00\n8\t2026-03-02 08:01:00\t1\n',
    );
    expect(reply.text).to.equal('OK: 2');
    const rows = await sql('select pin, local_time, punch_state, verify_type, verify_code from punch where device_serial = ? order by pin', [
      device.serial_number,
    ]);
    expect(rows).to.deep.equal([
      { pin: '7', local_time: '2026-03-02 08:00:00', punch_state: '0', verify_type: null, verify_code: null },
      { pin: '8', local_time: '2026-03-02 08:01:00', punch_state: '1', verify_type: null, verify_code: null },
    ]);
  });

  // Regression: query rows posted without tablename= were acknowledged `unknown=1`.
  it('querydata rows without a tablename are acknowledged with the table their rows name, as the vendor document does', async () => {
    const device = await accessTerminal();
    const sn = device.serial_number;
    const row = 'biodata pin=1\tno=0\tindex=0\tvalid=1\tduress=0\ttype=1\tmajorver=10\tminorver=0\tformat=0\ttmp=';
    // The vendor document's query answer: `type=tablename`, no tablename=, two packets of one row.
    const first = await iclock(t.url, 'POST', `/iclock/querydata?SN=${sn}&type=tablename&count=1&packcnt=2&packidx=1`, row);
    expect(first.text).to.equal('biodata=1');
    const typed = await iclock(t.url, 'POST', `/iclock/querydata?SN=${sn}&type=tabledata&cmdid=9&count=2`, 'user uid=1\tpin=1\nuser uid=2\tpin=2');
    expect(typed.text).to.equal('user=2');
    // Rows that name no table: acknowledged, never as a made-up table.
    const untagged = await iclock(t.url, 'POST', `/iclock/querydata?SN=${sn}&type=tabledata&count=1`, 'pin=1\tname=x');
    expect(untagged.text).to.equal('OK');
  });

  /** Polls like the terminal until nothing more is queued; the commands delivered, without their `C:<id>:`. */
  const pollAll = async (sn: string, cookie: Record<string, string>): Promise<string[]> => {
    const commands: string[] = [];
    for (let polls = 0; polls < 50; polls++) {
      const reply = await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, cookie);
      if (reply.text === 'OK') return commands;
      commands.push(...reply.text.split('\n').map((line) => line.replace(/^C:[^:]+:/, '')));
    }
    throw new Error('the queue never drained');
  };

  // the Security PUSH document, sections 12.1.1.1 and 12.1.1.5 (and 7.4 for the options).
  it('the user validity and the userauthorize DevID follow the DateFmtFunOn and AccSupportFunList the terminal reported', async () => {
    const device = await accessTerminal(); // fx 33: DateFmtFunOn=0, position 26 of AccSupportFunList is 0
    const sn = device.serial_number;
    const call = (method: string, path: string, body?: unknown) => rest(t.url, method, path, { key, body });
    const [{ company_id }] = await sql('select company_id from device where id = ?', [device.id]);
    const employee = await createEmployee(t.url, key, company_id, { pin: '7001', name: 'Val', lastname: 'Idity' });
    const [door] = (await call('GET', `/public/v2/devices/${device.id}/doors`)).body;
    const schedule = (
      await call('POST', '/public/v2/access_schedules', { company_id, name: 'Days', intervals: [{ weekday: 1, start_time: '08:00', end_time: '18:00' }] })
    ).body;
    const level = (await call('POST', '/public/v2/access_levels', { company_id, name: 'Door', schedule_id: schedule.id, door_ids: [door.id] })).body;
    const member = (end: string) =>
      call('POST', `/public/v2/access_levels/${level.id}/employees`, [{ employee_id: employee.id, start_date: '2026-11-01', end_date: end }]);
    expect((await member('2026-11-20')).status).to.equal(200);
    const before = (await pollAll(sn, device.cookie)).filter((c) => c.includes('Pin=7001'));
    expect(before).to.include('DATA UPDATE user CardNo=\tPin=7001\tPassword=\tGroup=0\tStartTime=20261101\tEndTime=20261120\tName=Val Idity\tPrivilege=0');
    expect(before.filter((c) => c.startsWith('DATA UPDATE userauthorize'))).to.deep.equal([
      'DATA UPDATE userauthorize Pin=7001\tAuthorizeTimezoneId=2\tAuthorizeDoorId=1',
    ]);

    // The terminal reports ZK-encoded validity and DevID in its tables; the next change is written so.
    const list = /AccSupportFunList=(\d+)/.exec(fixtureBody('33-zkdoc-acc-registry-F20M.txt').toString())![1]!;
    const options = `DateFmtFunOn=1,AccSupportFunList=${list.slice(0, 26)}1${list.slice(27)}`;
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=options`, options, device.cookie)).text).to.equal('OK');
    expect((await member('2026-11-25')).status).to.equal(200);
    const after = (await pollAll(sn, device.cookie)).filter((c) => c.includes('Pin=7001'));
    const start = encodeZkTime({ year: 2026, month: 11, day: 1, hour: 0, minute: 0, second: 0 });
    const end = encodeZkTime({ year: 2026, month: 11, day: 25, hour: 23, minute: 59, second: 59 });
    expect(after).to.include(`DATA UPDATE user CardNo=\tPin=7001\tPassword=\tGroup=0\tStartTime=${start}\tEndTime=${end}\tName=Val Idity\tPrivilege=0`);
    expect(after.filter((c) => c.startsWith('DATA UPDATE userauthorize'))).to.deep.equal([
      'DATA UPDATE userauthorize Pin=7001\tAuthorizeTimezoneId=2\tAuthorizeDoorId=1\tDevID=1',
    ]);
  });

  it('an explicit DeviceType=att outranks a remembered access-control mode', async () => {
    const device = await accessTerminal();
    expect((await sql('select protocol from device where id = ?', [device.id]))[0].protocol).to.equal('acc-push');
    const handshake = await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all&pushver=2.4.1&DeviceType=att`, undefined, device.cookie);
    expect(handshake.text).to.match(/^GET OPTION FROM: /);
    expect((await sql('select protocol from device where id = ?', [device.id]))[0].protocol).to.equal('att-push');
  });

  it('the access-control handshake reply carries PushVersion= beside PushProtVer=', async () => {
    const device = await accessTerminal();
    const handshake = await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all&pushver=3.1.2`, undefined, device.cookie);
    expect(handshake.text).to.match(/\nPushVersion=[\d.]+\n/);
    expect(handshake.text).to.match(/\nPushProtVer=[\d.]+\n/);
  });

  it('tabledata without count= is answered with the number of records received', async () => {
    const device = await accessTerminal();
    // Three records received, one of them unreadable: the terminal must hear 3 (it compares with what
    // it sent, and re-sends the table on any other number).
    const reply = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${device.serial_number}&table=tabledata&tablename=user`,
      'user uid=1\tpin=1\tname=A\nuser garbage\nuser uid=3\tpin=3\tname=C\n',
    );
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
    const reply = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`,
      '5\t2026-03-02 08:00:00\tin\t1\t\t0\n6\t2026-03-02 08:01:00\t0\tFP\t\t0\n',
    );
    expect(reply.text).to.equal('OK: 2');
    const rows = await sql('select pin, punch_state, verify_type, verify_code from punch where device_serial = ? order by pin', [device.serial_number]);
    expect(rows).to.deep.equal([
      { pin: '5', punch_state: 'in', verify_type: 'fingerprint', verify_code: 1 },
      { pin: '6', punch_state: '0', verify_type: 'FP', verify_code: null },
    ]);
  });

  it("an attendance terminal's positive Return to DATA UPDATE is an enrolment error; an access terminal's is a success", async () => {
    const outcome = async (device: { id: number; serial_number: string }, returnCode: number) => {
      const [{ workspace_id }] = await sql('select workspace_id from device where id = ?', [device.id]);
      const { commandId } = await enqueueCommand(ctx(), {
        workspaceId: workspace_id,
        deviceId: device.id,
        kind: 'test',
        command: 'DATA UPDATE USERINFO PIN=1\tName=A',
      });
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
