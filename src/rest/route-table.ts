import { companyRoutes } from './company.routes';
import { deviceRoutes } from './device.routes';
import { doorActionRoutes } from './door-action.routes';
import { employeeRoutes } from './employee.routes';
import type { RestRoute } from './route';
import { unknownTerminalRoutes } from './unknown-terminal.routes';

/** Every REST route of the compatibility surface. Each is one GraphQL operation. */
export const routeTable: RestRoute[] = [...companyRoutes, ...employeeRoutes, ...unknownTerminalRoutes, ...deviceRoutes, ...doorActionRoutes];
