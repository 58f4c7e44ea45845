import { limits } from '../services/common/validation';
import { id, nullableText, object, text } from './body-schemas';
import { shiftAssignmentFields } from './fragments';
import { idParam, type RestRoute } from './route';

// Exactly one of shift_id and roster_id (the service's rule, `shift_or_roster`).
const createBody = object({ shift_id: id, roster_id: id, employee_id: id, area_id: id, start_date: text(limits.date), end_date: nullableText(limits.date) }, [
  'start_date',
]);
const updateBody = object({ shift_id: id, roster_id: id, start_date: text(limits.date), end_date: nullableText(limits.date) });
const idFilter = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

export const shiftAssignmentRoutes: RestRoute[] = [
  {
    name: 'listShiftAssignments',
    method: 'GET',
    path: '/public/v2/shift_assignments',
    list: true,
    query: { type: 'object', properties: { shift_id: idFilter, roster_id: idFilter, employee_id: idFilter, area_id: idFilter } },
    document: `query ($first: Int, $after: String, $shiftId: Int, $rosterId: Int, $employeeId: Int, $areaId: Int) {
      shiftAssignments(first: $first, after: $after, shiftId: $shiftId, rosterId: $rosterId, employeeId: $employeeId, areaId: $areaId) { totalCount nodes { ...ShiftAssignmentFields } } } ${shiftAssignmentFields}`,
    resultField: 'shiftAssignments',
    status: 200,
    variables: ({ query }) => ({ shiftId: query.shift_id, rosterId: query.roster_id, employeeId: query.employee_id, areaId: query.area_id }),
  },
  {
    name: 'getShiftAssignment',
    method: 'GET',
    path: '/public/v2/shift_assignments/:id',
    document: `query ($id: Int!) { shiftAssignment(id: $id) { ...ShiftAssignmentFields } } ${shiftAssignmentFields}`,
    resultField: 'shiftAssignment',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createShiftAssignment',
    method: 'POST',
    path: '/public/v2/shift_assignments',
    body: { schema: createBody, wrapper: 'shift_assignment', example: { shift_id: 1, employee_id: 1, start_date: '2026-12-01' } },
    document: `mutation ($input: CreateShiftAssignmentInput!) { createShiftAssignment(input: $input) { ...ShiftAssignmentFields } } ${shiftAssignmentFields}`,
    resultField: 'createShiftAssignment',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateShiftAssignment',
    method: 'PUT',
    path: '/public/v2/shift_assignments/:id',
    body: { schema: updateBody, wrapper: 'shift_assignment', example: { end_date: '2026-12-31' } },
    document: `mutation ($id: Int!, $input: UpdateShiftAssignmentInput!) { updateShiftAssignment(id: $id, input: $input) { ...ShiftAssignmentFields } } ${shiftAssignmentFields}`,
    resultField: 'updateShiftAssignment',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteShiftAssignment',
    method: 'DELETE',
    path: '/public/v2/shift_assignments/:id',
    document: `mutation ($id: Int!) { deleteShiftAssignment(id: $id) { ...ShiftAssignmentFields } } ${shiftAssignmentFields}`,
    resultField: 'deleteShiftAssignment',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
