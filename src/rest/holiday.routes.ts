import { limits } from '../services/common/validation';
import { filled, id, object, text } from './body-schemas';
import { holidayFields } from './fragments';
import { idParam, type RestRoute } from './route';

// Shapes and types only; the date's format and the type's range are the service's rules.
const holidayBodyFields = { date: text(limits.date), name: filled(limits.holidayName), holiday_type: { type: 'integer' } };
const createHolidayBody = object({ company_id: id, ...holidayBodyFields }, ['company_id', 'date', 'name']);
const updateHolidayBody = object(holidayBodyFields);

export const holidayRoutes: RestRoute[] = [
  {
    name: 'listHolidays',
    method: 'GET',
    path: '/public/v2/holidays',
    list: true,
    query: { type: 'object', properties: { company_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } },
    document: `query ($first: Int, $after: String, $companyId: Int) {
      holidays(first: $first, after: $after, companyId: $companyId) { totalCount nodes { ...HolidayFields } } } ${holidayFields}`,
    resultField: 'holidays',
    status: 200,
    variables: ({ query }) => ({ companyId: query.company_id }),
  },
  {
    name: 'getHoliday',
    method: 'GET',
    path: '/public/v2/holidays/:id',
    document: `query ($id: Int!) { holiday(id: $id) { ...HolidayFields } } ${holidayFields}`,
    resultField: 'holiday',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createHoliday',
    method: 'POST',
    path: '/public/v2/holidays',
    body: { schema: createHolidayBody, wrapper: 'holiday', example: { company_id: 1, date: '2026-12-25', name: 'Christmas Day', holiday_type: 1 } },
    document: `mutation ($input: CreateHolidayInput!) { createHoliday(input: $input) { ...HolidayFields } } ${holidayFields}`,
    resultField: 'createHoliday',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateHoliday',
    method: 'PUT',
    path: '/public/v2/holidays/:id',
    body: { schema: updateHolidayBody, wrapper: 'holiday', example: { name: 'Christmas' } },
    document: `mutation ($id: Int!, $input: UpdateHolidayInput!) { updateHoliday(id: $id, input: $input) { ...HolidayFields } } ${holidayFields}`,
    resultField: 'updateHoliday',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteHoliday',
    method: 'DELETE',
    path: '/public/v2/holidays/:id',
    document: `mutation ($id: Int!) { deleteHoliday(id: $id) { ...HolidayFields } } ${holidayFields}`,
    resultField: 'deleteHoliday',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
