import { expect } from 'chai';
import { majorVersion, syncCommands, templateDeleteCommand, templateFits, terminalOf, type SyncTemplate } from '../../../src/services/sync/sync-commands';
import { normaliseVersion, templateFormat } from '../../../src/services/sync/employee-template.service';
import { encodeZkTime } from '../../../src/protocol';

const TMP = Buffer.from('fingerprint template').toString('base64');
const finger = (overrides: Partial<SyncTemplate> = {}): SyncTemplate => ({
  type: 1,
  no: 2,
  subIndex: 0,
  version: '10.0',
  format: 0,
  valid: true,
  duress: false,
  data: TMP,
  ...overrides,
});
const row = { pin: '42', previousPin: null, name: 'Ada Lovelace', privilege: 0, present: true };

describe('sync commands', () => {
  it('reads algorithm versions from INFO columns, FPVersion/~ZKFPVersion/FaceVersion and MultiBioVersion; nothing reported means none', () => {
    const att = terminalOf({ access: false, fpAlgorithm: '10', faceAlgorithm: '7', reportedOptions: { MultiBioVersion: '0:0:0:0:0:0:0:0:0:58.0:0' } });
    expect([...att.versions]).to.deep.equal([
      [1, 10],
      [2, 7],
      [9, 58],
    ]);
    const acc = terminalOf({ access: true, reportedOptions: { '~ZKFPVersion': '12', LockCount: '4', MultiBioDataSupport: '0:1:0' } });
    expect([...acc.versions]).to.deep.equal([[1, 12]]);
    expect(acc).to.include({ doors: 4, biodata: true });
    expect(terminalOf({ access: true }).versions.size).to.equal(0);
    expect(terminalOf({ access: true }).doors).to.equal(1);
    expect([majorVersion('VX10.0'), majorVersion('0'), majorVersion(null)]).to.deep.equal([10, null, null]);
    expect([normaliseVersion('10'), normaliseVersion('12.1'), normaliseVersion(''), templateFormat('ZK'), templateFormat('2')]).to.deep.equal([
      '10.0',
      '12.1',
      null,
      0,
      2,
    ]);
  });

  it('a template fits only a terminal reporting the same major version for its type', () => {
    const t = terminalOf({ access: false, fpAlgorithm: '10' });
    expect(templateFits(t, finger())).to.equal(true);
    expect(templateFits(t, finger({ version: '10.3' }))).to.equal(true);
    expect(templateFits(t, finger({ version: '12.0' }))).to.equal(false);
    expect(templateFits(t, finger({ type: 2, version: '10.0' }))).to.equal(false);
    expect(templateFits(t, finger({ version: null }))).to.equal(false);
  });

  it('attendance: pin change deletes the old pin first, then writes the user and each fitting template (FINGERTMP ≤ 10, BIODATA otherwise)', () => {
    const t = terminalOf({ access: false, fpAlgorithm: '10', reportedOptions: { MultiBioVersion: '0:10.0:0:0:0:0:0:0:0:58.0:0' } });
    const face = finger({ type: 9, no: 0, version: '58.0' });
    expect(syncCommands(t, { ...row, previousPin: '41' }, [face, finger({ duress: true }), finger({ version: '12.0' })])).to.deep.equal([
      'DATA DELETE USERINFO PIN=41',
      'DATA UPDATE USERINFO PIN=42\tName=Ada Lovelace\tPri=0',
      `DATA UPDATE FINGERTMP PIN=42\tFID=2\tSize=${TMP.length}\tValid=3\tTMP=${TMP}`,
      `DATA UPDATE BIODATA Pin=42\tNo=0\tIndex=0\tValid=1\tDuress=0\tType=9\tMajorVer=58\tMinorVer=0\tFormat=0\tTmp=${TMP}`,
    ]);
    expect(syncCommands(t, { ...row, present: false }, [finger()])).to.deep.equal(['DATA DELETE USERINFO PIN=42']);
  });

  it('access: user, authorisation on all doors, templatev10; deletes in the reference order', () => {
    const t = terminalOf({
      access: true,
      reportedOptions: { '~ZKFPVersion': '10', LockCount: '2', MultiBioDataSupport: '0:1:1', AccSupportFunList: WITH_DEVID },
    });
    expect(syncCommands(t, { ...row, name: 'Tab\there' }, [finger({ duress: true })])).to.deep.equal([
      'DATA UPDATE user CardNo=\tPin=42\tPassword=\tGroup=0\tStartTime=0\tEndTime=0\tName=Tabhere\tPrivilege=0',
      'DATA UPDATE userauthorize Pin=42\tAuthorizeTimezoneId=1\tAuthorizeDoorId=3\tDevID=1',
      `DATA UPDATE templatev10 Pin=42\tFingerID=18\tValid=1\tTemplate=${TMP}`,
    ]);
    expect(syncCommands(t, { ...row, present: false }, [])).to.deep.equal([
      'DATA DELETE userauthorize Pin=42',
      'DATA DELETE templatev10 Pin=42',
      'DATA DELETE biodata Pin=42',
      'DATA DELETE user Pin=42',
    ]);
    expect(templateDeleteCommand(t, '42', finger())).to.equal('DATA DELETE templatev10 Pin=42\tFingerID=2');
    expect(templateDeleteCommand(terminalOf({ access: false }), '42', finger())).to.equal('DATA DELETE FINGERTMP PIN=42\tFID=2');
  });

  it('access control: grants become userauthorize rows by time zone; a grant taken off or changed deletes exactly its row; the validity window rides on the user row', () => {
    const t = terminalOf({ access: true, reportedOptions: { LockCount: '4', AccSupportFunList: WITH_DEVID } });
    const user = (start: number, end: number) =>
      `DATA UPDATE user CardNo=\tPin=42\tPassword=\tGroup=0\tStartTime=${start}\tEndTime=${end}\tName=Ada Lovelace\tPrivilege=0`;
    // No level: every door (mask 15) under time zone 1, as before access levels.
    expect(syncCommands(t, { ...row, sentAccess: [] }, [])).to.deep.equal([
      user(0, 0),
      'DATA UPDATE userauthorize Pin=42\tAuthorizeTimezoneId=1\tAuthorizeDoorId=15\tDevID=1',
    ]);
    // Rows from before access levels were sent every door under 1: a level replaces that row.
    expect(syncCommands(t, { ...row, access: [{ timezoneId: 2, doorMask: 3 }], validFrom: '2026-12-01', validUntil: '2027-02-28' }, [])).to.deep.equal([
      user(20261201, 20270228),
      'DATA DELETE userauthorize Pin=42\tAuthorizeTimezoneId=1',
      'DATA UPDATE userauthorize Pin=42\tAuthorizeTimezoneId=2\tAuthorizeDoorId=3\tDevID=1',
    ]);
    // One grant taken off, one changed, one kept.
    const sent = [
      { timezoneId: 2, doorMask: 3 },
      { timezoneId: 3, doorMask: 1 },
      { timezoneId: 4, doorMask: 8 },
    ];
    expect(
      syncCommands(
        t,
        {
          ...row,
          sentAccess: sent,
          access: [
            { timezoneId: 2, doorMask: 3 },
            { timezoneId: 4, doorMask: 12 },
          ],
        },
        [],
      ),
    ).to.deep.equal([
      user(0, 0),
      'DATA DELETE userauthorize Pin=42\tAuthorizeTimezoneId=3',
      'DATA DELETE userauthorize Pin=42\tAuthorizeTimezoneId=4',
      'DATA UPDATE userauthorize Pin=42\tAuthorizeTimezoneId=2\tAuthorizeDoorId=3\tDevID=1',
      'DATA UPDATE userauthorize Pin=42\tAuthorizeTimezoneId=4\tAuthorizeDoorId=12\tDevID=1',
    ]);
    // A new pin: the old pin's user and rows go wholesale by pin, the new pin starts from nothing.
    const moved = syncCommands(t, { ...row, previousPin: '41', sentAccess: sent, access: [{ timezoneId: 2, doorMask: 1 }] }, []);
    expect(moved.filter((c) => c.includes('userauthorize'))).to.deep.equal([
      'DATA DELETE userauthorize Pin=41',
      'DATA UPDATE userauthorize Pin=42\tAuthorizeTimezoneId=2\tAuthorizeDoorId=1\tDevID=1',
    ]);
  });

  it('access control: the validity and DevID follow what the terminal reported (DateFmtFunOn, AccSupportFunList position 26)', () => {
    const plain = terminalOf({ access: true, reportedOptions: { LockCount: '1' } });
    const seconds = terminalOf({ access: true, reportedOptions: { LockCount: '1', '~DateFmtFunOn': '1', AccSupportFunList: WITH_DEVID } });
    const windowed = { ...row, sentAccess: [], validFrom: '2026-12-01', validUntil: '2027-02-28' };
    expect(syncCommands(plain, windowed, [])).to.deep.equal([
      'DATA UPDATE user CardNo=\tPin=42\tPassword=\tGroup=0\tStartTime=20261201\tEndTime=20270228\tName=Ada Lovelace\tPrivilege=0',
      'DATA UPDATE userauthorize Pin=42\tAuthorizeTimezoneId=1\tAuthorizeDoorId=1',
    ]);
    const start = encodeZkTime({ year: 2026, month: 12, day: 1, hour: 0, minute: 0, second: 0 });
    const end = encodeZkTime({ year: 2027, month: 2, day: 28, hour: 23, minute: 59, second: 59 });
    expect(syncCommands(seconds, windowed, [])).to.deep.equal([
      `DATA UPDATE user CardNo=\tPin=42\tPassword=\tGroup=0\tStartTime=${start}\tEndTime=${end}\tName=Ada Lovelace\tPrivilege=0`,
      'DATA UPDATE userauthorize Pin=42\tAuthorizeTimezoneId=1\tAuthorizeDoorId=1\tDevID=1',
    ]);
  });
});

/** An `AccSupportFunList` with a 1 at position 26: the terminal's tables have a DevID field. */
const WITH_DEVID = `${'0'.repeat(26)}1${'0'.repeat(7)}`;
