import { limits } from '../services/common/validation';
import { filled, object } from './body-schemas';
import { doorActionFields } from './fragments';
import type { RestRoute } from './route';

const unlockBody = object(
  {
    device_serial: filled(limits.serialNumber),
    duration: { type: 'integer', minimum: 1, maximum: 254 },
    door: { type: 'integer', minimum: 1, maximum: 255 },
    override: { type: 'boolean' },
  },
  ['device_serial', 'duration'],
);

export const doorActionRoutes: RestRoute[] = [
  {
    name: 'unlockDoor',
    method: 'POST',
    path: '/v1/devices/door/unlock',
    body: { schema: unlockBody, wrapper: 'door', example: { device_serial: 'CRJP230860129', duration: 5 } },
    document: `mutation ($input: UnlockDoorInput!) { unlockDoor(input: $input) { ...DoorActionFields } } ${doorActionFields}`,
    resultField: 'unlockDoor',
    // Accepted, not done: the terminal executes it on its next poll; read the action back for the outcome.
    status: 202,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'getDoorAction',
    method: 'GET',
    path: '/v1/devices/door/actions/:actionId',
    document: `query ($actionId: String!) { doorAction(actionId: $actionId) { ...DoorActionFields } } ${doorActionFields}`,
    resultField: 'doorAction',
    status: 200,
    variables: ({ params }) => ({ actionId: params.actionId }),
  },
];
