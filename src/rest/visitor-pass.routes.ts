import { limits } from '../services/common/validation';
import { filled, id, object, text } from './body-schemas';
import { idParam, type RestRoute } from './route';

// Shapes only: the window, the doors' controllers, the card and the pin are the service's rules.
const createVisitorPassBody = object(
  {
    company_id: id,
    name: filled(limits.accessName),
    host_employee_id: id,
    valid_from: text(limits.dateTime),
    valid_until: text(limits.dateTime),
    door_ids: { type: 'array', minItems: 1, maxItems: 64, items: id },
    card_no: { type: ['string', 'null'], maxLength: limits.cardNo },
    pin: { type: ['string', 'null'], maxLength: limits.pin },
  },
  ['company_id', 'name', 'host_employee_id', 'valid_from', 'valid_until', 'door_ids'],
);
const companyQuery = { type: 'object', properties: { company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } };

export const visitorPassFields = `fragment VisitorPassFields on VisitorPass {
  id companyId name hostEmployeeId validFrom validUntil doorIds cardNo pin status revokedAt removedAt createdAt
}`;

export const visitorPassRoutes: RestRoute[] = [
  {
    name: 'listVisitorPasses',
    method: 'GET',
    path: '/public/v2/visitor_passes',
    query: companyQuery,
    document: `query ($companyId: Int) { visitorPasses(companyId: $companyId) { ...VisitorPassFields } } ${visitorPassFields}`,
    resultField: 'visitorPasses',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  },
  {
    name: 'getVisitorPass',
    method: 'GET',
    path: '/public/v2/visitor_passes/:id',
    document: `query ($id: Int!) { visitorPass(id: $id) { ...VisitorPassFields uses { id deviceId door eventCode eventClass opened time localTime } } } ${visitorPassFields}`,
    resultField: 'visitorPass',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createVisitorPass',
    method: 'POST',
    path: '/public/v2/visitor_passes',
    body: {
      schema: createVisitorPassBody,
      wrapper: 'visitor_pass',
      example: {
        company_id: 1,
        name: 'Grace Visitor',
        host_employee_id: 7,
        valid_from: '2026-11-28T08:00:00Z',
        valid_until: '2026-11-28T18:00:00Z',
        door_ids: [31],
        card_no: '10293847',
      },
    },
    document: `mutation ($input: CreateVisitorPassInput!) { createVisitorPass(input: $input) { ...VisitorPassFields } } ${visitorPassFields}`,
    resultField: 'createVisitorPass',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'revokeVisitorPass',
    method: 'DELETE',
    path: '/public/v2/visitor_passes/:id',
    document: `mutation ($id: Int!) { revokeVisitorPass(id: $id) { ...VisitorPassFields } } ${visitorPassFields}`,
    resultField: 'revokeVisitorPass',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
