import { areaRoutes } from './area.routes';
import { assignmentRoutes } from './assignment.routes';
import { companyRoutes } from './company.routes';
import { deviceRoutes } from './device.routes';
import { doorActionRoutes } from './door-action.routes';
import { doorRoutes } from './door.routes';
import { accessRoutes } from './access.routes';
import { deviceActionRoutes } from './device-action.routes';
import { employeeRoutes } from './employee.routes';
import { employeePhotoRoutes } from './employee-photo.routes';
import { holidayRoutes } from './holiday.routes';
import { identityRoutes } from './identity.routes';
import { payPeriodRoutes } from './pay-period.routes';
import { punchRoutes } from './punch.routes';
import type { RestRoute } from './route';
import { shiftAssignmentRoutes } from './shift-assignment.routes';
import { shiftRoutes } from './shift.routes';
import { timesheetRoutes } from './timesheet.routes';
import { unknownTerminalRoutes } from './unknown-terminal.routes';
import { verificationStateRoutes } from './verification-state.routes';
import { webhookRoutes } from './webhook.routes';

/**
 * Every REST route of the compatibility surface. Each is one GraphQL operation. Order matters where
 * paths overlap: `/public/v2/devices/unclaimed` comes before `/public/v2/devices/:id`.
 */
export const routeTable: RestRoute[] = [
  ...companyRoutes,
  ...employeeRoutes,
  ...employeePhotoRoutes,
  ...unknownTerminalRoutes,
  ...deviceRoutes,
  ...doorActionRoutes,
  ...doorRoutes,
  ...accessRoutes,
  ...deviceActionRoutes,
  ...verificationStateRoutes,
  ...punchRoutes,
  ...areaRoutes,
  ...assignmentRoutes,
  ...webhookRoutes,
  ...shiftRoutes,
  ...holidayRoutes,
  ...shiftAssignmentRoutes,
  ...payPeriodRoutes,
  ...timesheetRoutes,
  ...identityRoutes,
];
