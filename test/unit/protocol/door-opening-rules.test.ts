import { expect } from 'chai';
import { deleteFirstCardCommand, firstCardOptionCommand, formatCommandLine, packRecordCommands, updateFirstCardCommand } from '../../../src/devices/protocol';

// First-person-in as the controller's own table and door parameter: `firstcard` rows (`Pin`,
// `DoorID`, `TimezoneID`; the ZKAccess C3 / inBio table set of the Security PUSH document, written
// with the DATA grammar of its section 12.1) and `Door{N}FirstCardOpenDoor` (0 off, 1 first-card
// normal open, 2 first-card activation), written with `SET OPTIONS k=v` (section 12.5.1).
describe('door opening rules: firstcard rows and Door{N}FirstCardOpenDoor', () => {
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
});
