import { limits } from '../services/common/validation';
import { filled, id, object, text } from './body-schemas';
import { punchFields } from './fragments';
import { idParam, MAX_LONG_ID, type RestRoute } from './route';

// Dates and the state value are checked by the service, which names the field and the format.
const createPunchBody = object({ employee_id: id, device_id: id, company_id: id, punch_time: text(limits.dateTime), punch_state: filled(limits.punchState) }, [
  'employee_id',
  'device_id',
  'company_id',
  'punch_time',
  'punch_state',
]);

const listQuery = {
  type: 'object',
  properties: {
    start_date: { type: 'string', maxLength: limits.dateTime },
    end_date: { type: 'string', maxLength: limits.dateTime },
    employee_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    device_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
  },
};

export const punchRoutes: RestRoute[] = [
  {
    name: 'listPunches',
    method: 'GET',
    path: '/public/v2/punches',
    list: true,
    query: listQuery,
    document: `query ($first: Int, $after: String, $startDate: String, $endDate: String, $employeeId: Int, $deviceId: Int, $companyId: Int) {
      punches(first: $first, after: $after, startDate: $startDate, endDate: $endDate, employeeId: $employeeId, deviceId: $deviceId, companyId: $companyId) {
        totalCount nodes { ...PunchFields } } } ${punchFields}`,
    resultField: 'punches',
    status: 200,
    variables: ({ query }) => ({
      startDate: query.start_date,
      endDate: query.end_date,
      employeeId: query.employee_id,
      deviceId: query.device_id,
      companyId: query.company_id,
    }),
  },
  {
    name: 'getPunch',
    method: 'GET',
    path: '/public/v2/punches/:id',
    longId: true,
    document: `query ($id: SafeInt!) { punch(id: $id) { ...PunchFields } } ${punchFields}`,
    resultField: 'punch',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id, MAX_LONG_ID) }),
  },
  {
    name: 'createPunch',
    method: 'POST',
    path: '/public/v2/punches',
    body: {
      schema: createPunchBody,
      wrapper: 'punch',
      example: { employee_id: 1, device_id: 1, company_id: 1, punch_time: '2026-11-21T08:59:30+01:00', punch_state: '0' },
    },
    document: `mutation ($input: CreatePunchInput!) { createPunch(input: $input) { created punch { ...PunchFields } } } ${punchFields}`,
    resultField: 'createPunch.punch',
    // A repeated punch is not created again: 200 with the stored punch instead of 201.
    status: (data) => (data.createPunch.created ? 201 : 200),
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'voidPunch',
    method: 'POST',
    path: '/public/v2/punches/:id/void',
    body: { schema: object({ reason: filled(limits.reason) }, ['reason']), example: { reason: 'Punched twice at the wrong terminal' } },
    longId: true,
    document: `mutation ($id: SafeInt!, $reason: String!) { voidPunch(id: $id, reason: $reason) { ...PunchFields } } ${punchFields}`,
    resultField: 'voidPunch',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id, MAX_LONG_ID), reason: (body as { reason: string }).reason }),
  },
];
