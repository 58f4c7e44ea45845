import { ApiKey } from './api-key.entity';
import { Company } from './company.entity';
import { Device } from './device.entity';
import { Employee } from './employee.entity';
import { IdempotencyRecord } from './idempotency-record.entity';
import { Punch } from './punch.entity';
import { VerificationState } from './verification-state.entity';
import { Workspace } from './workspace.entity';

export { ApiKey, Company, Device, Employee, IdempotencyRecord, Punch, VerificationState, Workspace };

/** Every entity, for the ORM configuration. */
export const entities = [Workspace, ApiKey, Company, Employee, Device, IdempotencyRecord, VerificationState, Punch];
