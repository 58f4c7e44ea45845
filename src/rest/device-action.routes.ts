import { limits } from '../services/common/validation';
import { DEVICE_ACTION_TYPES } from '../services/commands/action-kinds';
import { nullableText, object, oneOf } from './body-schemas';
import { idParam, type RestRoute } from './route';

const fields = `actionId deviceId type options { startDate endDate fix } status statusDetail
  result { info { key value } deviceRecords timegateRecords matched windows recordsReceived punchesNew skewBefore skewAfter complete usersReported missingOnDevice unexpectedOnDevice differing templates { fingerprintsOnDevice fingerprintsExpected facesOnDevice facesExpected } fixed returnCode }
  createdAt completedAt expiresAt`;
// The type's names and the options' rules are the service's (both APIs give the same errors).
const createBody = object(
  {
    type: oneOf([...DEVICE_ACTION_TYPES]),
    options: object({ start_date: nullableText(limits.date), end_date: nullableText(limits.date), fix: { type: ['boolean', 'null'] } }),
  },
  ['type'],
);

export const deviceActionRoutes: RestRoute[] = [
  {
    name: 'createDeviceAction',
    method: 'POST',
    path: '/public/v2/devices/:id/actions',
    body: {
      schema: createBody,
      wrapper: 'device_action',
      example: { type: 'attendance.backfill', options: { start_date: '2026-10-01', end_date: '2026-11-15' } },
    },
    document: `mutation ($id: Int!, $input: CreateDeviceActionInput!) { createDeviceAction(deviceId: $id, input: $input) { ${fields} } }`,
    resultField: 'createDeviceAction',
    // Accepted, not done: the terminal executes it on its next poll; follow the action for the outcome.
    status: 202,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'listDeviceActions',
    method: 'GET',
    path: '/public/v2/devices/:id/actions',
    list: true,
    document: `query ($id: Int!, $first: Int, $after: String) { deviceActions(deviceId: $id, first: $first, after: $after) { totalCount nodes { ${fields} } } }`,
    resultField: 'deviceActions',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'getDeviceAction',
    method: 'GET',
    path: '/public/v2/devices/:id/actions/:actionId',
    document: `query ($id: Int!, $actionId: String!) { deviceAction(deviceId: $id, actionId: $actionId) { ${fields} } }`,
    resultField: 'deviceAction',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id), actionId: params.actionId }),
  },
];
