import { ApiKey } from './api-key.entity';
import { Area } from './area.entity';
import { AreaEmployee } from './area-employee.entity';
import { Assignment } from './assignment.entity';
import { Company } from './company.entity';
import { DeviceCommand } from './device-command.entity';
import { DeviceStatusChange } from './device-status-change.entity';
import { Device } from './device.entity';
import { DeviceUser } from './device-user.entity';
import { DoorAction } from './door-action.entity';
import { DoorEvent } from './door-event.entity';
import { Employee } from './employee.entity';
import { IdempotencyRecord } from './idempotency-record.entity';
import { Punch } from './punch.entity';
import { UnknownTerminal } from './unknown-terminal.entity';
import { VerificationState } from './verification-state.entity';
import { Workspace } from './workspace.entity';

export {
  ApiKey,
  Area,
  AreaEmployee,
  Assignment,
  Company,
  Device,
  DeviceCommand,
  DeviceStatusChange,
  DeviceUser,
  DoorAction,
  DoorEvent,
  Employee,
  IdempotencyRecord,
  Punch,
  UnknownTerminal,
  VerificationState,
  Workspace,
};

/** Every entity, for the ORM configuration. */
export const entities = [
  Workspace,
  ApiKey,
  Company,
  Employee,
  Device,
  IdempotencyRecord,
  VerificationState,
  Punch,
  Area,
  AreaEmployee,
  Assignment,
  DeviceUser,
  DeviceCommand,
  DoorAction,
  DeviceStatusChange,
  UnknownTerminal,
  DoorEvent,
];
