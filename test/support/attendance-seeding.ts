// Attendance data seeded through the GraphQL API, as an HR system or a terminal would have left it.
import { gqlData } from './http';

/** A shift of the company (Monday to Friday unless `workdays` says otherwise); answers its id. */
export async function createShift(
  baseUrl: string,
  key: string,
  companyId: number,
  shift: {
    name: string;
    startTime: string;
    endTime: string;
    workdays?: number[];
    isDefault?: boolean;
    checkInBeforeMinutes?: number;
    checkOutAfterMinutes?: number;
  },
): Promise<number> {
  const input = { companyId, workdays: [1, 2, 3, 4, 5], isDefault: false, ...shift };
  return (await gqlData(baseUrl, key, 'mutation ($input: CreateShiftInput!) { createShift(input: $input) { id } }', { input })).createShift.id;
}

/** A punch entered through the API (`punchTime` as the API takes it; `punchState` '0' in, '1' out); answers its id. */
export async function createPunch(
  baseUrl: string,
  key: string,
  punch: { employeeId: number; companyId: number; deviceId: number; punchTime: string; punchState: string },
): Promise<number> {
  return (await gqlData(baseUrl, key, 'mutation ($input: CreatePunchInput!) { createPunch(input: $input) { punch { id } } }', { input: punch })).createPunch
    .punch.id;
}
