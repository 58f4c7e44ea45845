import { photoLimits } from '../services/common/validation';
import { idParam, type RestRoute } from './route';

const photoFields = 'employeeId contentType size width height sha256 createdAt updatedAt';

export const employeePhotoRoutes: RestRoute[] = [
  {
    name: 'putEmployeePhoto',
    description:
      "Stores (or replaces) an employee's face photo and enrols the face on the employee's terminals. The body is the image itself, its bytes as they are (not base64, not JSON), with Content-Type image/jpeg or image/png: at most 5 MiB and at least 100 × 100 px.",
    method: 'PUT',
    path: '/public/v2/employees/:id/photo',
    imageBody: { mediaTypes: photoLimits.mediaTypes, limitBytes: photoLimits.maxBytes },
    document: `mutation ($employeeId: Int!, $image: String!) { setEmployeePhoto(employeeId: $employeeId, imageBase64: $image) { ${photoFields} } }`,
    resultField: 'setEmployeePhoto',
    status: 200,
    variables: ({ params, body }) => ({ employeeId: idParam(params.id), image: body }),
  },
  {
    name: 'getEmployeePhoto',
    method: 'GET',
    path: '/public/v2/employees/:id/photo',
    imageResult: { field: 'image_base64', mediaType: 'image/jpeg' },
    document: `query ($employeeId: Int!) { employeePhoto(employeeId: $employeeId) { employeeId imageBase64 } }`,
    resultField: 'employeePhoto',
    status: 200,
    variables: ({ params }) => ({ employeeId: idParam(params.id) }),
  },
  {
    name: 'deleteEmployeePhoto',
    method: 'DELETE',
    path: '/public/v2/employees/:id/photo',
    document: `mutation ($employeeId: Int!) { deleteEmployeePhoto(employeeId: $employeeId) { ${photoFields} } }`,
    resultField: 'deleteEmployeePhoto',
    status: 200,
    variables: ({ params }) => ({ employeeId: idParam(params.id) }),
  },
  {
    name: 'getEmployeePhotoStatus',
    method: 'GET',
    path: '/public/v2/employees/:id/photo/status',
    document: `query ($employeeId: Int!) { employeePhotoStatus(employeeId: $employeeId) {
      employeeId photo { ${photoFields} } devices { deviceId serialNumber status method returnCode reason message updatedAt } } }`,
    resultField: 'employeePhotoStatus',
    status: 200,
    variables: ({ params }) => ({ employeeId: idParam(params.id) }),
  },
];
