import { limits } from '../services/common/validation';
import { filled, id, nullableText, object, oneOf, text, timeOfDay } from './body-schemas';
import { idParam, type RestRoute } from './route';

const absenceTypeFields = `fragment AbsenceTypeFields on AbsenceType {
  id companyId name code paid unit annualAllowance carryOver allowNegative color createdAt updatedAt }`;
export const absenceRequestFields = `fragment AbsenceRequestFields on AbsenceRequest {
  id companyId employeeId absenceTypeId startDate endDate halfDay startTime endTime note state amount
  requestedByKeyId decidedByKeyId requestedByEmployeeId decidedByEmployeeId decidedAt decisionComment createdAt updatedAt }`;

const amount = { type: ['number', 'null'], minimum: 0, maximum: 10_000 };
const color = { type: ['string', 'null'], maxLength: limits.color };
const typeFields = {
  name: filled(limits.absenceTypeName),
  code: filled(limits.absenceCode),
  paid: { type: 'boolean' },
  unit: oneOf(['day', 'hour']),
  annual_allowance: amount,
  carry_over: { type: 'number', minimum: 0, maximum: 10_000 },
  allow_negative: { type: 'boolean' },
  color,
};
const createTypeBody = object({ company_id: id, ...typeFields }, ['company_id', 'name', 'code']);
const updateTypeBody = object(typeFields);
const createRequestBody = object(
  {
    employee_id: id,
    absence_type_id: id,
    start_date: text(limits.date),
    end_date: text(limits.date),
    half_day: { type: ['string', 'null'], enum: ['am', 'pm', null] },
    start_time: { ...timeOfDay, type: ['string', 'null'] },
    end_time: { ...timeOfDay, type: ['string', 'null'] },
    note: nullableText(limits.note),
  },
  ['employee_id', 'absence_type_id', 'start_date', 'end_date'],
);
const decisionBody = object({ comment: nullableText(limits.comment) });
const intQuery = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

const typeById = (name: string, method: RestRoute['method'], field: string): RestRoute => ({
  name,
  method,
  path: '/public/v2/absence_types/:id',
  document: `${method === 'GET' ? 'query' : 'mutation'} ($id: Int!) { ${field}(id: $id) { ...AbsenceTypeFields } } ${absenceTypeFields}`,
  resultField: field,
  status: 200,
  variables: ({ params }) => ({ id: idParam(params.id) }),
});

/** `POST /public/v2/absence_requests/{id}/approve|reject|cancel` with an optional comment (send `{}` without one). */
const decision = (name: string, suffix: string, field: string): RestRoute => ({
  name,
  method: 'POST',
  path: `/public/v2/absence_requests/:id/${suffix}`,
  body: { schema: decisionBody, example: { comment: 'Enjoy the week.' } },
  document: `mutation ($id: Int!, $comment: String) { ${field}(id: $id, comment: $comment) { ...AbsenceRequestFields } } ${absenceRequestFields}`,
  resultField: field,
  status: 200,
  variables: ({ params, body }) => ({ id: idParam(params.id), comment: (body as { comment?: string | null }).comment ?? null }),
});

