import { bulkItems, id } from './body-schemas';
import { assignmentFields } from './fragments';
import { idParam, type RestRoute } from './route';

// Terminal privileges (0 user, 2 enroller, 6 admin, 14 super admin), refused with the service's code.
const permission = {
  type: 'integer',
  enum: [0, 2, 6, 14],
  'x-error-codes': { enum: 'invalid_permission' },
  'x-error-message': 'must be a terminal privilege: 0 (user), 2 (enroller), 6 (admin) or 14 (super admin)',
};

/**
 * The four assignment routes of one side (`/employees/{id}/devices`, `/devices/{id}/employees`):
 * GET list, POST add (bare array with permissions), DELETE remove (bare array of ids), POST .../sync.
 */
function sideRoutes(side: {
  path: string;
  anchor: 'employeeId' | 'deviceId';
  list: string;
  add: string;
  remove: string;
  sync: string;
  item: 'device_id' | 'employee_id';
}): RestRoute[] {
  const itemType = side.item === 'device_id' ? 'Device' : 'Employee';
  const withPermission = bulkItems({ [side.item]: id, permission_id: permission });
  const idsOnly = bulkItems({ [side.item]: id });
  const bulk = (name: string, method: 'POST' | 'DELETE', suffix: string, field: string, inputType: string, schema: typeof idsOnly): RestRoute => {
    const example =
      schema === idsOnly
        ? [{ [side.item]: 12 }]
        : [
            { [side.item]: 12, permission_id: 0 },
            { [side.item]: 13, permission_id: 14 },
          ];
    return {
      name,
      method,
      path: side.path + suffix,
      body: { schema, field: 'items', example },
      document: `mutation ($anchor: Int!, $items: [${inputType}!]!) { ${field}(${side.anchor}: $anchor, items: $items) { ...AssignmentFields } } ${assignmentFields}`,
      resultField: field,
      status: 200,
      variables: ({ params, body }) => ({ anchor: idParam(params.id), items: body }),
    };
  };
  return [
    {
      name: side.list,
      method: 'GET',
      path: side.path,
      list: true,
      document: `query ($anchor: Int!, $first: Int, $after: String) {
        ${side.list}(${side.anchor}: $anchor, first: $first, after: $after) { totalCount nodes { ...AssignmentFields } } } ${assignmentFields}`,
      resultField: side.list,
      status: 200,
      variables: ({ params }) => ({ anchor: idParam(params.id) }),
    },
    bulk(side.add, 'POST', '', side.add, `${itemType}PermissionInput`, withPermission),
    bulk(side.remove, 'DELETE', '', side.remove, `${itemType}RefInput`, idsOnly),
    bulk(side.sync, 'POST', '/sync', side.sync, `${itemType}PermissionInput`, withPermission),
  ];
}

export const assignmentRoutes: RestRoute[] = [
  ...sideRoutes({
    path: '/public/v2/employees/:id/devices',
    anchor: 'employeeId',
    list: 'employeeDevices',
    add: 'assignDevicesToEmployee',
    remove: 'removeDevicesFromEmployee',
    sync: 'syncEmployeeDevices',
    item: 'device_id',
  }),
  ...sideRoutes({
    path: '/public/v2/devices/:id/employees',
    anchor: 'deviceId',
    list: 'deviceEmployees',
    add: 'assignEmployeesToDevice',
    remove: 'removeEmployeesFromDevice',
    sync: 'syncDeviceEmployees',
    item: 'employee_id',
  }),
];
