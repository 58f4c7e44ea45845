import { expect } from 'chai';
import {
  ACCESS_INFO_OPTION_KEYS,
  getOptionsCommand,
  deleteTimezoneCommand,
  deleteUserAuthorizeCommand,
  timezoneInterval,
  updateTimezoneCommand,
  acUnlockCommand,
  cancelAlarmCommand,
  deleteAccessBiodataCommand,
  deleteBiodataCommand,
  deleteFaceCommand,
  deleteFingerprintCommand,
  deleteTemplateV10Command,
  closeDoorCommand,
  commandBatchReply,
  deleteAccessUserCommands,
  deleteUserInfoCommand,
  formatCommandLine,
  emergencyOpenDoorCommand,
  holdDoorOpenCommand,
  isValidCommandId,
  lockDownDoorCommand,
  pulseAuxOutputCommand,
  openDoorCommand,
  parseCommandResults,
  sanitizeValue,
  updateAccessBiodataCommand,
  updateAccessUserCommand,
  accTimeZoneSlots,
  deleteAccTimeZoneCommand,
  updateAccTimeZoneCommand,
  userTimeZonesField,
  updateBiodataCommand,
  updateFaceCommand,
  updateBioPhotoCommand,
  deleteBioPhotoCommand,
  updateUserPicCommand,
  deleteUserPicCommand,
  updateFingerprintCommand,
  updateTemplateV10Command,
  updateUserAuthorizeCommand,
  updateUserInfoCommand,
} from '../../../src/protocol';
import { loadFixture } from './fixture';

const TMP = Buffer.from('template bytes').toString('base64');

