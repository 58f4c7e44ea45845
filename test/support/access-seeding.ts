// Access rights seeded through the GraphQL API, and waiting for a (simulated) controller to hold them.
import type { SimulatedTerminal } from '../../src/simulator';
import { gqlData } from './http';
import { waitUntil } from './wait-until';

export interface DoorGrant {
  /** The access level created. */
  level: { id: number };
  /** The company's built-in at-all-hours schedule the level uses. */
  schedule: { id: number; name: string };
}

/** An access level named `levelName` opening `doorIds` at all hours (the built-in schedule), with `employeeIds` as members. */
export async function grantDoorsAtAllHours(
  baseUrl: string,
  key: string,
  companyId: number,
  grant: { levelName: string; doorIds: number[]; employeeIds: number[] },
): Promise<DoorGrant> {
  const query = (document: string, variables: Record<string, unknown>) => gqlData(baseUrl, key, document, variables);
  const schedules = (await query('query ($c: Int) { accessSchedules(companyId: $c) { nodes { id name builtIn } } }', { c: companyId })).accessSchedules.nodes;
  const schedule = schedules.find((s: { builtIn: boolean }) => s.builtIn);
  const level = (
    await query('mutation ($input: CreateAccessLevelInput!) { createAccessLevel(input: $input) { id } }', {
      input: { companyId, name: grant.levelName, scheduleId: schedule.id, doorIds: grant.doorIds },
    })
  ).createAccessLevel;
  await query('mutation ($l: Int!, $items: [AccessLevelEmployeeInput!]!) { addAccessLevelEmployees(accessLevelId: $l, items: $items) { employeeId } }', {
    l: level.id,
    items: grant.employeeIds.map((employeeId) => ({ employeeId })),
  });
  return { level: { id: level.id }, schedule: { id: schedule.id, name: schedule.name } };
}

/** Waits until the simulated controller holds the person with `pin` and at least one of their access rights. */
export async function waitUntilControllerHolds(sim: SimulatedTerminal, pin: string, who = `pin ${pin}`): Promise<void> {
  await waitUntil(
    `the controller holds ${who} and their rights`,
    () => sim.store.users.has(pin) && [...sim.store.authorizations.values()].some((a) => a.pin === pin),
    (held) => held,
  );
}
