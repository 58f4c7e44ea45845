import { id, object, oneOf, type JsonSchema } from './body-schemas';
import { idParam, type RestRoute } from './route';

// Shapes only: which doors, which combinations and which families are the service's rules.
const doorIds: JsonSchema = { type: 'array', maxItems: 8, items: id };
const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: ['object', 'null'] });
const pair = object({ entry_door_ids: doorIds, exit_door_ids: doorIds }, ['entry_door_ids', 'exit_door_ids']);
const antiPassback = object(
  {
    type: oneOf(['in_out', 'between_doors']),
    mode: oneOf(['hard', 'soft']),
    daily_reset: { type: 'boolean' },
    door_ids: doorIds,
    pairs: { type: 'array', maxItems: 4, items: pair },
  },
  ['type'],
);
const interlock = object({ groups: { type: 'array', maxItems: 4, items: doorIds } }, ['groups']);
const doorRulesBody = object({ anti_passback: nullable(antiPassback), interlock: nullable(interlock) });
const firstPersonIn = object({ schedule_id: id, access_level_ids: { type: 'array', maxItems: 20, items: id } }, ['schedule_id', 'access_level_ids']);
const multiPerson = object({ count: { type: 'integer', minimum: 2, maximum: 5 }, access_level_ids: { type: 'array', maxItems: 20, items: id } }, [
  'count',
  'access_level_ids',
]);
const doorOpeningRulesBody = object({ first_person_in: nullable(firstPersonIn), multi_person: nullable(multiPerson) });

export const deviceDoorRulesFields = `fragment DeviceDoorRulesFields on DeviceDoorRules {
  deviceId antiPassback { type mode dailyReset doorIds pairs { entryDoorIds exitDoorIds } } interlock { groups }
  antiPassbackValue interlockValue deliveryStatus deliveryReturnCode updatedAt
}`;

export const doorOpeningRulesFields = `fragment DoorOpeningRulesFields on DoorOpeningRules {
  doorId deviceId firstPersonIn { scheduleId accessLevelIds } firstCardValue firstCardRows multiPerson { count accessLevelIds } multiCardValue
  deliveryStatus deliveryReturnCode updatedAt
}`;

export const doorRulesRoutes: RestRoute[] = [
  {
    name: 'getDeviceDoorRules',
    method: 'GET',
    path: '/public/v2/devices/:id/door_rules',
    document: `query ($id: Int!) { deviceDoorRules(deviceId: $id) { ...DeviceDoorRulesFields } } ${deviceDoorRulesFields}`,
    resultField: 'deviceDoorRules',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'updateDeviceDoorRules',
    method: 'PUT',
    path: '/public/v2/devices/:id/door_rules',
    body: {
      schema: doorRulesBody,
      wrapper: 'door_rules',
      example: { anti_passback: { type: 'between_doors', pairs: [{ entry_door_ids: [31], exit_door_ids: [32] }] }, interlock: { groups: [[33, 34]] } },
    },
    document: `mutation ($id: Int!, $input: DeviceDoorRulesInput!) { updateDeviceDoorRules(deviceId: $id, input: $input) { ...DeviceDoorRulesFields } } ${deviceDoorRulesFields}`,
    resultField: 'updateDeviceDoorRules',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'getDoorOpeningRules',
    method: 'GET',
    path: '/public/v2/doors/:id/opening_rules',
    document: `query ($id: Int!) { doorOpeningRules(doorId: $id) { ...DoorOpeningRulesFields } } ${doorOpeningRulesFields}`,
    resultField: 'doorOpeningRules',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'updateDoorOpeningRules',
    method: 'PUT',
    path: '/public/v2/doors/:id/opening_rules',
    body: {
      schema: doorOpeningRulesBody,
      wrapper: 'opening_rules',
      example: { first_person_in: { schedule_id: 7, access_level_ids: [12] } },
    },
    document: `mutation ($id: Int!, $input: DoorOpeningRulesInput!) { updateDoorOpeningRules(doorId: $id, input: $input) { ...DoorOpeningRulesFields } } ${doorOpeningRulesFields}`,
    resultField: 'updateDoorOpeningRules',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
];
