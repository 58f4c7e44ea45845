import { limits } from '../services/common/validation';
import { filled, id, nullableText, object, text } from './body-schemas';
import { idParam, MAX_LONG_ID, type RestRoute } from './route';

export const punchCorrectionFields = `fragment PunchCorrectionFields on PunchCorrection {
  id companyId employeeId punches { punchTime punchState } voidPunchId createdPunchIds firstDate lastDate reason state
  requestedByKeyId decidedByKeyId requestedByEmployeeId decidedByEmployeeId decidedAt decisionComment createdAt updatedAt }`;

const punchItem = object({ punch_time: text(limits.dateTime), punch_state: text(limits.punchState) }, ['punch_time', 'punch_state']);
const createBody = object(
  {
    employee_id: id,
    reason: filled(limits.reason),
    punch_time: text(limits.dateTime),
    punch_state: text(limits.punchState),
    punches: {
      type: 'array',
      maxItems: 124,
      items: punchItem,
      'x-error-codes': { maxItems: 'too_many_items' },
      'x-error-message': 'may hold at most 124 punches; split the correction',
    },
    void_punch_id: { type: 'integer', minimum: 1, maximum: MAX_LONG_ID },
  },
  ['employee_id', 'reason'],
);
const decisionBody = object({ comment: nullableText(limits.comment) });
const intQuery = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

/** `POST /public/v2/punch_corrections/{id}/approve|reject|cancel` with an optional comment (send `{}` without one). */
const decision = (name: string, suffix: string, field: string): RestRoute => ({
  name,
  method: 'POST',
  path: `/public/v2/punch_corrections/:id/${suffix}`,
  body: { schema: decisionBody, example: { comment: 'Confirmed with the shift lead.' } },
  document: `mutation ($id: Int!, $comment: String) { ${field}(id: $id, comment: $comment) { ...PunchCorrectionFields } } ${punchCorrectionFields}`,
  resultField: field,
  status: 200,
  variables: ({ params, body }) => ({ id: idParam(params.id), comment: (body as { comment?: string | null }).comment ?? null }),
});

export const punchCorrectionRoutes: RestRoute[] = [
  {
    name: 'listPunchCorrections',
    method: 'GET',
    path: '/public/v2/punch_corrections',
    list: true,
    query: {
      type: 'object',
      properties: {
        company_id: intQuery,
        employee_id: intQuery,
        state: { type: 'string', enum: ['pending', 'approved', 'rejected', 'cancelled'] },
        start_date: { type: 'string', maxLength: limits.date, description: '`YYYY-MM-DD`: corrections whose last date is on or after it.' },
        end_date: { type: 'string', maxLength: limits.date, description: '`YYYY-MM-DD`: corrections whose first date is on or before it.' },
      },
    },
    document: `query ($first: Int, $after: String, $companyId: Int, $employeeId: Int, $state: String, $startDate: String, $endDate: String) {
      punchCorrections(first: $first, after: $after, companyId: $companyId, employeeId: $employeeId, state: $state, startDate: $startDate, endDate: $endDate) {
        totalCount nodes { ...PunchCorrectionFields } } } ${punchCorrectionFields}`,
    resultField: 'punchCorrections',
    status: 200,
    variables: ({ query }) => ({
      companyId: query.company_id,
      employeeId: query.employee_id,
      state: query.state,
      startDate: query.start_date,
      endDate: query.end_date,
    }),
  },
  {
    name: 'getPunchCorrection',
    method: 'GET',
    path: '/public/v2/punch_corrections/:id',
    document: `query ($id: Int!) { punchCorrection(id: $id) { ...PunchCorrectionFields } } ${punchCorrectionFields}`,
    resultField: 'punchCorrection',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createPunchCorrection',
    method: 'POST',
    path: '/public/v2/punch_corrections',
    body: {
      schema: createBody,
      wrapper: 'punch_correction',
      example: { employee_id: 12, reason: 'Forgot to clock out', punch_time: '2026-03-03T17:30:00', punch_state: '1' },
    },
    document: `mutation ($input: CreatePunchCorrectionInput!) { createPunchCorrection(input: $input) { ...PunchCorrectionFields } } ${punchCorrectionFields}`,
    resultField: 'createPunchCorrection',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  decision('approvePunchCorrection', 'approve', 'approvePunchCorrection'),
  decision('rejectPunchCorrection', 'reject', 'rejectPunchCorrection'),
  decision('cancelPunchCorrection', 'cancel', 'cancelPunchCorrection'),
];
