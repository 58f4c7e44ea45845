import { expect } from 'chai';
import {
  deleteFirstCardCommand,
  deleteMultiCardCommand,
  doorOpeningOptionsCommand,
  firstCardOptionCommand,
  formatCommandLine,
  packRecordCommands,
  updateFirstCardCommand,
  updateMultiCardCommand,
} from '../../../src/protocol';

// First-person-in as the controller's own table and door parameter: `firstcard` rows (`Pin`,
// `DoorID`, `TimezoneID`; the ZKAccess C3 / inBio table set of the Security PUSH document, written
// with the DATA grammar of its section 12.1) and `Door{N}FirstCardOpenDoor` (0 off, 1 first-card
// normal open, 2 first-card activation), written with `SET OPTIONS k=v` (section 12.5.1); the
// multi-person rule as `multimcard` rows (`Index`, `DoorId`, `Group1`…`Group5`) and
// `Door{N}MultiCardOpenDoor`.
describe('door opening rules: firstcard and multimcard rows, Door{N}FirstCardOpenDoor and Door{N}MultiCardOpenDoor', () => {
  it('writes a firstcard row as the DATA UPDATE grammar has it: TAB-separated key=value fields, vendor field names', () => {
    expect(updateFirstCardCommand({ pin: '5001', door: 2, timezoneId: 3 })).to.equal('DATA UPDATE firstcard Pin=5001\tDoorID=2\tTimezoneID=3');
    expect(formatCommandLine('A1', updateFirstCardCommand({ pin: '7', door: 1, timezoneId: 1 }))).to.equal(
      'C:A1:DATA UPDATE firstcard Pin=7\tDoorID=1\tTimezoneID=1',
    );
  });

  it('deletes one person of a door, or every row of the door (never by pin alone, never *)', () => {
    expect(deleteFirstCardCommand({ door: 1, pin: '5001' })).to.equal('DATA DELETE firstcard Pin=5001\tDoorID=1');
    expect(deleteFirstCardCommand({ door: 4 })).to.equal('DATA DELETE firstcard DoorID=4');
  });

  it('turns the door parameter on and off with SET OPTIONS', () => {
    expect(firstCardOptionCommand(1, 1)).to.equal('SET OPTIONS Door1FirstCardOpenDoor=1');
    expect(firstCardOptionCommand(4, 0)).to.equal('SET OPTIONS Door4FirstCardOpenDoor=0');
  });

  it('refuses what the controller does not take: a door past the parameter list (Door1–Door4), a bad pin, a time zone of 0', () => {
    expect(() => updateFirstCardCommand({ pin: '5001', door: 5, timezoneId: 1 })).to.throw(RangeError);
    expect(() => updateFirstCardCommand({ pin: '50\t01', door: 1, timezoneId: 1 })).to.throw(RangeError);
    expect(() => updateFirstCardCommand({ pin: '5001', door: 1, timezoneId: 0 })).to.throw(RangeError);
    expect(() => deleteFirstCardCommand({ door: 0 })).to.throw(RangeError);
    expect(() => firstCardOptionCommand(5, 1)).to.throw(RangeError);
    expect(() => firstCardOptionCommand(1, 3)).to.throw(RangeError);
  });

  it('rows of many people travel in one multi-record command (section 12.1.1: one record per line)', () => {
    const rows = ['5001', '5002', '5003'].map((pin) => [{ command: updateFirstCardCommand({ pin, door: 1, timezoneId: 2 }), item: pin }]);
    const [command, ...rest] = packRecordCommands('access', rows, 8192);
    expect(rest).to.deep.equal([]);
    expect(command!.command).to.equal(
      'DATA UPDATE firstcard Pin=5001\tDoorID=1\tTimezoneID=2\nPin=5002\tDoorID=1\tTimezoneID=2\nPin=5003\tDoorID=1\tTimezoneID=2',
    );
    expect(formatCommandLine('B2', command!.command)).to.match(/^C:B2:DATA UPDATE firstcard /);
  });

  it('writes a multi-person combination as a multimcard row: Index, DoorId and the group of each person needed, 0 for the unused slots', () => {
    expect(updateMultiCardCommand({ index: 1, door: 1, groups: [1, 1] })).to.equal(
      'DATA UPDATE multimcard Index=1\tDoorId=1\tGroup1=1\tGroup2=1\tGroup3=0\tGroup4=0\tGroup5=0',
    );
    expect(updateMultiCardCommand({ index: 3, door: 3, groups: [2, 2, 2, 2, 2] })).to.equal(
      'DATA UPDATE multimcard Index=3\tDoorId=3\tGroup1=2\tGroup2=2\tGroup3=2\tGroup4=2\tGroup5=2',
    );
    expect(deleteMultiCardCommand(2)).to.equal('DATA DELETE multimcard DoorId=2');
    expect(() => updateMultiCardCommand({ index: 1, door: 1, groups: [1] })).to.throw(RangeError);
    expect(() => updateMultiCardCommand({ index: 1, door: 1, groups: [1, 1, 1, 1, 1, 1] })).to.throw(RangeError);
    expect(() => updateMultiCardCommand({ index: 1, door: 1, groups: [1, 0] })).to.throw(RangeError);
  });

  it('writes both opening modes of a door in one SET OPTIONS (comma-separated pairs), so the controller never holds one new mode beside an old one', () => {
    expect(doorOpeningOptionsCommand(1, { firstCard: 1, multiCard: 0 })).to.equal('SET OPTIONS Door1FirstCardOpenDoor=1,Door1MultiCardOpenDoor=0');
    expect(doorOpeningOptionsCommand(2, { firstCard: 0, multiCard: 1 })).to.equal('SET OPTIONS Door2FirstCardOpenDoor=0,Door2MultiCardOpenDoor=1');
    expect(() => doorOpeningOptionsCommand(2, { firstCard: 0, multiCard: 2 })).to.throw(RangeError);
  });
});
