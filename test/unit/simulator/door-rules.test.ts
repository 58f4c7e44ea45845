import { expect } from 'chai';
import {
  antiPassbackCode,
  deleteFirstCardCommand,
  doorRulesOptionsCommand,
  doorOpeningOptionsCommand,
  firstCardOptionCommand,
  interlockCode,
  updateMultiCardCommand,
  updateAccessUserCommand,
  updateFirstCardCommand,
  updateTimezoneCommand,
  updateUserAuthorizeCommand,
} from '../../../src/protocol';
import { SimulatedTerminal } from '../../../src/simulator';
import { executeCommand } from '../../../src/simulator/command-executor';
import { parseCommand } from '../../../src/simulator/command-parser';
import { antiPassbackMeaning, interlockMeaning } from '../../../src/simulator/door-rules';

/**
 * A controller that is never started (offline): the commands Timegate builds are executed on it as
 * its poll would, and people verify at its readers. It decides as a controller does: rights first
 * (27, 29, 23), then its door rules (24 anti-passback, 25 interlock).
 */
function controller(lockCount: number, commands: string[]): SimulatedTerminal {
  const terminal = new SimulatedTerminal({ serverUrl: 'http://127.0.0.1:9', serialNumber: `RULES${lockCount}`, family: 'acc', lockCount, enforceAccess: true });
  const ctx = { family: 'acc' as const, store: terminal.store, now: () => '2026-11-23 09:00:00', infoLines: () => [] };
  for (const text of commands) expect(executeCommand(ctx, parseCommand('1', text)).rc, text).to.equal(0);
  return terminal;
}

const person = (pin: string, doors: number[]) => [updateAccessUserCommand({ pin, name: `P${pin}` }), updateUserAuthorizeCommand({ pin, timezoneId: 1, doors })];
const at = new Date('2026-11-23T09:00:00Z');

