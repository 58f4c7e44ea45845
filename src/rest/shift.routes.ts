import { limits } from '../services/common/validation';
import { filled, id, type JsonSchema, object, oneOf, payPolicySchema, timeOfDay, timeZoneSchema } from './body-schemas';
import { shiftFields } from './fragments';
import { idParam, type RestRoute } from './route';

// Shapes and types only; formats (HH:MM, zones, weekdays, minute ranges) are the service's rules.
const minutes: JsonSchema = { type: 'integer' };
const shiftBodyFields = {
  name: filled(limits.shiftName),
  start_time: timeOfDay,
  end_time: timeOfDay,
  time_zone: timeZoneSchema,
  workdays: { type: 'array', items: { type: 'integer' }, maxItems: 7 },
  break_minutes: minutes,
  break_after_minutes: minutes,
  grace_in_minutes: minutes,
  grace_out_minutes: minutes,
  check_in_before_minutes: minutes,
  check_out_after_minutes: minutes,
  pairing: oneOf(['first_last', 'alternating', 'by_state']),
  is_default: { type: 'boolean' },
  rounding_minutes: { type: ['integer', 'null'] },
  rounding_mode: oneOf(['nearest', 'down', 'up']),
  recorded_break: oneOf(['replaces', 'adds', 'tops_up']),
  pay_policy: payPolicySchema(false),
  flexible: { type: 'boolean' },
  core_start: { ...timeOfDay, type: ['string', 'null'] },
  core_end: { ...timeOfDay, type: ['string', 'null'] },
  required_minutes: { type: ['integer', 'null'] },
};
const createShiftBody = object({ company_id: id, ...shiftBodyFields }, ['company_id', 'name', 'start_time', 'end_time']);
const updateShiftBody = object(shiftBodyFields);

export const shiftRoutes: RestRoute[] = [
  {
    name: 'listShifts',
    method: 'GET',
    path: '/public/v2/shifts',
    list: true,
    query: { type: 'object', properties: { company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } },
    document: `query ($first: Int, $after: String, $companyId: Int) {
      shifts(first: $first, after: $after, companyId: $companyId) { totalCount nodes { ...ShiftFields } } } ${shiftFields}`,
    resultField: 'shifts',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  },
  {
    name: 'getShift',
    method: 'GET',
    path: '/public/v2/shifts/:id',
    document: `query ($id: Int!) { shift(id: $id) { ...ShiftFields } } ${shiftFields}`,
    resultField: 'shift',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createShift',
    method: 'POST',
    path: '/public/v2/shifts',
    body: {
      schema: createShiftBody,
      wrapper: 'shift',
      example: { company_id: 1, name: 'Night', start_time: '22:00', end_time: '06:00', workdays: [1, 2, 3, 4, 5], break_minutes: 30, grace_in_minutes: 5 },
    },
    document: `mutation ($input: CreateShiftInput!) { createShift(input: $input) { ...ShiftFields } } ${shiftFields}`,
    resultField: 'createShift',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateShift',
    method: 'PUT',
    path: '/public/v2/shifts/:id',
    body: { schema: updateShiftBody, wrapper: 'shift', example: { end_time: '06:30', is_default: true } },
    document: `mutation ($id: Int!, $input: UpdateShiftInput!) { updateShift(id: $id, input: $input) { ...ShiftFields } } ${shiftFields}`,
    resultField: 'updateShift',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteShift',
    method: 'DELETE',
    path: '/public/v2/shifts/:id',
    document: `mutation ($id: Int!) { deleteShift(id: $id) { ...ShiftFields } } ${shiftFields}`,
    resultField: 'deleteShift',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
