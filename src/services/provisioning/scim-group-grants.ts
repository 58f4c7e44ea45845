// What directory groups grant: a mapped group's members are members of its area and holders of
// its access levels. Grants are derived, never stored apart: before a change of memberships or
// mappings the grants of the people concerned are read, after it again, and the difference is
// applied to area and access-level memberships, then to what the terminals should hold.
//
// A membership the directory did not grant (added by hand) is left alone while no group grants
// it; once a group has granted it, losing that group's membership takes it away (docs/identity.md).
import type { EntityManager } from '@mikro-orm/postgresql';
import { recomputeDeviceUsers } from '../sync/device-user.service';
import { intArray } from '../common/sql-arrays';

export interface DirectoryGrants {
  areas: Set<number>;
  levels: Set<number>;
}

export type GrantsByEmployee = Map<number, DirectoryGrants>;

/** The areas and access levels the groups of these employees grant them. */
export async function directoryGrantsOf(em: EntityManager, employeeIds: number[]): Promise<GrantsByEmployee> {
  const grants: GrantsByEmployee = new Map(employeeIds.map((id) => [id, { areas: new Set<number>(), levels: new Set<number>() }]));
  if (employeeIds.length === 0) return grants;
  const rows = await em.execute<{ employee_id: number; area_id: number | null; level_ids: number[] }[]>(
    `select m.employee_id, g.area_id, array(select l.access_level_id from scim_group_access_level l where l.group_id = g.id) as level_ids
     from scim_group_member m join scim_group g on g.id = m.group_id
     where m.employee_id = any(?::int[])`,
    [intArray(employeeIds)],
  );
  for (const row of rows) {
    const entry = grants.get(row.employee_id)!;
    if (row.area_id !== null) entry.areas.add(row.area_id);
    for (const level of row.level_ids) entry.levels.add(level);
  }
  return grants;
}

/**
 * Applies the difference between `before` (read before the change) and the grants now, for these
 * employees, and recomputes their terminals. Call inside the change's transaction, under the
 * workspace lock.
 */
export async function afterMembersChange(em: EntityManager, employeeIds: number[], before: GrantsByEmployee, now: Date): Promise<void> {
  const after = await directoryGrantsOf(em, employeeIds);
  const changed: number[] = [];
  for (const employeeId of employeeIds) {
    const was = before.get(employeeId) ?? { areas: new Set<number>(), levels: new Set<number>() };
    const is = after.get(employeeId)!;
    const addAreas = [...is.areas].filter((a) => !was.areas.has(a));
    const dropAreas = [...was.areas].filter((a) => !is.areas.has(a));
    const addLevels = [...is.levels].filter((l) => !was.levels.has(l));
    const dropLevels = [...was.levels].filter((l) => !is.levels.has(l));
    if (addAreas.length + dropAreas.length + addLevels.length + dropLevels.length === 0) continue;
    changed.push(employeeId);
    if (addAreas.length > 0) {
      await em.execute(`insert into area_employee (area_id, employee_id, created_at) select a, ?, ? from unnest(?::int[]) a on conflict do nothing`, [
        employeeId,
        now,
        intArray(addAreas),
      ]);
    }
    if (dropAreas.length > 0)
      await em.execute('delete from area_employee where employee_id = ? and area_id = any(?::int[])', [employeeId, intArray(dropAreas)]);
    if (addLevels.length > 0) {
      await em.execute(
        `insert into access_level_employee (workspace_id, access_level_id, employee_id, created_at)
         select l.workspace_id, l.id, ?, ? from access_level l where l.id = any(?::int[]) on conflict do nothing`,
        [employeeId, now, intArray(addLevels)],
      );
    }
    if (dropLevels.length > 0)
      await em.execute('delete from access_level_employee where employee_id = ? and access_level_id = any(?::int[])', [employeeId, intArray(dropLevels)]);
  }
  // The ORM's identity map may hold memberships read earlier in this transaction: the recompute reads them afresh.
  em.clear();
  await recomputeDeviceUsers(em, { employeeIds: changed }, now, 'group-mapping');
}
