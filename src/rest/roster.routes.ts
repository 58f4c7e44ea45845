import { limits } from '../services/common/validation';
import { filled, id, object, text } from './body-schemas';
import { rosterFields } from './fragments';
import { idParam, type RestRoute } from './route';

// Shapes and types only; the date's format, an empty cycle and the shifts' company are the service's rules.
const rosterDays = {
  type: 'array',
  maxItems: limits.rosterDays,
  items: { type: ['integer', 'null'], minimum: 1, maximum: 2_147_483_647 },
  'x-error-codes': { maxItems: 'too_many_items' },
  'x-error-message': `must list 1 to ${limits.rosterDays} days: a shift id, or null for a day off`,
};
const rosterBodyFields = { name: filled(limits.rosterName), start_date: text(limits.date), days: rosterDays };
const createRosterBody = object({ company_id: id, ...rosterBodyFields }, ['company_id', 'name', 'start_date', 'days']);
const updateRosterBody = object(rosterBodyFields);

export const rosterRoutes: RestRoute[] = [
  {
    name: 'listRosters',
    method: 'GET',
    path: '/public/v2/rosters',
    list: true,
    query: { type: 'object', properties: { company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } },
    document: `query ($first: Int, $after: String, $companyId: Int) {
      rosters(first: $first, after: $after, companyId: $companyId) { totalCount nodes { ...RosterFields } } } ${rosterFields}`,
    resultField: 'rosters',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  },
  {
    name: 'getRoster',
    method: 'GET',
    path: '/public/v2/rosters/:id',
    document: `query ($id: Int!) { roster(id: $id) { ...RosterFields } } ${rosterFields}`,
    resultField: 'roster',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createRoster',
    method: 'POST',
    path: '/public/v2/rosters',
    body: {
      schema: createRosterBody,
      wrapper: 'roster',
      example: { company_id: 1, name: 'Four on, four off', start_date: '2026-12-01', days: [1, 1, 2, 2, null, null, null, null] },
    },
    document: `mutation ($input: CreateRosterInput!) { createRoster(input: $input) { ...RosterFields } } ${rosterFields}`,
    resultField: 'createRoster',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateRoster',
    method: 'PUT',
    path: '/public/v2/rosters/:id',
    body: { schema: updateRosterBody, wrapper: 'roster', example: { days: [1, 1, 1, 2, 2, 2, null, null, null] } },
    document: `mutation ($id: Int!, $input: UpdateRosterInput!) { updateRoster(id: $id, input: $input) { ...RosterFields } } ${rosterFields}`,
    resultField: 'updateRoster',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteRoster',
    method: 'DELETE',
    path: '/public/v2/rosters/:id',
    document: `mutation ($id: Int!) { deleteRoster(id: $id) { ...RosterFields } } ${rosterFields}`,
    resultField: 'deleteRoster',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
