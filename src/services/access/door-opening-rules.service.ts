// Rules that decide when one door of an access controller opens:
// * first-person-in ("first-card normal open": inside a schedule, the door stays open after the
//   first valid verification of a member of chosen access levels), compiled to the controller's
//   `firstcard` table (one row per person who may start it, with the schedule's time zone on that
//   controller) and the door's `Door{N}FirstCardOpenDoor` parameter;
// * the multi-person rule (the door opens once N members of chosen levels have verified within the
//   controller's interval), compiled to one `multimcard` combination per door (N people of
//   multi-card group 1), the `Group` of the members' `user` rows, and `Door{N}MultiCardOpenDoor`.
// Set per door through the API; the controller then decides by itself, also while it cannot reach
// Timegate. The per-person parts follow the levels' membership: every sync build of the controller
// brings the `firstcard` rows in line and writes each user's group (sync/opening-rule-rows.ts). docs/access-control.md, "Door rules".
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  deleteMultiCardCommand,
  doorOpeningOptionsCommand,
  FIRST_CARD_MODE,
  MAX_MULTI_CARD_PEOPLE,
  MAX_PARAMETER_DOOR,
  updateMultiCardCommand,
} from '../../protocol';
import { AccessLevel, AccessSchedule, Device, Door } from '../../entities';
import { DeviceMode } from '../../entities/device.entity';
import { DoorOpeningRules, type StoredFirstPersonIn, type StoredMultiPerson } from '../../entities/door-opening-rules.entity';
import { DomainError } from '../../errors/domain-error';
import { LOCK_SPACES } from '../../kernel/lock-keys';
import { enqueueCommand } from '../commands/command-queue';
import { DEFAULT_COMMANDS_PER_POLL, queueRecords, recordTarget } from '../commands/record-batches';
import { requireScopeFor, withEm, workspaceOf, type RequestContext } from '../../context/request-context';
import { intArray } from '../common/sql-arrays';
import { FieldChecker } from '../common/validation';
import { releaseUnusedSchedules } from '../sync/access-sync.service';
import { DOOR_OPENING_ROWS_COMMAND_KIND, markGroupsChanged, MULTI_CARD_GROUP, syncFirstCardRows } from '../sync/opening-rule-rows';
import { doorCountOf } from './door.service';
import { doorRuleSupport } from './door-rule-support';

/** The command kind of a door's `SET OPTIONS` (its outcome handler is `mirrorDoorOpeningRules`). */
export const DOOR_OPENING_RULES_COMMAND_KIND = 'door_opening_rules';
/** Access levels one first-person-in may name. */
const MAX_LEVELS = 20;

export interface DoorOpeningRulesInput {
  /** null or absent: off. */
  firstPersonIn?: { scheduleId?: number | null; accessLevelIds?: number[] | null } | null;
  /** null or absent: off. */
  multiPerson?: { count?: number | null; accessLevelIds?: number[] | null } | null;
}

export interface DoorOpeningRulesView {
  doorId: number;
  deviceId: number;
  firstPersonIn: StoredFirstPersonIn | null;
  /** The `Door{N}FirstCardOpenDoor` value written (0 off). */
  firstCardValue: number;
  /** `firstcard` rows the controller holds for the door (people who may start it). */
  firstCardRows: number;
  multiPerson: StoredMultiPerson | null;
  /** The `Door{N}MultiCardOpenDoor` value written (0 off). */
  multiCardValue: number;
  /** `none` (never set), `pending`, `applied`, `failed`. */
  deliveryStatus: string;
  deliveryReturnCode: number | null;
  updatedAt: Date | null;
}

function view(door: { id: number; deviceId: number }, rules: DoorOpeningRules | null): DoorOpeningRulesView {
  return {
    doorId: door.id,
    deviceId: door.deviceId,
    firstPersonIn: rules?.firstPersonIn ?? null,
    firstCardValue: rules?.firstCardValue ?? 0,
    firstCardRows: rules?.sentFirstCard?.pins.length ?? 0,
    multiPerson: rules?.multiPerson ?? null,
    multiCardValue: rules?.multiCardValue ?? 0,
    deliveryStatus: rules?.deliveryStatus ?? 'none',
    deliveryReturnCode: rules?.deliveryReturnCode ?? null,
    updatedAt: rules?.updatedAt ?? null,
  };
}

async function doorOf(ctx: RequestContext, doorId: number, em: EntityManager = ctx.em): Promise<Door> {
  const door = await em.findOne(Door, { id: doorId, workspaceId: workspaceOf(ctx) }, { disableIdentityMap: true });
  if (!door) throw DomainError.notFound('Door', doorId);
  return door;
}

