import { limits } from '../services/common/validation';
import { filled, id, object, oneOf } from './body-schemas';
import { lockdownFields } from './fragments';
import { idParam, type RestRoute } from './route';

// Exactly one scope, the mode and the reason are checked by the service, which both APIs share.
const createLockdownBody = object(
  {
    company_id: id,
    area_id: id,
    door_ids: { type: 'array', items: id, maxItems: 1000 },
    mode: oneOf(['lockdown', 'evacuate']),
    reason: filled(limits.reason),
    override_access_level_id: id,
  },
  ['mode', 'reason'],
);

export const lockdownRoutes: RestRoute[] = [
  {
    name: 'createLockdown',
    method: 'POST',
    path: '/public/v2/lockdowns',
    body: { schema: createLockdownBody, wrapper: 'lockdown', example: { company_id: 1, mode: 'lockdown', reason: 'Intruder reported in building B' } },
    document: `mutation ($input: CreateLockdownInput!) { createLockdown(input: $input) { ...LockdownFields } } ${lockdownFields}`,
    resultField: 'createLockdown',
    // Accepted, not done: each door follows its controller (read the lockdown back, or subscribe).
    status: 202,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'listLockdowns',
    method: 'GET',
    path: '/public/v2/lockdowns',
    list: true,
    query: { type: 'object', properties: { company_id: id, status: oneOf(['active', 'released']) } },
    document: `query ($first: Int, $after: String, $companyId: Int, $status: String) {
      lockdowns(first: $first, after: $after, companyId: $companyId, status: $status) { totalCount nodes { ...LockdownFields } } } ${lockdownFields}`,
    resultField: 'lockdowns',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id, status: query.status }),
  },
  {
    name: 'getLockdown',
    method: 'GET',
    path: '/public/v2/lockdowns/:id',
    document: `query ($id: Int!) { lockdown(id: $id) { ...LockdownFields } } ${lockdownFields}`,
    resultField: 'lockdown',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'releaseLockdown',
    method: 'POST',
    path: '/public/v2/lockdowns/:id/release',
    document: `mutation ($id: Int!) { releaseLockdown(id: $id) { ...LockdownFields } } ${lockdownFields}`,
    resultField: 'releaseLockdown',
    status: 202,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