export const absenceRoutes: RestRoute[] = [
  {
    name: 'listAbsenceTypes',
    method: 'GET',
    path: '/public/v2/absence_types',
    list: true,
    query: { type: 'object', properties: { company_id: intQuery } },
    document: `query ($first: Int, $after: String, $companyId: Int) {
      absenceTypes(first: $first, after: $after, companyId: $companyId) { totalCount nodes { ...AbsenceTypeFields } } } ${absenceTypeFields}`,
    resultField: 'absenceTypes',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  },
  typeById('getAbsenceType', 'GET', 'absenceType'),
  {
    name: 'createAbsenceType',
    method: 'POST',
    path: '/public/v2/absence_types',
    body: {
      schema: createTypeBody,
      wrapper: 'absence_type',
      example: { company_id: 1, name: 'Training', code: 'TRAIN', paid: true, unit: 'hour', annual_allowance: 40 },
    },
    document: `mutation ($input: CreateAbsenceTypeInput!) { createAbsenceType(input: $input) { ...AbsenceTypeFields } } ${absenceTypeFields}`,
    resultField: 'createAbsenceType',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateAbsenceType',
    method: 'PUT',
    path: '/public/v2/absence_types/:id',
    body: { schema: updateTypeBody, wrapper: 'absence_type', example: { annual_allowance: 28 } },
    document: `mutation ($id: Int!, $input: UpdateAbsenceTypeInput!) { updateAbsenceType(id: $id, input: $input) { ...AbsenceTypeFields } } ${absenceTypeFields}`,
    resultField: 'updateAbsenceType',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  typeById('deleteAbsenceType', 'DELETE', 'deleteAbsenceType'),
  {
    name: 'listAbsenceRequests',
    method: 'GET',
    path: '/public/v2/absence_requests',
    list: true,
    query: {
      type: 'object',
      properties: {
        company_id: intQuery,
        employee_id: intQuery,
        absence_type_id: intQuery,
        state: { type: 'string', enum: ['pending', 'approved', 'rejected', 'cancelled'] },
        start_date: { type: 'string', maxLength: limits.date, description: '`YYYY-MM-DD`: requests ending on or after it.' },
        end_date: { type: 'string', maxLength: limits.date, description: '`YYYY-MM-DD`: requests starting on or before it.' },
      },
    },
    document: `query ($first: Int, $after: String, $companyId: Int, $employeeId: Int, $absenceTypeId: Int, $state: String, $startDate: String, $endDate: String) {
      absenceRequests(first: $first, after: $after, companyId: $companyId, employeeId: $employeeId, absenceTypeId: $absenceTypeId, state: $state,
        startDate: $startDate, endDate: $endDate) { totalCount nodes { ...AbsenceRequestFields } } } ${absenceRequestFields}`,
    resultField: 'absenceRequests',
    status: 200,
    variables: ({ query }) => ({
      companyId: query.company_id,
      employeeId: query.employee_id,
      absenceTypeId: query.absence_type_id,
      state: query.state,
      startDate: query.start_date,
      endDate: query.end_date,
    }),
  },
  {
    name: 'getAbsenceRequest',
    method: 'GET',
    path: '/public/v2/absence_requests/:id',
    document: `query ($id: Int!) { absenceRequest(id: $id) { ...AbsenceRequestFields } } ${absenceRequestFields}`,
    resultField: 'absenceRequest',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createAbsenceRequest',
    method: 'POST',
    path: '/public/v2/absence_requests',
    body: {
      schema: createRequestBody,
      wrapper: 'absence_request',
      example: { employee_id: 12, absence_type_id: 3, start_date: '2026-08-03', end_date: '2026-08-07', note: 'Summer week' },
    },
    document: `mutation ($input: CreateAbsenceRequestInput!) { createAbsenceRequest(input: $input) { ...AbsenceRequestFields } } ${absenceRequestFields}`,
    resultField: 'createAbsenceRequest',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  decision('approveAbsenceRequest', 'approve', 'approveAbsenceRequest'),
  decision('rejectAbsenceRequest', 'reject', 'rejectAbsenceRequest'),
  decision('cancelAbsenceRequest', 'cancel', 'cancelAbsenceRequest'),
  {
    name: 'listAbsenceBalances',
    method: 'GET',
    path: '/public/v2/employees/:id/absence_balances',
    query: { type: 'object', properties: { year: { type: 'integer', minimum: 1900, maximum: 2199 } } },
    document: `query ($employeeId: Int!, $year: Int) { absenceBalances(employeeId: $employeeId, year: $year) {
      absenceTypeId year unit allowance carriedOver taken pending remaining } }`,
    resultField: 'absenceBalances',
    status: 200,
    variables: ({ params, query }) => ({ employeeId: idParam(params.id), year: query.year }),
  },
];
