import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { SyncStatus } from '../entities/device-user.entity';
import { AssignmentSource } from '../services/directory/assignment.service';
import { Connection } from './connection';

registerEnumType(AssignmentSource, { name: 'AssignmentSource', description: "`direct`: assigned by a client; `area`: inherited from the device's area." });
registerEnumType(SyncStatus, {
  name: 'SyncStatus',
  description: '`pending`: the terminal has yet to apply the latest change; `synced`: it has; `failed`: it refused (see returnCode).',
});

const PERMISSION = 'Terminal privilege: 0 user, 2 enroller, 6 admin, 14 super admin.';

@ObjectType('Assignment', { description: 'An employee on a device, directly or through an area. A pair that is both is listed once per source.' })
export class AssignmentType {
  @Field(() => Int) employeeId!: number;
  @Field(() => Int) deviceId!: number;
  @Field(() => Int, { description: `${PERMISSION} Area-derived assignments grant 0; when a pair is both, the terminal gets the direct permission.` })
  permissionId!: number;
  @Field(() => AssignmentSource) source!: AssignmentSource;
  @Field(() => Int, { nullable: true, description: 'The area it is inherited from (source `area`).' }) areaId?: number | null;
  @Field(() => SyncStatus, {
    nullable: true,
    description:
      'State of the pair on the terminal; null while there is nothing to send (the employee has no pin or is inactive and the terminal never held it).',
  })
  syncStatus?: SyncStatus | null;
  @Field(() => Int, { nullable: true, description: "The terminal's return code of the last failed attempt." }) returnCode?: number | null;
  @Field() employeeName!: string;
  @Field() employeeLastname!: string;
  @Field(() => String, { nullable: true }) employeePin?: string | null;
  @Field() deviceName!: string;
  @Field() deviceSerialNumber!: string;
}

@ObjectType('AssignmentConnection')
export class AssignmentConnection extends Connection(AssignmentType) {}

@InputType()
export class DevicePermissionInput {
  @Field(() => Int) deviceId!: number;
  @Field(() => Int, { description: PERMISSION }) permissionId!: number;
}

@InputType()
export class EmployeePermissionInput {
  @Field(() => Int) employeeId!: number;
  @Field(() => Int, { description: PERMISSION }) permissionId!: number;
}
