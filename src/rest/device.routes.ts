import { limits } from '../services/common/validation';
import { listLimits } from '../services/common/input-limits';
import { filled, id, object, oneOf, timeZoneSchema } from './body-schemas';
import { deviceFields } from './fragments';
import { idParam, type RestRoute, type RouteInput } from './route';

const deviceBodyFields = {
  company_id: id,
  name: filled(limits.deviceName),
  serial_number: filled(limits.serialNumber),
  mode_type: oneOf(['att', 'acc']),
  time_zone: timeZoneSchema,
  area_id: { type: ['integer', 'null'], minimum: 1 },
  push_comm_key: { type: ['string', 'null'], maxLength: limits.pushCommKey },
  allowed_source_cidrs: { type: ['array', 'null'], maxItems: listLimits.cidrs, items: { type: 'string', maxLength: limits.cidr } },
  // The reference body shape lists `status`; it is accepted for compatibility and ignored, because
  // only the terminal decides whether it is online.
  status: oneOf(['pending', 'online', 'offline']),
};
const createDeviceBody = object(deviceBodyFields, ['name', 'serial_number', 'company_id']);
const updateDeviceBody = object(deviceBodyFields);

function deviceInput({ body }: RouteInput) {
  const { status: _readOnly, ...input } = body as Record<string, unknown>;
  return input;
}

const listDocument = `query ($first: Int, $after: String, $companyId: Int) {
  devices(first: $first, after: $after, companyId: $companyId) { totalCount nodes { ...DeviceFields } } } ${deviceFields}`;
const listQuery = { type: 'object', properties: { company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } };

function listRoute(name: string, path: string): RestRoute {
  return {
    name,
    method: 'GET',
    path,
    list: true,
    query: listQuery,
    document: listDocument,
    resultField: 'devices',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  };
}

export const deviceRoutes: RestRoute[] = [
  listRoute('listDevices', '/public/v2/devices'),
  // The legacy device list: the same JSON array.
  listRoute('listDevicesV1', '/v1/devices'),
  {
    name: 'getDevice',
    method: 'GET',
    path: '/public/v2/devices/:id',
    document: `query ($id: Int!) { device(id: $id) { ...DeviceFields } } ${deviceFields}`,
    resultField: 'device',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createDevice',
    method: 'POST',
    path: '/public/v2/devices',
    body: {
      schema: createDeviceBody,
      wrapper: 'device',
      example: { name: 'Front door', serial_number: 'CRJP230860129', company_id: 1, mode_type: 'acc', time_zone: 'Europe/Berlin' },
    },
    document: `mutation ($input: CreateDeviceInput!) { createDevice(input: $input) { ...DeviceFields } } ${deviceFields}`,
    resultField: 'createDevice',
    status: 201,
    variables: (input) => ({ input: deviceInput(input) }),
  },
  {
    name: 'updateDevice',
    method: 'PUT',
    path: '/public/v2/devices/:id',
    body: { schema: updateDeviceBody, wrapper: 'device', example: { name: 'Front door (lobby)' } },
    document: `mutation ($id: Int!, $input: UpdateDeviceInput!) { updateDevice(id: $id, input: $input) { ...DeviceFields } } ${deviceFields}`,
    resultField: 'updateDevice',
    status: 200,
    variables: (input) => ({ id: idParam(input.params.id), input: deviceInput(input) }),
  },
  {
    name: 'resetTerminalPairing',
    method: 'POST',
    path: '/public/v2/devices/:id/reset_pairing',
    document: `mutation ($id: Int!) { resetTerminalPairing(deviceId: $id) { ...DeviceFields } } ${deviceFields}`,
    resultField: 'resetTerminalPairing',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'deleteDevice',
    method: 'DELETE',
    path: '/public/v2/devices/:id',
    document: `mutation ($id: Int!) { deleteDevice(id: $id) { ...DeviceFields } } ${deviceFields}`,
    resultField: 'deleteDevice',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