/** `GET /public/v2/doors/{id}/opening_rules`: the door's rules (all off when never set). */
export async function getDoorOpeningRules(ctx: RequestContext, doorId: number): Promise<DoorOpeningRulesView> {
  const door = await doorOf(ctx, doorId);
  return view(door, await ctx.em.findOne(DoorOpeningRules, { doorId }, { disableIdentityMap: true }));
}

/** What a door's settings show: its first-person-in, its multi-person rule and the delivery of its opening rules. */
export async function openingRulesOf(
  ctx: RequestContext,
  door: { id: number; deviceId: number },
): Promise<{ firstPersonIn: StoredFirstPersonIn | null; multiPerson: StoredMultiPerson | null; openingDeliveryStatus: string }> {
  const rules = await ctx.em.findOne(DoorOpeningRules, { doorId: door.id, workspaceId: workspaceOf(ctx) }, { disableIdentityMap: true });
  return { firstPersonIn: rules?.firstPersonIn ?? null, multiPerson: rules?.multiPerson ?? null, openingDeliveryStatus: rules?.deliveryStatus ?? 'none' };
}

/** Why this door cannot hold an opening rule (family, presence, the door parameters' range), or null. */
function unsupported(device: Device, door: Door, rule: string): [string, string] | null {
  const count = doorCountOf(device);
  if (!doorRuleSupport(device.modeType, count).firstPersonIn) {
    const family =
      device.modeType === DeviceMode.acc
        ? `a ${count}-door controller (the door parameters name doors 1 to ${MAX_PARAMETER_DOOR})`
        : 'an attendance terminal (PUSH 2.x has no firstcard or multimcard table)';
    return ['unsupported_by_device', `${rule} is not enforced by ${family}.`];
  }
  if (!door.present) return ['door_absent', `Door ${door.number} is absent: the controller reports fewer locks (LockCount).`];
  if (door.number > MAX_PARAMETER_DOOR)
    return ['unsupported_by_device', `Door ${door.number}: the controller's door parameters name doors 1 to ${MAX_PARAMETER_DOOR}.`];
  return null;
}

/** The levels of a rule: present, of the terminal's company, each opening the door. Problems go to `check` under `field`. */
async function checkLevels(em: EntityManager, check: FieldChecker, field: string, levelIds: number[], device: Device, door: Door): Promise<void> {
  if (levelIds.length === 0) return;
  const levels = new Map(
    (await em.find(AccessLevel, { id: { $in: levelIds }, workspaceId: device.workspaceId }, { disableIdentityMap: true })).map((l) => [l.id, l]),
  );
  const withDoor = new Set(
    (
      await em.execute<{ access_level_id: number }[]>('select access_level_id from access_level_door where door_id = ? and access_level_id = any(?::int[])', [
        door.id,
        intArray(levelIds),
      ])
    ).map((r) => r.access_level_id),
  );
  levelIds.forEach((id, i) => {
    const item = `${field}.${i}`;
    const level = levels.get(id);
    if (!level) check.add(item, 'not_found', `Access level ${id} does not exist in this workspace.`);
    else if (level.companyId !== device.companyId)
      check.add(item, 'company_mismatch', `Access level ${id} belongs to another company than the door's terminal.`);
    // The controller counts only whom the door admits: a level without the door gives no one the right.
    else if (!withDoor.has(id)) check.add(item, 'door_not_in_level', `Access level ${id} does not open door ${door.id}; add the door to the level first.`);
  });
}

/** The shape of a rule's level list: 1 to MAX_LEVELS, each once. */
function checkLevelList(check: FieldChecker, field: string, levelIds: number[]): void {
  if (levelIds.length === 0) check.add(field, 'required', 'access_level_ids needs at least one access level.');
  else if (levelIds.length > MAX_LEVELS) check.add(field, 'too_many_items', `access_level_ids may name at most ${MAX_LEVELS} levels.`);
  if (new Set(levelIds).size !== levelIds.length) check.add(field, 'duplicate', 'access_level_ids names a level twice.');
}

const levelKey = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b).join(',');

