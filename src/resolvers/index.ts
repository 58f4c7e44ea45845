import { ApiKeyResolver } from './api-key.resolver';
import { CompanyResolver } from './company.resolver';
import { DeviceResolver } from './device.resolver';
import { DoorActionResolver } from './door-action.resolver';
import { EmployeeResolver } from './employee.resolver';
import { UnknownTerminalResolver } from './unknown-terminal.resolver';
import { WorkspaceResolver } from './workspace.resolver';

export const resolvers = [WorkspaceResolver, ApiKeyResolver, CompanyResolver, EmployeeResolver, DeviceResolver, DoorActionResolver, UnknownTerminalResolver] as const;
