import { limits } from '../services/common/validation';
import { bulkItems, filled, id, object } from './body-schemas';
import { areaFields, deviceFields, employeeFields } from './fragments';
import { idParam, type RestRoute } from './route';

const areaBodyFields = { company_id: id, name: filled(limits.areaName), code: filled(limits.areaCode) };
const createAreaBody = object(areaBodyFields, ['name', 'code', 'company_id']);
const updateAreaBody = object(areaBodyFields);

const employeeItems = bulkItems({ employee_id: id });
const deviceItems = bulkItems({ device_id: id });

/** The membership routes of one side: GET list, POST add, DELETE remove, POST .../sync replace. */
function membershipRoutes(side: 'Employees' | 'Devices', fields: string, fragment: string, items: typeof employeeItems): RestRoute[] {
  const path = `/public/v2/areas/:id/${side.toLowerCase()}`;
  const type = side === 'Employees' ? 'Employee' : 'Device';
  const mutation = (verb: string) => `mutation ($areaId: Int!, $items: [${type}RefInput!]!) {
    ${verb}Area${side}(areaId: $areaId, items: $items) { ...${fields} } } ${fragment}`;
  const bulk = (name: string, method: 'POST' | 'DELETE', suffix: string, verb: string): RestRoute => ({
    name,
    method,
    path: path + suffix,
    body: { schema: items, field: 'items', example: [{ [side === 'Employees' ? 'employee_id' : 'device_id']: 12 }] },
    document: mutation(verb),
    resultField: `${verb}Area${side}`,
    status: 200,
    variables: ({ params, body }) => ({ areaId: idParam(params.id), items: body }),
  });
  return [
    {
      name: `listArea${side}`,
      method: 'GET',
      path,
      list: true,
      document: `query ($areaId: Int!, $first: Int, $after: String) {
        area${side}(areaId: $areaId, first: $first, after: $after) { totalCount nodes { ...${fields} } } } ${fragment}`,
      resultField: `area${side}`,
      status: 200,
      variables: ({ params }) => ({ areaId: idParam(params.id) }),
    },
    bulk(`addArea${side}`, 'POST', '', 'add'),
    bulk(`removeArea${side}`, 'DELETE', '', 'remove'),
    bulk(`syncArea${side}`, 'POST', '/sync', 'sync'),
  ];
}

export const areaRoutes: RestRoute[] = [
  {
    name: 'listAreas',
    method: 'GET',
    path: '/public/v2/areas',
    list: true,
    query: { type: 'object', properties: { company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } },
    document: `query ($first: Int, $after: String, $companyId: Int) {
      areas(first: $first, after: $after, companyId: $companyId) { totalCount nodes { ...AreaFields } } } ${areaFields}`,
    resultField: 'areas',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  },
  {
    name: 'getArea',
    method: 'GET',
    path: '/public/v2/areas/:id',
    // The spec lets this one route name the area by id or by name.
    document: `query ($idOrName: String!) { area(idOrName: $idOrName) { ...AreaFields } } ${areaFields}`,
    resultField: 'area',
    status: 200,
    idOrName: true,
    variables: ({ params }) => ({ idOrName: params.id }),
  },
  {
    name: 'createArea',
    method: 'POST',
    path: '/public/v2/areas',
    body: { schema: createAreaBody, wrapper: 'area', example: { name: 'Main entrance', code: 'MAIN', company_id: 1 } },
    document: `mutation ($input: CreateAreaInput!) { createArea(input: $input) { ...AreaFields } } ${areaFields}`,
    resultField: 'createArea',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateArea',
    method: 'PUT',
    path: '/public/v2/areas/:id',
    body: { schema: updateAreaBody, wrapper: 'area', example: { name: 'Main entrance (north)' } },
    document: `mutation ($id: Int!, $input: UpdateAreaInput!) { updateArea(id: $id, input: $input) { ...AreaFields } } ${areaFields}`,
    resultField: 'updateArea',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteArea',
    method: 'DELETE',
    path: '/public/v2/areas/:id',
    document: `mutation ($id: Int!) { deleteArea(id: $id) { ...AreaFields } } ${areaFields}`,
    resultField: 'deleteArea',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  ...membershipRoutes('Employees', 'EmployeeFields', employeeFields, employeeItems),
  ...membershipRoutes('Devices', 'DeviceFields', deviceFields, deviceItems),
];