/** Checks both rules against the door, its controller, its company and the controller's other doors; the stored rules (null: off). */
async function checkRules(
  em: EntityManager,
  input: DoorOpeningRulesInput,
  device: Device,
  door: Door,
): Promise<{ firstPersonIn: StoredFirstPersonIn | null; multiPerson: StoredMultiPerson | null }> {
  const fpi = input.firstPersonIn;
  const multi = input.multiPerson;
  const check = new FieldChecker();
  if (fpi) {
    const why = unsupported(device, door, 'First-person-in');
    if (why) check.add('first_person_in', ...why);
    if (fpi.scheduleId == null) check.add('first_person_in.schedule_id', 'required', 'schedule_id is required: the schedule inside which the door stays open.');
    checkLevelList(check, 'first_person_in.access_level_ids', fpi.accessLevelIds ?? []);
  }
  if (multi) {
    const why = unsupported(device, door, 'The multi-person rule');
    if (why) check.add('multi_person', ...why);
    if (multi.count == null) check.add('multi_person.count', 'required', 'count is required: how many people must verify.');
    else if (!Number.isInteger(multi.count) || multi.count < 2 || multi.count > MAX_MULTI_CARD_PEOPLE)
      check.add('multi_person.count', 'out_of_range', `count must be an integer from 2 to ${MAX_MULTI_CARD_PEOPLE} (a combination of the multimcard table).`);
    checkLevelList(check, 'multi_person.access_level_ids', multi.accessLevelIds ?? []);
    if (fpi)
      check.add(
        'multi_person',
        'unsupported_combination',
        'A door opens either normally open after its first person or after several people: not both (its first-card and multi-card modes exclude each other).',
      );
  }
  check.done();

  if (fpi) {
    const schedule = await em.findOne(AccessSchedule, { id: fpi.scheduleId!, workspaceId: device.workspaceId }, { disableIdentityMap: true });
    if (!schedule) check.add('first_person_in.schedule_id', 'not_found', `Access schedule ${fpi.scheduleId} does not exist in this workspace.`);
    else if (schedule.companyId !== device.companyId)
      check.add('first_person_in.schedule_id', 'company_mismatch', `Schedule ${schedule.id} belongs to another company than the door's terminal.`);
    await checkLevels(em, check, 'first_person_in.access_level_ids', fpi.accessLevelIds!, device, door);
  }
  if (multi) {
    await checkLevels(em, check, 'multi_person.access_level_ids', multi.accessLevelIds!, device, door);
    // A person has one multi-card group on a controller (the `Group` of their user row): every
    // multi-person door of the controller counts the members of the same levels.
    const others = await em.find(DoorOpeningRules, { deviceId: device.id, doorId: { $ne: door.id }, multiPerson: { $ne: null } }, { disableIdentityMap: true });
    const clash = others.find((r) => levelKey(r.multiPerson!.accessLevelIds) !== levelKey(multi.accessLevelIds!));
    if (clash)
      check.add(
        'multi_person.access_level_ids',
        'unsupported_combination',
        `A person has one multi-card group on a controller (the user row's Group): its multi-person doors name the same levels, and door ${clash.doorId} names ${clash.multiPerson!.accessLevelIds.join(', ')}.`,
      );
  }
  check.done();
  return {
    firstPersonIn: fpi ? { scheduleId: fpi.scheduleId!, accessLevelIds: [...fpi.accessLevelIds!] } : null,
    multiPerson: multi ? { count: multi.count!, accessLevelIds: [...multi.accessLevelIds!] } : null,
  };
}

/**
 * `PUT /public/v2/doors/{id}/opening_rules`: sets the door's opening rules (absent or null: off).
 * On an access controller it writes the door's `firstcard` rows again (its time zone first, when
 * the controller does not hold the schedule yet) and its `multimcard` combination, marks the people
 * whose multi-card group changes for a new `user` row, and queues `SET OPTIONS
 * Door{N}FirstCardOpenDoor=…,Door{N}MultiCardOpenDoor=…` in the interactive lane, in one transaction
 * that holds the controller's sync lock, so a sync build cannot interleave its own rows. Input the
 * terminal cannot enforce is refused and changes nothing.
 */
