import { expect } from 'chai';
import { Ajv } from 'ajv';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { routeTable } from '../../src/rest/route-table';
import type { RestRoute } from '../../src/rest/route';
import { buildTimegateSchema } from '../../src/graphql/build-schema';
import { exampleAsOf } from '../support/example-dates';
import { createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { workspaceSnapshot } from '../support/snapshot';
import { iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Generated sweep: every REST route and every GraphQL root field that names something by id is
 * called with workspace B's key and workspace A's ids. The lists below are the only hand-written
 * part; a new route, root field or id argument that they do not cover fails the sweep, so isolation
 * is decided for it when it is added.
 */

/** A's resource behind each id-like GraphQL argument or input field (`id`/`idOrName` go by the field's type). */
const idArguments: Record<string, string> = {
  companyId: 'company',
  employeeId: 'employee',
  deviceId: 'device',
  areaId: 'area',
  endpointId: 'webhook',
  deliveryId: 'delivery',
  workspaceId: 'workspace',
  actionId: 'doorAction',
  shiftId: 'shift',
  rosterId: 'roster',
  doorId: 'door',
  scheduleId: 'accessSchedule',
  accessLevelId: 'accessLevel',
  deviceSerial: 'deviceSerial',
  serialNumber: 'deviceSerial',
  lockdownId: 'lockdown',
  lockdownAreaId: 'area',
  lockdownDoorIds: 'door',
  doorIds: 'door',
  absenceTypeId: 'absenceType',
  hostEmployeeId: 'employee',
  overrideAccessLevelId: 'accessLevel',
  voidPunchId: 'punch',
  employeeIds: 'employee',
};
const idByType: Record<string, string> = {
  Company: 'company',
  Employee: 'employee',
  Device: 'device',
  Area: 'area',
  Punch: 'punch',
  VerificationState: 'state',
  WebhookEndpoint: 'webhook',
  WebhookDelivery: 'delivery',
  ApiKey: 'apiKey',
  EmployeeTemplate: 'template',
  Shift: 'shift',
  Holiday: 'holiday',
  ShiftAssignment: 'shiftAssignment',
  Roster: 'roster',
  ScheduleOverride: 'scheduleOverride',
  PayPeriod: 'payPeriod',
  Door: 'door',
  AccessSchedule: 'accessSchedule',
  AccessLevel: 'accessLevel',
  DirectoryGroup: 'directoryGroup',
  AbsenceType: 'absenceType',
  PayrollExport: 'payPeriod',
  AbsenceRequest: 'absenceRequest',
  PunchCorrection: 'punchCorrection',
  OvertimeApproval: 'overtimeApproval',
  Lockdown: 'lockdown',
  LinkageRule: 'linkageRule',
  VisitorPass: 'visitorPass',
  Geofence: 'geofence',
  EmployeeAccessToken: 'accessToken',
};
/** Root fields that name nothing of another workspace (creates without ids, the caller's own lists). */
const rootFieldsWithoutIds = new Set([
  'workspace',
  'workspaces',
  'currentApiKey',
  'companies',
  'verificationStates',
  'webhookEndpoints',
  'auditEvents',
  'createApiKey',
  'createCompany',
  'createVerificationState',
  'createWebhookEndpoint',
  'createWorkspace',
  'updateWorkspace',
  'virtualTerminals',
  'resetSandbox',
  // The calling employee's own (an employee token; a key is refused): nothing named by id.
  'me',
  'createMyPunch',
]);
/** REST path parameters → A's resource (by the path's first segment for `:id`). */
const pathIds: Record<string, string> = {
  companies: 'company',
  employees: 'employee',
  devices: 'device',
  areas: 'area',
  verification_states: 'state',
  punches: 'punch',
  webhooks: 'webhook',
  webhook_deliveries: 'delivery',
  actions: 'doorAction',
  shifts: 'shift',
  holidays: 'holiday',
  shift_assignments: 'shiftAssignment',
  rosters: 'roster',
  schedule_overrides: 'scheduleOverride',
  pay_periods: 'payPeriod',
  doors: 'door',
  access_schedules: 'accessSchedule',
  access_levels: 'accessLevel',
  api_keys: 'spareApiKey',
  directory_groups: 'directoryGroup',
  absence_types: 'absenceType',
  absence_requests: 'absenceRequest',
  punch_corrections: 'punchCorrection',
  overtime_approvals: 'overtimeApproval',
  lockdowns: 'lockdown',
  linkage_rules: 'linkageRule',
  visitor_passes: 'visitorPass',
  virtual_terminals: 'device',
  geofences: 'geofence',
  access_tokens: 'accessToken',
};
/** REST body fields naming a resource of the caller's workspace. */
const bodyIds: Record<string, string> = {
  schedule_id: 'accessSchedule',
  shift_id: 'shift',
  roster_id: 'roster',
  company_id: 'company',
  employee_id: 'employee',
  device_id: 'device',
  area_id: 'area',
  device_serial: 'deviceSerial',
  absence_type_id: 'absenceType',
  host_employee_id: 'employee',
  void_punch_id: 'punch',
  door_id: 'door',
};
/** REST routes that name nothing by id: creates with no id in their body. */
const routesWithoutIds = new Set([
  'createCompany',
  'createVerificationState',
  'createWebhookEndpoint',
  'listDirectoryGroups',
  'listVisitorPasses',
  'createWorkspace',
  'listVirtualTerminals',
  'resetSandbox',
]);

/** Sample values for non-id inputs with a format of their own (others get a sample of their scalar type). */
const samples: Record<string, unknown> = {
  // A visitor pass is valid from now on, for at most a year: dated as of the examples' day, like them.
  validFrom: '2026-11-28T08:00:00Z',
  validUntil: '2026-12-20T18:00:00Z',
  scopes: 'read',
  url: 'http://127.0.0.1:9/hook',
  eventTypes: 'attendance.created',
  punchTime: '2026-01-05T09:00:00Z',
  punchState: '0',
  value: '7',
  timeZone: 'UTC',
  duration: 5,
  permissionId: 0,
  startTime: '09:00',
  endTime: '17:00',
  workdays: 1,
  date: '2026-12-24',
  holidayType: 1,
  startDate: '2026-12-01',
  endDate: '2026-12-31',
  action: 'close',
  radiusM: 100,
};

/**
 * The self-service routes act as the calling employee and refuse every key (self-service-refusals.test.ts);
 * an employee names nothing of anyone else, of their workspace or another (self-service.test.ts).
 */
const employeeOnly = (route: RestRoute) => /^\/public\/v2\/me(\/|$)/.test(route.path);

const isIdName = (name: string) => name === 'id' || name === 'idOrName' || name in idArguments || /Id$|Serial$/.test(name);

// The sweep sends the REST examples as bodies: it runs with the service's clock today and a year
// ahead, so that an example date the rules need in the future is never what a route refuses.
for (const clock of [
  { name: 'today', days: 0 },
  { name: 'with the clock a year ahead', days: 365 },
])
  describe(`tenant isolation (${clock.name}): workspace B can neither see nor change anything of workspace A`, () => {
    let t: TestApp;
    let a: TestWorkspace;
    let b: TestWorkspace;
    let schema: GraphQLSchema;
    let frozen: Date;
    const ids: Record<string, number | string> = {};

    before(async function () {
      this.timeout(60_000);
      schema = await buildTimegateSchema();
      // A frozen clock: A's webhook delivery fails once (nothing listens) and its retry never comes due
      // during the sweep, so nothing of A changes in the background between two snapshots.
      frozen = new Date(Date.now() + clock.days * 86_400_000);
      // The attendance worker is off for the same reason (days are then computed only when read).
      t = await startTestApp(
        {
          TIMEGATE_WEBHOOK_POLL_MS: '3600000',
          TIMEGATE_PRESENCE_FLUSH_MS: '3600000',
          TIMEGATE_TERMINAL_SWEEP_MS: '3600000',
          TIMEGATE_ATTENDANCE_WORKER: 'false',
        },
        'isolation',
        { now: () => frozen },
      );
      a = await createWorkspace(t.url);
      b = await createWorkspace(t.url);
      ids.workspace = a.id;
      const company = await createCompany(t.url, a.key);
      ids.company = company.id;
      ids.employee = (await createEmployee(t.url, a.key, company.id, { pin: '1' })).id;
      const device = (
        await rest(t.url, 'POST', '/public/v2/devices', {
          key: a.key,
          body: { name: 'D', serial_number: 'ISOLATION1', company_id: company.id, mode_type: 'acc' },
        })
      ).body;
      ids.device = device.id;
      ids.deviceSerial = device.serial_number;
      ids.door = (await rest(t.url, 'GET', `/public/v2/devices/${device.id}/doors`, { key: a.key })).body[0].id;
      ids.accessSchedule = (
        await rest(t.url, 'POST', '/public/v2/access_schedules', {
          key: a.key,
          body: { company_id: company.id, name: 'Hours', intervals: [{ weekday: 1, start_time: '08:00', end_time: '12:00' }] },
        })
      ).body.id;
      ids.accessLevel = (
        await rest(t.url, 'POST', '/public/v2/access_levels', {
          key: a.key,
          body: { company_id: company.id, name: 'Staff', schedule_id: ids.accessSchedule, door_ids: [ids.door] },
        })
      ).body.id;
      ids.area = (await rest(t.url, 'POST', '/public/v2/areas', { key: a.key, body: { name: 'Hall', code: 'HALL', company_id: company.id } })).body.id;
      ids.holiday = (
        await rest(t.url, 'POST', '/public/v2/holidays', { key: a.key, body: { date: '2026-12-25', name: 'Christmas', company_id: company.id } })
      ).body.id;
      ids.shift = (
        await rest(t.url, 'POST', '/public/v2/shifts', { key: a.key, body: { name: 'Day', start_time: '09:00', end_time: '17:00', company_id: company.id } })
      ).body.id;
      ids.payPeriod = (
        await rest(t.url, 'POST', '/public/v2/pay_periods', { key: a.key, body: { company_id: company.id, start_date: '2026-01-01', end_date: '2026-01-31' } })
      ).body.id;
      ids.shiftAssignment = (
        await rest(t.url, 'POST', '/public/v2/shift_assignments', {
          key: a.key,
          body: { shift_id: ids.shift, employee_id: ids.employee, start_date: '2026-01-01' },
        })
      ).body.id;
      ids.roster = (
        await rest(t.url, 'POST', '/public/v2/rosters', {
          key: a.key,
          body: { company_id: company.id, name: 'Rota', start_date: '2026-01-01', days: [ids.shift, null] },
        })
      ).body.id;
      ids.scheduleOverride = (
        await rest(t.url, 'POST', '/public/v2/schedule_overrides', { key: a.key, body: { employee_id: ids.employee, date: '2026-01-10', shift_id: ids.shift } })
      ).body.id;
      ids.state = (await rest(t.url, 'GET', '/public/v2/verification_states', { key: a.key })).body[0].id;
      ids.webhook = (
        await rest(t.url, 'POST', '/public/v2/webhooks', { key: a.key, body: { url: 'http://127.0.0.1:9/hook', event_types: ['attendance.created'] } })
      ).body.id;
      const punch = await rest(t.url, 'POST', '/public/v2/punches', {
        key: a.key,
        body: { employee_id: ids.employee, device_id: ids.device, company_id: company.id, punch_time: '2026-01-05T08:00:00Z', punch_state: '0' },
      });
      ids.punch = punch.body.id;
      await t.app.webhooks.runOnce();
      ids.delivery = (await rest(t.url, 'GET', `/public/v2/webhooks/${ids.webhook}/deliveries`, { key: a.key })).body[0].id;
      ids.doorAction = (
        await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: a.key, body: { device_serial: 'ISOLATION1', duration: 5 } })
      ).body.action_id;
      ids.absenceType = (await rest(t.url, 'GET', `/public/v2/absence_types?company_id=${company.id}`, { key: a.key })).body[0].id;
      const absence = await rest(t.url, 'POST', '/public/v2/absence_requests', {
        key: a.key,
        body: { employee_id: ids.employee, absence_type_id: ids.absenceType, start_date: '2026-02-02', end_date: '2026-02-03' },
      });
      expect(absence.status, absence.text).to.equal(201);
      ids.absenceRequest = absence.body.id;
      const correction = await rest(t.url, 'POST', '/public/v2/punch_corrections', {
        key: a.key,
        body: { employee_id: ids.employee, punch_time: '2026-01-06T17:00:00Z', punch_state: '1', reason: 'Forgot to clock out' },
      });
      expect(correction.status, correction.text).to.equal(201);
      ids.punchCorrection = correction.body.id;
      const overtime = await rest(t.url, 'POST', '/public/v2/overtime_approvals', {
        key: a.key,
        body: { employee_id: ids.employee, date: '2026-01-06', note: 'Stayed late' },
      });
      expect(overtime.status, overtime.text).to.equal(201);
      ids.overtimeApproval = overtime.body.id;
      const pass = await rest(t.url, 'POST', '/public/v2/visitor_passes', {
        key: a.key,
        body: {
          company_id: company.id,
          name: 'Guest',
          host_employee_id: ids.employee,
          valid_from: frozen.toISOString(),
          valid_until: new Date(frozen.getTime() + 30 * 86_400_000).toISOString(),
          door_ids: [ids.door],
        },
      });
      expect(pass.status, pass.text).to.equal(201);
      ids.visitorPass = pass.body.id;
      const rule = await rest(t.url, 'POST', '/public/v2/linkage_rules', { key: a.key, body: { name: 'Forced', trigger: 'forced_open', door_id: ids.door } });
      expect(rule.status, rule.text).to.equal(201);
      ids.linkageRule = rule.body.id;
      const fence = await rest(t.url, 'POST', '/public/v2/geofences', {
        key: a.key,
        body: { company_id: company.id, name: 'Depot', latitude: 52.52, longitude: 13.4, radius_m: 100 },
      });
      expect(fence.status, fence.text).to.equal(201);
      ids.geofence = fence.body.id;
      const token = await rest(t.url, 'POST', `/public/v2/employees/${ids.employee}/access_tokens`, { key: a.key, body: { name: 'App' } });
      expect(token.status, token.text).to.equal(201);
      ids.accessToken = token.body.id;
      // Last: a lockdown of A's doors refuses remote unlocks, and the door action above is already queued.
      const lockdown = await rest(t.url, 'POST', '/public/v2/lockdowns', { key: a.key, body: { door_ids: [ids.door], mode: 'lockdown', reason: 'Drill' } });
      expect(lockdown.status, lockdown.text).to.equal(202);
      ids.lockdown = lockdown.body.id;
      ids.apiKey = (await gqlData(t.url, a.key, '{ apiKeys { id } }')).apiKeys[0].id;
      // REST routes take a key of A that may be revoked (the OpenAPI sweep calls every route as A).
      ids.spareApiKey = (await gqlData(t.url, a.key, 'mutation { createApiKey(input: { scopes: ["read"] }) { id } }')).createApiKey.id;
      const scimKey = (
        await gqlData(t.url, a.key, 'mutation ($c: Int!) { createApiKey(input: { scopes: ["scim"], companyId: $c }) { key } }', { c: company.id })
      ).createApiKey.key;
      const group = await rest(t.url, 'POST', '/scim/v2/Groups', {
        key: scimKey,
        body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Staff' },
      });
      ids.directoryGroup = group.body.id;
      const tmp = Buffer.alloc(300, 7).toString('base64');
      const upload = await iclock(t.url, 'POST', '/iclock/cdata?SN=ISOLATION1&table=OPERLOG', `FP PIN=1\tFID=3\tSize=${tmp.length}\tValid=1\tTMP=${tmp}\n`);
      expect(upload.status).to.equal(200);
      ids.template = (
        await gqlData(t.url, a.key, 'query ($id: Int!) { employeeTemplates(employeeId: $id) { id } }', { id: ids.employee })
      ).employeeTemplates[0].id;
      // The terminal upload's presence is written now, not in the background during the sweep.
      await t.app.terminals.flush();
      // B owns a company too, so that "id exists in B's workspace" never hides a leak.
      await createCompany(t.url, b.key);
    });
    after(() => t.stop());

    /** A's rows are exactly as before, table by table (so a failure names the table). */
    async function expectUnchanged(before: Record<string, unknown[]>) {
      const after = await workspaceSnapshot(t.config.databaseUrl!, a.id);
      for (const table of Object.keys(before)) expect(after[table], `workspace A's ${table}`).to.deep.equal(before[table]);
    }

    function idOf(resource: string | undefined, what: string): number | string {
      const id = resource === undefined ? undefined : ids[resource];
      if (id === undefined) throw new Error(`no id of workspace A for ${what}: add it to the tables of this sweep`);
      return id;
    }

    /** The REST path with A's ids, or null for a route without path parameters. */
    function pathWithIds(route: RestRoute): string | null {
      if (!route.path.includes(':')) return null;
      const segments = route.path.split('/');
      return segments.map((s, i) => (s.startsWith(':') ? String(idOf(pathIds[segments[i - 1]!], `${route.name} ${s}`)) : s)).join('/');
    }

    /** The route's example body with every id-like field set to A's id. */
    function bodyWithIds(route: RestRoute): { body: unknown; named: number } {
      let named = 0;
      const replace = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(replace);
        if (value && typeof value === 'object') {
          return Object.fromEntries(
            Object.entries(value).map(([k, v]) => {
              if (!/_id$|_serial$/.test(k) || k === 'permission_id') return [k, replace(v)];
              named++;
              return [k, idOf(bodyIds[k], `${route.name} body ${k}`)];
            }),
          );
        }
        return value;
      };
      return { body: route.body ? replace(exampleAsOf(route.body.example, frozen)) : undefined, named };
    }

    it('every REST route is covered: an id of A in the path is 404 for B, in the body 422; A is unchanged', async () => {
      const before = await workspaceSnapshot(t.config.databaseUrl!, a.id);
      const covered = { path: 0, body: 0 };
      for (const route of routeTable.filter((r) => !employeeOnly(r))) {
        const path = pathWithIds(route);
        const { body, named } = bodyWithIds(route);
        const what = `${route.method} ${route.path}`;
        if (path) {
          // An image body is read before the operation runs: send one, so the id is what decides.
          const image = route.imageBody ? { rawBody: Buffer.from('image'), headers: { 'content-type': route.imageBody.mediaTypes[0]! } } : {};
          const r = await rest(t.url, route.method, path, { key: b.key, body, ...image });
          expect(r.status, what).to.equal(404);
          expect(r.body.error.code, what).to.equal('not_found');
          covered.path++;
        } else if (named > 0) {
          const r = await rest(t.url, route.method, route.path, { key: b.key, body });
          expect(r.status, `${what} ${r.text}`).to.equal(422);
          expect(r.body.error.details.map((d: { field: string }) => d.field).join(), what).to.match(/_id|_serial/);
          covered.body++;
        } else if (!route.list && !routesWithoutIds.has(route.name)) {
          throw new Error(`${route.name} (${what}) names no id the sweep knows: add it to the tables of this sweep`);
        }
      }
      expect(covered.path).to.be.at.least(30);
      expect(covered.body).to.be.at.least(4);
      await expectUnchanged(before);
    });

    it("B's lists never contain A's rows, with or without A's ids as filters", async () => {
      for (const route of routeTable.filter((r) => r.list && !r.path.includes(':') && !employeeOnly(r))) {
        const filters = Object.keys((route.query?.properties as Record<string, unknown>) ?? {}).filter((k) => k in bodyIds);
        // Timesheets need a date range, and answer a filter naming what B does not have with a 404 (as a path id).
        const range = ((route.query?.required as string[] | undefined) ?? []).includes('start_date') ? 'start_date=2026-01-01&end_date=2026-01-31' : '';
        for (const filter of [null, ...filters]) {
          const params = [range, filter ? `${filter}=${ids[bodyIds[filter]!]}` : ''].filter(Boolean).join('&');
          const query = params ? `?${params}` : '';
          const r = await rest(t.url, 'GET', route.path + query, { key: b.key });
          if (filter && range) {
            expect(r.status, route.path + query).to.equal(404);
            continue;
          }
          expect(r.status, route.path + query).to.equal(200);
          const rows = r.body as { id: number; company_id?: number; employee_id?: number }[];
          expect(
            rows.filter((row) => row.company_id === ids.company || (range && row.employee_id === ids.employee)),
            route.path + query,
          ).to.deep.equal([]);
          if (filter) expect(rows, route.path + query).to.deep.equal([]);
        }
      }
      expect((await rest(t.url, 'GET', '/public/v2/employees', { key: a.key })).body).to.have.length(1);
    });

    /** A minimal valid value of a GraphQL input type; id-like names get A's ids. */
    function valueFor(type: GraphQLInputType, name: string, what: string): unknown {
      if (isNonNullType(type)) return valueFor(type.ofType, name, what);
      if (name in samples && !isListType(type)) return exampleAsOf(samples[name], frozen);
      if (isListType(type)) return [valueFor(type.ofType, name, what)];
      if (isInputObjectType(type)) {
        const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) || isIdName(f.name));
        return Object.fromEntries(fields.map((f) => [f.name, valueFor(f.type, f.name, `${what}.${f.name}`)]));
      }
      if (isEnumType(type)) return type.getValues()[0]!.value;
      if (isIdName(name)) {
        const resource = name === 'id' || name === 'idOrName' ? idByType[what.split(':')[1]!] : idArguments[name];
        const id = idOf(resource, what);
        return type.name === 'String' ? String(id) : id;
      }
      if (isScalarType(type)) {
        const scalars: Record<string, unknown> = { Int: 1, Float: 1, String: 'x', Boolean: false, DateTimeISO: '2026-01-05T08:00:00Z' };
        if (!(type.name in scalars)) throw new Error(`no sample value for scalar ${type.name} (${what}): add it to the sweep`);
        return scalars[type.name];
      }
      throw new Error(`unexpected input type at ${what}`);
    }

    /** True when an id-like name appears in the field's arguments or (nested) input fields. */
    function namesAnId(type: GraphQLInputType, name: string, seen = new Set<string>()): boolean {
      const named = getNamedType(type);
      if (isIdName(name)) return true;
      if (!isInputObjectType(named) || seen.has(named.name)) return false;
      seen.add(named.name);
      return Object.values(named.getFields()).some((f) => namesAnId(f.type, f.name, seen));
    }

    it('GraphQL: every root query and mutation with an id is not_found (or an id field error, or empty) for B with the ids of A; A is unchanged', async function () {
      this.timeout(60_000);
      const before = await workspaceSnapshot(t.config.databaseUrl!, a.id);
      const roots = [schema.getQueryType()!, schema.getMutationType()!];
      let swept = 0;
      for (const root of roots) {
        for (const field of Object.values(root.getFields()) as GraphQLField<unknown, unknown>[]) {
          const withIds = field.args.some((arg) => namesAnId(arg.type, arg.name));
          if (!withIds) {
            if (!rootFieldsWithoutIds.has(field.name)) throw new Error(`root field ${field.name} is not covered by the isolation sweep: add it to its tables`);
            continue;
          }
          const returned = getNamedType(field.type);
          const args = field.args.filter((arg) => isNonNullType(arg.type) || namesAnId(arg.type, arg.name));
          const variables = Object.fromEntries(args.map((arg) => [arg.name, valueFor(arg.type, arg.name, `${field.name}:${returned.name}`)]));
          const selection = isObjectType(returned) && 'totalCount' in returned.getFields() ? '{ totalCount }' : isObjectType(returned) ? '{ __typename }' : '';
          const operation = `${root === roots[0] ? 'query' : 'mutation'} (${args.map((arg) => `$${arg.name}: ${arg.type}`).join(', ')}) { result: ${field.name}(${args.map((arg) => `${arg.name}: $${arg.name}`).join(', ')}) ${selection} }`;
          const r = await gql(t.url, b.key, operation, variables);
          const what = `${field.name} ${JSON.stringify(variables)}: ${JSON.stringify(r.errors ?? r.data)}`;
          const error = r.errors?.[0]?.extensions;
          if (error) {
            expect(error.code, what).to.be.oneOf(['not_found', 'validation_failed', 'forbidden']);
            if (error.code === 'validation_failed') expect(error.details!.map((d) => d.field).join(), what).to.match(/Id\b|Serial\b/);
          } else {
            // Only a list filtered by A's ids may answer, and then with nothing of A.
            const result = r.data?.result;
            expect(Array.isArray(result) ? result.length : result?.totalCount, what).to.equal(0);
          }
          swept++;
        }
      }
      expect(swept).to.be.at.least(45);
      await expectUnchanged(before);
    });

    // Last: it calls every route as A (A changes). Every answer, success or error, must be a status the
    // OpenAPI document lists for that operation, with a body its schema accepts.
    it('OpenAPI: the real response of every REST route, success or error, is documented and matches its schema', async () => {
      const { body: doc } = await rest(t.url, 'GET', '/openapi.json');
      const ajv = new Ajv({ strict: false, allErrors: true });
      ajv.addFormat('date-time', true);
      ajv.addFormat('binary', true);
      ajv.addSchema({ ...doc, $id: 'openapi' });
      const resolve = (value: any): any =>
        value?.$ref
          ? resolve(
              value.$ref
                .replace('#/', '')
                .split('/')
                .reduce((o: any, k: string) => o[k], doc),
            )
          : value;
      const checked: string[] = [];
      // Reads first, then writes, deletes last: so that most routes still find what they name.
      const order = { GET: 0, POST: 1, PUT: 1, DELETE: 2 } as const;
      for (const route of [...routeTable].sort((x, y) => order[x.method] - order[y.method])) {
        const path = pathWithIds(route) ?? route.path;
        const { body } = bodyWithIds(route);
        const image = route.imageBody ? { rawBody: Buffer.from('not an image'), headers: { 'content-type': route.imageBody.mediaTypes[0]! } } : {};
        const r = await rest(t.url, route.method, path, { key: a.key, body, ...image });
        const operation = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()];
        const documented = resolve(operation.responses[String(r.status)]);
        expect(documented, `${route.method} ${route.path} answered ${r.status}, which it does not document: ${r.text.slice(0, 200)}`).to.not.equal(undefined);
        const content = documented.content?.['application/json'];
        if (content && r.headers.get('content-type')?.includes('application/json')) {
          // References inside the schema point into the document, registered as `openapi`.
          const schema = JSON.parse(JSON.stringify(resolve(content.schema)).replaceAll('"#/components/', '"openapi#/components/'));
          const valid = ajv.validate(schema, r.body);
          expect(valid, `${route.method} ${route.path} ${r.status}: ${JSON.stringify(ajv.errors?.slice(0, 3))}`).to.equal(true);
        }
        checked.push(`${route.name} ${r.status}`);
      }
      expect(checked).to.have.length(routeTable.length);
    });
  });
