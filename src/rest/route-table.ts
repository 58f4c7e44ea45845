import { areaRoutes } from './area.routes';
import { assignmentRoutes } from './assignment.routes';
import { companyRoutes } from './company.routes';
import { deviceRoutes } from './device.routes';
import { employeeRoutes } from './employee.routes';
import { punchRoutes } from './punch.routes';
import type { RestRoute } from './route';
import { verificationStateRoutes } from './verification-state.routes';

/** Every REST route of the compatibility surface. Each is one GraphQL operation. */
export const routeTable: RestRoute[] = [
  ...companyRoutes,
  ...employeeRoutes,
  ...deviceRoutes,
  ...verificationStateRoutes,
  ...punchRoutes,
  ...areaRoutes,
  ...assignmentRoutes,
];