export async function setDoorOpeningRules(ctx: RequestContext, doorId: number, input: DoorOpeningRulesInput): Promise<DoorOpeningRulesView> {
  return ctx.em.transactional(async (em) => {
    const txCtx = withEm(ctx, em);
    const door = await doorOf(ctx, doorId, em);
    const device = await em.findOneOrFail(Device, { id: door.deviceId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    await em.execute('select pg_advisory_xact_lock(?, ?)', [LOCK_SPACES.deviceSync, device.id]);
    const { firstPersonIn, multiPerson } = await checkRules(em, input, device, door);
    let rules = await em.findOne(DoorOpeningRules, { doorId });
    if (!rules) {
      rules = em.create(DoorOpeningRules, { workspaceId: device.workspaceId, deviceId: device.id, doorId } as DoorOpeningRules);
      em.persist(rules);
    }
    // First-person-in holds the door open for the rest of its schedule: setting, changing or ending
    // it does what a hold_open does, so it needs doors:unlock besides doors:manage.
    const before = rules.firstPersonIn ?? null;
    const sameFirstPersonIn =
      before === null || firstPersonIn === null
        ? before === firstPersonIn
        : before.scheduleId === firstPersonIn.scheduleId && levelKey(before.accessLevelIds) === levelKey(firstPersonIn.accessLevelIds);
    if (!sameFirstPersonIn) {
      requireScopeFor(ctx, 'doors:unlock', `First-person-in holds door ${doorId} open for the rest of its schedule`);
    }
    const counted = rules.multiPerson?.accessLevelIds ?? [];
    Object.assign(rules, {
      firstPersonIn,
      firstCardValue: firstPersonIn ? FIRST_CARD_MODE.normalOpen : FIRST_CARD_MODE.off,
      multiPerson,
      multiCardValue: multiPerson ? 1 : 0,
      deliveryStatus: 'pending',
      deliveryReturnCode: null,
    });
    await em.flush();
    const now = ctx.now();
    if (device.modeType === DeviceMode.acc && door.number <= MAX_PARAMETER_DOOR) {
      await syncFirstCardRows(em, device, now, doorId, true);
      const target = await recordTarget(em, device.id, DEFAULT_COMMANDS_PER_POLL);
      const combination = [deleteMultiCardCommand(door.number)];
      if (multiPerson)
        combination.push(updateMultiCardCommand({ index: door.number, door: door.number, groups: Array(multiPerson.count).fill(MULTI_CARD_GROUP) }));
      await queueRecords(
        em,
        target!,
        [combination.map((command) => ({ command, kind: DOOR_OPENING_ROWS_COMMAND_KIND, lane: 'bulk' as const, reference: `door_opening_rules:${doorId}` }))],
        now,
      );
      // The people counted before or now get their user row again, with their group.
      if (levelKey(counted) !== levelKey(multiPerson?.accessLevelIds ?? []))
        await markGroupsChanged(em, device.id, [...counted, ...(multiPerson?.accessLevelIds ?? [])], now);
      const queued = await enqueueCommand(txCtx, {
        workspaceId: device.workspaceId,
        deviceId: device.id,
        kind: DOOR_OPENING_RULES_COMMAND_KIND,
        command: doorOpeningOptionsCommand(door.number, { firstCard: rules.firstCardValue, multiCard: rules.multiCardValue }),
        lane: 'interactive',
        reference: `door_opening_rules:${doorId}`,
      });
      // The previous schedule's time zone goes when nothing else on the controller uses it.
      await releaseUnusedSchedules(em, device, now);
      await em.refresh(rules);
      rules.commandRowId = queued.id;
    } else {
      // Nothing to write to a terminal that cannot hold the rules and is asked for none.
      rules.deliveryStatus = 'applied';
    }
    await em.flush();
    return view(door, rules);
  });
}

/**
 * Outcome handler of `door_opening_rules` commands: the door whose latest command changed shows
 * `applied` (Return ≥ 0) or `failed` (refused, no answer, expired). Runs in the queue's transaction.
 */
export async function mirrorDoorOpeningRules(ctx: RequestContext, commandIds: number[]): Promise<void> {
  await ctx.em.execute(
    `update door_opening_rules r
        set delivery_status = case when c.status = 'succeeded' then 'applied' when c.status in ('failed', 'expired') then 'failed' else 'pending' end,
            delivery_return_code = c.return_code
       from device_command c
      where c.id = any(?::int[]) and r.command_row_id = c.id`,
    [intArray(commandIds)],
  );
}

/** Door opening rules that name this schedule or level: what keeps them from being deleted. */
export async function openingRulesUsing(em: EntityManager, ref: { scheduleId?: number; accessLevelId?: number }): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from door_opening_rules
      where (?::int is not null and (first_person_in->>'scheduleId')::int = ?::int)
         or (?::int is not null and (first_person_in->'accessLevelIds' @> to_jsonb(?::int) or multi_person->'accessLevelIds' @> to_jsonb(?::int)))`,
    [ref.scheduleId ?? null, ref.scheduleId ?? null, ref.accessLevelId ?? null, ref.accessLevelId ?? null, ref.accessLevelId ?? null],
  );
  return row!.n;
}
