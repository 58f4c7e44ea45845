import { id, object, text } from './body-schemas';
import { payPeriodFields } from './fragments';
import { idParam, type RestRoute } from './route';

const createBody = object({ company_id: id, start_date: text(10), end_date: text(10) }, ['company_id', 'start_date', 'end_date']);
const updateBody = object({ start_date: text(10), end_date: text(10) });

const byId = (name: string, method: RestRoute['method'], suffix: string, field: string, status = 200): RestRoute => ({
  name,
  method,
  path: `/public/v2/pay_periods/:id${suffix}`,
  document: `${method === 'GET' ? 'query' : 'mutation'} ($id: Int!) { ${field}(id: $id) { ...PayPeriodFields } } ${payPeriodFields}`,
  resultField: field,
  status,
  variables: ({ params }) => ({ id: idParam(params.id) }),
});

export const payPeriodRoutes: RestRoute[] = [
  {
    name: 'listPayPeriods',
    method: 'GET',
    path: '/public/v2/pay_periods',
    list: true,
    query: { type: 'object', properties: { company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } },
    document: `query ($first: Int, $after: String, $companyId: Int) {
      payPeriods(first: $first, after: $after, companyId: $companyId) { totalCount nodes { ...PayPeriodFields } } } ${payPeriodFields}`,
    resultField: 'payPeriods',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  },
  byId('getPayPeriod', 'GET', '', 'payPeriod'),
  {
    name: 'createPayPeriod',
    method: 'POST',
    path: '/public/v2/pay_periods',
    body: { schema: createBody, wrapper: 'pay_period', example: { company_id: 1, start_date: '2026-12-01', end_date: '2026-12-31' } },
    document: `mutation ($input: CreatePayPeriodInput!) { createPayPeriod(input: $input) { ...PayPeriodFields } } ${payPeriodFields}`,
    resultField: 'createPayPeriod',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updatePayPeriod',
    method: 'PUT',
    path: '/public/v2/pay_periods/:id',
    body: { schema: updateBody, wrapper: 'pay_period', example: { end_date: '2026-12-30' } },
    document: `mutation ($id: Int!, $input: UpdatePayPeriodInput!) { updatePayPeriod(id: $id, input: $input) { ...PayPeriodFields } } ${payPeriodFields}`,
    resultField: 'updatePayPeriod',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  byId('deletePayPeriod', 'DELETE', '', 'deletePayPeriod'),
  byId('lockPayPeriod', 'POST', '/lock', 'lockPayPeriod'),
  byId('unlockPayPeriod', 'POST', '/unlock', 'unlockPayPeriod'),
];
