import { expect } from 'chai';
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isAbstractType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLInputField,
} from 'graphql';
import { routeTable } from '../../src/rest/route-table';
import type { RestRoute } from '../../src/rest/route';
import { buildTimegateSchema } from '../../src/graphql/build-schema';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { inBatches } from '../support/in-batches';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';

// Every REST route and every GraphQL root field, with each date, time and number parameter (path
// ids, query parameters, paging, body fields, arguments and input fields) set to an extreme or
// malformed value in turn, the others valid: each answer is a 4xx, none a 5xx, each comes within
// the request timeout, and /healthz answers between routes. The service runs as a child process,
// so a request that held its event loop fails this test by its timeout instead of hanging it.

const REQUEST_TIMEOUT_MS = 10_000;
/** Stands for a JSON number no encoder writes (1e309 parses as Infinity): replaced in the raw text. */
const RAW_HUGE = '__raw_1e309__';

const DATES = [
  '0000-01-01',
  '9999-12-31',
  '10000-01-01',
  '+010000-01-01',
  '-0001-01-01',
  '1899-12-31',
  '2200-01-01',
  '2026-02-30',
  '2026-13-01',
  '',
  ' ',
  'NaN',
  '1e309',
  '9999-12-31T23:59:59Z',
  '0000-01-01T00:00:00+14:00',
];
const TIMES = ['24:00', '23:60', '-1:00', '99:99', '', 'NaN', '1e309', '9999-12-31'];
/** Numbers as a path or query string carries them. */
const NUMBER_TEXTS = ['-1', '0', '-2147483649', '2147483648', '9007199254740993', '99999999999999999999', '1e309', 'NaN', 'Infinity', '', '1.5', '0x10'];
/** Numbers in a JSON body or GraphQL variables (0 is a valid value of some fields, so it is not here). */
// oxlint-disable-next-line no-loss-of-precision -- 2^53 + 1 on purpose: a client may send it
const NUMBERS = [-1, -2147483648, 2147483647, 2147483648, 9007199254740993, 1e15, 1.5, RAW_HUGE, 'NaN', '', '1e309'];

/** Where the loop hid: sent for every date slot; of the other values a rotating share (the property test draws from all). */
const KEY_DATES = new Set(['0000-01-01', '9999-12-31', '10000-01-01', '+010000-01-01', '1899-12-31', '2200-01-01']);

function sweep<T>(kind: Kind, values: T[], index: number): T[] {
  return values.filter((value, i) => (kind === 'date' && KEY_DATES.has(value as string)) || (i + index) % 4 === 0);
}

type Kind = 'date' | 'time' | 'number' | 'text';
interface Slot {
  where: 'path' | 'query' | 'body';
  /** Path parameter, query parameter, or dotted path into the body (`options.start_date`, `0.employee_id`). */
  name: string;
  kind: Kind;
}

function kindOf(key: string, example: unknown): Kind | null {
  if (typeof example === 'number' || typeof example === 'boolean' || (Array.isArray(example) && typeof example[0] === 'number')) return 'number';
  if (typeof example !== 'string') return null;
  if (/date|punch_time/.test(key)) return 'date';
  if (/_time$/.test(key)) return 'time';
  return 'text';
}

function bodySlots(value: unknown, prefix: string): Slot[] {
  if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object') return bodySlots(value[0], `${prefix}0.`);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    const kind = kindOf(key, child);
    if (kind) return [{ where: 'body' as const, name: `${prefix}${key}`, kind }];
    return bodySlots(child, `${prefix}${key}.`);
  });
}

/** The JSON Schema of a dotted body path (`0.` steps into an array's items), or null where it cannot be followed. */
function schemaAt(schema: any, dotted: string): any {
  let node = schema;
  for (const key of dotted.split('.')) {
    if (!node) return null;
    node = key === '0' && node.items ? node.items : (node.properties?.[key] ?? null);
  }
  return node;
}

/**
 * Routes that take no input at all (no path, query or body parameter): nothing to drive. A sandbox's
 * virtual terminals and its reset; the calling employee's own profile and reports.
 */
const WITHOUT_INPUT = new Set(['listVirtualTerminals', 'resetSandbox', 'getMe', 'listMyReports']);

