import { ApiKeyResolver } from './api-key.resolver';
import { AreaResolver } from './area.resolver';
import { AssignmentResolver } from './assignment.resolver';
import { CompanyResolver } from './company.resolver';
import { DeviceResolver } from './device.resolver';
import { DoorActionResolver } from './door-action.resolver';
import { DoorEventResolver } from './door-event.resolver';
import { EmployeeResolver } from './employee.resolver';
import { PunchResolver } from './punch.resolver';
import { UnknownTerminalResolver } from './unknown-terminal.resolver';
import { VerificationStateResolver } from './verification-state.resolver';
import { WorkspaceResolver } from './workspace.resolver';

export const resolvers = [
  WorkspaceResolver,
  ApiKeyResolver,
  CompanyResolver,
  EmployeeResolver,
  DeviceResolver,
  VerificationStateResolver,
  PunchResolver,
  AreaResolver,
  AssignmentResolver,
  DoorActionResolver,
  DoorEventResolver,
  UnknownTerminalResolver,
] as const;
