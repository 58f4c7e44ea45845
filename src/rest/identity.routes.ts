import { limits } from '../services/common/validation';
import { listLimits } from '../services/common/input-limits';
import { id, object, text } from './body-schemas';
import { idParam, type RestRoute } from './route';

// API keys (a directory's SCIM token among them) and the mapping of directory groups (docs/identity.md).
const apiKeyFields = 'id name prefix last4 scopes companyId createdAt revokedAt';
const directoryGroupFields = 'id companyId displayName externalId memberIds areaId accessLevelIds';
const companyQuery = { type: 'object', properties: { company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } };

export const identityRoutes: RestRoute[] = [
  {
    name: 'createApiKey',
    method: 'POST',
    path: '/public/v2/api_keys',
    body: {
      schema: object({ name: text(limits.apiKeyName), scopes: { type: 'array', maxItems: listLimits.scopes, items: text(limits.scope) }, company_id: id }, [
        'scopes',
      ]),
      wrapper: 'api_key',
      example: { name: 'Entra ID provisioning', scopes: ['scim'], company_id: 1 },
    },
    document: `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { ${apiKeyFields} key } }`,
    resultField: 'createApiKey',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'revokeApiKey',
    method: 'DELETE',
    path: '/public/v2/api_keys/:id',
    document: `mutation ($id: Int!) { revokeApiKey(id: $id) { ${apiKeyFields} } }`,
    resultField: 'revokeApiKey',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'listDirectoryGroups',
    method: 'GET',
    path: '/public/v2/directory_groups',
    query: companyQuery,
    document: `query ($companyId: Int) { directoryGroups(companyId: $companyId) { ${directoryGroupFields} } }`,
    resultField: 'directoryGroups',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  },
  {
    name: 'getDirectoryGroup',
    method: 'GET',
    path: '/public/v2/directory_groups/:id',
    idOrName: true,
    document: `query ($id: ID!) { directoryGroup(id: $id) { ${directoryGroupFields} } }`,
    resultField: 'directoryGroup',
    status: 200,
    variables: ({ params }) => ({ id: params.id }),
  },
  {
    name: 'setDirectoryGroupMapping',
    method: 'PUT',
    path: '/public/v2/directory_groups/:id/mapping',
    idOrName: true,
    body: {
      schema: object(
        { area_id: { type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 }, access_level_ids: { type: 'array', items: id, maxItems: 1000 } },
        ['access_level_ids'],
      ),
      wrapper: 'mapping',
      example: { area_id: 3, access_level_ids: [7, 9] },
    },
    document: `mutation ($id: ID!, $input: DirectoryGroupMappingInput!) { setDirectoryGroupMapping(id: $id, input: $input) { ${directoryGroupFields} } }`,
    resultField: 'setDirectoryGroupMapping',
    status: 200,
    variables: ({ params, body }) => ({ id: params.id, input: body }),
  },
];