function slotsOf(route: RestRoute): Slot[] {
  const slots: Slot[] = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({ where: 'path', name: m[1]!, kind: 'number' }));
  for (const [name, schema] of Object.entries((route.query?.properties ?? {}) as Record<string, { type?: string }>)) {
    if (schema.type === 'integer' || schema.type === 'boolean') slots.push({ where: 'query', name, kind: 'number' });
    else if (/date/.test(name)) slots.push({ where: 'query', name, kind: 'date' });
  }
  if (route.list) slots.push({ where: 'query', name: 'page', kind: 'number' }, { where: 'query', name: 'per_page', kind: 'number' });
  if (route.body) slots.push(...bodySlots(route.body.example, ''));
  return slots;
}

function valuesFor(slot: Slot): unknown[] {
  // An empty path segment is another path (`/employees/` is the list), not a value of `:id`.
  if (slot.where === 'path') return NUMBER_TEXTS.filter((v) => v !== '');
  if (slot.where === 'query') return slot.kind === 'date' ? DATES : NUMBER_TEXTS;
  if (slot.kind === 'date') return [...DATES, -1];
  if (slot.kind === 'time') return [...TIMES, -1];
  if (slot.kind === 'number') return NUMBERS;
  return [-1, 2147483648, 1.5, RAW_HUGE];
}

function setPath(target: Record<string, any>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node: any = target;
  for (const key of keys.slice(0, -1)) node = node[key];
  node[keys.at(-1)!] = value;
}

