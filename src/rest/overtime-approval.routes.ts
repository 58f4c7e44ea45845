import { limits } from '../services/common/validation';
import { id, nullableText, object, text } from './body-schemas';
import { idParam, type RestRoute } from './route';

const overtimeApprovalFields = `fragment OvertimeApprovalFields on OvertimeApproval {
  id companyId employeeId date state minutes note requestedByKeyId decidedByKeyId decidedAt decisionComment createdAt updatedAt }`;

const createBody = object({ employee_id: id, date: text(limits.date), note: nullableText(limits.note) }, ['employee_id', 'date']);
const approveBody = object({ comment: nullableText(limits.comment), minutes: { type: ['integer', 'null'] } });
const rejectBody = object({ comment: nullableText(limits.comment) });
const periodBody = object(
  {
    company_id: id,
    employee_ids: {
      type: 'array',
      maxItems: 1000,
      items: id,
      'x-error-codes': { maxItems: 'too_many_items' },
      'x-error-message': 'may name at most 1000 employees; split the request',
    },
    start_date: text(limits.date),
    end_date: text(limits.date),
    comment: nullableText(limits.comment),
  },
  ['start_date', 'end_date'],
);
const intQuery = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

export const overtimeApprovalRoutes: RestRoute[] = [
  {
    name: 'listOvertimeApprovals',
    method: 'GET',
    path: '/public/v2/overtime_approvals',
    list: true,
    query: {
      type: 'object',
      properties: {
        company_id: intQuery,
        employee_id: intQuery,
        state: { type: 'string', enum: ['pending', 'approved', 'rejected'] },
        start_date: { type: 'string', maxLength: limits.date, description: '`YYYY-MM-DD`: approvals of this date or later.' },
        end_date: { type: 'string', maxLength: limits.date, description: '`YYYY-MM-DD`: approvals of this date or earlier.' },
      },
    },
    document: `query ($first: Int, $after: String, $companyId: Int, $employeeId: Int, $state: String, $startDate: String, $endDate: String) {
      overtimeApprovals(first: $first, after: $after, companyId: $companyId, employeeId: $employeeId, state: $state, startDate: $startDate, endDate: $endDate) {
        totalCount nodes { ...OvertimeApprovalFields } } } ${overtimeApprovalFields}`,
    resultField: 'overtimeApprovals',
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
    name: 'getOvertimeApproval',
    method: 'GET',
    path: '/public/v2/overtime_approvals/:id',
    document: `query ($id: Int!) { overtimeApproval(id: $id) { ...OvertimeApprovalFields } } ${overtimeApprovalFields}`,
    resultField: 'overtimeApproval',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createOvertimeApproval',
    method: 'POST',
    path: '/public/v2/overtime_approvals',
    body: { schema: createBody, wrapper: 'overtime_approval', example: { employee_id: 12, date: '2026-03-03', note: 'Stayed for the stock count' } },
    document: `mutation ($input: CreateOvertimeApprovalInput!) { createOvertimeApproval(input: $input) { ...OvertimeApprovalFields } } ${overtimeApprovalFields}`,
    resultField: 'createOvertimeApproval',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'approveOvertimePeriod',
    method: 'POST',
    path: '/public/v2/overtime_approvals/approve',
    body: {
      schema: periodBody,
      example: { company_id: 1, start_date: '2026-03-01', end_date: '2026-03-31', comment: 'March overtime checked against the rota' },
    },
    document: `mutation ($input: ApproveOvertimePeriodInput!) { approveOvertimePeriod(input: $input) { count approvals { ...OvertimeApprovalFields } } } ${overtimeApprovalFields}`,
    resultField: 'approveOvertimePeriod',
    status: 200,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'rejectOvertimePeriod',
    method: 'POST',
    path: '/public/v2/overtime_approvals/reject',
    body: {
      schema: periodBody,
      example: { company_id: 1, start_date: '2026-03-03', end_date: '2026-03-03', comment: 'Overtime of the stock count not agreed' },
    },
    document: `mutation ($input: RejectOvertimePeriodInput!) { rejectOvertimePeriod(input: $input) { count approvals { ...OvertimeApprovalFields } } } ${overtimeApprovalFields}`,
    resultField: 'rejectOvertimePeriod',
    status: 200,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'approveOvertime',
    method: 'POST',
    path: '/public/v2/overtime_approvals/:id/approve',
    body: { schema: approveBody, example: { comment: 'Agreed beforehand', minutes: 60 } },
    document: `mutation ($id: Int!, $comment: String, $minutes: Int) { approveOvertime(id: $id, comment: $comment, minutes: $minutes) { ...OvertimeApprovalFields } } ${overtimeApprovalFields}`,
    resultField: 'approveOvertime',
    status: 200,
    variables: ({ params, body }) => {
      const { comment, minutes } = body as { comment?: string | null; minutes?: number | null };
      return { id: idParam(params.id), comment: comment ?? null, minutes: minutes ?? null };
    },
  },
  {
    name: 'rejectOvertime',
    method: 'POST',
    path: '/public/v2/overtime_approvals/:id/reject',
    body: { schema: rejectBody, example: { comment: 'Not agreed' } },
    document: `mutation ($id: Int!, $comment: String) { rejectOvertime(id: $id, comment: $comment) { ...OvertimeApprovalFields } } ${overtimeApprovalFields}`,
    resultField: 'rejectOvertime',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), comment: (body as { comment?: string | null }).comment ?? null }),
  },
];
