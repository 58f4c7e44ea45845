import { limits } from '../services/common/validation';
import { filled, object, payPolicySchema } from './body-schemas';
import { companyFields } from './fragments';
import { idParam, type RestRoute } from './route';

// Self-service settings (docs/self-service.md): a key left out keeps its value.
const settingsSchema = object({
  mobile_punch: { type: 'boolean' },
  mobile_punch_accuracy_m: { type: 'integer', minimum: 5, maximum: 5000 },
  manager_approvals: { type: 'boolean' },
});
const companyBodyFields = { name: filled(limits.companyName), code: filled(limits.companyCode), pay_policy: payPolicySchema(true), settings: settingsSchema };
const createCompanyBody = object(companyBodyFields, ['name', 'code']);
const updateCompanyBody = object(companyBodyFields);

export const companyRoutes: RestRoute[] = [
  {
    name: 'listCompanies',
    method: 'GET',
    path: '/public/v2/companies',
    list: true,
    document: `query ($first: Int, $after: String) {
      companies(first: $first, after: $after) { totalCount nodes { ...CompanyFields } } } ${companyFields}`,
    resultField: 'companies',
    status: 200,
    variables: () => ({}),
  },
  {
    name: 'getCompany',
    method: 'GET',
    path: '/public/v2/companies/:id',
    document: `query ($id: Int!) { company(id: $id) { ...CompanyFields } } ${companyFields}`,
    resultField: 'company',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createCompany',
    method: 'POST',
    path: '/public/v2/companies',
    body: { schema: createCompanyBody, wrapper: 'company', example: { name: 'Acme', code: 'ACME' } },
    document: `mutation ($input: CreateCompanyInput!) { createCompany(input: $input) { ...CompanyFields } } ${companyFields}`,
    resultField: 'createCompany',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateCompany',
    method: 'PUT',
    path: '/public/v2/companies/:id',
    body: { schema: updateCompanyBody, wrapper: 'company', example: { name: 'Acme Ltd' } },
    document: `mutation ($id: Int!, $input: UpdateCompanyInput!) { updateCompany(id: $id, input: $input) { ...CompanyFields } } ${companyFields}`,
    resultField: 'updateCompany',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteCompany',
    method: 'DELETE',
    path: '/public/v2/companies/:id',
    document: `mutation ($id: Int!) { deleteCompany(id: $id) { ...CompanyFields } } ${companyFields}`,
    resultField: 'deleteCompany',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