describe('simulated controller: door rules (anti-passback, interlock)', () => {
  it('keeps the SET OPTIONS parameters it is sent', () => {
    const terminal = controller(2, [doorRulesOptionsCommand({ antiPassback: 4, interlock: 1 })]);
    expect([...terminal.store.parameters]).to.deep.equal([
      ['AntiPassback', '4'],
      ['InterLock', '1'],
    ]);
  });

  it('anti-passback between the in and out readers of a door refuses a second entry without an exit (rtlog 24)', () => {
    const value = antiPassbackCode(2, { kind: 'in_out', doors: [1] })!;
    const terminal = controller(2, [...person('5001', [1, 2]), doorRulesOptionsCommand({ antiPassback: value, interlock: 0 })]);
    const verify = (status: number) => terminal.punch({ pin: '5001', door: 1, status, at }).event;
    expect(verify(0)).to.equal(0); // in
    expect(verify(0)).to.equal(24); // in again, no exit between
    expect(verify(1)).to.equal(0); // out
    expect(verify(1)).to.equal(24); // out again
    expect(verify(0)).to.equal(0);
    // Door 2 is not under the rule; another person has their own state.
    expect(terminal.punch({ pin: '5001', door: 2, status: 0, at }).event).to.equal(0);
    expect(terminal.punch({ pin: '5001', door: 2, status: 0, at }).event).to.equal(0);
    // Rights come first: an unknown person is "not registered", not an anti-passback refusal.
    expect(terminal.punch({ pin: '9999', door: 1, status: 0, at }).event).to.equal(27);
  });

  it('anti-passback between doors: after door 1, door 1 again is refused until door 2 (4-door pairs 1|2 and 3|4)', () => {
    const value = antiPassbackCode(4, {
      kind: 'between_doors',
      pairs: [
        { entry: [1], exit: [2] },
        { entry: [3], exit: [4] },
      ],
    })!;
    expect(value).to.equal(3);
    const terminal = controller(4, [...person('7', [1, 2, 3, 4]), doorRulesOptionsCommand({ antiPassback: value, interlock: 0 })]);
    const at1 = (door: number) => terminal.punch({ pin: '7', door, at }).event;
    expect(at1(1)).to.equal(0);
    expect(at1(1)).to.equal(24);
    expect(at1(3)).to.equal(0); // the other pair keeps its own state
    expect(at1(2)).to.equal(0);
    expect(at1(2)).to.equal(24);
    expect(at1(1)).to.equal(0);
  });

  it('interlock refuses door 2 while door 1 is open (rtlog 25) and lets it open once door 1 closed', () => {
    const terminal = controller(2, [
      ...person('11', [1, 2]),
      ...person('12', [1, 2]),
      doorRulesOptionsCommand({ antiPassback: 0, interlock: interlockCode(2, [[1, 2]])! }),
    ]);
    expect(terminal.punch({ pin: '11', door: 1, at }).event).to.equal(0);
    expect(terminal.punch({ pin: '12', door: 2, at }).event).to.equal(25);
    expect(terminal.closeDoor(1).event).to.equal(201);
    expect(terminal.punch({ pin: '12', door: 2, at }).event).to.equal(0);
    expect(terminal.punch({ pin: '11', door: 1, at }).event).to.equal(25);
    // Off again: no refusals.
    const ctx = { family: 'acc' as const, store: terminal.store, now: () => '2026-11-23 09:00:00', infoLines: () => [] };
    executeCommand(ctx, parseCommand('2', doorRulesOptionsCommand({ antiPassback: 0, interlock: 0 })));
    expect(terminal.punch({ pin: '11', door: 1, at }).event).to.equal(0);
  });

  it("the controller's meaning of every value Timegate compiles matches the rule it was compiled from", () => {
    const sides = (pairs: Array<[number[], number[]]>) => pairs.map(([entry, exit]) => ({ entry, exit }));
    for (const [count, pairs] of [
      [2, [[[1], [2]]]],
      [4, [[[1], [2]]]],
      [4, [[[3], [4]]]],
      [
        4,
        [
          [[1], [2]],
          [[3], [4]],
        ],
      ],
      [
        4,
        [
          [
            [1, 2],
            [3, 4],
          ],
        ],
      ],
      [4, [[[1], [2, 3]]]],
      [4, [[[1], [2, 3, 4]]]],
    ] as Array<[number, Array<[number[], number[]]>]>) {
      expect(antiPassbackMeaning(count, antiPassbackCode(count, { kind: 'between_doors', pairs: sides(pairs) })!).between, JSON.stringify(pairs)).to.deep.equal(
        pairs,
      );
    }
    for (const [count, doors] of [
      [1, [1]],
      [2, [1]],
      [2, [2]],
      [2, [1, 2]],
      [4, [2]],
      [4, [1, 3, 4]],
    ] as Array<[number, number[]]>) {
      expect(antiPassbackMeaning(count, antiPassbackCode(count, { kind: 'in_out', doors })!).inOut).to.deep.equal(doors);
    }
    for (const [count, groups] of [
      [2, [[1, 2]]],
      [4, [[1, 2]]],
      [4, [[3, 4]]],
      [4, [[1, 2, 3]]],
      [
        4,
        [
          [1, 2],
          [3, 4],
        ],
      ],
      [4, [[1, 2, 3, 4]]],
    ] as Array<[number, number[][]]>) {
      expect(interlockMeaning(count, interlockCode(count, groups)!)).to.deep.equal(groups);
    }
  });
});

describe('simulated controller: first-person-in (firstcard, Door{N}FirstCardOpenDoor)', () => {
  // Monday 2026-11-23; time zone 2 is open 08:00–10:00 on Mondays.
  const morning = updateTimezoneCommand({ timezoneId: 2, intervals: [{ weekday: 1, startTime: '08:00', endTime: '10:00' }], holidayIntervals: [] });
  const monday = (hhmm: string) => new Date(`2026-11-23T${hhmm}:00Z`);

  it('the first valid verification of a listed person inside the time zone leaves the door open (rtlog 2); the next ones are 1; it ends with the time zone', () => {
    const terminal = controller(2, [
      morning,
      ...person('21', [1, 2]),
      ...person('22', [1, 2]),
      updateFirstCardCommand({ pin: '21', door: 1, timezoneId: 2 }),
      firstCardOptionCommand(1, 1),
    ]);
    // Before the first person: an ordinary verification opens the door for its passage only.
    expect(terminal.punch({ pin: '22', door: 1, at: monday('08:05') }).event).to.equal(0);
    expect(terminal.store.firstCardOpenDoors.size).to.equal(0);
    // The first person: the door stays open.
    expect(terminal.punch({ pin: '21', door: 1, at: monday('08:10') }).event).to.equal(2);
    expect(terminal.store.firstCardOpenDoors.get(1)).to.equal('2');
    expect(terminal.punch({ pin: '22', door: 1, at: monday('08:20') }).event).to.equal(1);
    // Another door is not concerned, and rights still come first.
    expect(terminal.punch({ pin: '21', door: 2, at: monday('08:20') }).event).to.equal(0);
    expect(terminal.punch({ pin: '9999', door: 1, at: monday('08:20') }).event).to.equal(27);
    // After the time zone the period is over: ordinary openings again.
    expect(terminal.punch({ pin: '22', door: 1, at: monday('10:30') }).event).to.equal(0);
    expect(terminal.store.firstCardOpenDoors.size).to.equal(0);
    // Outside the time zone the first person does not start it either.
    expect(terminal.punch({ pin: '21', door: 1, at: monday('10:31') }).event).to.equal(0);
  });

  it('does nothing while the door parameter is off, or for a person without a row; rows are deleted by door or by person', () => {
    const terminal = controller(1, [morning, ...person('31', [1]), updateFirstCardCommand({ pin: '31', door: 1, timezoneId: 2 })]);
    expect(terminal.punch({ pin: '31', door: 1, at: monday('08:10') }).event).to.equal(0);
    const ctx = { family: 'acc' as const, store: terminal.store, now: () => '2026-11-23 09:00:00', infoLines: () => [] };
    executeCommand(ctx, parseCommand('2', firstCardOptionCommand(1, 1)));
    executeCommand(ctx, parseCommand('3', deleteFirstCardCommand({ door: 1, pin: '31' })));
    expect(terminal.store.firstCards.size).to.equal(0);
    expect(terminal.punch({ pin: '31', door: 1, at: monday('08:11') }).event).to.equal(0);
    executeCommand(ctx, parseCommand('4', updateFirstCardCommand({ pin: '31', door: 1, timezoneId: 2 })));
    executeCommand(ctx, parseCommand('5', deleteFirstCardCommand({ door: 1 })));
    expect(terminal.store.firstCards.size).to.equal(0);
  });
});

