import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { parseDuration, parsePins, parseRate } from '../../../src/simulator/cli-args';
import { parseCommandReply } from '../../../src/simulator/command-parser';
import { infoParameter, registryLine, resolveProfile } from '../../../src/simulator/device-profile';
import { attlogLine, operlogUserLine, rtlogLine } from '../../../src/simulator/record-lines';
import { RecordStore } from '../../../src/simulator/record-store';
import { isUploadAcknowledged, parseAttendanceOptions, parseRegistryCode, secondsOption } from '../../../src/simulator/reply-parser';
import { accessHandshake, attendanceHandshake, dataUpload, getRequest } from '../../../src/simulator/request-builder';
import { UploadQueues } from '../../../src/simulator/upload-queue';
import { buildQuery, formatDeviceTime, joinRecords, parseTimeZoneOption, sessionToken } from '../../../src/simulator/wire-format';

describe('simulator: wire format', () => {
  it('formats device local time without zone, shifted by the offset', () => {
    const at = new Date(Date.UTC(2024, 6, 28, 1, 25, 24));
    expect(formatDeviceTime(at, 0)).to.equal('2024-07-28 01:25:24');
    expect(formatDeviceTime(at, 330)).to.equal('2024-07-28 06:55:24');
    expect(formatDeviceTime(at, -120)).to.equal('2024-07-27 23:25:24');
  });

  it('reads TimeZone as hours, minutes beyond 14, or the -05:00 form', () => {
    expect(parseTimeZoneOption('8')).to.equal(480);
    expect(parseTimeZoneOption('-5')).to.equal(-300);
    expect(parseTimeZoneOption('330')).to.equal(330);
    expect(parseTimeZoneOption('-05:00')).to.equal(-300);
    expect(parseTimeZoneOption('x')).to.equal(null);
  });

  it('percent-encodes spaces in INFO but keeps its commas (fx 27)', () => {
    expect(
      buildQuery([
        ['SN', '0316144680030'],
        ['INFO', 'Ver 2.0.12-20150625,0,0,0,192.168.16.27,10,7,15,0,111'],
      ]),
    ).to.equal('SN=0316144680030&INFO=Ver%202.0.12-20150625,0,0,0,192.168.16.27,10,7,15,0,111');
  });

  it('derives the security token as md5(RegistryCode + SN + SessionID), lower-case hex', () => {
    const expected = createHash('md5')
      .update('Uy47fxftP3' + '3383154200002' + '30BFB04B2C8AECC72C01C03BFD549D15')
      .digest('hex');
    expect(sessionToken('Uy47fxftP3', '3383154200002', '30BFB04B2C8AECC72C01C03BFD549D15'))
      .to.equal(expected)
      .and.match(/^[0-9a-f]{32}$/);
  });

  it('ends every record with the chosen line ending', () => {
    expect(joinRecords(['a', 'b'], 'lf')).to.equal('a\nb\n');
    expect(joinRecords(['a', 'b'], 'crlf')).to.equal('a\r\nb\r\n');
  });

  it('renders ATTLOG, rtlog and OPERLOG USER lines in the fixture shapes', () => {
    const r = { index: 21, pin: '1452', time: '2015-07-30 15:16:28', status: 0, verify: 1, workcode: '0', event: 0, door: 1, cardNo: '0' };
    expect(attlogLine(r)).to.equal('1452\t2015-07-30 15:16:28\t0\t1\t0\t0\t0');
    expect(rtlogLine({ ...r, pin: '0', event: 27, status: 1, verify: 0, time: '2017-01-10 11:49:32' })).to.equal(
      'time=2017-01-10 11:49:32\tpin=0\tcardno=0\teventaddr=1\tevent=27\tinoutstatus=1\tverifytype=0\tindex=21',
    );
    const store = new RecordStore();
    const u = store.upsertUser('36234', { name: 'Ann\tLee', card: '133440', timeZones: '0001000000000000' });
    expect(operlogUserLine(u)).to.equal('USER PIN=36234\tName=Ann Lee\tPri=0\tPasswd=\tCard=133440\tGrp=1\tTZ=0001000000000000\tVerify=0\tViceCard=');
  });
});

