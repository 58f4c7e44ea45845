import { expect } from 'chai';
import { executeCommand, type ExecutionContext, type TerminalFamily } from '../../../src/simulator/command-executor';
import { parseCommandReply } from '../../../src/simulator/command-parser';
import { RecordStore } from '../../../src/simulator/record-store';

function ctx(family: TerminalFamily): ExecutionContext {
  return { family, store: new RecordStore(), now: () => '2024-01-01 08:00:00', infoLines: () => ['~DeviceName=X', 'UserCount=0'] };
}
const run = (c: ExecutionContext, line: string) => executeCommand(c, parseCommandReply(line)[0]!);

describe('simulator: command execution', () => {
  it('access control answers DATA QUERY tablename=user with its rows for /iclock/querydata and their number', () => {
    const c = ctx('acc');
    run(c, 'C:1:DATA UPDATE user CardNo=\tPin=7\tPassword=\tGroup=0\tStartTime=0\tEndTime=0\tName=Ann\tPrivilege=0');
    const out = run(c, 'C:2:DATA QUERY tablename=user,fielddesc=*,filter=*');
    expect(out.rc).to.equal(1);
    expect(out.queryAnswer!.table).to.equal('user');
    expect(out.queryAnswer!.lines[0]).to.match(/^user uid=1\tcardno=\tpin=7\t.*name=Ann\tprivilege=0/);
    expect(run(c, 'C:3:DATA QUERY tablename=transaction,fielddesc=*,filter=*').rc).to.equal(-1002);
  });

  it('access control has no INFO; it answers GET OPTIONS with the keys it knows, for /iclock/querydata type=options', () => {
    const c = {
      ...ctx('acc'),
      optionPairs: (): Array<[string, string]> => [
        ['~DeviceName', 'F20/M'],
        ['LockCount', '2'],
        ['DateFmtFunOn', '1'],
      ],
    };
    expect(run(c, 'C:1:INFO').rc).to.equal(-1002);
    const out = run(c, 'C:2:GET OPTIONS DeviceName,LockCount,~MaxUserCount,DateFmtFunOn');
    expect(out.rc).to.equal(0);
    expect(out.echo).to.equal('GET OPTIONS');
    expect(out.queryAnswer).to.deep.equal({ table: 'options', type: 'options', lines: ['~DeviceName=F20/M,LockCount=2,DateFmtFunOn=1'] });
    expect(run(ctx('att'), 'C:3:GET OPTIONS LockCount').rc).to.equal(-1002);
  });

  it('a multi-record command (a record per line) is applied record by record and answered once; a bad record is its code', () => {
    const c = ctx('acc');
    const users = ['1', '2', '3'].map((pin) => `CardNo=\tPin=${pin}\tPassword=\tGroup=0\tStartTime=0\tEndTime=0\tName=P${pin}\tPrivilege=0`);
    const reply = `C:1:DATA UPDATE user ${users.join('\n')}\nC:2:DATA UPDATE userauthorize Pin=1\tAuthorizeTimezoneId=1\tAuthorizeDoorId=15\tDevID=1\nPin=2\tAuthorizeTimezoneId=1\tAuthorizeDoorId=15\tDevID=1`;
    const [update, authorize, ...more] = parseCommandReply(reply);
    expect(more).to.deep.equal([]);
    expect(executeCommand(c, update!).rc).to.equal(0);
    expect(executeCommand(c, authorize!).rc).to.equal(0);
    expect([...c.store.users.keys()]).to.deep.equal(['1', '2', '3']);
    expect(c.store.authorizations.size).to.equal(2);
    expect(run(c, 'C:3:DATA DELETE userauthorize Pin=1\nPin=2').rc).to.equal(0);
    expect(c.store.authorizations.size).to.equal(0);
    expect(run(c, 'C:4:DATA DELETE user Pin=1\nPin=2').rc).to.equal(0);
    expect([...c.store.users.keys()]).to.deep.equal(['3']);
    // A record without its key fails the command with the terminal's code; the records before it stay applied.
    expect(run(c, 'C:5:DATA UPDATE user Pin=8\tName=A\nName=nobody').rc).to.equal(-11);
    expect(c.store.users.has('8')).to.equal(true);
  });

  it('attendance terminals keep AccTimeZone rows by UID, or answer -1004 when they have no access tables', () => {
    const c = ctx('att');
    expect(run(c, 'C:1:DATA UPDATE AccTimeZone UID=2\tSunStart=2359\tSunEnd=0000\tMonStart=0830\tMonEnd=1230').rc).to.equal(0);
    expect(c.store.accTimeZones.get('2')!.get('monstart')).to.equal('0830');
    expect(run(c, 'C:2:DATA DELETE AccTimeZone UID=2').rc).to.equal(0);
    expect(c.store.accTimeZones.size).to.equal(0);
    expect(run({ ...ctx('att'), accessTables: false }, 'C:3:DATA UPDATE AccTimeZone UID=2\tMonStart=0830\tMonEnd=1230').rc).to.equal(-1004);
  });

  it('enrols a face from a comparison photo (posting the template back), answers each failure code, and keeps display photos', () => {
    const c: ExecutionContext = {
      ...ctx('att'),
      photos: { visibleFace: 'photo', userPhoto: true, faceVersion: '58', enrollResult: (pin) => (pin === '9' ? 'D01E0001' : '0') },
    };
    const ok = run(c, 'C:1:DATA UPDATE BIOPHOTO PIN=7\tType=9\tNo=0\tIndex=0\tSize=8\tContent=QUJDREVG\tFormat=0\tUrl=\tPostBackTmpFlag=1');
    expect(ok.rc).to.equal(0);
    expect(c.store.bioPhotos.get('7')).to.equal('QUJDREVG');
    expect(ok.newTemplates).to.have.length(1);
    expect(ok.newTemplates![0]).to.include({ pin: '7', type: 9, majorVer: '58' });
    expect(run(c, 'C:2:DATA UPDATE BIOPHOTO PIN=7\tType=9\tSize=8\tContent=QUJDREVG\tPostBackTmpFlag=0').newTemplates).to.equal(undefined);
    expect(run(c, 'C:3:DATA UPDATE BIOPHOTO PIN=9\tType=9\tSize=8\tContent=QUJDREVG\tPostBackTmpFlag=1').rc).to.equal('D01E0001');
    expect(c.store.bioPhotos.has('9')).to.equal(false);
    expect(run(c, 'C:4:DATA UPDATE BIOPHOTO PIN=7\tType=9\tSize=99\tContent=QUJDREVG').rc).to.equal(-2);
    expect(run(c, 'C:5:DATA UPDATE USERPIC PIN=7\tSize=8\tContent=QUJDREVG').rc).to.equal(0);
    expect(c.store.userPhotos.get('7')).to.equal('QUJDREVG');
    expect(run(c, 'C:6:DATA DELETE USERPIC PIN=7').rc).to.equal(0);
    expect(run(c, 'C:7:DATA DELETE BIOPHOTO PIN=7\tType=9').rc).to.equal(0);
    expect(c.store.userPhotos.size + c.store.bioPhotos.size).to.equal(0);
    // A terminal without photo support refuses the tables (-1002), in either spelling.
    expect(
      run(
        { ...ctx('acc'), photos: { visibleFace: 'template', userPhoto: false, faceVersion: '58', enrollResult: () => '0' } },
        'C:8:DATA UPDATE biophoto PIN=7\tType=9\tSize=8\tContent=QUJDREVG',
      ).rc,
    ).to.equal(-1002);
    expect(run(ctx('att'), 'C:9:DATA UPDATE USERPIC PIN=7\tSize=8\tContent=QUJDREVG').rc).to.equal(-1002);
  });

  it('updates and deletes attendance users and templates, echoing DATA', () => {
    const c = ctx('att');
    const up = run(c, 'C:1:DATA UPDATE USERINFO PIN=7\tName=Ann Lee\tPri=14\tPasswd=\tCard=133440\tGrp=1\tTZ=0001000000000000');
    expect([up.rc, up.echo]).to.deep.equal([0, 'DATA']);
    expect(c.store.users.get('7')).to.include({ name: 'Ann Lee', privilege: '14', card: '133440' });
    expect(run(c, 'C:2:DATA UPDATE FINGERTMP PIN=7\tFID=3\tSize=4\tValid=1\tTMP=AAA=').rc).to.equal(0);
    expect(run(c, 'C:3:DATA UPDATE FINGERTMP PIN=7\tFID=4\tSize=99\tValid=1\tTMP=AAA=').rc).to.equal(-9);
    expect(run(c, 'C:4:DATA UPDATE BIODATA Pin=7\tNo=0\tIndex=0\tValid=1\tDuress=0\tType=9\tMajorVer=58\tMinorVer=0\tFormat=0\tTmp=QUJD').rc).to.equal(0);
    expect(c.store.templates.size).to.equal(2);
    expect(run(c, 'C:5:DATA DELETE USERINFO PIN=7').rc).to.equal(0);
    expect(c.store.users.size + c.store.templates.size).to.equal(0);
    expect(run(c, 'C:6:DATA UPDATE user Pin=1').rc).to.equal(-1004);
  });

  it('handles security user, userauthorize and template tables with the full echo', () => {
    const c = ctx('acc');
    const up = run(c, 'C:1:DATA UPDATE user CardNo=\tPin=1\tPassword=\tGroup=1\tStartTime=0\tEndTime=0\tName=Bo\tPrivilege=0\nCardNo=\tPin=2\tName=Cy');
    expect([up.rc, up.echo]).to.deep.equal([0, 'DATA UPDATE']);
    expect([...c.store.users.keys()]).to.deep.equal(['1', '2']);
    expect(run(c, 'C:2:DATA UPDATE userauthorize Pin=1\tAuthorizeTimezoneId=1\tAuthorizeDoorId=1\tDevID=1').rc).to.equal(0);
    expect(run(c, 'C:3:DATA UPDATE templatev10 Pin=1\tFingerID=6\tValid=1\tTemplate=QUJD').rc).to.equal(0);
    expect(run(c, 'C:4:DATA DELETE templatev10 Pin=1').rc).to.equal(0);
    expect(run(c, 'C:5:DATA DELETE userauthorize Pin=1').rc).to.equal(0);
    const del = run(c, 'C:6:DATA DELETE user Pin=1');
    expect([del.rc, del.echo]).to.deep.equal([0, 'DATA DELETE']);
    expect(c.store.authorizations.size).to.equal(0);
    expect(run(c, 'C:7:DATA DELETE user *').rc).to.equal(0);
    expect(c.store.users.size).to.equal(0);
  });

  it('records a door open for CONTROL DEVICE and AC_UNLOCK', () => {
    const c = ctx('acc');
    const open = run(c, 'C:224:CONTROL DEVICE 01010105');
    expect([open.rc, open.echo]).to.deep.equal([0, 'CONTROL DEVICE']);
    expect(open.newLog[0]).to.include({ pin: '0', event: 8, door: 1 });
    expect(c.store.doorOpens).to.equal(1);
    expect(run(c, 'C:225:CONTROL DEVICE 0101').rc).to.equal(-11);
    expect(run(c, 'C:226:CONTROL DEVICE 03000000').effect).to.equal('reboot');
    const att = ctx('att');
    expect(run(att, 'C:1:AC_UNLOCK').rc).to.equal(0);
    expect(att.store.doorOpens).to.equal(1);
    expect(run(att, 'C:2:CONTROL DEVICE 01010105').rc).to.equal(-1002);
  });

  it('answers REBOOT, CHECK and INFO, and -1002 for anything unknown', () => {
    const c = ctx('att');
    expect(run(c, 'C:1:REBOOT')).to.include({ rc: 0, echo: 'REBOOT', effect: 'reboot' });
    expect(run(c, 'C:2:CHECK')).to.include({ rc: 0, echo: 'CHECK', effect: 'recheck' });
    expect(run(c, 'C:3:INFO').extraLines).to.deep.equal(['~DeviceName=X', 'UserCount=0']);
    expect(run(c, 'C:4:USER ADD PIN=1')).to.include({ rc: -1002, echo: 'USER' });
    expect(run(c, 'C:5:CLEAR PHOTO')).to.include({ rc: -1002, echo: 'CLEAR_PHOTO' });
  });

  it('answers CLEAR LOG, DATA QUERY ATTLOG and VERIFY SUM ATTLOG from its records (attendance only)', () => {
    const c = ctx('att');
    for (const time of ['2026-10-05 08:00:00', '2026-10-31 23:59:59', '2026-11-01 00:00:00'])
      c.store.appendLog({ pin: '7', time, status: 0, verify: 1, workcode: '0', event: 0, door: 1, cardNo: '0' });
    const query = run(c, 'C:6:DATA QUERY ATTLOG StartTime=2026-10-01 00:00:00\tEndTime=2026-10-31 23:59:59');
    expect(query.rc).to.equal(2);
    expect(query.resend!.map((r) => r.time)).to.deep.equal(['2026-10-05 08:00:00', '2026-10-31 23:59:59']);
    expect(run(c, 'C:7:VERIFY SUM ATTLOG StartTime=2026-10-01 00:00:00\tEndTime=2026-11-30 23:59:59')).to.include({
      rc: 0,
      echo: 'VERIFY SUM&StartTime=2026-10-01 00:00:00&EndTime=2026-11-30 23:59:59&AttlogSum=3',
    });
    expect(run(c, 'C:8:CLEAR LOG')).to.include({ rc: 0, echo: 'CLEAR_LOG' });
    expect(c.store.log).to.have.length(0);
    expect(run(ctx('acc'), 'C:9:CLEAR LOG').rc).to.equal(-1002);
  });
});
