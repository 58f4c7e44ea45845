import { limits } from '../services/common/validation';
import { bulkItems, filled, id, type JsonSchema, nullableText, object, timeOfDay } from './body-schemas';
import { accessLevelFields, accessScheduleFields } from './fragments';
import { idParam, type RestRoute } from './route';

// Shapes and types only: times, weekdays, overlaps and the per-day limit are the service's rules.
const weekdayInterval = object(
  { weekday: { type: 'integer', minimum: 1, maximum: 7, description: 'ISO weekday: 1 Monday ... 7 Sunday.' }, start_time: timeOfDay, end_time: timeOfDay },
  ['weekday', 'start_time', 'end_time'],
);
const holidayInterval = object({ holiday_type: { type: 'integer', minimum: 1, maximum: 3 }, start_time: timeOfDay, end_time: timeOfDay }, [
  'holiday_type',
  'start_time',
  'end_time',
]);
const scheduleFields = {
  name: filled(limits.accessName),
  intervals: { type: 'array', maxItems: 21, items: weekdayInterval },
  holiday_intervals: { type: 'array', maxItems: 9, items: holidayInterval },
};
const levelFields = { name: filled(limits.accessName), schedule_id: id, door_ids: { type: 'array', maxItems: 256, items: id } };
const companyQuery = { type: 'object', properties: { company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } };

const exampleSchedule = {
  company_id: 1,
  name: 'Office hours',
  intervals: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start_time: '07:00', end_time: '19:00' })),
  holiday_intervals: [],
};

function crud(o: {
  resource: string;
  path: string;
  type: string;
  fields: string;
  fragment: string;
  create: JsonSchema;
  update: JsonSchema;
  wrapper: string;
  example: unknown;
  updateExample: unknown;
}): RestRoute[] {
  const one = `${o.path}/:id`;
  return [
    {
      name: `list${o.type}s`,
      method: 'GET',
      path: o.path,
      list: true,
      query: companyQuery,
      document: `query ($first: Int, $after: String, $companyId: Int) { ${o.resource}s(first: $first, after: $after, companyId: $companyId) { totalCount nodes { ...${o.fields} } } } ${o.fragment}`,
      resultField: `${o.resource}s`,
      status: 200,
      variables: ({ query }) => ({ companyId: query.company_id }),
    },
    {
      name: `get${o.type}`,
      method: 'GET',
      path: one,
      document: `query ($id: Int!) { ${o.resource}(id: $id) { ...${o.fields} } } ${o.fragment}`,
      resultField: o.resource,
      status: 200,
      variables: ({ params }) => ({ id: idParam(params.id) }),
    },
    {
      name: `create${o.type}`,
      method: 'POST',
      path: o.path,
      body: { schema: o.create, wrapper: o.wrapper, example: o.example },
      document: `mutation ($input: Create${o.type}Input!) { create${o.type}(input: $input) { ...${o.fields} } } ${o.fragment}`,
      resultField: `create${o.type}`,
      status: 201,
      variables: ({ body }) => ({ input: body }),
    },
    {
      name: `update${o.type}`,
      method: 'PUT',
      path: one,
      body: { schema: o.update, wrapper: o.wrapper, example: o.updateExample },
      document: `mutation ($id: Int!, $input: Update${o.type}Input!) { update${o.type}(id: $id, input: $input) { ...${o.fields} } } ${o.fragment}`,
      resultField: `update${o.type}`,
      status: 200,
      variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
    },
    {
      name: `delete${o.type}`,
      method: 'DELETE',
      path: one,
      document: `mutation ($id: Int!) { delete${o.type}(id: $id) { ...${o.fields} } } ${o.fragment}`,
      resultField: `delete${o.type}`,
      status: 200,
      variables: ({ params }) => ({ id: idParam(params.id) }),
    },
  ];
}

