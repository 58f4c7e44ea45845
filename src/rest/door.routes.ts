import { limits } from '../services/common/validation';
import { DOOR_ACTION_KINDS } from '../services/commands/action-kinds';
import { filled, object, oneOf } from './body-schemas';
import { doorActionV2Fields, doorFields } from './fragments';
import { idParam, type RestRoute } from './route';

const updateDoorBody = object({ name: filled(limits.doorName) }, ['name']);
// The action's names are checked by the service (its `invalid_action` names them); the duration's
// range is in the schema too, with the same code (out_of_range) both APIs give.
const doorActionBody = object(
  {
    action: {
      ...oneOf([...DOOR_ACTION_KINDS]),
      'x-error-codes': { enum: 'invalid_action' },
      'x-error-message': `must be one of ${DOOR_ACTION_KINDS.join(', ')}`,
    },
    duration: { type: 'integer', minimum: 1, maximum: 254 },
    override: { type: 'boolean' },
  },
  ['action'],
);

export const doorRoutes: RestRoute[] = [
  {
    name: 'listDeviceDoors',
    method: 'GET',
    path: '/public/v2/devices/:id/doors',
    document: `query ($id: Int!) { deviceDoors(deviceId: $id) { ...DoorFields } } ${doorFields}`,
    resultField: 'deviceDoors',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'getDoor',
    method: 'GET',
    path: '/public/v2/doors/:id',
    document: `query ($id: Int!) { door(id: $id) { ...DoorFields rules { antiPassback { type mode dailyReset doorIds pairs { entryDoorIds exitDoorIds } } interlockGroup deliveryStatus firstPersonIn { scheduleId accessLevelIds } multiPerson { count accessLevelIds } openingDeliveryStatus } } } ${doorFields}`,
    resultField: 'door',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'updateDoor',
    method: 'PUT',
    path: '/public/v2/doors/:id',
    body: { schema: updateDoorBody, wrapper: 'door', example: { name: 'Main entrance' } },
    document: `mutation ($id: Int!, $input: UpdateDoorInput!) { updateDoor(id: $id, input: $input) { ...DoorFields } } ${doorFields}`,
    resultField: 'updateDoor',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'performDoorAction',
    method: 'POST',
    path: '/public/v2/doors/:id/actions',
    body: { schema: doorActionBody, wrapper: 'door_action', example: { action: 'unlock', duration: 5 } },
    document: `mutation ($id: Int!, $input: DoorActionInput!) { performDoorAction(doorId: $id, input: $input) { ...DoorActionV2Fields } } ${doorActionV2Fields}`,
    resultField: 'performDoorAction',
    // Accepted, not done: the terminal executes it on its next poll; follow the action for the outcome.
    status: 202,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
];
