import { limits } from '../services/common/validation';
import { emailSchema, filled, id, object, pinSchema } from './body-schemas';
import { employeeFields } from './fragments';
import { idParam, type RestRoute } from './route';

const employeeBodyFields = {
  company_id: id,
  name: filled(limits.personName),
  lastname: filled(limits.personName),
  code: filled(limits.employeeCode),
  pin: pinSchema,
  email: emailSchema,
  is_active: { type: 'boolean' },
  employment_start_date: { type: ['string', 'null'], maxLength: limits.date, description: '`YYYY-MM-DD`: the first day of employment; null: open.' },
  employment_end_date: { type: ['string', 'null'], maxLength: limits.date, description: '`YYYY-MM-DD`: the last day of employment (inclusive); null: open.' },
};
const createEmployeeBody = object(employeeBodyFields, ['name', 'lastname', 'code', 'company_id']);
const updateEmployeeBody = object(employeeBodyFields);

export const employeeRoutes: RestRoute[] = [
  {
    name: 'listEmployees',
    method: 'GET',
    path: '/public/v2/employees',
    list: true,
    query: {
      type: 'object',
      properties: {
        company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
        is_active: { type: 'boolean' },
        search: { type: 'string', maxLength: limits.search },
      },
    },
    document: `query ($first: Int, $after: String, $companyId: Int, $isActive: Boolean, $search: String) {
      employees(first: $first, after: $after, companyId: $companyId, isActive: $isActive, search: $search) {
        totalCount nodes { ...EmployeeFields } } } ${employeeFields}`,
    resultField: 'employees',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id, isActive: query.is_active, search: query.search }),
  },
  {
    name: 'getEmployee',
    method: 'GET',
    path: '/public/v2/employees/:id',
    document: `query ($id: Int!) { employee(id: $id) { ...EmployeeFields } } ${employeeFields}`,
    resultField: 'employee',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createEmployee',
    method: 'POST',
    path: '/public/v2/employees',
    body: {
      schema: createEmployeeBody,
      wrapper: 'employee',
      example: { name: 'Ada', lastname: 'Lovelace', code: 'E-001', pin: '1001', email: 'ada@example.com', company_id: 1 },
    },
    document: `mutation ($input: CreateEmployeeInput!) { createEmployee(input: $input) { ...EmployeeFields } } ${employeeFields}`,
    resultField: 'createEmployee',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateEmployee',
    method: 'PUT',
    path: '/public/v2/employees/:id',
    body: { schema: updateEmployeeBody, wrapper: 'employee', example: { is_active: false } },
    document: `mutation ($id: Int!, $input: UpdateEmployeeInput!) { updateEmployee(id: $id, input: $input) { ...EmployeeFields } } ${employeeFields}`,
    resultField: 'updateEmployee',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteEmployee',
    method: 'DELETE',
    path: '/public/v2/employees/:id',
    document: `mutation ($id: Int!) { deleteEmployee(id: $id) { ...EmployeeFields } } ${employeeFields}`,
    resultField: 'deleteEmployee',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