describe('simulated controller: the multi-person rule (multimcard, user Group, Door{N}MultiCardOpenDoor)', () => {
  const member = (pin: string, group: number) => [
    updateAccessUserCommand({ pin, name: `P${pin}`, group }),
    updateUserAuthorizeCommand({ pin, timezoneId: 1, doors: [1, 2] }),
  ];
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 23, 9, 0, seconds));

  it('the first verification waits (rtlog 26), the second opens the door (rtlog 3); the other door is not concerned', () => {
    const terminal = controller(2, [
      ...member('41', 1),
      ...member('42', 1),
      updateMultiCardCommand({ index: 1, door: 1, groups: [1, 1] }),
      doorOpeningOptionsCommand(1, { firstCard: 0, multiCard: 1 }),
    ]);
    expect(terminal.punch({ pin: '41', door: 1, at: at(0) }).event).to.equal(26);
    expect(terminal.punch({ pin: '42', door: 1, at: at(4) }).event).to.equal(3);
    // Used up: the next pair starts again.
    expect(terminal.punch({ pin: '42', door: 1, at: at(6) }).event).to.equal(26);
    expect(terminal.punch({ pin: '41', door: 2, at: at(6) }).event).to.equal(0);
  });

  it("counts a person once, forgets verifications older than the controller's interval, and never counts a person outside the groups", () => {
    const terminal = controller(1, [
      ...member('51', 1),
      ...member('52', 1),
      ...member('53', 0),
      updateMultiCardCommand({ index: 1, door: 1, groups: [1, 1] }),
      doorOpeningOptionsCommand(1, { firstCard: 0, multiCard: 1 }),
    ]);
    expect(terminal.punch({ pin: '51', door: 1, at: at(0) }).event).to.equal(26);
    expect(terminal.punch({ pin: '51', door: 1, at: at(1) }).event).to.equal(26); // the same person again
    expect(terminal.punch({ pin: '53', door: 1, at: at(2) }).event).to.equal(26); // no group: not counted
    expect(terminal.punch({ pin: '52', door: 1, at: at(30) }).event).to.equal(26); // 51 is too old now
    expect(terminal.punch({ pin: '51', door: 1, at: at(35) }).event).to.equal(3);
    // Three people needed: two are not enough.
    const ctx = { family: 'acc' as const, store: terminal.store, now: () => '2026-11-23 09:00:00', infoLines: () => [] };
    executeCommand(ctx, parseCommand('9', updateMultiCardCommand({ index: 1, door: 1, groups: [1, 1, 1] })));
    executeCommand(ctx, parseCommand('10', updateAccessUserCommand({ pin: '53', name: 'P53', group: 1 })));
    expect(terminal.punch({ pin: '51', door: 1, at: at(40) }).event).to.equal(26);
    expect(terminal.punch({ pin: '52', door: 1, at: at(41) }).event).to.equal(26);
    expect(terminal.punch({ pin: '53', door: 1, at: at(42) }).event).to.equal(3);
  });
});
