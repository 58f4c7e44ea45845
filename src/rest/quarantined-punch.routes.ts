import { quarantinedPunchFields } from './fragments';
import type { RestRoute } from './route';

export const quarantinedPunchRoutes: RestRoute[] = [
  {
    name: 'listQuarantinedPunches',
    method: 'GET',
    path: '/public/v2/quarantined_punches',
    list: true,
    query: {
      type: 'object',
      properties: {
        device_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
        company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
        reason: { type: 'string', enum: ['before_2000', 'ahead_of_terminal_clock', 'ahead_of_server_time'] },
      },
    },
    document: `query ($first: Int, $after: String, $deviceId: Int, $companyId: Int, $reason: QuarantineReason) {
      quarantinedPunches(first: $first, after: $after, deviceId: $deviceId, companyId: $companyId, reason: $reason) {
        totalCount nodes { ...QuarantinedPunchFields } } } ${quarantinedPunchFields}`,
    resultField: 'quarantinedPunches',
    status: 200,
    variables: ({ query }) => ({ deviceId: query.device_id, companyId: query.company_id, reason: query.reason }),
  },
];
