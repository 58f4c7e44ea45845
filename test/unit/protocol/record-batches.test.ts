import { expect } from 'chai';
import {
  commandBatchReply,
  commandByteBudget,
  commandWireBytes,
  deleteAccessUserCommands,
  deleteUserInfoCommand,
  formatCommandLine,
  MAX_COMMAND_BYTES,
  packRecordCommands,
  parseRegistry,
  splitRecordCommand,
  unpackRecordCommand,
  updateAccessBiodataCommand,
  updateAccessUserCommand,
  updateAccTimeZoneCommand,
  updateBiodataCommand,
  updateFingerprintCommand,
  updateTimezoneCommand,
  updateUserAuthorizeCommand,
  updateUserInfoCommand,
  type RecordCommand,
} from '../../../src/protocol';
import { parseCommandReply } from '../../../src/simulator/command-parser';
import { loadFixture } from './fixture';

const TMP = Buffer.from('t'.repeat(300)).toString('base64');
const user = (pin: string) => updateAccessUserCommand({ pin, name: `Person ${pin}`, privilege: 0, startTime: 0, endTime: 0 });
const authorize = (pin: string) => updateUserAuthorizeCommand({ pin, timezoneId: 1, doors: [1, 2, 3, 4] });
const one = (command: string, item: string): RecordCommand<string>[] => [{ command, item }];