describe('simulator: request building', () => {
  const att = { serialNumber: 'SIM1', family: 'att' as const, connection: 'device' as const };
  const acc = { serialNumber: 'SIM2', family: 'acc' as const, connection: 'device' as const, token: 'abc' };

  it('builds the attendance handshake query and device headers', () => {
    const req = attendanceHandshake(att, '2.4.1', 69);
    expect(req.path).to.equal('/iclock/cdata?SN=SIM1&options=all&pushver=2.4.1&language=69&DeviceType=att&PushOptionsFlag=1');
    expect(req.headers).to.deep.equal([
      ['User-Agent', 'iClock Proxy/1.09'],
      ['Accept', '*/*'],
      ['Accept-Encoding', 'gzip'],
      ['Connection', 'close'],
    ]);
  });

  it('sends no Content-Type on attendance uploads, and Cookie + application/push on security ones', () => {
    expect(
      dataUpload(
        att,
        [
          ['table', 'ATTLOG'],
          ['Stamp', '9999'],
        ],
        'x',
      ).headers.map(([k]) => k),
    ).to.not.include('Content-Type');
    const up = dataUpload(acc, [['table', 'rtlog']], 'x');
    expect(up.headers[0]).to.deep.equal(['Cookie', 'token=abc']);
    expect(up.headers).to.deep.include(['Content-Type', 'application/push;charset=UTF-8']);
    expect(accessHandshake({ ...acc, token: undefined }, '3.1.2').path).to.equal('/iclock/cdata?SN=SIM2&options=all&pushver=3.1.2&DeviceType=acc');
    expect(getRequest(acc).path).to.equal('/iclock/getrequest?SN=SIM2');
  });

  it('reports firmware and counters in INFO and a one-line registry body', () => {
    const profile = resolveProfile({ serialNumber: 'SIM1', family: 'acc', macAddress: '00:17:61:00:00:01' });
    const store = new RecordStore();
    store.upsertUser('1', {});
    expect(infoParameter(profile, store)).to.match(/^Ver 8\.0\.1\.3-20151229,1,0,0,[\d.]+,10,7,15,0,111$/);
    expect(registryLine(profile)).to.match(
      /^DeviceType=acc,~DeviceName=F20\/M,FirmVer=Ver 8\.0\.1\.3-20151229,PushVersion=3\.1\.2,MAC=00:17:61:00:00:01,LockCount=1,/,
    );
    expect(registryLine(profile)).to.not.include('\n');
  });
});