describe('input ranges under extreme and malformed values: every REST route and GraphQL root field', () => {
  let t: TestApp;
  let service: ServiceProcess;
  let key: string;
  const ids: Record<string, number> = {};
  let serial = '';

  before(async function () {
    this.timeout(120_000);
    t = await startTestApp({ TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'input-ranges-fuzz');
    const ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10, maxEmployees: 100 });
    key = ws.key;
    ids.workspace = ws.id;
    const company = await createCompany(t.url, key);
    ids.companies = company.id;
    ids.employees = (await createEmployee(t.url, key, company.id, { pin: '21' })).id;
    const device = await createDevice(t.url, key, company.id);
    ids.devices = device.id;
    serial = device.serial_number;
    ids.areas = (await createArea(t.url, key, company.id)).id;
    const post = async (path: string, body: unknown) => {
      const r = await rest(t.url, 'POST', path, { key, body });
      if (r.status >= 300) throw new Error(`${path}: ${r.status} ${r.text}`);
      return r.body.id as number;
    };
    ids.shifts = await post('/public/v2/shifts', { company_id: company.id, name: 'Day', start_time: '08:00', end_time: '17:00', is_default: true });
    ids.holidays = await post('/public/v2/holidays', { company_id: company.id, date: '2026-12-25', name: 'Christmas' });
    ids.shift_assignments = await post('/public/v2/shift_assignments', { shift_id: ids.shifts, employee_id: ids.employees, start_date: '2026-01-01' });
    ids.pay_periods = await post('/public/v2/pay_periods', { company_id: company.id, start_date: '2026-10-01', end_date: '2026-10-31' });
    ids.access_schedules = (await rest(t.url, 'GET', `/public/v2/access_schedules?company_id=${company.id}`, { key })).body[0].id;
    ids.access_levels = await post('/public/v2/access_levels', { company_id: company.id, name: 'Staff', schedule_id: ids.access_schedules, door_ids: [] });
    ids.webhooks = await post('/public/v2/webhooks', { url: 'http://127.0.0.1:9/hook', event_types: ['device.offline'] });
    ids.verification_states = (await rest(t.url, 'GET', '/public/v2/verification_states', { key })).body[0].id;
    ids.punches = await post('/public/v2/punches', {
      employee_id: ids.employees,
      device_id: ids.devices,
      company_id: company.id,
      punch_time: '2026-11-02T08:00:00Z',
      punch_state: '0',
    });
    service = await startServiceProcess(t.config.databaseUrl!, { TIMEGATE_WEBHOOK_POLL_MS: '3600000' });
  });
  after(async () => {
    await service?.kill('SIGKILL');
    await t?.stop();
  });

  async function send(method: string, path: string, body?: string, contentType = 'application/json') {
    const response = await fetch(service.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': contentType } : {}) },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    return { status: response.status, text, type: response.headers.get('content-type') ?? '' };
  }

  const healthz = async (after: string) => {
    const r = await fetch(`${service.url}/healthz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(r.status, `/healthz after ${after}`).to.equal(200);
  };

  /** The id a path `:id` of this route stands for (its resource's fixture). */
  const idOfPath = (route: RestRoute) => {
    const resource = /\/(?:public\/v2|v1)\/([a-z_]+)\/:id/.exec(route.path)?.[1] ?? '';
    return ids[resource] ?? 1;
  };

  /** The route's example body with the fixtures' ids, so that the value under test is its only fault. */
  function validBody(route: RestRoute): unknown {
    const text = JSON.stringify(route.body!.example)
      .replace(/"company_id":\d+/g, `"company_id":${ids.companies}`)
      .replace(/"employee_id":\d+/g, `"employee_id":${ids.employees}`)
      .replace(/"device_id":\d+/g, `"device_id":${ids.devices}`)
      .replace(/"area_id":\d+/g, `"area_id":${ids.areas}`)
      .replace(/"shift_id":\d+/g, `"shift_id":${ids.shifts}`)
      .replace(/"schedule_id":\d+/g, `"schedule_id":${ids.access_schedules}`)
      .replace(/"door_ids":\[[\d,]*\]/g, '"door_ids":[]')
      .replace(/"device_serial":"[^"]*"/g, `"device_serial":"${serial}"`)
      .replace(/"permission_id":14/g, '"permission_id":0');
    return JSON.parse(text);
  }

  function restRequest(route: RestRoute, slot: Slot, value: unknown) {
    const params: Record<string, string> = { id: String(idOfPath(route)), actionId: 'x' };
    if (slot.where === 'path') params[slot.name] = String(value);
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]!));
    const query = new URLSearchParams();
    if ((route.query as { required?: string[] } | undefined)?.required?.includes('start_date')) {
      query.set('start_date', '2026-11-01');
      query.set('end_date', '2026-11-30');
    }
    if (slot.where === 'query') query.set(slot.name, String(value));
    let body: string | undefined;
    if (route.body) {
      const valid = validBody(route) as Record<string, unknown>;
      if (slot.where === 'body') setPath(valid, slot.name, value);
      body = JSON.stringify(valid).replaceAll(`"${RAW_HUGE}"`, '1e309');
    }
    const search = query.toString();
    return { method: route.method, path: search ? `${path}?${search}` : path, body, contentType: route.imageBody ? 'image/png' : 'application/json' };
  }

  async function expectRefused(what: string, request: { method: string; path: string; body?: string; contentType?: string }) {
    const r = await send(request.method, request.path, request.body, request.contentType);
    const said = `${what}: ${request.method} ${request.path} ${request.body?.slice(0, 200) ?? ''} -> ${r.status} ${r.text.slice(0, 300)}`;
    expect(r.status, said).to.be.within(400, 499);
    expect(r.type, said).to.match(/^application\/json/);
  }

  it('REST: each date, time and number parameter of every route at an extreme is a 4xx in bounded time, /healthz alive', async function () {
    this.timeout(300_000);
    const noSlot: string[] = [];
    let requests = 0;
    for (const [index, route] of routeTable.entries()) {
      const slots = slotsOf(route);
      if (slots.length === 0 && !WITHOUT_INPUT.has(route.name)) noSlot.push(`${route.method} ${route.path}`);
      // A refused request changes nothing: the route's requests go a few at a time, then /healthz.
      const cases = slots.flatMap((slot) => {
        // A `number` (an allowance in days or hours) takes a fraction such as 1.5: a valid value there, not an extreme.
        const fractional = slot.where === 'body' && [schemaAt(route.body!.schema, slot.name)?.type].flat().includes('number');
        return sweep(slot.kind, valuesFor(slot), index)
          .filter((value) => !(fractional && value === 1.5))
          .map((value) => ({ slot, value }));
      });
      await inBatches(cases, async ({ slot, value }) => {
        await expectRefused(`${slot.where} ${slot.name}=${JSON.stringify(value)}`, restRequest(route, slot, value));
        requests++;
      });
      await healthz(`${route.method} ${route.path}`);
    }
    expect(noSlot, 'routes with no parameter to drive').to.deep.equal([]);
    expect(requests).to.be.greaterThan(400);
  });

  it('REST: random routes, parameters and extreme values (property)', async function () {
    this.timeout(120_000);
    const pick = fc
      .constantFrom(...routeTable.filter((route) => !WITHOUT_INPUT.has(route.name)))
      .chain((route) =>
        fc.constantFrom(...slotsOf(route)).chain((slot) => fc.tuple(fc.constant(route), fc.constant(slot), fc.constantFrom(...valuesFor(slot)))),
      );
    await fc.assert(
      fc.asyncProperty(pick, async ([route, slot, value]) => {
        await expectRefused(`${slot.where} ${slot.name}=${JSON.stringify(value)}`, restRequest(route, slot, value));
      }),
      { numRuns: 150 },
    );
    await healthz('the random requests');
  });

  describe('GraphQL', () => {
    interface GqlSlot {
      /** Argument name, then input field names (a list item is `0`). */
      path: string[];
      kind: Kind;
      /** A Float (an allowance in days or hours): a fraction such as 1.5 is a valid value there, not an extreme. */
      float?: boolean;
    }

    function scalarKind(name: string, typeName: string): Kind | null {
      if (typeName === 'Int' || typeName === 'SafeInt' || typeName === 'Float') return 'number';
      if (typeName !== 'String') return null;
      if (/^(startTime|endTime)$/.test(name)) return 'time';
      if (/date|punchTime/i.test(name)) return 'date';
      return null;
    }

    function slotsIn(name: string, type: GraphQLInputType, path: string[], depth = 0): GqlSlot[] {
      const nullable = getNullableType(type);
      if (isListType(nullable)) {
        const item = nullable.ofType as GraphQLInputType;
        if (isInputObjectType(getNamedType(item))) return slotsIn(name, item, [...path, '0'], depth);
        const kind = scalarKind(name, getNamedType(item).name);
        return kind ? [{ path, kind }] : [];
      }
      if (isInputObjectType(nullable)) {
        if (depth > 3) return [];
        return Object.values(nullable.getFields()).flatMap((f: GraphQLInputField) => slotsIn(f.name, f.type, [...path, f.name], depth + 1));
      }
      const kind = scalarKind(name, getNamedType(type).name);
      return kind ? [{ path, kind, float: getNamedType(type).name === 'Float' }] : [];
    }

    function fieldSlots(field: GraphQLField<unknown, unknown>): GqlSlot[] {
      return field.args.flatMap((arg: GraphQLArgument) => slotsIn(arg.name, arg.type, [arg.name]));
    }

    /** A valid value for a required argument or input field, by its name (the fixtures' ids). */
    function filler(name: string, type: GraphQLInputType, owner: string): unknown {
      const nullable = getNullableType(type);
      if (isListType(nullable)) return [];
      if (isInputObjectType(nullable)) {
        const value: Record<string, unknown> = {};
        for (const f of Object.values(nullable.getFields())) if (isNonNullType(f.type)) value[f.name] = filler(f.name, f.type, owner);
        return value;
      }
      if (isEnumType(nullable)) return nullable.getValues()[0]!.value;
      const named = getNamedType(type).name;
      if (named === 'Boolean') return true;
      if (named === 'Int' || named === 'SafeInt' || named === 'Float') {
        const byName: Record<string, number> = {
          companyId: ids.companies!,
          employeeId: ids.employees!,
          deviceId: ids.devices!,
          areaId: ids.areas!,
          shiftId: ids.shifts!,
          scheduleId: ids.access_schedules!,
          accessLevelId: ids.access_levels!,
          workspaceId: ids.workspace!,
          permissionId: 0,
          duration: 5,
          door: 1,
          weekday: 1,
          holidayType: 1,
          first: 10,
        };
        if (name === 'id') {
          const owners: [RegExp, string][] = [
            [/shiftassignment/i, 'shift_assignments'],
            [/payperiod/i, 'pay_periods'],
            [/accessschedule/i, 'access_schedules'],
            [/accesslevel/i, 'access_levels'],
            [/webhook/i, 'webhooks'],
            [/verificationstate/i, 'verification_states'],
            [/holiday/i, 'holidays'],
            [/shift/i, 'shifts'],
            [/punch/i, 'punches'],
            [/employee/i, 'employees'],
            [/device/i, 'devices'],
            [/area/i, 'areas'],
            [/company/i, 'companies'],
          ];
          return ids[owners.find(([re]) => re.test(owner))?.[1] ?? ''] ?? 1;
        }
        return byName[name] ?? 1;
      }
      const strings: Record<string, string> = {
        startDate: '2026-11-01',
        endDate: '2026-11-30',
        date: '2026-12-25',
        punchTime: '2026-11-21T08:00:00Z',
        startTime: '08:00',
        endTime: '17:00',
        timeZone: 'UTC',
        url: 'http://127.0.0.1:9/x',
        value: '7',
        punchState: '0',
        serialNumber: 'SNFUZZ1',
        deviceSerial: serial,
        code: 'FZ1',
        pin: '99',
      };
      return strings[name] ?? 'x';
    }

    function operation(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, slot: GqlSlot, value: unknown) {
      const variables: Record<string, unknown> = {};
      for (const arg of field.args) {
        if (arg.name === slot.path[0] || isNonNullType(arg.type)) variables[arg.name] = filler(arg.name, arg.type, field.name);
      }
      // Walk to the slot, creating what is missing on the way (an optional input field, a list item).
      let node: any = variables;
      let type: GraphQLInputType = field.args.find((a) => a.name === slot.path[0])!.type;
      for (const [i, step] of slot.path.entries()) {
        const last = i === slot.path.length - 1;
        if (last) {
          node[step] = isListType(getNullableType(type)) ? [value] : value;
          break;
        }
        const nullable = getNullableType(type);
        if (isListType(nullable)) {
          type = nullable.ofType as GraphQLInputType;
          node[step] = [filler('', type, field.name)];
          node = node[step][0];
          type = getNullableType(type) as GraphQLInputType;
          continue;
        }
        if (node[step] == null) node[step] = filler(step, type, field.name);
        node = node[step];
        const next = slot.path[i + 1]!;
        if (next === '0') continue;
        type = (getNullableType(type) as any).getFields?.()[next]?.type ?? type;
      }
      const declared = field.args.filter((a) => a.name in variables);
      const returns = getNamedType(field.type);
      const selection = isObjectType(returns) || isAbstractType(returns) ? ' { __typename }' : '';
      const query = `${kind} (${declared.map((a) => `$${a.name}: ${String(a.type)}`).join(', ')}) { ${field.name}(${declared.map((a) => `${a.name}: $${a.name}`).join(', ')})${selection} }`;
      return { query: declared.length ? query : `${kind} { ${field.name}${selection} }`, variables };
    }

    it('each date, time and number argument and input field of every root field at an extreme is refused (4xx, never 5xx), /healthz alive', async function () {
      this.timeout(300_000);
      const schema = await buildTimegateSchema();
      let fields = 0;
      for (const kind of ['query', 'mutation'] as const) {
        const root = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
        for (const field of Object.values(root.getFields())) {
          const slots = fieldSlots(field);
          if (slots.length === 0) continue;
          fields++;
          // A refused request changes nothing: the field's requests go a few at a time, then /healthz.
          const cases = [...slots.entries()].flatMap(([s, slot]) => {
            const values = slot.kind === 'date' ? DATES : slot.kind === 'time' ? TIMES : NUMBERS;
            return sweep(slot.kind, values, s + fields)
              .filter((value) => !(slot.float && value === 1.5))
              .map((value) => ({ slot, value }));
          });
          await inBatches(cases, async ({ slot, value }) => {
            const { query, variables } = operation(kind, field, slot, value);
            const body = JSON.stringify({ query, variables }).replaceAll(`"${RAW_HUGE}"`, '1e309');
            const r = await send('POST', '/graphql', body);
            const said = `${field.name} ${slot.path.join('.')}=${JSON.stringify(value)}: ${body.slice(0, 300)} -> ${r.status} ${r.text.slice(0, 400)}`;
            expect(r.status, said).to.be.below(500);
            const answer = JSON.parse(r.text) as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] };
            // A filter by an id no row has (any Int, negative too) is an empty list: a valid question.
            // So is a filter by a list of ids (`employees(ids:)`).
            const idFilter =
              kind === 'query' &&
              slot.path.length === 1 &&
              /(Id|^ids)$/.test(slot.path[0]!) &&
              Number.isInteger(value) &&
              (value as number) >= -(2 ** 31) &&
              (value as number) < 2 ** 31;
            if (idFilter && !answer.errors) return;
            expect(answer.errors, `${said}: refused`).to.be.an('array').that.is.not.empty;
            expect(answer.errors![0]!.extensions?.code, said).to.be.oneOf([
              'validation_failed',
              'not_found',
              'forbidden',
              'query_too_complex',
              'BAD_USER_INPUT',
              'GRAPHQL_VALIDATION_FAILED',
            ]);
            expect(answer.data?.[field.name] ?? null, said).to.equal(null);
          });
          await healthz(field.name);
        }
      }
      expect(fields).to.be.greaterThan(50);
    });
  });
});
