import { limits } from '../services/common/validation';
import { unknownTerminalFields } from './fragments';
import type { RestRoute } from './route';

export const unknownTerminalRoutes: RestRoute[] = [
  {
    // Registered before `/public/v2/devices/:id`, which would otherwise read "unclaimed" as an id.
    name: 'listUnclaimedDevices',
    method: 'GET',
    path: '/public/v2/devices/unclaimed',
    list: true,
    query: { type: 'object', properties: { serial_number: { type: 'string', maxLength: limits.serialNumber } } },
    document: `query ($first: Int, $after: String, $serialNumber: String) {
      unknownTerminals(first: $first, after: $after, serialNumber: $serialNumber) { totalCount nodes { ...UnknownTerminalFields } } } ${unknownTerminalFields}`,
    resultField: 'unknownTerminals',
    status: 200,
    variables: ({ query }) => ({ serialNumber: query.serial_number }),
  },
];
