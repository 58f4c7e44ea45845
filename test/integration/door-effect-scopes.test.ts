import { expect } from 'chai';
import sharp from 'sharp';
import { renameKeys, snakeToCamel } from '../../src/kernel/case';
import { hasScope, type Scope } from '../../src/kernel/scopes';
import { routeTable } from '../../src/rest/route-table';
import type { RestRoute } from '../../src/rest/route';
import { createArea, createCompany, createDevice, createEmployee, createKey, createWorkspace, unique, type TestWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

// A key needs the scope of what a request does to a door, not only of the operation it calls.
// Found by an outside attack: a `doors:manage` key (403 on unlocks and evacuations) created a
// linkage rule "1 refused badge → evacuate"; a `write` key put people on access controllers
// (assignments, area links, a pin or reactivation of an area member) with every door at every hour.
//
// Every REST route and GraphQL mutation that writes who may pass a door, or that opens, holds open,
// evacuates or locks down one, is run here with keys of every scope (and the combinations that
// matter), over both APIs: the keys without the scopes get 403 (`forbidden` when the operation is
// not theirs at all, `insufficient_scope` when its effect is not) and nothing of the access tables
// changes; the others succeed. The lists are checked against the route table and the schema, so a
// new route or mutation fails this test until it is classified here.

type Params = Record<string, string | number>;
interface Request {
  params?: Params;
  body?: unknown;
  /** An image body (the photo route). */
  image?: Buffer;
}
interface Case {
  label: string;
  /** The REST route (its GraphQL operation is the mutation run over GraphQL). */
  route: string;
  /** The scopes the operation takes at all (any of them). */
  resolver: Scope[];
  /** The scopes its effect needs on top (all of them). */
  effect: Scope[];
  setup(): Promise<Request>;
}

/** Mutations that change no door access and open nothing, with why (a new mutation must be put in one list or the other). */
const NO_DOOR_EFFECT: Record<string, string> = {
  // Self-service (docs/self-service.md): an employee's own requests and phone punches, managers'
  // decisions, and what a key sets up for them. None reaches a terminal or a door.
  createMyAbsenceRequest: 'self-service',
  cancelMyAbsenceRequest: 'self-service',
  createMyPunchCorrection: 'self-service',
  cancelMyPunchCorrection: 'self-service',
  createMyPunch: 'self-service',
  approveReportAbsenceRequest: 'self-service',
  rejectReportAbsenceRequest: 'self-service',
  approveReportPunchCorrection: 'self-service',
  rejectReportPunchCorrection: 'self-service',
  createGeofence: 'self-service',
  updateGeofence: 'self-service',
  deleteGeofence: 'self-service',
  setAreaApprovers: 'self-service',
  createEmployeeInvitation: 'self-service',
  createEmployeeAccessToken: 'self-service',
  revokeEmployeeAccessToken: 'self-service',
  // Attendance, leave and payroll.
  createAbsenceType: 'attendance',
  updateAbsenceType: 'attendance',
  deleteAbsenceType: 'attendance',
  createAbsenceRequest: 'attendance',
  approveAbsenceRequest: 'attendance',
  rejectAbsenceRequest: 'attendance',
  cancelAbsenceRequest: 'attendance',
  createOvertimeApproval: 'attendance',
  approveOvertime: 'attendance',
  rejectOvertime: 'attendance',
  approveOvertimePeriod: 'attendance',
  rejectOvertimePeriod: 'attendance',
  createPayPeriod: 'payroll',
  updatePayPeriod: 'payroll',
  deletePayPeriod: 'payroll',
  lockPayPeriod: 'payroll',
  unlockPayPeriod: 'payroll',
  createPunchCorrection: 'attendance',
  approvePunchCorrection: 'attendance',
  rejectPunchCorrection: 'attendance',
  cancelPunchCorrection: 'attendance',
  createPunch: 'attendance',
  voidPunch: 'attendance',
  createRoster: 'attendance',
  updateRoster: 'attendance',
  deleteRoster: 'attendance',
  createScheduleOverride: 'attendance',
  updateScheduleOverride: 'attendance',
  deleteScheduleOverride: 'attendance',
  createShiftAssignment: 'attendance',
  updateShiftAssignment: 'attendance',
  deleteShiftAssignment: 'attendance',
  createShift: 'attendance',
  updateShift: 'attendance',
  deleteShift: 'attendance',
  createHoliday: 'attendance (an access schedule reads holidays, whose dates are not door access)',
  updateHoliday: 'attendance',
  deleteHoliday: 'attendance',
  createVerificationState: 'attendance',
  updateVerificationState: 'attendance',
  deleteVerificationState: 'attendance',
  // The directory: a new employee, company or area is on no terminal; deleting takes people off.
  createCompany: 'directory',
  updateCompany: 'directory',
  deleteCompany: 'directory (refused while it has areas or devices)',
  createEmployee: 'a new employee is on no terminal until assigned',
  deleteEmployee: 'takes the person off every terminal',
  createArea: 'a new area holds no device',
  updateArea: 'name and code (its company only while empty)',
  deleteEmployeePhoto: 'removes a credential',
  deleteEmployeeTemplate: 'removes a credential',
  // Fleet: deleting a device stops commanding it; device actions read, sync or clear.
  deleteDevice: 'the terminal is no longer commanded',
  createDeviceAction: 'clock, information, logs, reconcile, reboot: no access changes',
  resetTerminalPairing: 'admin only',
  // Keys, webhooks, workspaces: admin or operator only.
  createApiKey: 'admin',
  revokeApiKey: 'admin',
  setDirectoryGroupMapping: 'admin',
  createWebhookEndpoint: 'admin',
  updateWebhookEndpoint: 'admin',
  deleteWebhookEndpoint: 'admin',
  rotateWebhookSecret: 'admin',
  testWebhookEndpoint: 'admin',
  redeliverWebhook: 'admin',
  createWorkspace: 'operator',
  updateWorkspace: 'admin',
  setWorkspacePlan: 'operator',
  // Sandboxes (docs/sandbox.md): virtual terminals only, refused (sandbox_only) in a live workspace.
  updateVirtualTerminal: "a virtual terminal's schedule: badges it plays are decided by the access tables, which it does not change",
  triggerVirtualTerminal: 'a badge decided by the access tables, or a simulated alarm at a virtual door; grants nothing, opens nothing',
  resetSandbox: 'admin; deletes and reseeds a sandbox',
};

/** The key sets every case is tried with. */
const KEY_SETS: Scope[][] = [
  ['read'],
  ['write'],
  ['doors:manage'],
  ['doors:unlock'],
  ['approve'],
  ['write', 'doors:manage'],
  ['doors:manage', 'doors:unlock'],
  ['admin'],
];

const TABLES = [
  'access_schedule',
  'access_level',
  'access_level_door',
  'access_level_employee',
  'access_level_area',
  'assignment',
  'area',
  'area_employee',
  'device',
  'door',
  'device_user',
  'employee',
  'employee_photo',
  'linkage_rule',
  'device_door_rules',
  'door_opening_rules',
  'visitor_pass',
  'lockdown',
  'lockdown_door',
  'door_action',
  // Not device_command: the sync job builds commands for the fixtures' pending rows at any moment.
];

const rootField = (route: RestRoute) => /^\s*mutation[^{]*\{\s*(\w+)/.exec(route.document)?.[1] ?? null;

describe('scopes match the physical effect: every route and mutation that changes door access, with every scope', function () {
  this.timeout(1_800_000);
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  const keys = new Map<string, string>();
  const admin = () => ws.key;

  before(async () => {
    // Door actions made by earlier steps must not expire during a later one (the sweep would change
    // door_action between its snapshots): the run takes minutes, the default expiry is 60 s.
    t = await startTestApp({ TIMEGATE_UNLOCK_EXPIRY: '86400' }, 'door-effect-scopes');
    ws = await createWorkspace(t.url, { maxCompanies: 500, maxDevices: 1000, maxEmployees: 5000 });
    companyId = (await createCompany(t.url, ws.key)).id;
    for (const set of KEY_SETS) keys.set(set.join('+'), await createKey(t.url, ws.key, set));
  });
  after(() => t.stop());

  // --- fixtures (made with the admin key) -------------------------------------------------------
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await rest(t.url, method, path, { key: admin(), body });
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.body;
  };
  let pinSeq = 50_000;
  const employee = async (overrides: Record<string, unknown> = {}, company = companyId) =>
    (await createEmployee(t.url, admin(), company, { pin: String(pinSeq++), ...overrides })).id;
  const controller = async (overrides: Record<string, unknown> = {}, company = companyId) =>
    (await createDevice(t.url, admin(), company, { mode_type: 'acc', ...overrides })).id;
  const clock = async (overrides: Record<string, unknown> = {}) => (await createDevice(t.url, admin(), companyId, overrides)).id;
  const doorOf = async (deviceId: number) => (await ok('GET', `/public/v2/devices/${deviceId}/doors`))[0].id as number;
  const area = async () => (await createArea(t.url, admin(), companyId)).id;
  const hours = [{ weekday: 1, start_time: '08:00', end_time: '12:00' }];
  const schedule = async () => (await ok('POST', '/public/v2/access_schedules', { company_id: companyId, name: unique('S'), intervals: hours })).id as number;
  const level = async (doorIds: number[] = []) =>
    (await ok('POST', '/public/v2/access_levels', { company_id: companyId, name: unique('L'), schedule_id: await schedule(), door_ids: doorIds })).id as number;
  const assign = (deviceId: number, employeeId: number) =>
    ok('POST', `/public/v2/devices/${deviceId}/employees`, [{ employee_id: employeeId, permission_id: 0 }]);
  const inArea = (areaId: number, employeeIds: number[], deviceIds: number[] = []) =>
    Promise.all([
      employeeIds.length
        ? ok(
            'POST',
            `/public/v2/areas/${areaId}/employees`,
            employeeIds.map((employee_id) => ({ employee_id })),
          )
        : null,
      deviceIds.length
        ? ok(
            'POST',
            `/public/v2/areas/${areaId}/devices`,
            deviceIds.map((device_id) => ({ device_id })),
          )
        : null,
    ]);
  /** An area whose people are door access: it holds an access controller. */
  const controllerArea = async () => {
    const id = await area();
    await inArea(id, [], [await controller()]);
    return id;
  };
  /** An area whose people are door access: it is a member of an access level. */
  const levelArea = async () => {
    const id = await area();
    await ok('POST', `/public/v2/access_levels/${await level([await doorOf(await controller())])}/areas`, [{ area_id: id }]);
    return id;
  };
  /** An area of attendance terminals only. */
  const clockArea = async () => {
    const id = await area();
    await inArea(id, [], [await clock()]);
    return id;
  };
  const linkage = async (extra: Record<string, unknown>) =>
    (await ok('POST', '/public/v2/linkage_rules', { name: unique('R'), trigger: 'forced_open', device_id: await controller(), ...extra })).id as number;
  const firstPersonIn = async () => {
    const door = await doorOf(await controller());
    const scheduleId = await schedule();
    const levelId = (await ok('POST', '/public/v2/access_levels', { company_id: companyId, name: unique('L'), schedule_id: scheduleId, door_ids: [door] })).id;
    return { door, scheduleId, levelId };
  };
  const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const photo = () =>
    sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 200, g: 120, b: 80 } } })
      .jpeg()
      .toBuffer();

  const CASES: Case[] = [
    // Access schedules and levels: who may pass which door when.
    {
      label: 'createAccessSchedule',
      route: 'createAccessSchedule',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => ({ body: { company_id: companyId, name: unique('S'), intervals: hours } }),
    },
    {
      label: 'updateAccessSchedule',
      route: 'updateAccessSchedule',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => ({ params: { id: await schedule() }, body: { intervals: [{ weekday: 2, start_time: '07:00', end_time: '19:00' }] } }),
    },
    {
      label: 'updateAccessSchedule of a first-person-in schedule (its hours hold a door open)',
      route: 'updateAccessSchedule',
      resolver: ['doors:manage'],
      effect: ['doors:unlock'],
      setup: async () => {
        const { door, scheduleId, levelId } = await firstPersonIn();
        await ok('PUT', `/public/v2/doors/${door}/opening_rules`, { first_person_in: { schedule_id: scheduleId, access_level_ids: [levelId] } });
        return { params: { id: scheduleId }, body: { intervals: [{ weekday: 1, start_time: '00:00', end_time: '23:59' }] } };
      },
    },
    {
      label: 'deleteAccessSchedule',
      route: 'deleteAccessSchedule',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => ({ params: { id: await schedule() } }),
    },
    {
      label: 'createAccessLevel',
      route: 'createAccessLevel',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => ({ body: { company_id: companyId, name: unique('L'), schedule_id: await schedule(), door_ids: [await doorOf(await controller())] } }),
    },
    {
      label: 'updateAccessLevel',
      route: 'updateAccessLevel',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => ({ params: { id: await level() }, body: { door_ids: [await doorOf(await controller())] } }),
    },
    { label: 'deleteAccessLevel', route: 'deleteAccessLevel', resolver: ['doors:manage'], effect: [], setup: async () => ({ params: { id: await level() } }) },
    ...(['add', 'remove', 'sync'] as const).flatMap((mode): Case[] => [
      {
        label: `${mode}AccessLevelEmployees`,
        route: `${mode}AccessLevelEmployees`,
        resolver: ['doors:manage'],
        effect: [],
        setup: async () => {
          const id = await level([await doorOf(await controller())]);
          const person = await employee();
          if (mode === 'remove') await ok('POST', `/public/v2/access_levels/${id}/employees`, [{ employee_id: person }]);
          return { params: { id }, body: [{ employee_id: person }] };
        },
      },
      {
        label: `${mode}AccessLevelAreas`,
        route: `${mode}AccessLevelAreas`,
        resolver: ['doors:manage'],
        effect: [],
        setup: async () => {
          const id = await level([await doorOf(await controller())]);
          const areaId = await area();
          await inArea(areaId, [await employee()]);
          if (mode === 'remove') await ok('POST', `/public/v2/access_levels/${id}/areas`, [{ area_id: areaId }]);
          return { params: { id }, body: [{ area_id: areaId }] };
        },
      },
    ]),
    // Linkage rules: their actions are door actions, taken unattended.
    {
      label: 'createLinkageRule that only reports',
      route: 'createLinkageRule',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => ({ body: { name: unique('R'), trigger: 'forced_open', device_id: await controller() } }),
    },
    {
      label: 'createLinkageRule "1 refused badge → evacuate" (the attack)',
      route: 'createLinkageRule',
      resolver: ['doors:manage'],
      effect: ['doors:unlock'],
      setup: async () => ({
        body: { name: unique('R'), trigger: 'refusals', refusal_count: 1, refusal_window_minutes: 1, device_id: await controller(), lockdown_mode: 'evacuate' },
      }),
    },
    {
      label: 'createLinkageRule that locks down',
      route: 'createLinkageRule',
      resolver: ['doors:manage'],
      effect: ['doors:unlock'],
      setup: async () => ({ body: { name: unique('R'), trigger: 'forced_open', device_id: await controller(), lockdown_mode: 'lockdown' } }),
    },
    {
      label: 'createLinkageRule that pulses an auxiliary output',
      route: 'createLinkageRule',
      resolver: ['doors:manage'],
      effect: ['doors:unlock'],
      setup: async () => ({ body: { name: unique('R'), trigger: 'duress', device_id: await controller(), aux_output: 1, aux_output_seconds: 5 } }),
    },
    {
      label: 'deleteLinkageRule that only reports',
      route: 'deleteLinkageRule',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => ({ params: { id: await linkage({}) } }),
    },
    {
      label: 'deleteLinkageRule that evacuates',
      route: 'deleteLinkageRule',
      resolver: ['doors:manage'],
      effect: ['doors:unlock'],
      setup: async () => ({ params: { id: await linkage({ lockdown_mode: 'evacuate' }) } }),
    },
    // Rules the controller enforces.
    {
      label: 'updateDeviceDoorRules',
      route: 'updateDeviceDoorRules',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => {
        const id = await controller();
        return { params: { id }, body: { anti_passback: { type: 'in_out', door_ids: [await doorOf(id)] } } };
      },
    },
    {
      label: 'updateDoorOpeningRules: multi-person',
      route: 'updateDoorOpeningRules',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => {
        const { door, levelId } = await firstPersonIn();
        return { params: { id: door }, body: { multi_person: { count: 2, access_level_ids: [levelId] } } };
      },
    },
    {
      label: 'updateDoorOpeningRules: first-person-in (holds the door open)',
      route: 'updateDoorOpeningRules',
      resolver: ['doors:manage'],
      effect: ['doors:unlock'],
      setup: async () => {
        const { door, scheduleId, levelId } = await firstPersonIn();
        return { params: { id: door }, body: { first_person_in: { schedule_id: scheduleId, access_level_ids: [levelId] } } };
      },
    },
    {
      label: 'updateDoorOpeningRules: first-person-in ended',
      route: 'updateDoorOpeningRules',
      resolver: ['doors:manage'],
      effect: ['doors:unlock'],
      setup: async () => {
        const { door, scheduleId, levelId } = await firstPersonIn();
        await ok('PUT', `/public/v2/doors/${door}/opening_rules`, { first_person_in: { schedule_id: scheduleId, access_level_ids: [levelId] } });
        return { params: { id: door }, body: {} };
      },
    },
    // Visitor passes: who may pass, for a day.
    {
      label: 'createVisitorPass',
      route: 'createVisitorPass',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => ({
        body: {
          company_id: companyId,
          name: 'Grace Visitor',
          host_employee_id: await employee(),
          valid_from: dayFromNow(1),
          valid_until: dayFromNow(2),
          door_ids: [await doorOf(await controller())],
          card_no: String(pinSeq++),
        },
      }),
    },
    {
      label: 'revokeVisitorPass',
      route: 'revokeVisitorPass',
      resolver: ['doors:manage'],
      effect: [],
      setup: async () => {
        const pass = await ok('POST', '/public/v2/visitor_passes', {
          company_id: companyId,
          name: 'Grace Visitor',
          host_employee_id: await employee(),
          valid_from: dayFromNow(1),
          valid_until: dayFromNow(2),
          door_ids: [await doorOf(await controller())],
          card_no: String(pinSeq++),
        });
        return { params: { id: pass.id } };
      },
    },
    // Opening, evacuating, locking down now.
    ...(['lockdown', 'evacuate'] as const).map((mode): Case => ({
      label: `createLockdown (${mode})`,
      route: 'createLockdown',
      resolver: ['doors:unlock'],
      effect: [],
      setup: async () => {
        const company = (await createCompany(t.url, admin())).id;
        await controller({}, company);
        return { body: { company_id: company, mode, reason: 'drill' } };
      },
    })),
    {
      label: 'releaseLockdown',
      route: 'releaseLockdown',
      resolver: ['doors:unlock'],
      effect: [],
      setup: async () => {
        const company = (await createCompany(t.url, admin())).id;
        await controller({}, company);
        return { params: { id: (await ok('POST', '/public/v2/lockdowns', { company_id: company, mode: 'lockdown', reason: 'drill' })).id } };
      },
    },
    {
      label: 'performDoorAction (unlock)',
      route: 'performDoorAction',
      resolver: ['doors:unlock'],
      effect: [],
      setup: async () => ({ params: { id: await doorOf(await controller()) }, body: { action: 'unlock', duration: 5 } }),
    },
    {
      label: 'unlockDoor',
      route: 'unlockDoor',
      resolver: ['doors:unlock'],
      effect: [],
      setup: async () => {
        const device = await createDevice(t.url, admin(), companyId, { mode_type: 'acc' });
        return { body: { device_serial: device.serial_number, duration: 5 } };
      },
    },
    {
      label: 'updateDoor (a name only)',
      route: 'updateDoor',
      resolver: ['write', 'doors:manage'],
      effect: [],
      setup: async () => ({ params: { id: await doorOf(await controller()) }, body: { name: unique('Door ') } }),
    },
    // Who is on a terminal: on an access controller that is door access (doors:manage), on an
    // attendance terminal attendance (write).
    ...(['controller', 'clock'] as const).flatMap((kind): Case[] => {
      const effect: Scope[] = kind === 'controller' ? ['doors:manage'] : ['write'];
      const device = () => (kind === 'controller' ? controller() : clock());
      const both: Scope[] = ['write', 'doors:manage'];
      return [
        ...(['add', 'remove', 'sync'] as const).flatMap((mode): Case[] => [
          {
            label: `${mode} employees of a device (${kind})`,
            route: { add: 'assignEmployeesToDevice', remove: 'removeEmployeesFromDevice', sync: 'syncDeviceEmployees' }[mode],
            resolver: both,
            effect,
            setup: async () => {
              const id = await device();
              const person = await employee();
              if (mode === 'remove') await assign(id, person);
              return { params: { id }, body: [{ employee_id: person, ...(mode === 'remove' ? {} : { permission_id: 0 }) }] };
            },
          },
          {
            label: `${mode} devices of an employee (${kind})`,
            route: { add: 'assignDevicesToEmployee', remove: 'removeDevicesFromEmployee', sync: 'syncEmployeeDevices' }[mode],
            resolver: both,
            effect,
            setup: async () => {
              const id = await device();
              const person = await employee();
              if (mode === 'remove') await assign(id, person);
              return { params: { id: person }, body: [{ device_id: id, ...(mode === 'remove' ? {} : { permission_id: 0 }) }] };
            },
          },
          {
            label: `${mode} devices of an area (${kind})`,
            route: `${mode}AreaDevices`,
            resolver: both,
            effect,
            setup: async () => {
              const areaId = await area();
              await inArea(areaId, [await employee()]);
              const id = await device();
              if (mode === 'remove') await inArea(areaId, [], [id]);
              return { params: { id: areaId }, body: [{ device_id: id }] };
            },
          },
        ]),
      ];
    }),
    ...(
      [
        ['holding an access controller', controllerArea, ['doors:manage']],
        ['member of an access level', levelArea, ['doors:manage']],
        ['of attendance terminals', clockArea, []],
      ] as const
    ).flatMap(([what, makeArea, effect]): Case[] => [
      ...(['add', 'remove', 'sync'] as const).map((mode): Case => ({
        label: `${mode} employees of an area ${what}`,
        route: `${mode}AreaEmployees`,
        resolver: ['write'],
        effect: [...effect],
        setup: async () => {
          const id = await makeArea();
          const person = await employee();
          if (mode === 'remove') await inArea(id, [person]);
          return { params: { id }, body: [{ employee_id: person }] };
        },
      })),
      {
        label: `deleteArea ${what}, with people`,
        route: 'deleteArea',
        resolver: ['write'],
        effect: [...effect],
        setup: async () => {
          const id = await makeArea();
          await inArea(id, [await employee()]);
          return { params: { id } };
        },
      },
    ]),
    // People: a pin or a reactivation puts a person on the controllers of their areas and assignments.
    {
      label: 'updateEmployee: a pin for a member of an area holding an access controller',
      route: 'updateEmployee',
      resolver: ['write'],
      effect: ['doors:manage'],
      setup: async () => {
        const id = await controllerArea();
        const person = await employee({ pin: null });
        await inArea(id, [person]);
        return { params: { id: person }, body: { pin: String(pinSeq++) } };
      },
    },
    {
      label: 'updateEmployee: reactivating a person assigned to an access controller',
      route: 'updateEmployee',
      resolver: ['write'],
      effect: ['doors:manage'],
      setup: async () => {
        const person = await employee({ is_active: false });
        await assign(await controller(), person);
        return { params: { id: person }, body: { is_active: true } };
      },
    },
    {
      label: 'updateEmployee: renaming a person on an access controller',
      route: 'updateEmployee',
      resolver: ['write'],
      effect: [],
      setup: async () => {
        const person = await employee();
        await assign(await controller(), person);
        return { params: { id: person }, body: { lastname: unique('N') } };
      },
    },
    {
      label: 'updateEmployee: a pin for a member of an area of attendance terminals',
      route: 'updateEmployee',
      resolver: ['write'],
      effect: [],
      setup: async () => {
        const id = await clockArea();
        const person = await employee({ pin: null });
        await inArea(id, [person]);
        return { params: { id: person }, body: { pin: String(pinSeq++) } };
      },
    },
    {
      label: 'setEmployeePhoto of a person on an access controller (it enrols the face)',
      route: 'putEmployeePhoto',
      resolver: ['write'],
      effect: ['doors:manage'],
      setup: async () => {
        const person = await employee();
        await assign(await controller(), person);
        return { params: { id: person }, image: await photo() };
      },
    },
    {
      label: 'setEmployeePhoto of a person on attendance terminals only',
      route: 'putEmployeePhoto',
      resolver: ['write'],
      effect: [],
      setup: async () => {
        const person = await employee();
        await assign(await clock(), person);
        return { params: { id: person }, image: await photo() };
      },
    },
    // Terminals: what an access controller is, and which area's people it holds.
    {
      label: 'createDevice: an access controller in an area',
      route: 'createDevice',
      resolver: ['write'],
      effect: ['doors:manage'],
      setup: async () => {
        const id = await area();
        await inArea(id, [await employee()]);
        return { body: { name: 'Door', serial_number: unique('SN').toUpperCase(), company_id: companyId, mode_type: 'acc', area_id: id } };
      },
    },
    {
      label: 'createDevice: an access controller in no area',
      route: 'createDevice',
      resolver: ['write'],
      effect: [],
      setup: async () => ({ body: { name: 'Door', serial_number: unique('SN').toUpperCase(), company_id: companyId, mode_type: 'acc' } }),
    },
    {
      label: 'updateDevice: an access controller moved into an area',
      route: 'updateDevice',
      resolver: ['write'],
      effect: ['doors:manage'],
      setup: async () => {
        const id = await area();
        await inArea(id, [await employee()]);
        return { params: { id: await controller() }, body: { area_id: id } };
      },
    },
    {
      label: 'updateDevice: an attendance terminal with people turned into an access controller',
      route: 'updateDevice',
      resolver: ['write'],
      effect: ['doors:manage'],
      setup: async () => {
        const id = await clock();
        await assign(id, await employee());
        return { params: { id }, body: { mode_type: 'acc' } };
      },
    },
    {
      label: 'updateDevice: an access controller renamed',
      route: 'updateDevice',
      resolver: ['write'],
      effect: [],
      setup: async () => ({ params: { id: await controller() }, body: { name: unique('Door ') } }),
    },
  ];

  const routes = new Map(routeTable.map((route) => [route.name, route]));

  it('covers every route and mutation: each changing one is a case here or is listed as without door effect', async () => {
    for (const c of CASES) expect(routes.has(c.route), c.route).to.equal(true);
    const doorMutations = new Set(CASES.map((c) => rootField(routes.get(c.route)!)!));
    // Every REST route whose operation is one of them is walked.
    const walked = new Set(CASES.map((c) => c.route));
    const missing = routeTable
      .filter((route) => route.method !== 'GET' && doorMutations.has(rootField(route) ?? '') && !walked.has(route.name))
      .map((r) => r.name);
    expect(missing, 'routes of door mutations without a case').to.deep.equal([]);
    // Every mutation of the schema is classified.
    const schema = await gql(t.url, admin(), '{ __schema { mutationType { fields { name } } } }');
    const mutations: string[] = schema.data.__schema.mutationType.fields.map((f: { name: string }) => f.name);
    const unclassified = mutations.filter((name) => !doorMutations.has(name) && !(name in NO_DOOR_EFFECT));
    expect(unclassified, 'mutations neither walked here nor listed as without door effect').to.deep.equal([]);
    expect(Object.keys(NO_DOOR_EFFECT).filter((name) => doorMutations.has(name))).to.deep.equal([]);
    // Every changing REST route of the rest is also classified through its operation.
    const unknownRoutes = routeTable.filter(
      (route) => route.method !== 'GET' && rootField(route) && !doorMutations.has(rootField(route)!) && !(rootField(route)! in NO_DOOR_EFFECT),
    );
    expect(unknownRoutes.map((r) => r.name)).to.deep.equal([]);
  });

  /** A digest of every access table, in one query. */
  const snapshot = async () => {
    const columns = TABLES.map((table) => `(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${table} t) as ${table}`);
    const [row] = await t.app.database.orm.em
      .fork()
      .getConnection()
      .execute<Record<string, string>[]>(`select ${columns.join(', ')}`);
    return TABLES.map((table) => `${table}:${row![table]}`);
  };

  /** What `scopes` should get: null (success), or the 403 code. */
  function expected(c: Case, scopes: Scope[]): 'forbidden' | 'insufficient_scope' | null {
    if (!c.resolver.some((scope) => hasScope(scopes, scope))) return 'forbidden';
    return c.effect.every((scope) => hasScope(scopes, scope)) ? null : 'insufficient_scope';
  }

  async function send(transport: 'rest' | 'graphql', c: Case, request: Request, key: string): Promise<{ status: number; code: string | null; text: string }> {
    const route = routes.get(c.route)!;
    const params = Object.fromEntries(Object.entries(request.params ?? {}).map(([k, v]) => [k, String(v)]));
    if (transport === 'rest') {
      const path = route.path.replace(/:(\w+)/g, (_, name: string) => params[name]!);
      const answer = request.image
        ? await rest(t.url, route.method, path, { key, rawBody: request.image, headers: { 'content-type': 'image/jpeg' } })
        : await rest(t.url, route.method, path, { key, body: request.body });
      return { status: answer.status, code: answer.status >= 400 ? (answer.body?.error?.code ?? null) : null, text: answer.text };
    }
    const body = request.image ? request.image.toString('base64') : request.body === undefined ? undefined : renameKeys(request.body, snakeToCamel);
    const variables = route.variables({ params, query: {}, body });
    const answer = await gql(t.url, key, route.document, variables);
    const code = (answer.errors?.[0]?.extensions?.code as string | undefined) ?? null;
    return { status: code === null ? 200 : 403, code, text: JSON.stringify(answer.errors ?? answer.data).slice(0, 500) };
  }

  for (const transport of ['rest', 'graphql'] as const) {
    it(`over ${transport === 'rest' ? 'REST' : 'GraphQL'}: 403 without the scopes of the effect (nothing changes), done with them`, async () => {
      const failures: string[] = [];
      for (const c of CASES) {
        const refused = KEY_SETS.filter((set) => expected(c, set) !== null);
        const allowed = KEY_SETS.filter((set) => expected(c, set) === null);
        expect(allowed.length, `${c.label}: some key may do it`).to.be.greaterThan(0);
        // A fixture of its own for each key that may do it (the first one's is also what the refused
        // keys are sent), made together before the refused requests.
        const requests = await Promise.all(allowed.map(() => c.setup()));
        // The refused keys at once: none may change anything, so the access tables are compared
        // before and after all of them (a change names the keys sent).
        const before = await snapshot();
        const answers = await Promise.all(refused.map((set) => send(transport, c, requests[0]!, keys.get(set.join('+'))!)));
        for (const [i, set] of refused.entries())
          if (answers[i]!.code !== expected(c, set))
            failures.push(`${c.label} [${set.join('+')}]: expected ${expected(c, set)}, got ${answers[i]!.status} ${answers[i]!.text}`);
        const after = await snapshot();
        const changed = before.filter((h, i) => h !== after[i]).map((h) => h.split(':')[0]);
        if (changed.length > 0)
          failures.push(`${c.label} [one of ${refused.map((set) => set.join('+')).join(', ')}]: refused but changed ${changed.join(', ')}`);
        // The allowed keys at once, each on its own fixture.
        const done = await Promise.all(allowed.map((set, i) => send(transport, c, requests[i]!, keys.get(set.join('+'))!)));
        for (const [i, set] of allowed.entries())
          if (done[i]!.status >= 300) failures.push(`${c.label} [${set.join('+')}]: expected success, got ${done[i]!.status} ${done[i]!.text}`);
      }
      expect(failures, failures.join('\n')).to.deep.equal([]);
    });
  }
});