describe('multi-record commands (record-batches)', () => {
  it('packs the records of one table LF-joined after a single header, as the Security PUSH document writes its multi-record example', () => {
    // SEC-DOC 12.1.1.32: "C:8748:DATA UPDATE biodata Pin=1 No=0 Type=9 …" then "Pin=2 …", "Pin=3 …", one per line.
    const templates = ['1', '2', '3'].map((pin) => ({
      command: updateAccessBiodataCommand({ pin, type: 9, no: 0, majorVer: 58, minorVer: 0, template: TMP }),
      item: pin,
    }));
    const [packed, ...rest] = packRecordCommands(
      'access',
      templates.map((t) => [t]),
      64 * 1024,
    );
    expect(rest).to.deep.equal([]);
    expect(packed!.items).to.deep.equal(['1', '2', '3']);
    const lines = packed!.command.split('\n');
    expect(lines[0]).to.equal(templates[0]!.command);
    expect(lines.slice(1)).to.deep.equal(templates.slice(1).map((t) => t.command.replace('DATA UPDATE biodata ', '')));
    // What a terminal reads back: one command, three records, one Return to answer.
    const [read, ...more] = parseCommandReply(commandBatchReply([{ id: '8748', command: packed!.command }]));
    expect(more).to.deep.equal([]);
    expect(read!.records.map((r) => r.get('pin'))).to.deep.equal(['1', '2', '3']);
    expect(unpackRecordCommand(packed!.command)).to.deep.equal(templates.map((t) => t.command));
  });

  it('splits at the byte budget, never inside a record, and a record too big for a command goes alone', () => {
    const records = Array.from({ length: 40 }, (_, i) => ({ command: user(String(1000 + i)), item: String(i) }));
    const budget = 1024;
    const packed = packRecordCommands(
      'access',
      records.map((r) => [r]),
      budget,
    );
    expect(packed.length).to.be.greaterThan(1);
    for (const c of packed) expect(commandWireBytes(c.command)).to.be.at.most(budget);
    expect(packed.flatMap((c) => c.items)).to.deep.equal(records.map((r) => r.item));
    expect(packed.flatMap((c) => unpackRecordCommand(c.command))).to.deep.equal(records.map((r) => r.command));
    // One record more than fits was the reason to start a new command.
    const [first, second] = packed;
    const firstRecordOfSecond = unpackRecordCommand(second!.command)[0]!.replace('DATA UPDATE user ', '');
    expect(commandWireBytes(`${first!.command}\n${firstRecordOfSecond}`)).to.be.greaterThan(budget);

    const big = {
      command: updateAccessBiodataCommand({ pin: '9', type: 9, no: 0, majorVer: 58, minorVer: 0, template: Buffer.alloc(3000).toString('base64') }),
      item: 'big',
    };
    const small = { command: updateAccessBiodataCommand({ pin: '8', type: 9, no: 0, majorVer: 58, minorVer: 0, template: TMP }), item: 'small' };
    expect(packRecordCommands('access', [[small], [big], [small]], 2048).map((c) => c.items)).to.deep.equal([['small'], ['big'], ['small']]);
  });

  it('keeps each sequence in order and never mixes tables: time zones before the authorisations naming them, a user deleted after its authorisations', () => {
    const timezone = updateTimezoneCommand({ timezoneId: 2, intervals: [], holidayIntervals: [] });
    const zones = packRecordCommands('access', [one(timezone, 'tz2')], 64 * 1024);
    expect(zones.map((c) => c.items)).to.deep.equal([['tz2']]);
    const leaving = ['7', '8'].map((pin) => deleteAccessUserCommands(pin).map((command, step) => ({ command, item: `${pin}:${step}` })));
    const arriving = ['1', '2'].map((pin) => [user(pin), authorize(pin)].map((command, step) => ({ command, item: `${pin}:${step}` })));
    const packed = packRecordCommands('access', [...leaving, ...arriving], 64 * 1024);
    expect(packed.map((c) => c.command.split(' ').slice(0, 3).join(' '))).to.deep.equal([
      'DATA DELETE userauthorize',
      'DATA DELETE templatev10',
      'DATA DELETE user',
      'DATA UPDATE user',
      'DATA UPDATE userauthorize',
    ]);
    expect(packed.map((c) => c.items)).to.deep.equal([
      ['7:0', '8:0'],
      ['7:1', '8:1'],
      ['7:2', '8:2'],
      ['1:0', '2:0'],
      ['1:1', '2:1'],
    ]);
    // A delete of one pin still precedes the user written under it in a later sequence.
    const moved = packRecordCommands(
      'access',
      [deleteAccessUserCommands('5').map((command) => ({ command, item: 'old' })), [{ command: user('5'), item: 'new' }]],
      64 * 1024,
    );
    expect(moved.map((c) => c.items)).to.deep.equal([['old'], ['old'], ['old'], ['new']]);
  });

  it('biodata templates of different types travel in different commands (SEC-DOC 12.1.1.32)', () => {
    const face = { command: updateAccessBiodataCommand({ pin: '1', type: 9, no: 0, majorVer: 58, minorVer: 0, template: TMP }), item: 'face' };
    const palm = { command: updateAccessBiodataCommand({ pin: '2', type: 10, no: 0, majorVer: 32, minorVer: 2, template: TMP }), item: 'palm' };
    const face2 = { ...face, item: 'face2' };
    expect(packRecordCommands('access', [[face], [palm], [face2]], 64 * 1024).map((c) => c.items)).to.deep.equal([['face', 'face2'], ['palm']]);
    expect(splitRecordCommand('access', face.command)!.key).to.equal('DATA UPDATE biodata Type=9');
  });

  it('attendance: only the UPDATE tables its document gives a multi-record form (USERINFO, FINGERTMP, FACE, USERPIC, BIOPHOTO)', () => {
    const users = ['1', '2'].map((pin) => [{ command: updateUserInfoCommand({ pin, name: 'A', privilege: 0 }), item: pin }]);
    expect(packRecordCommands('attendance', users, 64 * 1024).map((c) => c.items)).to.deep.equal([['1', '2']]);
    const prints = ['1', '2'].map((pin) => [{ command: updateFingerprintCommand({ pin, fid: 0, template: TMP }), item: pin }]);
    expect(packRecordCommands('attendance', prints, 64 * 1024)).to.have.length(1);
    const deletes = ['1', '2'].map((pin) => [{ command: deleteUserInfoCommand(pin), item: pin }]);
    expect(packRecordCommands('attendance', deletes, 64 * 1024).map((c) => c.items)).to.deep.equal([['1'], ['2']]);
    const unified = ['1', '2'].map((pin) => [{ command: updateBiodataCommand({ pin, type: 9, no: 0, majorVer: 58, minorVer: 0, template: TMP }), item: pin }]);
    expect(packRecordCommands('attendance', unified, 64 * 1024)).to.have.length(2);
    const zones = [1, 2].map((id) => [{ command: updateAccTimeZoneCommand({ id, slot: 0, intervals: [] }), item: id }]);
    expect(packRecordCommands('attendance', zones, 64 * 1024)).to.have.length(2);
    expect(splitRecordCommand('access', 'DATA DELETE user *')).to.equal(null);
    expect(splitRecordCommand('access', 'CONTROL DEVICE 01010105')).to.equal(null);
  });

  it("the budget is the terminal's MaxPackageSize (registry, fx 33) shared by the commands of a poll, capped; a default when unreported", () => {
    const registry = parseRegistry(loadFixture('33').body);
    expect(registry.options.MaxPackageSize).to.equal('2048000');
    expect(commandByteBudget(registry.options.MaxPackageSize, 5)).to.equal(MAX_COMMAND_BYTES);
    expect(commandByteBudget('20480', 5)).to.equal(4096);
    expect(commandByteBudget(undefined, 5)).to.equal(8192);
    expect(commandByteBudget('', 5)).to.equal(8192);
    expect(commandByteBudget('lots', 1)).to.equal(40 * 1024);
    expect(commandByteBudget('0', 5)).to.equal(8192);
  });

  it('the wire line admits LF only between the records of a multi-record DATA command', () => {
    const packed = packRecordCommands('access', [[{ command: user('1'), item: 1 }], [{ command: user('2'), item: 2 }]], 64 * 1024)[0]!.command;
    expect(formatCommandLine('a1', packed)).to.equal(`C:a1:${packed}`);
    expect(() => formatCommandLine('a1', `${user('1')}\nC:2:REBOOT`)).to.throw(RangeError);
    expect(() => formatCommandLine('a1', 'CHECK\nPin=1')).to.throw(RangeError);
    expect(() => formatCommandLine('a1', `${user('1')}\r\nPin=2`)).to.throw(RangeError);
    expect(() => formatCommandLine('a1', `${user('1')}\n`)).to.throw(RangeError);
  });
});
