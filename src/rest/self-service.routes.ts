import { filled, id, nullableText, object, text, timeOfDay } from './body-schemas';
import { absenceRequestFields } from './absence.routes';
import { punchFields } from './fragments';
import { punchCorrectionFields } from './punch-correction.routes';
import { idParam, MAX_LONG_ID, type RestRoute } from './route';

// Self-service (docs/self-service.md): what an employee token or a self-service session reaches
// (`/public/v2/me/*`), and what a workspace key sets up for it (geofences, area approvers, invitation
// links, employee tokens). Every `me` route runs a field of GraphQL `me` or a `…My…` mutation; the
// services scope each to the calling employee.

const intQuery = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };
const stateQuery = { type: 'string', enum: ['pending', 'approved', 'rejected', 'cancelled'] };
const dateQuery = (description: string) => ({ type: 'string', maxLength: 40, description });
const requestQuery = {
  type: 'object',
  properties: {
    state: stateQuery,
    start_date: dateQuery('`YYYY-MM-DD`: requests ending on or after it.'),
    end_date: dateQuery('`YYYY-MM-DD`: requests starting on or before it.'),
  },
};
const decisionBody = object({ comment: nullableText(1000) });
const dayFields = `employeeId date shiftId status firstIn lastOut scheduledMinutes workedMinutes breakMinutes lateMinutes earlyLeaveMinutes overtimeMinutes
  payItems { code minutes } exceptions punchIds absenceTypeId absenceCode leaveMinutes pendingOvertimeMinutes`;
const meFields = `employee { id companyId name lastname code email employmentStartDate employmentEndDate }
  company { id name mobilePunch mobilePunchAccuracyM managerApprovals }
  geofences { id name latitude longitude radiusM } verificationStates { value name } absenceTypes { id name code unit paid } approver`;
const geofenceFields = 'id companyId name latitude longitude radiusM areaIds employeeIds createdAt updatedAt';
const tokenFields = 'id employeeId name prefix last4 createdAt revokedAt';
const geofenceBodyFields = {
  name: filled(200),
  latitude: { type: 'number', minimum: -90, maximum: 90 },
  longitude: { type: 'number', minimum: -180, maximum: 180 },
  radius_m: { type: 'integer', minimum: 10, maximum: 100_000 },
  area_ids: { type: 'array', items: id, maxItems: 1000 },
  employee_ids: { type: 'array', items: id, maxItems: 1000 },
};

/** `POST /public/v2/me/{absence_requests|punch_corrections}/{id}/cancel`. */
const cancel = (name: string, segment: string, field: string, fragment: string, fragmentName: string): RestRoute => ({
  name,
  method: 'POST',
  path: `/public/v2/me/${segment}/:id/cancel`,
  body: { schema: decisionBody, example: { comment: 'Plans changed.' } },
  document: `mutation ($id: Int!, $comment: String) { ${field}(id: $id, comment: $comment) { ...${fragmentName} } } ${fragment}`,
  resultField: field,
  status: 200,
  variables: ({ params, body }) => ({ id: idParam(params.id), comment: (body as { comment?: string | null }).comment ?? null }),
});

/** A manager's decision: `POST /public/v2/me/reports/{absence_requests|punch_corrections}/{id}/{approve|reject}`. */
const managerDecision = (name: string, segment: string, verb: string, field: string, fragment: string, fragmentName: string): RestRoute => ({
  ...cancel(name, `reports/${segment}`, field, fragment, fragmentName),
  path: `/public/v2/me/reports/${segment}/:id/${verb}`,
  body: { schema: decisionBody, example: { comment: verb === 'approve' ? 'Enjoy.' : 'We need you that week.' } },
});

