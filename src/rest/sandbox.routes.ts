import { filled, id, object, oneOf, timeOfDay, timeZoneSchema } from './body-schemas';
import { idParam, type RestRoute } from './route';

// Workspaces created by the operator, and sandbox workspaces' virtual terminals and reset (docs/sandbox.md).
const workspaceFields = 'id name timeZone maxCompanies maxDevices maxEmployees sandbox createdAt updatedAt';
const seedFields = 'companyId areaId shiftId employeeIds clockId controllerId';
const virtualTerminalFields = `deviceId device { id name serialNumber modeType status } enabled punchesPerHour dailyPattern { time punchState } speed scheduleStartedAt simulatedTime nextStepAt`;
const TRIGGER_ACTIONS = ['punch', 'unknown_badge', 'forced_open', 'held_open', 'close_door'];

export const sandboxRoutes: RestRoute[] = [
  {
    name: 'createWorkspace',
    method: 'POST',
    path: '/public/v2/workspaces',
    body: {
      schema: object({ name: filled(200), time_zone: timeZoneSchema, sandbox: { type: 'boolean' } }),
      wrapper: 'workspace',
      example: { name: 'Payroll tool (tests)', sandbox: true },
    },
    document: `mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { ${workspaceFields} } apiKey { id name prefix last4 scopes key } sandbox { ${seedFields} } } }`,
    resultField: 'createWorkspace',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'listVirtualTerminals',
    method: 'GET',
    path: '/public/v2/virtual_terminals',
    document: `query { virtualTerminals { ${virtualTerminalFields} } }`,
    resultField: 'virtualTerminals',
    status: 200,
    variables: () => ({}),
  },
  {
    name: 'getVirtualTerminal',
    method: 'GET',
    path: '/public/v2/virtual_terminals/:id',
    document: `query ($id: Int!) { virtualTerminal(deviceId: $id) { ${virtualTerminalFields} } }`,
    resultField: 'virtualTerminal',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'updateVirtualTerminal',
    method: 'PUT',
    path: '/public/v2/virtual_terminals/:id',
    body: {
      schema: object({
        enabled: { type: 'boolean' },
        punches_per_hour: { type: 'integer', minimum: 1, maximum: 3600 },
        daily_pattern: {
          type: 'array',
          maxItems: 12,
          items: object({ time: timeOfDay, punch_state: { type: 'integer', minimum: 0, maximum: 5 } }, ['time', 'punch_state']),
        },
        speed: { type: 'number', minimum: 1, maximum: 3600 },
      }),
      wrapper: 'virtual_terminal',
      example: {
        daily_pattern: [
          { time: '09:00', punch_state: 0 },
          { time: '17:00', punch_state: 1 },
        ],
        speed: 600,
      },
    },
    document: `mutation ($id: Int!, $input: VirtualTerminalInput!) { updateVirtualTerminal(deviceId: $id, input: $input) { ${virtualTerminalFields} } }`,
    resultField: 'updateVirtualTerminal',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'triggerVirtualTerminal',
    method: 'POST',
    path: '/public/v2/virtual_terminals/:id/triggers',
    body: {
      schema: object({ action: oneOf(TRIGGER_ACTIONS), employee_id: id }, ['action']),
      wrapper: 'trigger',
      example: { action: 'forced_open' },
    },
    document: `mutation ($id: Int!, $input: VirtualTerminalTriggerInput!) { triggerVirtualTerminal(deviceId: $id, input: $input) { id deviceId action createdAt } }`,
    resultField: 'triggerVirtualTerminal',
    status: 202,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'resetSandbox',
    method: 'POST',
    path: '/public/v2/sandbox/reset',
    document: `mutation { resetSandbox { ${seedFields} } }`,
    resultField: 'resetSandbox',
    status: 200,
    variables: () => ({}),
  },
];
