import { limits } from '../services/common/validation';
import { filled, object, text } from './body-schemas';
import { verificationStateFields } from './fragments';
import { idParam, type RestRoute } from './route';

// `value` is checked for shape only; its range and format are the service's rule (with its message).
const stateBodyFields = { name: filled(limits.stateName), value: text(limits.punchState) };
const createStateBody = object(stateBodyFields, ['name', 'value']);
const updateStateBody = object(stateBodyFields);

export const verificationStateRoutes: RestRoute[] = [
  {
    name: 'listVerificationStates',
    method: 'GET',
    path: '/public/v2/verification_states',
    list: true,
    document: `query ($first: Int, $after: String) {
      verificationStates(first: $first, after: $after) { totalCount nodes { ...VerificationStateFields } } } ${verificationStateFields}`,
    resultField: 'verificationStates',
    status: 200,
    variables: () => ({}),
  },
  {
    name: 'getVerificationState',
    method: 'GET',
    path: '/public/v2/verification_states/:id',
    document: `query ($id: Int!) { verificationState(id: $id) { ...VerificationStateFields } } ${verificationStateFields}`,
    resultField: 'verificationState',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createVerificationState',
    method: 'POST',
    path: '/public/v2/verification_states',
    body: { schema: createStateBody, wrapper: 'verification_state', example: { name: 'Lunch out', value: '6' } },
    document: `mutation ($input: CreateVerificationStateInput!) {
      createVerificationState(input: $input) { ...VerificationStateFields } } ${verificationStateFields}`,
    resultField: 'createVerificationState',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateVerificationState',
    method: 'PUT',
    path: '/public/v2/verification_states/:id',
    body: { schema: updateStateBody, wrapper: 'verification_state', example: { name: 'Lunch break out' } },
    document: `mutation ($id: Int!, $input: UpdateVerificationStateInput!) {
      updateVerificationState(id: $id, input: $input) { ...VerificationStateFields } } ${verificationStateFields}`,
    resultField: 'updateVerificationState',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteVerificationState',
    method: 'DELETE',
    path: '/public/v2/verification_states/:id',
    document: `mutation ($id: Int!) { deleteVerificationState(id: $id) { ...VerificationStateFields } } ${verificationStateFields}`,
    resultField: 'deleteVerificationState',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
];
