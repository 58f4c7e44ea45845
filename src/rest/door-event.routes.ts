import { limits } from '../services/common/validation';
import { DENIAL_REASONS } from '../protocol';
import { id, oneOf } from './body-schemas';
import { doorEventFields } from './fragments';
import type { RestRoute } from './route';

// Dates are checked by the service, which names the field and the format.
const listQuery = {
  type: 'object',
  properties: {
    company_id: id,
    device_id: id,
    door_id: id,
    // The GraphQL enum DoorEventClass.
    type: oneOf(['granted', 'denied', 'door', 'alarm', 'device', 'unknown']),
    event_code: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
    reason: oneOf([...DENIAL_REASONS]),
    employee_id: id,
    start_date: { type: 'string', maxLength: limits.dateTime },
    end_date: { type: 'string', maxLength: limits.dateTime },
  },
};

export const doorEventRoutes: RestRoute[] = [
  {
    name: 'listDoorEvents',
    method: 'GET',
    path: '/public/v2/door_events',
    list: true,
    query: listQuery,
    document: `query ($first: Int, $after: String, $companyId: Int, $deviceId: Int, $doorId: Int, $eventClass: DoorEventClass, $eventCode: Int, $reason: DoorDenialReason,
      $employeeId: Int, $startDate: String, $endDate: String) {
      doorEvents(first: $first, after: $after, companyId: $companyId, deviceId: $deviceId, doorId: $doorId, eventClass: $eventClass, eventCode: $eventCode, reason: $reason,
        employeeId: $employeeId, startDate: $startDate, endDate: $endDate) { totalCount nodes { ...DoorEventFields } } } ${doorEventFields}`,
    resultField: 'doorEvents',
    status: 200,
    variables: ({ query }) => ({
      companyId: query.company_id,
      deviceId: query.device_id,
      doorId: query.door_id,
      eventClass: query.type,
      eventCode: query.event_code,
      reason: query.reason,
      employeeId: query.employee_id,
      startDate: query.start_date,
      endDate: query.end_date,
    }),
  },
];