describe('commands', () => {
  it('attendance user commands', () => {
    expect(
      updateUserInfoCommand({
        pin: '36234',
        name: 'Ana Cruz',
        privilege: 0,
        password: '',
        card: '133440',
        group: 1,
        timeZones: '0001000000000000',
        verify: -1,
      }),
    ).to.equal('DATA UPDATE USERINFO PIN=36234\tName=Ana Cruz\tPri=0\tPasswd=\tCard=133440\tGrp=1\tTZ=0001000000000000\tVerify=-1');
    expect(updateUserInfoCommand({ pin: '1', startDatetime: '2024-01-01T00:00:00', endDatetime: '2024-12-31T23:59:59' })).to.equal(
      'DATA UPDATE USERINFO PIN=1\tStartDatetime=2024-01-01T00:00:00\tEndDatetime=2024-12-31T23:59:59',
    );
    expect(deleteUserInfoCommand('36234')).to.equal('DATA DELETE USERINFO PIN=36234');
    expect(acUnlockCommand()).to.equal('AC_UNLOCK');
  });

  it('template pushes compute Size from the base64 length', () => {
    expect(updateFingerprintCommand({ pin: '1', fid: 6, template: TMP })).to.equal(
      `DATA UPDATE FINGERTMP PIN=1\tFID=6\tSize=${TMP.length}\tValid=1\tTMP=${TMP}`,
    );
    expect(updateFaceCommand({ pin: '1', fid: 0, template: TMP })).to.equal(`DATA UPDATE FACE PIN=1\tFID=0\tValid=1\tSize=${TMP.length}\tTMP=${TMP}`);
    const bio = { pin: '1', type: 9, no: 0, majorVer: 39, minorVer: 1, template: TMP };
    expect(updateBiodataCommand(bio)).to.equal(
      `DATA UPDATE BIODATA Pin=1\tNo=0\tIndex=0\tValid=1\tDuress=0\tType=9\tMajorVer=39\tMinorVer=1\tFormat=0\tTmp=${TMP}`,
    );
    expect(updateAccessBiodataCommand(bio)).to.match(/^DATA UPDATE biodata Pin=1\t/);
    expect(updateTemplateV10Command({ pin: '1', fingerId: 17, template: TMP })).to.equal(
      `DATA UPDATE templatev10 Pin=1\tFingerID=17\tValid=1\tTemplate=${TMP}`,
    );
    expect(() => updateFingerprintCommand({ pin: '1', fid: 0, template: 'ab\\/cd==' })).to.throw(RangeError, /JSON-escaped/);
    expect(() => updateFingerprintCommand({ pin: '1', fid: 10, template: TMP })).to.throw(RangeError, /FID/);
  });

  it('photos: BIOPHOTO carries the JPEG inline and asks the template back; USERPIC the display photo; lower-case tables on access control', () => {
    const jpeg = Buffer.from('jpeg bytes').toString('base64');
    expect(updateBioPhotoCommand('attendance', { pin: '7', content: jpeg })).to.equal(
      `DATA UPDATE BIOPHOTO PIN=7\tType=9\tNo=0\tIndex=0\tSize=${jpeg.length}\tContent=${jpeg}\tFormat=0\tUrl=\tPostBackTmpFlag=1`,
    );
    expect(updateBioPhotoCommand('access', { pin: '7', content: jpeg })).to.match(/^DATA UPDATE biophoto PIN=7\tType=9\t/);
    expect(updateUserPicCommand('attendance', { pin: '7', content: jpeg })).to.equal(`DATA UPDATE USERPIC PIN=7\tSize=${jpeg.length}\tContent=${jpeg}`);
    expect(deleteBioPhotoCommand('access', '7')).to.equal('DATA DELETE biophoto PIN=7\tType=9');
    expect(deleteUserPicCommand('attendance', '7')).to.equal('DATA DELETE USERPIC PIN=7');
    expect(() => updateBioPhotoCommand('attendance', { pin: '7', content: 'not base64!\n' })).to.throw(RangeError);
    expect(() => updateUserPicCommand('attendance', { pin: '7\tX', content: jpeg })).to.throw(RangeError);
  });

  it("attendance access settings: an AccTimeZone row holds one interval a day (slot k = each day's k-th), closed days 2359-0000; TZ is [own?][tz1][tz2][tz3] in hex", () => {
    const intervals = [
      { weekday: 1, startTime: '13:30', endTime: '17:00' },
      { weekday: 1, startTime: '08:30', endTime: '12:30' },
      { weekday: 7, startTime: '10:00', endTime: '11:00' },
    ];
    expect(accTimeZoneSlots(intervals)).to.equal(2);
    expect(accTimeZoneSlots([])).to.equal(1);
    expect(updateAccTimeZoneCommand({ id: 2, slot: 0, intervals })).to.equal(
      'DATA UPDATE AccTimeZone UID=2\tSunStart=1000\tSunEnd=1100\tMonStart=0830\tMonEnd=1230\tTueStart=2359\tTueEnd=0000\tWedStart=2359\tWedEnd=0000\tThuStart=2359\tThuEnd=0000\tFriStart=2359\tFriEnd=0000\tSatStart=2359\tSatEnd=0000',
    );
    expect(updateAccTimeZoneCommand({ id: 3, slot: 1, intervals })).to.match(
      /^DATA UPDATE AccTimeZone UID=3\tSunStart=2359\tSunEnd=0000\tMonStart=1330\tMonEnd=1700\t/,
    );
    expect(deleteAccTimeZoneCommand(3)).to.equal('DATA DELETE AccTimeZone UID=3');
    expect(userTimeZonesField(null)).to.equal('0000000100000000');
    expect(userTimeZonesField([2])).to.equal('0001000200000000');
    expect(userTimeZonesField([11, 12, 13])).to.equal('0001000B000C000D');
    expect(() => userTimeZonesField([1, 2, 3, 4])).to.throw(RangeError);
    expect(() => updateAccTimeZoneCommand({ id: 51, slot: 0, intervals })).to.throw(RangeError);
  });

  it('single-template deletes name the finger or the type and number', () => {
    expect(deleteFingerprintCommand('7', 3)).to.equal('DATA DELETE FINGERTMP PIN=7\tFID=3');
    expect(deleteFaceCommand('7')).to.equal('DATA DELETE FACE PIN=7');
    expect(deleteBiodataCommand({ pin: '7', type: 9, no: 0 })).to.equal('DATA DELETE BIODATA Pin=7\tType=9\tNo=0');
    expect(deleteTemplateV10Command('7', 19)).to.equal('DATA DELETE templatev10 Pin=7\tFingerID=19');
    expect(deleteAccessBiodataCommand({ pin: '7', type: 1, no: 2 })).to.equal('DATA DELETE biodata Pin=7\tType=1\tNo=2');
    expect(() => deleteFingerprintCommand('7\tPIN=8', 0)).to.throw(RangeError);
  });

  it('access-control user, authorisation and delete commands', () => {
    expect(updateAccessUserCommand({ pin: '41235478', name: 'Gym Member', cardNo: '123', startTime: 0, endTime: 0 })).to.equal(
      'DATA UPDATE user CardNo=123\tPin=41235478\tPassword=\tGroup=0\tStartTime=0\tEndTime=0\tName=Gym Member\tPrivilege=0',
    );
    expect(updateUserAuthorizeCommand({ pin: '1', timezoneId: 1, doors: [1, 3] })).to.equal(
      'DATA UPDATE userauthorize Pin=1\tAuthorizeTimezoneId=1\tAuthorizeDoorId=5',
    );
    expect(deleteAccessUserCommands('1')).to.deep.equal(['DATA DELETE userauthorize Pin=1', 'DATA DELETE templatev10 Pin=1', 'DATA DELETE user Pin=1']);
  });

  it('access-control parameters are read with GET OPTIONS (Security PUSH section 12.5.2), never the communication password', () => {
    expect(getOptionsCommand(['FirmVer', '~DeviceName', 'LockCount'])).to.equal('GET OPTIONS FirmVer,~DeviceName,LockCount');
    expect(getOptionsCommand(ACCESS_INFO_OPTION_KEYS)).to.match(/^GET OPTIONS ~SerialNumber,FirmVer,~DeviceName,LockCount,ReaderCount,/);
    expect(ACCESS_INFO_OPTION_KEYS).to.include('DateFmtFunOn').and.not.include('ComPwd');
    expect(() => getOptionsCommand([])).to.throw(RangeError);
    expect(() => getOptionsCommand(['LockCount\nC:1:CLEAR DATA'])).to.throw(RangeError);
    expect(() => getOptionsCommand(['a,b'])).to.throw(RangeError);
  });

  it('fx 39: door control operands are two-digit hex bytes; the device echoes CONTROL DEVICE', () => {
    expect(openDoorCommand(1, 5)).to.equal('CONTROL DEVICE 01010105');
    expect(openDoorCommand(2, 200)).to.equal('CONTROL DEVICE 010201C8');
    expect(holdDoorOpenCommand(1)).to.equal('CONTROL DEVICE 010101FF');
    expect(closeDoorCommand(1)).to.equal('CONTROL DEVICE 01010100');
    expect(cancelAlarmCommand(1)).to.equal('CONTROL DEVICE 02010000');
    expect(() => openDoorCommand(1, 255)).to.throw(RangeError);
    expect(() => openDoorCommand(256, 5)).to.throw(RangeError);
    expect(() => openDoorCommand(1, 1.5)).to.throw(RangeError);
    expect(commandBatchReply([{ id: '224', command: openDoorCommand(1, 5) }])).to.equal('C:224:CONTROL DEVICE 01010105');
    expect(parseCommandResults(loadFixture('39').body).results[0]).to.deep.include({ id: '224', cmd: 'CONTROL DEVICE' });
  });

  it('lockdown: operation 06 locks a door down and lifts it, 07 opens it for an emergency and ends it (door in BB, switch in CC)', () => {
    expect(lockDownDoorCommand(1, true)).to.equal('CONTROL DEVICE 06010100');
    expect(lockDownDoorCommand(1, false)).to.equal('CONTROL DEVICE 06010000');
    expect(lockDownDoorCommand(4, true)).to.equal('CONTROL DEVICE 06040100');
    expect(emergencyOpenDoorCommand(2, true)).to.equal('CONTROL DEVICE 07020100');
    expect(emergencyOpenDoorCommand(2, false)).to.equal('CONTROL DEVICE 07020000');
    // Door 0 would address every door of the controller: a lockdown names its doors one by one.
    expect(() => lockDownDoorCommand(0, true)).to.throw(RangeError);
    expect(() => emergencyOpenDoorCommand(256, true)).to.throw(RangeError);
    expect(commandBatchReply([{ id: 'L1', command: lockDownDoorCommand(3, true) }])).to.equal('C:L1:CONTROL DEVICE 06030100');
  });

  it('aux output pulse: operation 01 with address type 02 (auxiliary output) and the seconds', () => {
    expect(pulseAuxOutputCommand(1, 30)).to.equal('CONTROL DEVICE 0101021E');
    expect(pulseAuxOutputCommand(2, 5)).to.equal('CONTROL DEVICE 01020205');
    expect(() => pulseAuxOutputCommand(0, 5)).to.throw(RangeError);
    expect(() => pulseAuxOutputCommand(1, 255)).to.throw(RangeError);
  });

  it('command ids: letters and digits, at most 16', () => {
    for (const ok of ['1', 'info8487', 'a13eeb9927464f9e']) expect(isValidCommandId(ok), ok).to.equal(true);
    for (const bad of ['', 'a13eeb9927464f9e0', 'a-1', 'a:1', '1\n', 'ä']) expect(isValidCommandId(bad), bad).to.equal(false);
    expect(() => formatCommandLine('1', 'CHECK\nC:2:REBOOT')).to.throw(RangeError);
  });

  describe('injection', () => {
    const evil = 'Bob\tPri=14\r\nC:99:REBOOT\u0000\u2028';
    it('a name with TAB, CR LF and a smuggled command stays inside one field of one line', () => {
      const cmd = updateUserInfoCommand({ pin: '5', name: evil, privilege: 0 });
      expect(cmd).to.equal('DATA UPDATE USERINFO PIN=5\tName=BobPri=14C:99:REBOOT\tPri=0');
      const reply = commandBatchReply([{ id: '1', command: cmd }]);
      expect(reply.split('\n')).to.have.length(1);
      expect(reply.split('\t')).to.have.length(3);
      expect(reply.match(/^C:/gm)).to.have.length(1);
    });

    it('every free-text field of every builder is sanitised', () => {
      const commands = [
        updateUserInfoCommand({ pin: '5', name: evil, password: evil, card: evil, timeZones: evil, viceCard: evil }),
        updateAccessUserCommand({ pin: '5', name: evil, password: evil, cardNo: evil }),
        updateBiodataCommand({ pin: '5', type: 1, no: 0, majorVer: evil, minorVer: evil, template: TMP }),
      ];
      for (const c of commands) {
        expect(c).not.to.match(/[\r\n\x00\u2028]/);
        expect(
          c.split('\t').every((f) => /^(DATA UPDATE \w+ )?\w+=/.test(f)),
          c,
        ).to.equal(true);
      }
      expect(sanitizeValue('a\u0085b\x7fc')).to.equal('abc');
    });

    it('identifiers are validated, not cleaned (a cleaned PIN could address someone else)', () => {
      for (const pin of ['1\t2', '1\n', '', ' 1', 'C:1:REBOOT', 'x'.repeat(25)]) {
        expect(() => updateUserInfoCommand({ pin }), JSON.stringify(pin)).to.throw(RangeError);
        expect(() => deleteUserInfoCommand(pin)).to.throw(RangeError);
        expect(() => deleteAccessUserCommands(pin)).to.throw(RangeError);
      }
      expect(() => updateUserAuthorizeCommand({ pin: '1', timezoneId: 1, doors: [] })).to.throw(RangeError);
      expect(() => updateUserAuthorizeCommand({ pin: '1', timezoneId: 1, doors: [9] })).to.throw(RangeError);
    });
  });

  it('access tables: an interval is (HHMM start << 16) + HHMM end; timezone rows list Sunday first, 3 slots a day and per holiday type', () => {
    expect(timezoneInterval('08:30', '12:30')).to.equal(54396110);
    expect(timezoneInterval('00:00', '23:59')).to.equal(2359);
    expect(() => timezoneInterval('24:00', '25:00')).to.throw(RangeError);
    const row = updateTimezoneCommand({
      timezoneId: 3,
      intervals: [
        { weekday: 7, startTime: '10:00', endTime: '11:00' },
        { weekday: 1, startTime: '13:00', endTime: '17:00' },
        { weekday: 1, startTime: '08:30', endTime: '12:30' },
      ],
      holidayIntervals: [{ holidayType: 2, startTime: '09:00', endTime: '10:00' }],
    });
    const fieldsOf = Object.fromEntries(
      row
        .replace('DATA UPDATE timezone ', '')
        .split('\t')
        .map((f: string) => f.split('=')),
    );
    expect(Object.keys(fieldsOf)).to.have.length(1 + 7 * 3 + 3 * 3);
    expect(Object.keys(fieldsOf).slice(0, 5)).to.deep.equal(['TimezoneId', 'SunTime1', 'SunTime2', 'SunTime3', 'MonTime1']);
    expect(fieldsOf).to.include({
      TimezoneId: '3',
      SunTime1: String((1000 << 16) + 1100),
      MonTime1: '54396110',
      MonTime2: String((1300 << 16) + 1700),
      MonTime3: '0',
      Hol2Time1: String((900 << 16) + 1000),
      Hol1Time1: '0',
    });
    expect(deleteTimezoneCommand(3)).to.equal('DATA DELETE timezone TimezoneId=3');
    expect(deleteUserAuthorizeCommand('42', 3)).to.equal('DATA DELETE userauthorize Pin=42\tAuthorizeTimezoneId=3');
  });
});
