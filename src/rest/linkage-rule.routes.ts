import { limits } from '../services/common/validation';
import { filled, id, object, oneOf } from './body-schemas';
import { linkageRuleFields } from './fragments';
import { idParam, type RestRoute } from './route';

// Which fields go with which trigger, and the scopes, are checked by the service (both APIs share it).
const createBody = object(
  {
    name: filled(limits.accessName),
    trigger: oneOf(['forced_open', 'held_open', 'duress', 'refusals']),
    device_id: id,
    door_id: id,
    refusal_count: { type: 'integer', minimum: 1, maximum: 1000 },
    refusal_window_minutes: { type: 'integer', minimum: 1, maximum: 1440 },
    lockdown_mode: oneOf(['lockdown', 'evacuate']),
    lockdown_area_id: id,
    lockdown_door_ids: { type: 'array', items: id, minItems: 1, maxItems: 1000 },
    aux_output: { type: 'integer', minimum: 1, maximum: 255 },
    aux_output_seconds: { type: 'integer', minimum: 1, maximum: 254 },
  },
  ['name', 'trigger'],
);

export const linkageRuleRoutes: RestRoute[] = [
  {
    name: 'listLinkageRules',
    method: 'GET',
    path: '/public/v2/linkage_rules',
    list: true,
    query: { type: 'object', properties: { company_id: id, device_id: id } },
    document: `query ($first: Int, $after: String, $companyId: Int, $deviceId: Int) {
      linkageRules(first: $first, after: $after, companyId: $companyId, deviceId: $deviceId) { totalCount nodes { ...LinkageRuleFields } } } ${linkageRuleFields}`,
    resultField: 'linkageRules',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id, deviceId: query.device_id }),
  },
  {
    name: 'createLinkageRule',
    method: 'POST',
    path: '/public/v2/linkage_rules',
    body: {
      schema: createBody,
      wrapper: 'linkage_rule',
      example: { name: 'Forced door locks the building', trigger: 'forced_open', door_id: 3, lockdown_mode: 'lockdown', aux_output: 1, aux_output_seconds: 30 },
    },
    document: `mutation ($input: CreateLinkageRuleInput!) { createLinkageRule(input: $input) { ...LinkageRuleFields } } ${linkageRuleFields}`,
    resultField: 'createLinkageRule',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'getLinkageRule',
    method: 'GET',
    path: '/public/v2/linkage_rules/:id',
    document: `query ($id: Int!) { linkageRule(id: $id) { ...LinkageRuleFields } } ${linkageRuleFields}`,
    resultField: 'linkageRule',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'deleteLinkageRule',
    method: 'DELETE',
    path: '/public/v2/linkage_rules/:id',
    document: `mutation ($id: Int!) { deleteLinkageRule(id: $id) { ...LinkageRuleFields } } ${linkageRuleFields}`,
    resultField: 'deleteLinkageRule',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
