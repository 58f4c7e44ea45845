import { expect } from 'chai';
import { type BiodataRecord, type TemplateRecord, type UserRecord, parseBiodata, parseOperlog, uploadAck } from '../../../src/protocol';
import { loadFixture } from './fixture';

const TMP = Buffer.from('fingerprint template bytes!').toString('base64'); // 36 chars

describe('parseOperlog', () => {
  it('fx 29: one OPLOG record (op 4 entered menu, admin 14)', () => {
    const { records, errors } = parseOperlog(loadFixture('29').body);
    expect(errors).to.deep.equal([]);
    expect(records).to.deep.equal([{ kind: 'oplog', line: 1, opType: 4, operator: '14', localTime: '2015-07-30 10:22:34', objects: ['0', '0', '0', '0'] }]);
    expect(uploadAck(records.length)).to.equal('OK: 1');
  });

  it('fx 30: two USER records with empty password, decimal cards and 16-digit TZ', () => {
    const { records, errors } = parseOperlog(loadFixture('30').body);
    expect(errors).to.deep.equal([]);
    const users = records as UserRecord[];
    expect(users.map((u) => [u.kind, u.pin, u.name, u.privilege, u.password, u.card, u.group, u.timeZones])).to.deep.equal([
      ['user', '36234', '36234', 0, '', '133440', '1', '0001000000000000'],
      ['user', '36235', '36235', 0, '', '133441', '1', '0001000000000000'],
    ]);
    expect(uploadAck(records.length)).to.equal('OK: 2');
  });

  it('accepts names with spaces, lower-case keys, the untagged MB560-VL user and every template tag', () => {
    const body = [
      'USER PIN=7\tName=Ana María de la Cruz\tPri=14\tPasswd=\tCard=[15CD5B07]\tGrp=1\tTZ=\tVerify=-1\tViceCard=',
      'PIN=8\tName=No Tag\tPri=0',
      `FP PIN=7\tFID=3\tSize=${TMP.length}\tValid=3\tTMP=${TMP}`,
      `FACE PIN=7\tFID=0\tValid=1\tSize=${TMP.length}\tTMP=${TMP}`,
      `FVEIN Pin=7\tFID=1\tIndex=0\tValid=1\tSize=${TMP.length}\tTmp=${TMP}`,
      `USERPIC PIN=7\tFileName=7.jpg\tSize=${TMP.length}\tContent=${TMP}`,
      `BIOPHOTO PIN=7\tFileName=7.jpg\tType=9\tNo=0\tIndex=0\tSize=${TMP.length}\tContent=${TMP}`,
      `BIODATA Pin=7\tNo=0\tIndex=0\tValid=1\tDuress=0\tType=9\tMajorVer=58\tMinorVer=0\tFormat=ZK\tTmp=${TMP}`,
      'IDCARD PIN=7\tSNNum=1\tIDNum=2',
    ].join('\n');
    const { records, errors } = parseOperlog(body);
    expect(errors).to.deep.equal([]);
    expect(records.map((r) => r.kind)).to.deep.equal(['user', 'user', 'fingerprint', 'face', 'fingervein', 'userpic', 'biophoto', 'biodata', 'other']);
    expect((records[0] as UserRecord).name).to.equal('Ana María de la Cruz');
    expect((records[0] as UserRecord).card).to.equal('[15CD5B07]');
    expect((records[1] as UserRecord).pin).to.equal('8');
    expect(records[2] as TemplateRecord).to.deep.include({ pin: '7', fid: 3, valid: 3, template: TMP });
    expect(records[7] as BiodataRecord).to.deep.include({ type: 9, majorVer: '58', format: 'ZK' });
  });

  describe('mangled templates and records', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['escaped slashes in base64', `FP PIN=1\tFID=0\tSize=8\tValid=1\tTMP=ab\\/cd==`, /JSON-escaped slashes/],
      ['template cut short', `FP PIN=1\tFID=0\tSize=${TMP.length}\tValid=1\tTMP=${TMP.slice(0, 20)}`, /Size=36 but TMP has 20/],
      ['length not a multiple of 4', `FP PIN=1\tFID=0\tValid=1\tTMP=${TMP.slice(0, 21)}`, /not a multiple of 4/],
      ['TABs turned into spaces', `USER PIN=1 Name=Bob Pri=0`, /separated by spaces, not TABs/],
      ['missing PIN', `USER Name=Bob\tPri=0`, /missing PIN/],
      ['unknown tag', `FOO PIN=1`, /unknown record tag "FOO"/],
      ['no tag at all', `garbage`, /missing record tag/],
      ['field without =', `USER PIN=1\tBob`, /field "Bob" is not key=value/],
      ['OPLOG bad date', `OPLOG 4\t14\t2015-13-30 10:22:34\t0`, /bad date: .*month 13/],
      ['OPLOG cut short', `OPLOG 4\t14`, /cut short/],
      ['FP without FID', `FP PIN=1\tTMP=${TMP}`, /missing FID/],
    ];
    for (const [label, bad, reason] of cases) {
      it(label, () => {
        const { records, errors } = parseOperlog(`OPLOG 0\t0\t2024-01-01 00:00:00\r\n${bad}\r\nUSER PIN=2\tName=ok`);
        expect(records.map((r) => r.kind)).to.deep.equal(['oplog', 'user']);
        expect(errors).to.have.length(1);
        expect(errors[0]).to.deep.include({ line: 2, text: bad });
        expect(errors[0]!.reason).to.match(reason);
      });
    }
  });
});

describe('parseBiodata', () => {
  it('parses BIODATA lines and rejects other tags', () => {
    const { records, errors } = parseBiodata(
      `BIODATA Pin=1\tNo=6\tIndex=0\tValid=1\tDuress=0\tType=1\tMajorVer=12\tMinorVer=0\tFormat=0\tTmp=${TMP}\nUSER PIN=1`,
    );
    expect(records).to.have.length(1);
    expect(records[0]).to.deep.include({ pin: '1', no: 6, type: 1, majorVer: '12', template: TMP });
    expect(errors[0]!.reason).to.match(/unexpected record tag "USER" in a BIODATA upload/);
  });
});
