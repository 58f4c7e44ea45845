import { Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { SyncStatus } from '../entities/device-user.entity';
import { AssignmentSource } from '../services/directory/assignment.service';
import { Connection } from './connection';

registerEnumType(AssignmentSource, {
  name: 'AssignmentSource',
  description: "`direct`: assigned by a client; `area`: inherited from the device's area.",
  valuesConfig: {
    direct: { description: 'A client assigned the employee to the terminal (the assignment mutations or REST).' },
    area: { description: 'The employee is on the terminal because both are in an area; it goes when either leaves the area.' },
  },
});
registerEnumType(SyncStatus, {
  name: 'SyncStatus',
  description: '`pending`: the terminal has yet to apply the latest change; `synced`: it has; `failed`: it refused (see returnCode).',
  valuesConfig: {
    pending: { description: 'The terminal has yet to apply the latest change: its command is queued or sent.' },
    synced: { description: 'The terminal confirmed the latest change.' },
    failed: { description: 'The terminal refused the latest change; `returnCode` says why.' },
  },
});

const PERMISSION = 'Terminal privilege: 0 user, 2 enroller, 6 admin, 14 super admin.';

@ObjectType('Assignment', { description: 'An employee on a device, directly or through an area. A pair that is both is listed once per source.' })
export class AssignmentType {
  @Field(() => Int, { description: 'The id of the employee of this assignment.' }) employeeId!: number;
  @Field(() => Int, { description: 'The id of the terminal (device) of this assignment.' }) deviceId!: number;
  @Field(() => Int, { description: `${PERMISSION} Area-derived assignments grant 0; when a pair is both, the terminal gets the direct permission.` })
  permissionId!: number;
  @Field(() => AssignmentSource, {
    description: "`direct` when a client assigned the employee to the terminal, `area` when it comes from the terminal's area.",
  })
  source!: AssignmentSource;
  @Field(() => Int, { nullable: true, description: 'The area it is inherited from (source `area`).' }) areaId?: number | null;
  @Field(() => SyncStatus, {
    nullable: true,
    description:
      'State of the pair on the terminal; null while there is nothing to send (the employee has no pin or is inactive and the terminal never held it).',
  })
  syncStatus?: SyncStatus | null;
  @Field(() => Int, { nullable: true, description: "The terminal's return code of the last failed attempt." }) returnCode?: number | null;
  @Field({ description: "The employee's first name, as the terminal shows it." }) employeeName!: string;
  @Field({ description: "The employee's last name." }) employeeLastname!: string;
  @Field(() => String, {
    nullable: true,
    description: "The employee's PIN: their user id on the terminal; null when they have none yet (the terminal is then not sent the employee).",
  })
  employeePin?: string | null;
  @Field({ description: "The terminal's name." }) deviceName!: string;
  @Field({ description: 'The serial number of the terminal, as it sends it in the PUSH protocol (`SN`).' }) deviceSerialNumber!: string;
}

@ObjectType('AssignmentConnection', {
  description:
    'A page of assignments: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AssignmentConnection extends Connection(AssignmentType) {}

@InputType({ description: 'A terminal to enrol the employee on, with the privilege they get there.' })
export class DevicePermissionInput {
  @Field(() => Int, {
    description: "The terminal (device), by id; an id that is not one of this workspace's is refused (`not_found`).",
  })
  deviceId!: number;
  @Field(() => Int, { description: PERMISSION }) permissionId!: number;
}

@InputType({ description: 'An employee to enrol on the terminal, with the privilege they get there.' })
export class EmployeePermissionInput {
  @Field(() => Int, { description: "The employee, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  employeeId!: number;
  @Field(() => Int, { description: PERMISSION }) permissionId!: number;
}
