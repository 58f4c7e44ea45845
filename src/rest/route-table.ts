import { absenceRoutes } from './absence.routes';
import { areaRoutes } from './area.routes';
import { assignmentRoutes } from './assignment.routes';
import { companyRoutes } from './company.routes';
import { deviceRoutes } from './device.routes';
import { doorActionRoutes } from './door-action.routes';
import { doorRoutes } from './door.routes';
import { doorEventRoutes } from './door-event.routes';
import { lockdownRoutes } from './lockdown.routes';
import { linkageRuleRoutes } from './linkage-rule.routes';
import { doorRulesRoutes } from './door-rules.routes';
import { visitorPassRoutes } from './visitor-pass.routes';
import { accessRoutes } from './access.routes';
import { deviceActionRoutes } from './device-action.routes';
import { employeeRoutes } from './employee.routes';
import { employeePhotoRoutes } from './employee-photo.routes';
import { holidayRoutes } from './holiday.routes';
import { identityRoutes } from './identity.routes';
import { payPeriodRoutes } from './pay-period.routes';
import { punchRoutes } from './punch.routes';
import { quarantinedPunchRoutes } from './quarantined-punch.routes';
import { punchCorrectionRoutes } from './punch-correction.routes';
import { overtimeApprovalRoutes } from './overtime-approval.routes';
import type { RestRoute } from './route';
import { sandboxRoutes } from './sandbox.routes';
import { selfServiceRoutes } from './self-service.routes';
import { shiftAssignmentRoutes } from './shift-assignment.routes';
import { rosterRoutes } from './roster.routes';
import { scheduleOverrideRoutes } from './schedule-override.routes';
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
  ...sandboxRoutes,
  ...employeeRoutes,
  ...employeePhotoRoutes,
  ...unknownTerminalRoutes,
  ...deviceRoutes,
  ...doorActionRoutes,
  ...doorRoutes,
  ...doorEventRoutes,
  ...lockdownRoutes,
  ...linkageRuleRoutes,
  ...doorRulesRoutes,
  ...visitorPassRoutes,
  ...accessRoutes,
  ...deviceActionRoutes,
  ...verificationStateRoutes,
  ...punchRoutes,
  ...quarantinedPunchRoutes,
  ...areaRoutes,
  ...assignmentRoutes,
  ...webhookRoutes,
  ...shiftRoutes,
  ...holidayRoutes,
  ...rosterRoutes,
  ...shiftAssignmentRoutes,
  ...scheduleOverrideRoutes,
  ...payPeriodRoutes,
  ...timesheetRoutes,
  ...absenceRoutes,
  ...punchCorrectionRoutes,
  ...overtimeApprovalRoutes,
  ...identityRoutes,
  ...selfServiceRoutes,
];
