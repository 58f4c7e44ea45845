import { limits } from '../services/common/validation';
import { id, object, text } from './body-schemas';
import { scheduleOverrideFields } from './fragments';
import { idParam, type RestRoute } from './route';

const nullableShift = { type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 };
// `shift_id` is required when creating: null says "a day off" explicitly.
const createBody = object({ employee_id: id, date: text(limits.date), shift_id: nullableShift }, ['employee_id', 'date', 'shift_id']);
const updateBody = object({ date: text(limits.date), shift_id: nullableShift });
const idFilter = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

export const scheduleOverrideRoutes: RestRoute[] = [
  {
    name: 'listScheduleOverrides',
    method: 'GET',
    path: '/public/v2/schedule_overrides',
    list: true,
    query: {
      type: 'object',
      properties: { employee_id: idFilter, start_date: { type: 'string', maxLength: limits.date }, end_date: { type: 'string', maxLength: limits.date } },
    },
    document: `query ($first: Int, $after: String, $employeeId: Int, $startDate: String, $endDate: String) {
      scheduleOverrides(first: $first, after: $after, employeeId: $employeeId, startDate: $startDate, endDate: $endDate) { totalCount nodes { ...ScheduleOverrideFields } } } ${scheduleOverrideFields}`,
    resultField: 'scheduleOverrides',
    status: 200,
    variables: ({ query }) => ({ employeeId: query.employee_id, startDate: query.start_date, endDate: query.end_date }),
  },
  {
    name: 'getScheduleOverride',
    method: 'GET',
    path: '/public/v2/schedule_overrides/:id',
    document: `query ($id: Int!) { scheduleOverride(id: $id) { ...ScheduleOverrideFields } } ${scheduleOverrideFields}`,
    resultField: 'scheduleOverride',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createScheduleOverride',
    method: 'POST',
    path: '/public/v2/schedule_overrides',
    body: { schema: createBody, wrapper: 'schedule_override', example: { employee_id: 1, date: '2026-12-24', shift_id: null } },
    document: `mutation ($input: CreateScheduleOverrideInput!) { createScheduleOverride(input: $input) { ...ScheduleOverrideFields } } ${scheduleOverrideFields}`,
    resultField: 'createScheduleOverride',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateScheduleOverride',
    method: 'PUT',
    path: '/public/v2/schedule_overrides/:id',
    body: { schema: updateBody, wrapper: 'schedule_override', example: { shift_id: 2 } },
    document: `mutation ($id: Int!, $input: UpdateScheduleOverrideInput!) { updateScheduleOverride(id: $id, input: $input) { ...ScheduleOverrideFields } } ${scheduleOverrideFields}`,
    resultField: 'updateScheduleOverride',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteScheduleOverride',
    method: 'DELETE',
    path: '/public/v2/schedule_overrides/:id',
    document: `mutation ($id: Int!) { deleteScheduleOverride(id: $id) { ...ScheduleOverrideFields } } ${scheduleOverrideFields}`,
    resultField: 'deleteScheduleOverride',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
