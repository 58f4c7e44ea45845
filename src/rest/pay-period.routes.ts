import { limits } from '../services/common/validation';
import { id, object, text } from './body-schemas';
import { payPeriodFields } from './fragments';
import { idParam, type RestRoute } from './route';

const createBody = object({ company_id: id, start_date: text(limits.date), end_date: text(limits.date) }, ['company_id', 'start_date', 'end_date']);
const updateBody = object({ start_date: text(limits.date), end_date: text(limits.date) });

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
    name: 'exportPayPeriod',
    method: 'GET',
    path: '/public/v2/pay_periods/:id/export',
    query: {
      type: 'object',
      properties: {
        format: { type: 'string', enum: ['csv', 'json'], description: '`csv` or `json`; without it, `Accept: text/csv` asks for CSV and JSON is the default.' },
        columns: {
          type: 'string',
          maxLength: limits.exportMapping,
          description: 'CSV columns, in order, each optionally renamed: `employee_code:EmpNo,pay_code:Type,hours` (docs/payroll-export.md).',
        },
        codes: {
          type: 'string',
          maxLength: limits.exportMapping,
          description: 'Pay codes renamed for the payroll provider, work codes and paid leave codes alike: `overtime:OT150,night:N25,VAC:HOL`.',
        },
      },
    },
    document: `query ($id: Int!, $columns: String, $codes: String) { payPeriodExport(id: $id, columns: $columns, codes: $codes) {
      payPeriodId companyId startDate endDate timeZone locked csv
      rows { employeeId employeeCode employeeName companyCode companyName startDate endDate payCode minutes hours hoursMinutes ratePercent } } }`,
    resultField: 'payPeriodExport',
    csvField: 'csv',
    status: 200,
    variables: ({ params, query }) => ({ id: idParam(params.id), columns: query.columns, codes: query.codes }),
  },
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
