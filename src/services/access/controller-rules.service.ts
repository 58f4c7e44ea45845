// Door rules an access controller enforces itself, across its doors: anti-passback (a person must
// alternate entry and exit, per door between its in and out readers, or between doors) and
// interlock (of a group of doors, only one open at a time). Set per controller through the API,
// compiled to the controller's `AntiPassback` and `InterLock` parameters and written with one
// `SET OPTIONS` through the command queue; the controller then refuses by itself (rtlog 24
// anti-passback, 25 interlock), also while it cannot reach Timegate. docs/access-control.md, "Door rules".
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { antiPassbackCode, doorRuleCombinations, doorRulesOptionsCommand, interlockCode, type AntiPassbackRule } from '../../protocol';
import { Device, Door } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { DeviceDoorRules, type StoredAntiPassback } from '../../entities/device-door-rules.entity';
import { DomainError } from '../../errors/domain-error';
import { enqueueCommand } from '../commands/command-queue';
import { withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import { doorCountOf } from './door.service';
import { intArray } from '../common/sql-arrays';
import { FieldChecker } from '../common/validation';
import { doorRuleSupport } from './door-rule-support';

/** The command kind of a rules write (its outcome handler is `mirrorControllerRules`). */
export const CONTROLLER_RULES_COMMAND_KIND = 'controller_rules';

export interface AntiPassbackInput {
  type?: string | null;
  mode?: string | null;
  dailyReset?: boolean | null;
  doorIds?: number[] | null;
  pairs?: Array<{ entryDoorIds?: number[] | null; exitDoorIds?: number[] | null }> | null;
}

export interface ControllerRulesInput {
  /** null or absent: off. */
  antiPassback?: AntiPassbackInput | null;
  /** null, absent or no groups: none. */
  interlock?: { groups?: number[][] | null } | null;
}

export interface ControllerRulesView {
  deviceId: number;
  antiPassback: StoredAntiPassback | null;
  interlock: { groups: number[][] } | null;
  /** The parameter values written to the controller. */
  antiPassbackValue: number;
  interlockValue: number;
  /** `none` (never set), `pending`, `applied`, `failed`. */
  deliveryStatus: string;
  deliveryReturnCode: number | null;
  updatedAt: Date | null;
}

const ANTI_PASSBACK_TYPES = ['in_out', 'between_doors'];

function view(deviceId: number, rules: DeviceDoorRules | null): ControllerRulesView {
  return {
    deviceId,
    antiPassback: rules?.antiPassback ?? null,
    interlock: rules?.interlock ?? null,
    antiPassbackValue: rules?.antiPassbackValue ?? 0,
    interlockValue: rules?.interlockValue ?? 0,
    deliveryStatus: rules?.deliveryStatus ?? 'none',
    deliveryReturnCode: rules?.deliveryReturnCode ?? null,
    updatedAt: rules?.updatedAt ?? null,
  };
}

async function deviceOf(ctx: RequestContext, deviceId: number, em: EntityManager = ctx.em, lock = false): Promise<Device> {
  const device = await em.findOne(
    Device,
    { id: deviceId, workspaceId: workspaceOf(ctx) },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : { disableIdentityMap: true },
  );
  if (!device) throw DomainError.notFound('Device', deviceId);
  return device;
}

/** `GET /public/v2/devices/{id}/door_rules`: the controller's rules (all off when never set). */
export async function getControllerRules(ctx: RequestContext, deviceId: number): Promise<ControllerRulesView> {
  await deviceOf(ctx, deviceId);
  const rules = await ctx.em.findOne(DeviceDoorRules, { deviceId }, { disableIdentityMap: true });
  return view(deviceId, rules);
}

/** What a door's settings show of its controller's rules: the anti-passback involving it, its interlock group. */
export async function doorRulesOf(
  ctx: RequestContext,
  door: { id: number; deviceId: number },
): Promise<{ antiPassback: StoredAntiPassback | null; interlockGroup: number[] | null; deliveryStatus: string }> {
  const rules = await ctx.em.findOne(DeviceDoorRules, { deviceId: door.deviceId, workspaceId: workspaceOf(ctx) }, { disableIdentityMap: true });
  const ap = rules?.antiPassback ?? null;
  const involved = ap !== null && (ap.doorIds ?? []).concat(...(ap.pairs ?? []).map((p) => [...p.entryDoorIds, ...p.exitDoorIds])).includes(door.id);
  return {
    antiPassback: involved ? ap : null,
    interlockGroup: rules?.interlock?.groups.find((g) => g.includes(door.id)) ?? null,
    deliveryStatus: rules?.deliveryStatus ?? 'none',
  };
}

/** Door ids -> door numbers on this controller; problems reported on `field`. */
function numbersOf(check: FieldChecker, field: string, ids: readonly number[] | null | undefined, doors: Map<number, Door>): number[] {
  if (!ids || ids.length === 0) {
    check.add(field, 'required', `${field} needs at least one door.`);
    return [];
  }
  const numbers: number[] = [];
  for (const id of ids) {
    const door = doors.get(id);
    if (!door) check.add(field, 'not_on_device', `Door ${id} is not a door of this controller.`);
    else if (!door.present) check.add(field, 'door_absent', `Door ${id} is absent: the controller reports fewer locks (LockCount).`);
    else numbers.push(door.number);
  }
  if (new Set(ids).size !== ids.length) check.add(field, 'duplicate', `${field} names a door twice.`);
  return numbers;
}

interface Compiled {
  antiPassback: StoredAntiPassback | null;
  interlock: { groups: number[][] } | null;
  antiPassbackValue: number;
  interlockValue: number;
}

/** Checks the input against the controller (family, door count, its doors) and compiles the parameter values. */
function compile(input: ControllerRulesInput, device: Device, doors: Map<number, Door>): Compiled {
  const check = new FieldChecker();
  const count = doorCountOf(device);
  const support = doorRuleSupport(device.modeType, count);
  const combinations = doorRuleCombinations(count);
  const family = device.modeType === DeviceMode.acc ? `a ${count}-door controller` : 'an attendance terminal (PUSH 2.x has no such parameter)';
  let antiPassback: StoredAntiPassback | null = null;
  let antiPassbackValue = 0;
  const ap = input.antiPassback;
  if (ap) {
    if (!support.antiPassback) check.add('anti_passback', 'unsupported_by_device', `Anti-passback is not enforced by ${family}.`);
    else if (!ANTI_PASSBACK_TYPES.includes(ap.type ?? ''))
      check.add('anti_passback.type', 'invalid_value', `type must be one of ${ANTI_PASSBACK_TYPES.join(', ')}.`);
    else {
      // The controller refuses a second passage in the same direction (hard) and keeps the state until
      // the opposite passage: its parameters have no soft (log only) mode and no timed reset.
      if ((ap.mode ?? 'hard') !== 'hard') {
        check.add(
          'anti_passback.mode',
          ap.mode === 'soft' ? 'unsupported_by_device' : 'invalid_value',
          'mode must be hard: the controllers enforce anti-passback by refusing (rtlog 24); a soft (log only) mode is not a controller parameter.',
        );
      }
      if (ap.dailyReset)
        check.add(
          'anti_passback.daily_reset',
          'unsupported_by_device',
          'The controllers keep the anti-passback state until the opposite passage; a daily reset is not a controller parameter.',
        );
      let rule: AntiPassbackRule;
      if (ap.type === 'in_out') {
        if (ap.pairs?.length) check.add('anti_passback.pairs', 'not_allowed', 'pairs apply to between_doors.');
        rule = { kind: 'in_out', doors: numbersOf(check, 'anti_passback.door_ids', ap.doorIds, doors) };
        antiPassback = { type: 'in_out', mode: 'hard', dailyReset: false, doorIds: [...new Set(ap.doorIds ?? [])] };
      } else {
        if (ap.doorIds?.length) check.add('anti_passback.door_ids', 'not_allowed', 'door_ids apply to in_out; between_doors takes pairs.');
        if (!ap.pairs?.length) check.add('anti_passback.pairs', 'required', 'between_doors needs pairs of entry and exit doors.');
        const pairs = (ap.pairs ?? []).map((p, i) => ({
          entry: numbersOf(check, `anti_passback.pairs.${i}.entry_door_ids`, p.entryDoorIds, doors),
          exit: numbersOf(check, `anti_passback.pairs.${i}.exit_door_ids`, p.exitDoorIds, doors),
        }));
        rule = { kind: 'between_doors', pairs };
        antiPassback = {
          type: 'between_doors',
          mode: 'hard',
          dailyReset: false,
          pairs: (ap.pairs ?? []).map((p) => ({ entryDoorIds: p.entryDoorIds ?? [], exitDoorIds: p.exitDoorIds ?? [] })),
        };
      }
      check.done();
      const value = antiPassbackCode(count, rule);
      if (value === null) {
        const offered = ap.type === 'in_out' ? combinations.antiPassbackInOut : combinations.antiPassbackBetweenDoors.join('; ') || 'none';
        check.add(
          'anti_passback',
          'unsupported_combination',
          `A ${count}-door controller has no anti-passback setting for these doors; by door number it takes: ${offered}.`,
        );
      } else antiPassbackValue = value;
    }
  }
  let interlock: { groups: number[][] } | null = null;
  let interlockValue = 0;
  const groups = input.interlock?.groups ?? [];
  if (groups.length > 0) {
    if (!support.interlock) check.add('interlock', 'unsupported_by_device', `Interlock is not enforced by ${family}.`);
    else {
      const numbered = groups.map((g, i) => numbersOf(check, `interlock.groups.${i}`, g, doors));
      const all = groups.flat();
      if (new Set(all).size !== all.length) check.add('interlock.groups', 'overlapping', 'A door belongs to one interlock group at most.');
      if (groups.some((g) => g.length < 2)) check.add('interlock.groups', 'too_few_doors', 'An interlock group has two doors at least.');
      check.done();
      const value = interlockCode(count, numbered);
      if (value === null)
        check.add(
          'interlock.groups',
          'unsupported_combination',
          `A ${count}-door controller has no interlock setting for these groups; by door number it takes: ${combinations.interlock.join('; ')}.`,
        );
      else {
        interlockValue = value;
        interlock = { groups: groups.map((g) => [...g]) };
      }
    }
  }
  check.done();
  return { antiPassback, interlock, antiPassbackValue, interlockValue };
}

/**
 * `PUT /public/v2/devices/{id}/door_rules`: sets both rules (an absent or null rule is off), and
 * queues `SET OPTIONS AntiPassback=<n>,InterLock=<m>` in the interactive lane, in one transaction
 * that holds the device row, so two writes reach the controller in the order they were made.
 * Input the controller cannot enforce is refused and changes nothing.
 */
export async function setControllerRules(ctx: RequestContext, deviceId: number, input: ControllerRulesInput): Promise<ControllerRulesView> {
  return ctx.em.transactional(async (em) => {
    const txCtx = withEm(ctx, em);
    const device = await deviceOf(ctx, deviceId, em, true);
    const doors = new Map((await em.find(Door, { deviceId }, { disableIdentityMap: true })).map((d) => [d.id, d]));
    const compiled = compile(input, device, doors);
    let rules = await em.findOne(DeviceDoorRules, { deviceId });
    if (!rules) {
      rules = em.create(DeviceDoorRules, { workspaceId: device.workspaceId, deviceId } as DeviceDoorRules);
      em.persist(rules);
    }
    Object.assign(rules, compiled, { deliveryStatus: 'pending', deliveryReturnCode: null });
    // Nothing to write to a terminal that has never enforced a rule and is asked for none.
    if (device.modeType === DeviceMode.acc) {
      const queued = await enqueueCommand(txCtx, {
        workspaceId: device.workspaceId,
        deviceId,
        kind: CONTROLLER_RULES_COMMAND_KIND,
        command: doorRulesOptionsCommand({ antiPassback: compiled.antiPassbackValue, interlock: compiled.interlockValue }),
        lane: 'interactive',
        reference: `controller_rules:${deviceId}`,
      });
      rules.commandRowId = queued.id;
    } else {
      rules.deliveryStatus = 'applied';
    }
    await em.flush();
    return view(deviceId, rules);
  });
}

/**
 * Outcome handler of `controller_rules` commands: the rules row whose latest command changed shows
 * `applied` (Return ≥ 0) or `failed` (refused, no answer, expired). Runs in the queue's transaction.
 */
export async function mirrorControllerRules(ctx: RequestContext, commandIds: number[]): Promise<void> {
  await ctx.em.execute(
    `update device_door_rules r
        set delivery_status = case when c.status = 'succeeded' then 'applied' when c.status in ('failed', 'expired') then 'failed' else 'pending' end,
            delivery_return_code = c.return_code
       from device_command c
      where c.id = any(?::int[]) and r.command_row_id = c.id`,
    [intArray(commandIds)],
  );
}
