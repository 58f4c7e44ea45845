import { expect } from 'chai';
import {
  type AccessUserRow,
  type TemplateV10Row,
  OK,
  decodeZkTime,
  parseRtlog,
  parseRtstate,
  parseTableData,
  queryParams,
  tableDataAck,
  tableDataTag,
  uploadTable,
} from '../../../src/protocol';
import { loadFixture } from './fixture';

describe('parseRtlog', () => {
  it('fx 19: a granted fingerprint verification and a pin=0 "not registered" device event, parsed by key', () => {
    const { records, errors } = parseRtlog(loadFixture('19').body);
    expect(errors).to.deep.equal([]);
    expect(records.map((r) => [r.pin, r.localTime, r.event, r.eventClass, r.deviceEvent, r.inOutStatus, r.verifyType, r.index, r.eventAddr])).to.deep.equal([
      ['41235478', '2026-09-28 11:40:45', 0, 'access-granted', false, 0, 1, 13355, 1],
      ['0', '2026-09-28 11:45:56', 27, 'access-denied', true, 1, 1, 13357, 1],
    ]);
    expect(records[0]!.fields).to.include({ sitecode: '0', maskflag: '0', temperature: '0' });
    expect(OK).to.equal('OK');
  });

  it('fx 35: vendor-doc event 27 without final newline and fewer keys', () => {
    const { records, errors } = parseRtlog(loadFixture('35').body);
    expect(errors).to.deep.equal([]);
    expect(records).to.have.length(1);
    expect(records[0]).to.deep.include({
      localTime: '2017-01-10 11:49:32',
      pin: '0',
      deviceEvent: true,
      event: 27,
      inOutStatus: 1,
      verifyType: 0,
      verifyTypeRaw: '0',
      index: 21,
      cardNo: '0',
    });
  });

  it('keeps a NewVFStyles bit string raw, and rejects bad lines one by one', () => {
    const good = 'time=2024-01-01 08:00:00\tpin=5\tevent=0\tindex=1\tverifytype=0000000000000010';
    const { records, errors } = parseRtlog(
      [
        good,
        'time=2024-01-01 08:00:00\tpin=5\tevent=0',
        'pin=5\tevent=0\tindex=2',
        'time=2024-02-30 08:00:00\tevent=0\tindex=3',
        'time=2024-01-01 08:00:00 pin=5 event=0 index=4',
        'time=2024-01-01 08:00:00\tevent=x\tindex=5',
      ].join('\r\n'),
    );
    expect(records).to.have.length(1);
    expect(records[0]).to.deep.include({ verifyTypeRaw: '0000000000000010', verifyType: null });
    expect(errors.map((e) => [e.line, e.reason.replace(/:.*/, '')])).to.deep.equal([
      [2, 'missing index'],
      [3, 'missing time'],
      [4, 'bad date'],
      [5, 'fields are separated by spaces, not TABs (TABs expanded by a log?)'],
      [6, 'non-numeric event "x"'],
    ]);
  });
});

describe('parseRtstate', () => {
  it('fx 36: door 1 without sensor, relay energised, tamper alarm; odd alarm length warned', () => {
    const { records, errors } = parseRtstate(loadFixture('36').body);
    expect(errors).to.deep.equal([]);
    const s = records[0]!;
    expect(s.localTime).to.equal('2017-01-10 15:42:40');
    expect(s.doors).to.have.length(4);
    expect(s.doors[0]).to.deep.include({ door: 1, sensor: 'none', relay: 'energised', alarmByte: 0x02 });
    expect(s.doors[0]!.alarms).to.deep.include({ tamper: true, accidentalOpen: false, doorOpenTimeout: false });
    expect(s.doors[1]!.alarms.tamper).to.equal(false);
    expect(s.warnings).to.deep.equal(['alarm has an odd number of hex digits (15); the last digit is ignored']);
  });

  it('decodes sensor/relay bits per door (LSB first)', () => {
    const { records } = parseRtstate('time=2024-01-01 00:00:00\tsensor=09\trelay=02\talarm=0110');
    expect(records[0]!.doors.map((d) => [d.sensor, d.relay])).to.deep.equal([
      ['closed', 'energised'],
      ['open', 'released'],
      ['none', 'energised'],
      ['none', 'energised'],
    ]);
    expect(records[0]!.doors[0]!.alarms.accidentalOpen).to.equal(true);
    expect(records[0]!.doors[1]!.alarms.doorOpenTimeout).to.equal(true);
    expect(parseRtstate('time=2024-01-01 00:00:00\tsensor=zz').errors[0]!.reason).to.equal('sensor "zz" is not hex');
  });
});