/** GET list, POST add, DELETE remove, POST .../sync of a level's members (employees or areas). */
function memberRoutes(o: {
  suffix: string;
  list: string;
  add: string;
  remove: string;
  sync: string;
  fields: string;
  itemType: string;
  refType: string;
  item: JsonSchema;
  ref: JsonSchema;
  example: unknown[];
  refExample: unknown[];
}): RestRoute[] {
  const path = `/public/v2/access_levels/:id/${o.suffix}`;
  const bulk = (name: string, method: 'POST' | 'DELETE', suffix: string, inputType: string, schema: JsonSchema, example: unknown[]): RestRoute => ({
    name,
    method,
    path: path + suffix,
    body: { schema: { ...bulkItems({}), items: schema }, field: 'items', example },
    document: `mutation ($anchor: Int!, $items: [${inputType}!]!) { ${name}(accessLevelId: $anchor, items: $items) { ${o.fields} } }`,
    resultField: name,
    status: 200,
    variables: ({ params, body }) => ({ anchor: idParam(params.id), items: body }),
  });
  return [
    {
      name: o.list,
      method: 'GET',
      path,
      list: true,
      document: `query ($anchor: Int!, $first: Int, $after: String) { ${o.list}(accessLevelId: $anchor, first: $first, after: $after) { totalCount nodes { ${o.fields} } } }`,
      resultField: o.list,
      status: 200,
      variables: ({ params }) => ({ anchor: idParam(params.id) }),
    },
    bulk(o.add, 'POST', '', o.itemType, o.item, o.example),
    bulk(o.remove, 'DELETE', '', o.refType, o.ref, o.refExample),
    bulk(o.sync, 'POST', '/sync', o.itemType, o.item, o.example),
  ];
}

export const accessRoutes: RestRoute[] = [
  ...crud({
    resource: 'accessSchedule',
    path: '/public/v2/access_schedules',
    type: 'AccessSchedule',
    fields: 'AccessScheduleFields',
    fragment: accessScheduleFields,
    create: object({ company_id: id, ...scheduleFields }, ['company_id', 'name']),
    update: object(scheduleFields),
    wrapper: 'access_schedule',
    example: exampleSchedule,
    updateExample: { intervals: [{ weekday: 1, start_time: '08:30', end_time: '12:30' }] },
  }),
  ...crud({
    resource: 'accessLevel',
    path: '/public/v2/access_levels',
    type: 'AccessLevel',
    fields: 'AccessLevelFields',
    fragment: accessLevelFields,
    create: object({ company_id: id, ...levelFields }, ['company_id', 'name', 'schedule_id']),
    update: object(levelFields),
    wrapper: 'access_level',
    example: { company_id: 1, name: 'Staff', schedule_id: 2, door_ids: [31, 32] },
    updateExample: { door_ids: [31] },
  }),
  ...memberRoutes({
    suffix: 'employees',
    list: 'accessLevelEmployees',
    add: 'addAccessLevelEmployees',
    remove: 'removeAccessLevelEmployees',
    sync: 'syncAccessLevelEmployees',
    fields: 'accessLevelId employeeId startDate endDate',
    itemType: 'AccessLevelEmployeeInput',
    refType: 'EmployeeRefInput',
    item: object({ employee_id: id, start_date: nullableText(limits.date), end_date: nullableText(limits.date) }, ['employee_id']),
    ref: object({ employee_id: id }, ['employee_id']),
    example: [{ employee_id: 12, start_date: '2026-12-01', end_date: '2027-02-28' }, { employee_id: 13 }],
    refExample: [{ employee_id: 12 }],
  }),
  ...memberRoutes({
    suffix: 'areas',
    list: 'accessLevelAreas',
    add: 'addAccessLevelAreas',
    remove: 'removeAccessLevelAreas',
    sync: 'syncAccessLevelAreas',
    fields: 'accessLevelId areaId',
    itemType: 'AreaRefInput',
    refType: 'AreaRefInput',
    item: object({ area_id: id }, ['area_id']),
    ref: object({ area_id: id }, ['area_id']),
    example: [{ area_id: 3 }],
    refExample: [{ area_id: 3 }],
  }),
];
