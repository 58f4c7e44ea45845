import { expect } from 'chai';
import { sessionToken } from '../../src/protocol';
import { createWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { createTerminalDevice, fixtureBody, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

const MANUAL = { TIMEGATE_PRESENCE_FLUSH_MS: '3600000', TIMEGATE_TERMINAL_SWEEP_MS: '3600000' };

describe('terminal HTTP adapter (/iclock)', () => {
  let t: TestApp;
  let key: string;
  let clock = Date.parse('2026-01-15T10:00:00Z');
  before(async () => {
    t = await startTestApp(MANUAL, 'iclock', { now: () => new Date(clock) });
    key = (await createWorkspace(t.url, { maxCompanies: 100, maxDevices: 100 })).key;
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);

  it('reads a body sent without Content-Type on cdata.aspx with upper-case parameters, and replies plain text with Content-Length and Date', async () => {
    const device = await createTerminalDevice(t.url, key);
    const r = await iclock(
      t.url,
      'POST',
      `/iclock/cdata.aspx?sn=${device.serial_number.toLowerCase()}&TABLE=ATTLOG&STAMP=9999`,
      fixtureBody('28-zkdoc-att-attlog-9records.txt'),
    );
    expect(r.status).to.equal(200);
    expect(r.text).to.equal('OK: 9');
    expect(r.headers.get('content-type')).to.equal('text/plain');
    expect(r.headers.get('content-length')).to.equal('5');
    expect(r.headers.get('transfer-encoding')).to.equal(null);
    expect(r.headers.get('content-encoding')).to.equal(null);
    expect(r.headers.get('etag')).to.equal(null);
    expect(r.headers.get('x-powered-by')).to.equal(null);
    expect(r.headers.get('date')).to.equal(new Date(clock).toUTCString());
  });

  it('accepts a trailing slash and any path case, and still reads application/x-www-form-urlencoded bodies raw', async () => {
    const device = await createTerminalDevice(t.url, key);
    expect((await iclock(t.url, 'GET', `/iclock/getrequest/?SN=${device.serial_number}`)).text).to.equal('OK');
    expect((await iclock(t.url, 'GET', `/ICLOCK/PING?sn=${device.serial_number}`)).text).to.equal('OK');
    const body = '1\t2024-07-28 01:25:24\t0\t1\t\t0\t0\t\r\n2\t2024-07-28 01:26:00\t1\t15\t\t0\t0\t\r\n';
    const r = await iclock(t.url, 'POST', `/iclock/cdata/?SN=${device.serial_number}&table=ATTLOG`, body, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(r.text).to.equal('OK: 2');
  });

  it('answers the attendance handshake byte for byte with the device zone offset in minutes (Asia/Kolkata)', async () => {
    const device = await createTerminalDevice(t.url, key, { time_zone: 'Asia/Kolkata' });
    const sn = device.serial_number;
    const r = await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&language=69&pushver=2.4.0&DeviceType=middle%20east&PushOptionsFlag=1`);
    expect(r.status).to.equal(200);
    expect(r.text).to.equal(
      [
        `GET OPTION FROM: ${sn}`,
        'ATTLOGStamp=9999',
        'OPERLOGStamp=9999',
        'ATTPHOTOStamp=None',
        'BIODATAStamp=9999',
        'ErrorDelay=30',
        'Delay=10',
        'TransTimes=00:00;14:05',
        'TransInterval=1',
        'TransFlag=TransData AttLog\tOpLog\tEnrollUser\tChgUser\tEnrollFP\tChgFP\tFACE\tWORKCODE',
        'TimeZone=330',
        'Realtime=1',
        'Encrypt=None',
        'ServerVer=2.3.0',
        'PushProtVer=2.3.0',
        'PushOptionsFlag=1',
        'PushOptions=FingerFunOn,FaceFunOn,MultiBioDataSupport,MultiBioPhotoSupport,MultiBioVersion,MultiBioDataCount,MaxMultiBioDataCount,BioPhotoFun,VisilightFun,PhotoFunOn',
      ].join('\n'),
    );
    expect(r.headers.get('content-length')).to.equal(String(r.bytes.length));
    const [row] = await sql('select protocol, mode_type, poll_interval_seconds from device where id = ?', [device.id]);
    expect(row).to.deep.equal({ protocol: 'att-push', mode_type: 'att', poll_interval_seconds: 10 });
  });

  it('stores the raw options upload (algorithm versions) and INFO values without a write per poll', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    const options = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${sn}&table=options`,
      '~DeviceName=SpeedFace-V5L,MultiBioVersion=0:10.0:7.0:0:0:0:0:0:0:39.0:0,FWVersion=ZAM180-NF-Ver1.1.17',
    );
    expect(options.text).to.equal('OK');
    const [stored] = await sql('select model, firmware, reported_options from device where id = ?', [device.id]);
    expect(stored.model).to.equal('SpeedFace-V5L');
    expect(stored.reported_options.MultiBioVersion).to.equal('0:10.0:7.0:0:0:0:0:0:0:39.0:0');

    const info = 'INFO=Ver%202.0.12-20150625,3,2,120,192.168.1.201,10,7,12,1,111';
    await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}&${info}`);
    await t.app.terminals.flush();
    const [before] = await sql('select xmin::text as v, firmware, ip, user_count, attlog_count, fp_algorithm from device where id = ?', [device.id]);
    expect(before).to.include({ firmware: 'Ver 2.0.12-20150625', ip: '192.168.1.201', user_count: 3, attlog_count: 120, fp_algorithm: '10' });
    for (let i = 0; i < 20; i++) expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}&${info}`)).text).to.equal('OK');
    const [during] = await sql('select xmin::text as v from device where id = ?', [device.id]);
    expect(during.v).to.equal(before.v, 'no database write while polling');
  });

  it('an INFO firmware longer than its 100 characters is cut at a code point: an emoji across the cut is left out whole, not halved', async () => {
    const device = await createTerminalDevice(t.url, key);
    const firmware = `${'v'.repeat(99)}😀tail`;
    const reply = await iclock(
      t.url,
      'GET',
      `/iclock/getrequest?SN=${device.serial_number}&INFO=${encodeURIComponent(firmware)},3,2,120,10.0.0.1,10,7,12,1,111`,
    );
    expect(reply.status).to.equal(200);
    await t.app.terminals.flush();
    const [stored] = await sql('select firmware, ip from device where id = ?', [device.id]);
    // 99 letters and the emoji are 100 code points (101 UTF-16 units: String.slice(0, 100) halves the emoji).
    expect(stored).to.deep.equal({ firmware: `${'v'.repeat(99)}😀`, ip: '10.0.0.1' });
  });

  it('access control: stable RegistryCode and SessionID, token checked, wrong token refused with a non-200', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    expect((await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2&DeviceType=acc`)).text).to.equal('OK');
    const registryBody = fixtureBody('33-zkdoc-acc-registry-F20M.txt');
    const first = await iclock(t.url, 'POST', `/iclock/registry?SN=${sn}`, registryBody, { 'content-type': 'application/push;charset=UTF-8' });
    expect(first.text).to.match(/^RegistryCode=[0-9a-f]{16}$/);
    const code = first.text.slice('RegistryCode='.length);
    // Registered, not yet paired: push hands out the SessionID the terminal needs for its token.
    const push1 = await iclock(t.url, 'POST', `/iclock/push?SN=${sn}`, '');
    const sessionId = /SessionID=(\w+)/.exec(push1.text)![1]!;
    expect(push1.text).to.include('RequestDelay=1');
    const good = { cookie: `token=${sessionToken(code, sn, sessionId)}` };
    const push2 = await iclock(t.url, 'GET', `/iclock/push?SN=${sn}`, undefined, good);
    expect(push2.text).to.equal(push1.text);
    // The terminal registers again with its token (firmware does, on every connection): same code.
    const second = await iclock(t.url, 'POST', `/iclock/registry?SN=${sn}`, registryBody, good);
    expect(second.text).to.equal(first.text);
    const handshake = await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all&pushver=3.1.2`, undefined, good);
    expect(handshake.text.split('\n').slice(0, 2)).to.deep.equal(['registry=ok', `RegistryCode=${code}`]);
    expect(handshake.text).to.include(`SessionID=${sessionId}`);

    expect((await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`, undefined, good)).text).to.equal('OK');
    const bad = { cookie: 'token=0123456789abcdef0123456789abcdef' };
    const refused = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${sn}&table=tabledata&tablename=user&count=2`,
      'user uid=1\tpin=1\tname=A\nuser uid=2\tpin=2\tname=B',
      bad,
    );
    expect(refused.status).to.equal(401);
    const accepted = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${sn}&table=tabledata&tablename=user&count=2`,
      'user uid=1\tpin=1\tname=A\nuser uid=2\tpin=2\tname=B',
      good,
    );
    expect(accepted.text).to.equal('user=2');
    const querydata = await iclock(
      t.url,
      'POST',
      `/iclock/querydata?SN=${sn}&type=tabledata&cmdid=1&tablename=user&count=7&packcnt=1&packidx=1`,
      'user uid=1\tpin=1',
      good,
    );
    expect(querydata.text).to.equal('user=7');

    const rtstate = await iclock(
      t.url,
      'POST',
      `/iclock/cdata?SN=${sn}&table=rtstate`,
      'time=2026-01-15 10:00:00\tsensor=02\trelay=01\talarm=0100000000000000',
      good,
    );
    expect(rtstate.text).to.equal('OK');
    const [row] = await sql('select protocol, mode_type, model, registry_code, session_id, door_states from device where id = ?', [device.id]);
    expect(row).to.include({ protocol: 'acc-push', mode_type: 'acc', model: 'F20/M', registry_code: code, session_id: sessionId });
    expect(row.door_states[0]).to.include({ door: 1, sensor: 'open', relay: 'released' });
    expect(row.door_states[0].alarms).to.deep.equal(['accidentalOpen']);
  });

  it('unknown serial: refused so it keeps its data, listed to the workspace at the same site only, claimed by creating the device', async () => {
    const site = await createWorkspace(t.url, { maxCompanies: 5 });
    const other = await createWorkspace(t.url);
    const known = await createTerminalDevice(t.url, site.key);
    await iclock(t.url, 'GET', `/iclock/getrequest?SN=${known.serial_number}`);
    const serial = `UNK${Date.now()}`;
    const handshake = await iclock(t.url, 'GET', `/iclock/cdata?SN=${serial}&options=all&pushver=2.4.1`);
    expect(handshake.status).to.equal(403);
    const upload = await iclock(t.url, 'POST', `/iclock/cdata?SN=${serial}&table=ATTLOG`, '1\t2026-01-15 10:00:00\t0\t1\t\t0\t0');
    expect(upload.status).to.not.equal(200);
    await iclock(t.url, 'GET', `/iclock/getrequest?SN=${serial}&INFO=ZMM720-NF-Ver1.2.7,1,1,1,10.0.0.9`);
    await t.app.terminals.flush();

    const listed = await rest(t.url, 'GET', '/public/v2/devices/unclaimed', { key: site.key });
    expect(listed.status).to.equal(200);
    const entry = listed.body.find((u: any) => u.serial_number === serial);
    expect(entry).to.include({ ip: '127.0.0.1', firmware: 'ZMM720-NF-Ver1.2.7', protocol: 'att-push', request_count: 3 });
    const hidden = await gqlData(t.url, other.key, '{ unknownTerminals { totalCount nodes { serialNumber } } }');
    expect(hidden.unknownTerminals.nodes.map((n: any) => n.serialNumber)).to.not.include(serial);
    // An id for normalising clients: the serial.
    const mine = await gqlData(t.url, site.key, '{ unknownTerminals { nodes { id serialNumber } } }');
    expect(mine.unknownTerminals.nodes.find((n: any) => n.serialNumber === serial)).to.deep.equal({ id: serial.toUpperCase(), serialNumber: serial });
    const writeOnly = await rest(t.url, 'GET', '/public/v2/devices/unclaimed', {
      key: (await gqlData(t.url, site.key, 'mutation { createApiKey(input: { scopes: ["write"] }) { key } }')).createApiKey.key,
    });
    expect(writeOnly.status).to.equal(403);

    const claimed = await createTerminalDevice(t.url, site.key, { serial_number: serial.toLowerCase() });
    const poll = await iclock(t.url, 'GET', `/iclock/getrequest?SN=${serial}`);
    expect(poll.status).to.equal(200);
    await t.app.terminals.flush();
    const [row] = await sql('select status from device where id = ?', [claimed.id]);
    expect(row.status).to.equal('online');
    const after = await rest(t.url, 'GET', '/public/v2/devices/unclaimed', { key: site.key });
    expect(after.body.map((u: any) => u.serial_number)).to.not.include(serial);
  });

  it('presence: online on first request, offline after max(3 x Delay, 60 s) of silence, back online; one status row per change', async () => {
    const device = await createTerminalDevice(t.url, key);
    const sn = device.serial_number;
    await iclock(t.url, 'GET', `/iclock/cdata?SN=${sn}&options=all`);
    await t.app.terminals.sweep();
    const status = async () => (await sql('select status from device where id = ?', [device.id]))[0].status;
    const changes = async () => (await sql('select status from device_status_change where device_id = ? order by id', [device.id])).map((r) => r.status);
    expect(await status()).to.equal('online');

    clock += 59_000;
    await t.app.terminals.sweep();
    expect(await status()).to.equal('online');
    clock += 2_000;
    await t.app.terminals.sweep();
    await t.app.terminals.sweep();
    expect(await status()).to.equal('offline');
    expect(await changes()).to.deep.equal(['online', 'offline']);

    await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`);
    await iclock(t.url, 'GET', `/iclock/getrequest?SN=${sn}`);
    await t.app.terminals.flush();
    await t.app.terminals.flush();
    expect(await status()).to.equal('online');
    expect(await changes()).to.deep.equal(['online', 'offline', 'online']);
  });
});
