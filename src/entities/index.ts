import { ApiKey } from './api-key.entity';
import { Company } from './company.entity';
import { DeviceCommand } from './device-command.entity';
import { DeviceStatusChange } from './device-status-change.entity';
import { Device } from './device.entity';
import { DoorAction } from './door-action.entity';
import { Employee } from './employee.entity';
import { IdempotencyRecord } from './idempotency-record.entity';
import { UnknownTerminal } from './unknown-terminal.entity';
import { Workspace } from './workspace.entity';

export { ApiKey, Company, Device, DeviceCommand, DeviceStatusChange, DoorAction, Employee, IdempotencyRecord, UnknownTerminal, Workspace };

/** Every entity, for the ORM configuration. */
export const entities = [Workspace, ApiKey, Company, Employee, Device, IdempotencyRecord, DeviceCommand, DoorAction, DeviceStatusChange, UnknownTerminal];
