// The per-person rows of the doors' opening rules (access/door-opening-rules.service.ts) on a
// controller: the `firstcard` rows of the people who may start a first-person-in, and the multi-card
// `Group` of the people a multi-person door counts. They follow the access levels' membership, so
// every sync build of the controller writes them (device-sync.service.ts), as does a rules change.
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteFirstCardCommand, updateFirstCardCommand } from '../../protocol';
import type { SentFirstCard, StoredFirstPersonIn } from '../../entities/door-opening-rules.entity';
import { DEFAULT_COMMANDS_PER_POLL, queueRecords, recordTarget } from '../commands/record-batches';
import { notifyCommandsQueued } from '../commands/command-queue-changes';
import { intArray } from '../common/sql-arrays';
import { timezoneIdsFor } from './access-sync.service';

/** The command kind of `firstcard` and `multimcard` rows (no outcome handler: the parameters' command carries the status). */
export const DOOR_OPENING_ROWS_COMMAND_KIND = 'door_opening_rows';
/** The multi-card group of the people a controller's multi-person doors count (the `user` row's `Group`; 0 is none). */
export const MULTI_CARD_GROUP = 1;

const MEMBERS = `with members as (
       select m.access_level_id, m.employee_id from access_level_employee m
       union all
       select a.access_level_id, ae.employee_id from access_level_area a join area_employee ae on ae.area_id = a.area_id)`;

/**
 * The multi-card group of each of these people on the controller: MULTI_CARD_GROUP for the members
 * (directly or by area) of the levels its multi-person doors count, 0 for the others. Read by the
 * sync build, which writes it as the `Group` of their `user` rows.
 */
export async function multiCardGroups(em: EntityManager, deviceId: number, employeeIds: number[]): Promise<Map<number, number>> {
  const groups = new Map<number, number>();
  if (employeeIds.length === 0) return groups;
  const rows = await em.execute<{ employee_id: number }[]>(
    `${MEMBERS}
     select distinct m.employee_id from members m
     where m.employee_id = any(?::int[])
       and exists (select 1 from door_opening_rules r
                   where r.device_id = ? and r.multi_person is not null and r.multi_person->'accessLevelIds' @> to_jsonb(m.access_level_id))`,
    [intArray(employeeIds), deviceId],
  );
  for (const r of rows) groups.set(r.employee_id, MULTI_CARD_GROUP);
  return groups;
}

/** The controller's people whose `user` row is written again: their multi-card group may change with the levels counted. */
export async function markGroupsChanged(em: EntityManager, deviceId: number, levelIds: number[], now: Date): Promise<void> {
  if (levelIds.length === 0) return;
  await em.execute(
    `${MEMBERS}
     update device_user du set sync_status = 'pending', return_code = null, changed_at = ?
      where du.device_id = ? and du.present and du.employee_id in (select employee_id from members where access_level_id = any(?::int[]))`,
    [now, deviceId, intArray(levelIds)],
  );
}

/** The pins on the controller that may start a door's first-person-in: members of its levels (directly or by area) that the terminal holds. */
async function firstCardPins(em: EntityManager, deviceId: number, doorId: number, rule: StoredFirstPersonIn): Promise<string[]> {
  const rows = await em.execute<{ pin: string }[]>(
    `${MEMBERS}
     select distinct du.pin from members m
       join access_level_door ld on ld.access_level_id = m.access_level_id and ld.door_id = ?
       join device_user du on du.employee_id = m.employee_id and du.device_id = ? and du.present
     where m.access_level_id = any(?::int[])
     order by du.pin`,
    [doorId, deviceId, intArray(rule.accessLevelIds)],
  );
  return rows.map((r) => r.pin);
}

interface RuleRow {
  id: number;
  door_id: number;
  door_number: number;
  first_person_in: StoredFirstPersonIn | null;
  sent_first_card: SentFirstCard | null;
}

/**
 * Brings the controller's `firstcard` rows in line with the doors' first-person-in rules and the
 * levels' members on it: rows of people who left are deleted, rows of people who joined written; a
 * new time zone (the rule's schedule changed) or `full` rewrites the door's rows. Runs in the
 * caller's transaction, under the device's sync lock: a rules write, and every sync build of the
 * controller (membership changes reach the terminal through it). Rows go in the bulk lane, after
 * the `timezone` row they name and the `user` rows of the people they list.
 */
export async function syncFirstCardRows(
  em: EntityManager,
  device: { id: number; workspaceId: number },
  now: Date,
  onlyDoorId?: number,
  full = false,
): Promise<void> {
  const rules = await em.execute<RuleRow[]>(
    `select r.id, r.door_id, d.number as door_number, r.first_person_in, r.sent_first_card
       from door_opening_rules r join door d on d.id = r.door_id
      where r.device_id = ? and (r.first_person_in is not null or r.sent_first_card is not null) ${onlyDoorId === undefined ? '' : 'and r.door_id = ?'}`,
    onlyDoorId === undefined ? [device.id] : [device.id, onlyDoorId],
  );
  if (rules.length === 0) return;
  const records: string[][] = [];
  const sent: Array<{ id: number; sent: SentFirstCard | null }> = [];
  for (const rule of rules) {
    const door = rule.door_number;
    const before = rule.sent_first_card;
    let after: SentFirstCard | null = null;
    if (rule.first_person_in) {
      const timezones = await timezoneIdsFor(em, device, [rule.first_person_in.scheduleId], now);
      after = { timezoneId: timezones.get(rule.first_person_in.scheduleId)!, pins: await firstCardPins(em, device.id, rule.door_id, rule.first_person_in) };
    }
    const commands: string[] = [];
    if (full || !after || !before || before.timezoneId !== after.timezoneId) {
      if (full || before) commands.push(deleteFirstCardCommand({ door }));
      for (const pin of after?.pins ?? []) commands.push(updateFirstCardCommand({ pin, door, timezoneId: after!.timezoneId }));
    } else {
      const had = new Set(before.pins);
      const has = new Set(after.pins);
      for (const pin of before.pins) if (!has.has(pin)) commands.push(deleteFirstCardCommand({ door, pin }));
      for (const pin of after.pins) if (!had.has(pin)) commands.push(updateFirstCardCommand({ pin, door, timezoneId: after.timezoneId }));
    }
    if (commands.length === 0) continue;
    records.push(commands);
    sent.push({ id: rule.id, sent: after });
  }
  if (records.length === 0) return;
  const target = await recordTarget(em, device.id, DEFAULT_COMMANDS_PER_POLL);
  if (!target) return;
  // One lane for every row, so a delete and a later write of the same person keep their order.
  await queueRecords(
    em,
    target,
    records.map((commands) =>
      commands.map((command) => ({ command, kind: DOOR_OPENING_ROWS_COMMAND_KIND, lane: 'bulk' as const, reference: `door_opening_rules:${device.id}` })),
    ),
    now,
  );
  await em.execute('update door_opening_rules r set sent_first_card = s.sent from jsonb_to_recordset(?::jsonb) as s(id int, sent jsonb) where r.id = s.id', [
    JSON.stringify(sent),
  ]);
  notifyCommandsQueued(em, [device.id]);
}