describe('simulator: reply parsing', () => {
  it('reads the GET OPTION FROM block with LF or CR LF', () => {
    const parsed = parseAttendanceOptions('GET OPTION FROM: SIM1\r\nDelay=10\r\nTransFlag=TransData AttLog\tOpLog\r\nTimeZone=8', 'SIM1');
    expect(parsed.recognised).to.equal(true);
    expect(parsed.options.get('Delay')).to.equal('10');
    expect(parsed.options.get('TransFlag')).to.equal('TransData AttLog\tOpLog');
    expect(secondsOption(parsed.options, 'delay', 1)).to.equal(10_000);
    expect(parseAttendanceOptions('OK', 'SIM1').recognised).to.equal(false);
  });

  it('accepts only RegistryCode=<code> as a registration', () => {
    expect(parseRegistryCode('RegistryCode=Uy47fxftP3')).to.equal('Uy47fxftP3');
    expect(parseRegistryCode('OK')).to.equal(null);
  });

  it('acknowledges OK / OK: n, and <table>=<declared count> for tabledata only', () => {
    expect(isUploadAcknowledged('OK: 9', { count: 9 })).to.equal(true);
    expect(isUploadAcknowledged('OK:9', { count: 9 })).to.equal(true);
    expect(isUploadAcknowledged('OK', { count: 9 })).to.equal(true);
    expect(isUploadAcknowledged('ERROR', { count: 1 })).to.equal(false);
    expect(isUploadAcknowledged('user=3', { tableName: 'user', count: 3 })).to.equal(true);
    expect(isUploadAcknowledged('OK', { tableName: 'user', count: 3 })).to.equal(false);
    expect(isUploadAcknowledged('user=2', { tableName: 'user', count: 3 })).to.equal(false);
  });

  it('splits a poll reply into commands, keeping multi-record continuation lines', () => {
    const cmds = parseCommandReply(
      'C:1:DATA UPDATE USERINFO PIN=1\tName=John Smith\tPri=0\nC:a13e:DATA UPDATE user CardNo=\tPin=7\nCardNo=\tPin=8\nC:9:CONTROL DEVICE 01010105\nC:10:DATA DELETE user *\nC:11:REBOOT',
    );
    expect(cmds.map((c) => [c.id, c.verb, c.table ?? null])).to.deep.equal([
      ['1', 'DATA UPDATE', 'USERINFO'],
      ['a13e', 'DATA UPDATE', 'user'],
      ['9', 'CONTROL DEVICE', null],
      ['10', 'DATA DELETE', 'user'],
      ['11', 'REBOOT', null],
    ]);
    expect(cmds[0]!.records[0]!.get('name')).to.equal('John Smith');
    expect(cmds[1]!.records.map((r) => r.get('pin'))).to.deep.equal(['7', '8']);
    expect(cmds[2]!.operand).to.equal('01010105');
    expect(cmds[3]!.matchAll).to.equal(true);
    expect(parseCommandReply('OK')).to.deep.equal([]);
  });
});

describe('simulator: local store and upload queue', () => {
  it('keeps uids and log indexes stable and cascades user deletion', () => {
    const store = new RecordStore(3);
    const a = store.upsertUser('1', { name: 'A' });
    store.upsertUser('2', {});
    expect(store.upsertUser('1', { name: 'B' }).uid).to.equal(a.uid);
    store.upsertTemplate({ pin: '1', type: 1, no: 0, index: 0, valid: '1', duress: '0', majorVer: '10', minorVer: '0', format: '0', tmp: 'AA==' });
    store.deleteUser('1');
    expect(store.templates.size).to.equal(0);
    expect(store.upsertUser('3', {}).uid).to.equal(3);
    const base = { pin: '1', time: 't', status: 0, verify: 1, workcode: '0', event: 0, door: 1, cardNo: '0' };
    for (let i = 0; i < 5; i++) store.appendLog(base);
    expect(store.log.map((r) => r.index)).to.deep.equal([3, 4, 5]);
  });

  it('drops only the acknowledged lines and never doubles a re-queued record', () => {
    const q = new UploadQueues(['OPERLOG', 'ATTLOG']);
    q.add('ATTLOG', { key: 'log:1', line: 'l1', punch: true });
    q.add('OPERLOG', { key: 'user:1', line: 'u1', punch: false });
    q.add('ATTLOG', { key: 'log:1', line: 'l1', punch: true });
    const batch = q.nextBatch(10)!;
    expect(batch.table).to.equal('OPERLOG');
    q.add('OPERLOG', { key: 'user:1', line: 'u1-changed', punch: false });
    q.acknowledge('OPERLOG', batch.records);
    expect(q.size('OPERLOG')).to.equal(1);
    expect(q.size('ATTLOG')).to.equal(1);
  });
});

describe('simulator: CLI argument values', () => {
  it('parses durations, rates and PIN lists', () => {
    expect(parseDuration('10s')).to.equal(10_000);
    expect(parseDuration('500ms')).to.equal(500);
    expect(parseDuration('2m')).to.equal(120_000);
    expect(parseRate('5/s')).to.equal(5);
    expect(parseRate('120/m')).to.equal(2);
    expect(parsePins('1,2,5-7')).to.deep.equal(['1', '2', '5', '6', '7']);
    expect(() => parseDuration('soon')).to.throw(/invalid duration/);
  });
});