export const selfServiceRoutes: RestRoute[] = [
  {
    name: 'getMe',
    method: 'GET',
    path: '/public/v2/me',
    document: `query { me { ${meFields} } }`,
    resultField: 'me',
    status: 200,
    variables: () => ({}),
  },
  {
    name: 'listMyTimesheetDays',
    method: 'GET',
    path: '/public/v2/me/timesheets',
    list: true,
    query: {
      type: 'object',
      properties: {
        start_date: { type: 'string', description: '`YYYY-MM-DD` from 1900-01-01 to 2199-12-31, inclusive.' },
        end_date: { type: 'string', description: '`YYYY-MM-DD`, inclusive; at most 366 days from start_date.' },
      },
      required: ['start_date', 'end_date'],
    },
    document: `query ($first: Int, $after: String, $startDate: String!, $endDate: String!) {
      me { timesheet(first: $first, after: $after, startDate: $startDate, endDate: $endDate) { totalCount nodes { ${dayFields} } } } }`,
    resultField: 'me.timesheet',
    status: 200,
    variables: ({ query }) => ({ startDate: query.start_date, endDate: query.end_date }),
  },
  {
    name: 'listMyPunches',
    method: 'GET',
    path: '/public/v2/me/punches',
    list: true,
    query: {
      type: 'object',
      properties: {
        start_date: dateQuery('ISO 8601 date or date-time (inclusive).'),
        end_date: dateQuery('ISO 8601 date or date-time; a bare date includes that whole day.'),
      },
    },
    document: `query ($first: Int, $after: String, $startDate: String, $endDate: String) {
      me { punches(first: $first, after: $after, startDate: $startDate, endDate: $endDate) { totalCount nodes { ...PunchFields } } } } ${punchFields}`,
    resultField: 'me.punches',
    status: 200,
    variables: ({ query }) => ({ startDate: query.start_date, endDate: query.end_date }),
  },
  {
    name: 'createMyPunch',
    method: 'POST',
    path: '/public/v2/me/punches',
    body: {
      schema: object(
        {
          punch_state: text(16),
          latitude: { type: 'number', minimum: -90, maximum: 90 },
          longitude: { type: 'number', minimum: -180, maximum: 180 },
          accuracy_m: { type: 'number', minimum: 0, maximum: 10_000 },
          photo: { type: ['string', 'null'], maxLength: 7_000_000 },
          offline_queued: { type: ['boolean', 'null'] },
          punch_time: { type: ['string', 'null'], maxLength: 40 },
        },
        ['punch_state', 'latitude', 'longitude', 'accuracy_m'],
      ),
      wrapper: 'punch',
      example: { punch_state: '0', latitude: 52.52, longitude: 13.405, accuracy_m: 12 },
    },
    document: `mutation ($input: MyPunchInput!) { createMyPunch(input: $input) { created punch { ...PunchFields } } } ${punchFields}`,
    resultField: 'createMyPunch.punch',
    // An offline punch sent twice is not stored again: 200 with the stored punch instead of 201.
    status: (data) => (data.createMyPunch.created ? 201 : 200),
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'listMyAbsenceBalances',
    method: 'GET',
    path: '/public/v2/me/absence_balances',
    query: { type: 'object', properties: { year: { type: 'integer', minimum: 1900, maximum: 2199 } } },
    document: `query ($year: Int) { me { absenceBalances(year: $year) { absenceTypeId year unit allowance carriedOver taken pending remaining } } }`,
    resultField: 'me.absenceBalances',
    status: 200,
    variables: ({ query }) => ({ year: query.year }),
  },
  {
    name: 'listMyAbsenceRequests',
    method: 'GET',
    path: '/public/v2/me/absence_requests',
    list: true,
    query: requestQuery,
    document: `query ($first: Int, $after: String, $state: String, $startDate: String, $endDate: String) {
      me { absenceRequests(first: $first, after: $after, state: $state, startDate: $startDate, endDate: $endDate) { totalCount nodes { ...AbsenceRequestFields } } } }
      ${absenceRequestFields}`,
    resultField: 'me.absenceRequests',
    status: 200,
    variables: ({ query }) => ({ state: query.state, startDate: query.start_date, endDate: query.end_date }),
  },
  {
    name: 'createMyAbsenceRequest',
    method: 'POST',
    path: '/public/v2/me/absence_requests',
    body: {
      schema: object(
        {
          absence_type_id: id,
          start_date: text(10),
          end_date: text(10),
          half_day: { type: ['string', 'null'], enum: ['am', 'pm', null] },
          start_time: { ...timeOfDay, type: ['string', 'null'] },
          end_time: { ...timeOfDay, type: ['string', 'null'] },
          note: nullableText(1000),
        },
        ['absence_type_id', 'start_date', 'end_date'],
      ),
      wrapper: 'absence_request',
      example: { absence_type_id: 1, start_date: '2026-12-21', end_date: '2026-12-23', note: 'Family visit' },
    },
    document: `mutation ($input: MyAbsenceRequestInput!) { createMyAbsenceRequest(input: $input) { ...AbsenceRequestFields } } ${absenceRequestFields}`,
    resultField: 'createMyAbsenceRequest',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  cancel('cancelMyAbsenceRequest', 'absence_requests', 'cancelMyAbsenceRequest', absenceRequestFields, 'AbsenceRequestFields'),
  {
    name: 'listMyPunchCorrections',
    method: 'GET',
    path: '/public/v2/me/punch_corrections',
    list: true,
    query: requestQuery,
    document: `query ($first: Int, $after: String, $state: String, $startDate: String, $endDate: String) {
      me { punchCorrections(first: $first, after: $after, state: $state, startDate: $startDate, endDate: $endDate) { totalCount nodes { ...PunchCorrectionFields } } } }
      ${punchCorrectionFields}`,
    resultField: 'me.punchCorrections',
    status: 200,
    variables: ({ query }) => ({ state: query.state, startDate: query.start_date, endDate: query.end_date }),
  },
  {
    name: 'createMyPunchCorrection',
    method: 'POST',
    path: '/public/v2/me/punch_corrections',
    body: {
      schema: object(
        {
          reason: filled(500),
          punch_time: { type: ['string', 'null'], maxLength: 40 },
          punch_state: { type: ['string', 'null'], maxLength: 16 },
          punches: { type: ['array', 'null'], items: object({ punch_time: text(40), punch_state: text(16) }, ['punch_time', 'punch_state']), maxItems: 20 },
          void_punch_id: { type: ['integer', 'null'], minimum: 1, maximum: MAX_LONG_ID },
        },
        ['reason'],
      ),
      wrapper: 'punch_correction',
      example: { reason: 'Forgot to clock out', punch_time: '2026-11-26T17:30:00Z', punch_state: '1' },
    },
    document: `mutation ($input: MyPunchCorrectionInput!) { createMyPunchCorrection(input: $input) { ...PunchCorrectionFields } } ${punchCorrectionFields}`,
    resultField: 'createMyPunchCorrection',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  cancel('cancelMyPunchCorrection', 'punch_corrections', 'cancelMyPunchCorrection', punchCorrectionFields, 'PunchCorrectionFields'),
  {
    name: 'listMyReports',
    method: 'GET',
    path: '/public/v2/me/reports',
    document: `query { me { reports { id name lastname code } } }`,
    resultField: 'me.reports',
    status: 200,
    variables: () => ({}),
  },
  {
    name: 'listReportAbsenceRequests',
    method: 'GET',
    path: '/public/v2/me/reports/absence_requests',
    list: true,
    query: { type: 'object', properties: { state: stateQuery } },
    document: `query ($first: Int, $after: String, $state: String) {
      me { reportAbsenceRequests(first: $first, after: $after, state: $state) { totalCount nodes { ...AbsenceRequestFields } } } } ${absenceRequestFields}`,
    resultField: 'me.reportAbsenceRequests',
    status: 200,
    variables: ({ query }) => ({ state: query.state }),
  },
  managerDecision('approveReportAbsenceRequest', 'absence_requests', 'approve', 'approveReportAbsenceRequest', absenceRequestFields, 'AbsenceRequestFields'),
  managerDecision('rejectReportAbsenceRequest', 'absence_requests', 'reject', 'rejectReportAbsenceRequest', absenceRequestFields, 'AbsenceRequestFields'),
  {
    name: 'listReportPunchCorrections',
    method: 'GET',
    path: '/public/v2/me/reports/punch_corrections',
    list: true,
    query: { type: 'object', properties: { state: stateQuery } },
    document: `query ($first: Int, $after: String, $state: String) {
      me { reportPunchCorrections(first: $first, after: $after, state: $state) { totalCount nodes { ...PunchCorrectionFields } } } } ${punchCorrectionFields}`,
    resultField: 'me.reportPunchCorrections',
    status: 200,
    variables: ({ query }) => ({ state: query.state }),
  },
  managerDecision(
    'approveReportPunchCorrection',
    'punch_corrections',
    'approve',
    'approveReportPunchCorrection',
    punchCorrectionFields,
    'PunchCorrectionFields',
  ),
  managerDecision('rejectReportPunchCorrection', 'punch_corrections', 'reject', 'rejectReportPunchCorrection', punchCorrectionFields, 'PunchCorrectionFields'),

  // --- Set up by the workspace -----------------------------------------------------------------
  {
    name: 'listGeofences',
    method: 'GET',
    path: '/public/v2/geofences',
    list: true,
    query: { type: 'object', properties: { company_id: intQuery } },
    document: `query ($first: Int, $after: String, $companyId: Int) { geofences(first: $first, after: $after, companyId: $companyId) { totalCount nodes { ${geofenceFields} } } }`,
    resultField: 'geofences',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  },
  {
    name: 'getGeofence',
    method: 'GET',
    path: '/public/v2/geofences/:id',
    document: `query ($id: Int!) { geofence(id: $id) { ${geofenceFields} } }`,
    resultField: 'geofence',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createGeofence',
    method: 'POST',
    path: '/public/v2/geofences',
    body: {
      schema: object({ company_id: id, ...geofenceBodyFields }, ['company_id', 'name', 'latitude', 'longitude', 'radius_m']),
      wrapper: 'geofence',
      example: { company_id: 1, name: 'Depot North', latitude: 52.52, longitude: 13.405, radius_m: 150, area_ids: [3] },
    },
    document: `mutation ($input: CreateGeofenceInput!) { createGeofence(input: $input) { ${geofenceFields} } }`,
    resultField: 'createGeofence',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateGeofence',
    method: 'PUT',
    path: '/public/v2/geofences/:id',
    body: { schema: object(geofenceBodyFields), wrapper: 'geofence', example: { radius_m: 250 } },
    document: `mutation ($id: Int!, $input: UpdateGeofenceInput!) { updateGeofence(id: $id, input: $input) { ${geofenceFields} } }`,
    resultField: 'updateGeofence',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteGeofence',
    method: 'DELETE',
    path: '/public/v2/geofences/:id',
    document: `mutation ($id: Int!) { deleteGeofence(id: $id) { ${geofenceFields} } }`,
    resultField: 'deleteGeofence',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'getAreaApprovers',
    method: 'GET',
    path: '/public/v2/areas/:id/approvers',
    document: `query ($areaId: Int!) { areaApprovers(areaId: $areaId) }`,
    resultField: 'areaApprovers',
    status: 200,
    variables: ({ params }) => ({ areaId: idParam(params.id) }),
  },
  {
    name: 'setAreaApprovers',
    method: 'PUT',
    path: '/public/v2/areas/:id/approvers',
    body: {
      schema: object({ employee_ids: { type: 'array', items: id, maxItems: 1000 } }, ['employee_ids']),
      example: { employee_ids: [12] },
    },
    document: `mutation ($areaId: Int!, $employeeIds: [Int!]!) { setAreaApprovers(areaId: $areaId, employeeIds: $employeeIds) }`,
    resultField: 'setAreaApprovers',
    status: 200,
    variables: ({ params, body }) => ({ areaId: idParam(params.id), employeeIds: (body as { employeeIds: number[] }).employeeIds }),
  },
  {
    name: 'createEmployeeInvitation',
    method: 'POST',
    path: '/public/v2/employees/:id/invitations',
    body: { schema: object({}), example: {} },
    document: `mutation ($employeeId: Int!) { createEmployeeInvitation(employeeId: $employeeId) { employeeId url expiresAt } }`,
    resultField: 'createEmployeeInvitation',
    status: 201,
    variables: ({ params }) => ({ employeeId: idParam(params.id) }),
  },
  {
    name: 'listEmployeeAccessTokens',
    method: 'GET',
    path: '/public/v2/employees/:id/access_tokens',
    document: `query ($employeeId: Int!) { employeeAccessTokens(employeeId: $employeeId) { ${tokenFields} } }`,
    resultField: 'employeeAccessTokens',
    status: 200,
    variables: ({ params }) => ({ employeeId: idParam(params.id) }),
  },
  {
    name: 'createEmployeeAccessToken',
    method: 'POST',
    path: '/public/v2/employees/:id/access_tokens',
    body: { schema: object({ name: nullableText(200) }), wrapper: 'access_token', example: { name: 'Field service app' } },
    document: `mutation ($employeeId: Int!, $name: String) { createEmployeeAccessToken(employeeId: $employeeId, name: $name) { ${tokenFields} token } }`,
    resultField: 'createEmployeeAccessToken',
    status: 201,
    variables: ({ params, body }) => ({ employeeId: idParam(params.id), name: (body as { name?: string | null }).name ?? null }),
  },
  {
    name: 'revokeEmployeeAccessToken',
    method: 'DELETE',
    path: '/public/v2/employees/:id/access_tokens/:tokenId',
    document: `mutation ($employeeId: Int!, $id: Int!) { revokeEmployeeAccessToken(employeeId: $employeeId, id: $id) { ${tokenFields} } }`,
    resultField: 'revokeEmployeeAccessToken',
    status: 200,
    variables: ({ params }) => ({ employeeId: idParam(params.id), id: idParam(params.tokenId) }),
  },
];
