// Which door rules a terminal can enforce itself. Anti-passback and interlock are parameters of the
// vendor's access controllers (PUSH 3.x, `AntiPassback` and `InterLock`), each a value from a list
// per door count (1, 2 or 4 doors; protocol/door-rules.ts). First-person-in is the
// controller's `firstcard` table with each door's `Door{N}FirstCardOpenDoor` parameter, the
// multi-person rule its `multimcard` table with `Door{N}MultiCardOpenDoor`; the parameter list names
// them for doors 1 to 4 (protocol/door-opening-rules.ts). Attendance
// terminals (PUSH 2.x) have none of them, and a controller reporting another door count has no list.
import { MAX_PARAMETER_DOOR } from '../../protocol';
import { DeviceMode } from '../../entities/device.entity';

export interface DoorRuleSupport {
  antiPassback: boolean;
  interlock: boolean;
  firstPersonIn: boolean;
  multiPerson: boolean;
}

/** What the terminal of this family and door count enforces. Interlock needs two doors at least. */
export function doorRuleSupport(modeType: string, doors: number): DoorRuleSupport {
  const controller = modeType === DeviceMode.acc;
  return {
    antiPassback: controller && [1, 2, 4].includes(doors),
    interlock: controller && [2, 4].includes(doors),
    firstPersonIn: controller && doors >= 1 && doors <= MAX_PARAMETER_DOOR,
    multiPerson: controller && doors >= 1 && doors <= MAX_PARAMETER_DOOR,
  };
}
