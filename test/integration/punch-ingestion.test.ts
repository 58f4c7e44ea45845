import { once } from 'node:events';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { createApp, type App } from '../../src/app';
import { SimulatedTerminal } from '../../src/simulator';
import { createEmployee, createWorkspace } from '../support/factories';
import { openDeletion } from '../support/open-deletion';
import { gqlData, rest } from '../support/http';
import { createTerminalDevice, fixtureBody, iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

const MANUAL = { TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' };

describe('punch and door-event ingestion from terminals', () => {
  let t: TestApp;
  let logged: App;
  const logLines: any[] = [];
  let key: string;
  before(async () => {
    t = await startTestApp(MANUAL, 'ingest');
    // A second process on the same database whose log we read.
    const sink = new Writable({ write: (chunk, _enc, done) => (logLines.push(JSON.parse(String(chunk))), done()) });
    logged = await createApp(t.config, { logger: pino({ level: 'warn' }, sink) });
    key = (await createWorkspace(t.url, { maxCompanies: 100, maxDevices: 100, maxEmployees: 1000 })).key;
  });
  after(async () => {
    await logged.stop();
    await t.stop();
  });

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const punchesOf = (deviceId: number) =>
    sql(
      'select pin, employee_id, punch_time, local_time, time_zone, punch_state, verify_type, verify_code, record_type, work_code, device_record_index, company_id, device_serial, received_at, workspace_id from punch where device_id = ? order by punch_time, pin',
      [deviceId],
    );
  const companyOf = async (deviceId: number) => (await sql('select company_id from device where id = ?', [deviceId]))[0].company_id as number;

  it('simulated terminal in Asia/Kolkata: punches stored with employee, instant, verify type and raw codes; a re-sent history adds nothing', async () => {
    const device = await createTerminalDevice(t.url, key, { time_zone: 'Asia/Kolkata' });
    const ada = await createEmployee(t.url, key, await companyOf(device.id), { pin: '1452' });
    const started = Date.now();
    const terminal = new SimulatedTerminal({ serverUrl: t.url, serialNumber: device.serial_number, family: 'att', pollIntervalMs: 60_000, errorDelayMs: 50 });
    try {
      terminal.start();
      const [handshake] = await once(terminal, 'handshake');
      expect(handshake.options.get('TimeZone')).to.equal('330');
      terminal.punch({ pin: '1452', at: new Date('2026-04-01T03:30:00Z'), status: 1, verify: 15, workcode: '7' });
      terminal.punch({ pin: '1452', at: new Date('2026-04-01T12:00:05Z'), status: 0, verify: 4 });
      await waitUntil(
        "the terminal's 2 punches are acknowledged",
        async () => terminal.stats.punchesAcknowledged,
        (v) => v === 2,
      );
      const rows = await punchesOf(device.id);
      expect(rows).to.have.length(2);
      expect(rows[0]).to.deep.include({
        pin: '1452',
        employee_id: ada.id,
        local_time: '2026-04-01 09:00:00',
        time_zone: 'Asia/Kolkata',
        punch_state: '1',
        verify_type: 'face',
        verify_code: 15,
        record_type: 'device',
        work_code: '7',
        device_record_index: null,
      });
      expect(new Date(rows[0].punch_time).toISOString()).to.equal('2026-04-01T03:30:00.000Z');
      expect(rows[1]).to.deep.include({ local_time: '2026-04-01 17:30:05', punch_state: '0', verify_type: 'card', verify_code: 4 });
      // The upload's own columns (sent once per upload, not per punch) reach every row.
      const [{ workspace_id: workspaceId }] = await sql('select workspace_id from device where id = ?', [device.id]);
      for (const row of rows) {
        expect(row).to.deep.include({ device_serial: device.serial_number, workspace_id: workspaceId, company_id: await companyOf(device.id) });
        expect(new Date(row.received_at).getTime()).to.be.within(started - 1000, Date.now() + 1000);
      }

      terminal.resendHistory();
      await waitUntil(
        "the terminal's 4 punches are acknowledged",
        async () => terminal.stats.punchesAcknowledged,
        (v) => v === 4,
      );
      expect(await punchesOf(device.id)).to.have.length(2);
    } finally {
      await terminal.stop();
    }
  });

  it('a garbled ATTLOG body without Content-Type: good lines stored, bad ones logged with serial and line, acknowledged with the good count', async () => {
    const device = await createTerminalDevice(t.url, key, { time_zone: 'Europe/Berlin' });
    const body = [
      '1\t2026-01-10 08:00:00\t0\t1\t\t0\t0',
      '2\t2026-02-30 08:00:00\t0\t1',
      'garbage',
      '3\t2026-01-10 08:00:01\t0\tx',
      '4\t2026-01-10 08:00:02\t1\t25\t\t0\t0',
      '',
    ].join('\r\n');
    const reply = await iclock(logged.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=9999`, body);
    expect(reply.status).to.equal(200);
    // The line with a verify mode that is not a number (`x`) is a punch too, kept with the raw value.
    expect(reply.text).to.equal('OK: 3');
    const rows = await punchesOf(device.id);
    expect(rows.map((r) => [r.pin, r.local_time, r.verify_type])).to.deep.equal([
      ['1', '2026-01-10 08:00:00', 'fingerprint'],
      ['3', '2026-01-10 08:00:01', 'x'],
      ['4', '2026-01-10 08:00:02', 'palm'],
    ]);
    expect(new Date(rows[0].punch_time).toISOString()).to.equal('2026-01-10T07:00:00.000Z');
    const entry = logLines.find((l) => l.msg === 'terminal upload lines rejected' && l.serial === device.serial_number);
    expect(entry).to.include({ table: 'ATTLOG', rejected: 2 });
    expect(entry.errors.map((e: any) => e.line)).to.deep.equal([2, 3]);
    expect(entry.errors[0].reason).to.match(/day 30 does not exist/);

    // The same body again: nothing new, the same acknowledgement.
    expect((await iclock(logged.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG`, body)).text).to.equal('OK: 3');
    expect(await punchesOf(device.id)).to.have.length(3);
  });

  it('rtlog fixtures 19 and 35: the granted event is a punch and a door event; the not-registered event 27 only a door event; deduped on (serial, index)', async () => {
    const device = await createTerminalDevice(t.url, key, { time_zone: 'America/Lima' });
    const member = await createEmployee(t.url, key, await companyOf(device.id), { pin: '41235478' });
    const sn = device.serial_number;
    const post = (body: Buffer | string) =>
      iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=rtlog`, body, { 'content-type': 'application/push;charset=UTF-8' });
    expect((await post(fixtureBody('19-acc-rtlog-SpeedFaceV3L-CRJP230860129.txt'))).text).to.equal('OK');
    expect((await post(fixtureBody('35-zkdoc-acc-rtlog-event27.txt'))).text).to.equal('OK');

    const punches = await punchesOf(device.id);
    expect(punches).to.have.length(1);
    expect(punches[0]).to.deep.include({
      pin: '41235478',
      employee_id: member.id,
      local_time: '2026-09-28 11:40:45',
      punch_state: '0',
      verify_type: 'fingerprint',
      verify_code: 1,
      device_record_index: 13355,
    });
    expect(new Date(punches[0].punch_time).toISOString()).to.equal('2026-09-28T16:40:45.000Z');
    const events = await sql(
      'select event_code, event_class, opened, pin, employee_id, door, device_record_index, local_time from door_event where device_id = ? order by device_record_index',
      [device.id],
    );
    expect(events).to.deep.equal([
      {
        event_code: 27,
        event_class: 'denied',
        opened: false,
        pin: null,
        employee_id: null,
        door: 1,
        device_record_index: 21,
        local_time: '2017-01-10 11:49:32',
      },
      {
        event_code: 0,
        event_class: 'granted',
        opened: true,
        pin: '41235478',
        employee_id: member.id,
        door: 1,
        device_record_index: 13355,
        local_time: '2026-09-28 11:40:45',
      },
      {
        event_code: 27,
        event_class: 'denied',
        opened: false,
        pin: null,
        employee_id: null,
        door: 1,
        device_record_index: 13357,
        local_time: '2026-09-28 11:45:56',
      },
    ]);

    // Re-sent, and the same index arriving with another time (firmware re-numbering its clock): still one of each.
    await post(fixtureBody('19-acc-rtlog-SpeedFaceV3L-CRJP230860129.txt'));
    await post('time=2026-09-28 11:40:50\tpin=41235478\tcardno=0\teventaddr=1\tevent=0\tinoutstatus=0\tverifytype=1\tindex=13355');
    expect(await punchesOf(device.id)).to.have.length(1);
    expect((await sql('select count(*)::int as n from door_event where device_id = ?', [device.id]))[0].n).to.equal(3);

    // A denied person event (pin known to the terminal, event 29 expired) and a remote open: door events, no punch.
    await post(
      'time=2026-09-28 12:00:00\tpin=41235478\tcardno=0\teventaddr=2\tevent=29\tinoutstatus=0\tverifytype=15\tindex=13400\ntime=2026-09-28 12:00:05\tpin=0\tcardno=0\teventaddr=2\tevent=8\tinoutstatus=2\tverifytype=200\tindex=13401',
    );
    expect(await punchesOf(device.id)).to.have.length(1);
    const data = await gqlData(
      t.url,
      key,
      'query ($id: Int!) { doorEvents(deviceId: $id, first: 2) { totalCount nodes { eventCode eventClass opened door pin employeeId verifyType deviceRecordIndex } } }',
      { id: device.id },
    );
    expect(data.doorEvents.totalCount).to.equal(5);
    expect(data.doorEvents.nodes).to.deep.equal([
      { eventCode: 8, eventClass: 'door', opened: true, door: 2, pin: null, employeeId: null, verifyType: 'other', deviceRecordIndex: 13401 },
      { eventCode: 29, eventClass: 'denied', opened: false, door: 2, pin: '41235478', employeeId: member.id, verifyType: 'face', deviceRecordIndex: 13400 },
    ]);
  });

  it('a punch of an unknown pin is kept, then attached when an employee of the device company gets that pin (create or pin change), not in another company', async () => {
    const device = await createTerminalDevice(t.url, key);
    const companyId = await companyOf(device.id);
    const sn = device.serial_number;
    await iclock(t.url, 'POST', `/iclock/cdata?SN=${sn}&table=ATTLOG`, '900\t2026-01-10 08:00:00\t0\t1\n901\t2026-01-10 08:00:00\t0\t1\n');
    await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${sn}&table=rtlog`,
      'time=2026-01-10 09:00:00\tpin=901\teventaddr=1\tevent=0\tinoutstatus=0\tverifytype=4\tindex=5',
    );
    expect((await punchesOf(device.id)).map((r) => [r.pin, r.employee_id])).to.deep.equal([
      ['900', null],
      ['901', null],
      ['901', null],
    ]);

    const elsewhere = await createEmployee(
      t.url,
      key,
      (await rest(t.url, 'POST', '/public/v2/companies', { key, body: { name: 'Other', code: `O${Date.now()}` } })).body.id,
      { pin: '900' },
    );
    expect(
      (await punchesOf(device.id)).every((r) => r.employee_id === null),
      'another company’s pin 900 is someone else',
    ).to.equal(true);

    const created = await createEmployee(t.url, key, companyId, { pin: '900' });
    const renamed = await createEmployee(t.url, key, companyId, { pin: '555' });
    expect((await rest(t.url, 'PUT', `/public/v2/employees/${renamed.id}`, { key, body: { pin: '901' } })).status).to.equal(200);
    expect((await punchesOf(device.id)).map((r) => [r.pin, r.employee_id])).to.deep.equal([
      ['900', created.id],
      ['901', renamed.id],
      ['901', renamed.id],
    ]);
    const [event] = await sql('select employee_id from door_event where device_id = ? and pin = ?', [device.id, '901']);
    expect(event.employee_id).to.equal(renamed.id);
    expect(elsewhere.id).to.not.equal(created.id);
  });

  it('fields cut to their column length at an emoji keep it whole: stored, not refused by the database (which would answer 503 for ever)', async () => {
    const device = await createTerminalDevice(t.url, key, { time_zone: 'UTC' });
    // The state is kept to 16 characters, the verify mode to 64 and the work code to 32 (code
    // points, as the columns count them); a cut by UTF-16 units would split each emoji here.
    const body = `5\t2026-01-11 08:00:00\t${'s'.repeat(15)}😀x\t${'v'.repeat(63)}😀x\t${'w'.repeat(31)}😀x\n`;
    const reply = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG`, body);
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.text).to.equal('OK: 1');
    const [row] = await sql('select punch_state, verify_type, work_code from punch where device_id = ?', [device.id]);
    expect(row).to.deep.equal({ punch_state: `${'s'.repeat(15)}😀`, verify_type: `${'v'.repeat(63)}😀`, work_code: `${'w'.repeat(31)}😀` });
  });

  it('an unknown serial never stores punches', async () => {
    const before = (await sql('select count(*)::int as n from punch'))[0].n;
    const r = await iclock(t.url, 'POST', `/iclock/cdata?SN=NOBODY${Date.now()}&table=ATTLOG`, '1\t2026-01-10 08:00:00\t0\t1');
    expect(r.status).to.equal(403);
    expect((await sql('select count(*)::int as n from punch'))[0].n).to.equal(before);
  });

  // punch has no foreign keys to employee and device: the upload statement locks them once instead.
  it('an upload naming an employee whose deletion is under way waits for it and stores the punch without the employee', async () => {
    const device = await createTerminalDevice(t.url, key);
    const ada = await createEmployee(t.url, key, await companyOf(device.id), { pin: '77' });
    const bob = await createEmployee(t.url, key, await companyOf(device.id), { pin: '78' });
    const deletion = await openDeletion(t.app.database.url, 'employee', ada.id);
    const body = '77\t2026-03-01 08:00:00\t0\t1\t\t0\t0\r\n78\t2026-03-01 08:00:01\t0\t1\t\t0\t0\r\n';
    const upload = iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body);
    const waited = await deletion.blocksThenCommit(upload);
    expect(waited, 'the upload did not wait for the deletion').to.equal(true);
    expect((await upload).text).to.equal('OK: 2');
    expect((await punchesOf(device.id)).map((r) => [r.pin, r.employee_id])).to.deep.equal([
      ['77', null],
      ['78', bob.id],
    ]);
  });

  it('an upload during the deletion of an employee with history waits, then stores the punch unattached; their earlier punch stays theirs', async () => {
    const device = await createTerminalDevice(t.url, key);
    const ada = await createEmployee(t.url, key, await companyOf(device.id), { pin: '87' });
    const first = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, '87\t2026-03-01 08:00:00\t0\t1\t\t0\t0\r\n');
    expect(first.text).to.equal('OK: 1');
    const deletion = await openDeletion(t.app.database.url, 'employee', ada.id, { soft: true });
    const upload = iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, '87\t2026-03-02 08:00:00\t0\t1\t\t0\t0\r\n');
    const waited = await deletion.blocksThenCommit(upload);
    expect(waited, 'the upload did not wait for the deletion').to.equal(true);
    expect((await upload).text).to.equal('OK: 1');
    expect((await punchesOf(device.id)).map((r) => [r.pin, r.employee_id])).to.deep.equal([
      ['87', ada.id],
      ['87', null],
    ]);
  });

  it('an upload of a device whose deletion is under way waits, then stores nothing and answers 503 so the terminal keeps its records', async () => {
    const device = await createTerminalDevice(t.url, key);
    // Cached by the handshake: the upload does not read the device row before its statement.
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${device.serial_number}&options=all`)).status).to.equal(200);
    const deletion = await openDeletion(t.app.database.url, 'device', device.id);
    const upload = iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, '5\t2026-03-01 08:00:00\t0\t1\t\t0\t0\r\n');
    const waited = await deletion.blocksThenCommit(upload);
    expect(waited, 'the upload did not wait for the deletion').to.equal(true);
    expect((await upload).status).to.equal(503);
    expect(await sql('select count(*)::int as n from punch where device_serial = ?', [device.serial_number])).to.deep.equal([{ n: 0 }]);
  });
});