describe('parseTableData', () => {
  it('fx 21: BioFace A1 user upload; ack echoes the declared count', () => {
    const fx = loadFixture('21');
    const q = queryParams(fx.query);
    const upload = uploadTable(q);
    expect(upload).to.deep.equal({ table: 'tabledata', tablename: 'user', count: '3' });
    const { rows, errors } = parseTableData(upload.tablename!, fx.body);
    expect(errors).to.deep.equal([]);
    const users = rows as AccessUserRow[];
    expect(users.map((u) => [u.pin, u.uid, u.privilege, u.cardNo, u.name, u.disabled, u.startTime])).to.deep.equal([
      ['1', 1, 14, '', '', false, '0'],
      ['2', 2, 14, '', '', false, '0'],
      ['3', 3, 0, '', '', false, '0'],
    ]);
    expect(tableDataAck(upload.tablename!, upload.count!)).to.equal('user=3');
  });

  it('fx 38: querydata rows for DATA QUERY user; ack user=3', () => {
    const fx = loadFixture('38');
    const q = queryParams(fx.query);
    expect(q.get('cmdid')).to.equal('415');
    const { rows, errors } = parseTableData(q.get('tablename')!, fx.body);
    expect(errors).to.deep.equal([]);
    expect((rows as AccessUserRow[]).map((u) => [u.pin, u.password])).to.deep.equal([
      ['1', ''],
      ['2', '1'],
      ['3', ''],
    ]);
    expect(tableDataAck(q.get('tablename')!, q.get('count')!)).to.equal('user=3');
  });

  it('echoes the declared count even when fewer rows parse', () => {
    const { rows, errors } = parseTableData('user', 'user uid=1\tpin=1\ngarbage\n');
    expect(rows).to.have.length(1);
    expect(errors).to.have.length(1);
    expect(tableDataAck('user', '2')).to.equal('user=2');
    expect(() => tableDataAck('user', '2\nC:1:REBOOT')).to.throw(RangeError);
  });

  it('templatev10, biodata, photos and generic tables', () => {
    const tmp = Buffer.from('0123456789').toString('base64');
    const t = parseTableData('templatev10', `templatev10 size=${tmp.length}\tuid=1\tpin=1\tfingerid=17\tvalid=1\ttemplate=${tmp}\tresverd=\tendtag=`);
    expect(t.errors).to.deep.equal([]);
    expect(t.rows[0] as TemplateV10Row).to.deep.include({ pin: '1', fingerId: 17, duress: true, template: tmp });
    const b = parseTableData('biodata', `biodata pin=2\tno=0\tindex=0\tvalid=1\tduress=0\ttype=9\tmajorver=39\tminorver=0\tformat=0\ttmp=${tmp}`);
    expect(b.rows[0]).to.deep.include({ kind: 'biodata', pin: '2', type: 9, majorVer: '39' });
    const p = parseTableData('biophoto', `biophoto pin=3\tfilename=3.jpg\tsize=${tmp.length}\tcontent=${tmp.replace('/', '\\/')}`);
    expect(p.rows[0]).to.deep.include({ kind: 'biophoto', pin: '3' });
    const bad = parseTableData('biophoto', `biophoto pin=3\tcontent=ab\\/cd==`);
    expect(bad.errors[0]!.reason).to.match(/JSON-escaped slashes/);
    const g = parseTableData('timezone', 'timezone timezoneid=1\tsuntime1=54396336');
    expect(g.rows[0]).to.deep.equal({ kind: 'generic', line: 1, fields: { timezoneid: '1', suntime1: '54396336' } });
    expect(parseTableData('user', 'templatev10 pin=1').errors[0]!.reason).to.match(/does not match table "user"/);
  });

  it('starttime/endtime are ZK encoded seconds', () => {
    expect(decodeZkTime(0)).to.deep.equal({ year: 2000, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
  });
});

describe('tableDataTag', () => {
  it('names the table of query rows posted without tablename= (fx 38 rows; the vendor biodata query example)', () => {
    expect(tableDataTag(loadFixture('38').body)).to.equal('user');
    expect(tableDataTag('\r\nbiodata pin=1\tno=0\ttype=1\tmajorver=10\ttmp=AAAA')).to.equal('biodata');
    expect(tableDataTag('pin=1\tname=x')).to.equal(null);
    expect(tableDataTag('')).to.equal(null);
    expect(tableDataTag('user\tpin=1')).to.equal(null);
  });
});
