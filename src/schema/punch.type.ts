import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Float, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { PunchRecordType } from '../entities/punch.entity';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

registerEnumType(PunchRecordType, {
  name: 'PunchRecordType',
  description: "`device`: sent by a terminal; `manual`: entered through the API; `mobile`: from an employee's phone.",
  valuesConfig: {
    device: { description: 'Sent by a terminal (an ATTLOG record).' },
    manual: { description: 'Entered through the API (a manual punch, or one an approved punch correction made).' },
    mobile: { description: "Made from an employee's phone in self-service, inside a geofence (docs/self-service.md)." },
  },
});

/** Where a punch came from, as the console, the exports and the events show it. */
export enum PunchSource {
  terminal = 'terminal',
  manual = 'manual',
  correction = 'correction',
  mobile = 'mobile',
}

registerEnumType(PunchSource, {
  name: 'PunchSource',
  description: 'Where a punch came from (the `source` of `attendance.created` events too).',
  valuesConfig: {
    terminal: { description: 'A terminal sent it.' },
    manual: { description: 'Entered through the API as a manual punch.' },
    correction: { description: 'Made by an approved punch correction (`correctionId`).' },
    mobile: { description: "An employee's phone, inside a geofence (`geofenceId`)." },
  },
});

@ObjectType('Punch', { description: 'An attendance record. Punches are never updated or deleted through the API.' })
export class PunchType {
  @Field(() => GraphQLSafeInt, { description: 'A 64-bit id (see the `SafeInt` scalar).' }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this punch.' }) companyId!: number;
  @Field(() => Int, { nullable: true, description: 'Null while the pin is unknown to the service, or after the employee was deleted.' })
  employeeId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Null after the device record was deleted; `deviceSerial` remains.' })
  deviceId?: number | null;
  @Field({ description: 'Serial of the terminal the punch was made on (kept when the device record is deleted).' }) deviceSerial!: string;
  @Field({ description: 'The pin as the terminal knows it.' }) pin!: string;
  @Field({ description: 'The instant (whole seconds, UTC).' }) punchTime!: Date;
  @Field({ description: 'Wall-clock time on the terminal, `YYYY-MM-DD HH:MM:SS`.' }) localTime!: string;
  @Field({ description: 'IANA zone of the terminal used to read `localTime`.' }) timeZone!: string;
  @Field({ description: 'Raw attendance state value; see verificationStates for its name.' }) punchState!: string;
  @Field(() => String, {
    nullable: true,
    description:
      'Verify mode name: `fingerprint`, `face`, `card`, `password`, `palm`, `vein`, `pin`, combinations such as `card+fingerprint`, `any`, `other`; `manual` for manual punches.',
  })
  verifyType?: string | null;
  @Field(() => Int, { nullable: true, description: 'Raw verify-mode code from the terminal; null for manual punches.' }) verifyCode?: number | null;
  @Field(() => PunchRecordType, { description: '`device` when a terminal sent it, `manual` when it was entered through the API.' })
  recordType!: PunchRecordType;
  @Field(() => String, { nullable: true, description: 'The work code the employee keyed in on the terminal (a job or cost centre); null when none.' })
  workCode?: string | null;
  @Field(() => Int, { nullable: true, description: 'Record index of an access-control real-time log, when there is one.' })
  deviceRecordIndex?: number | null;
  @Field({ description: 'When the service stored the punch.' }) receivedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the punch was voided (it no longer counts in attendance); null while it counts.' })
  voidedAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'Why it was voided.' }) voidReason?: string | null;
  @Field(() => Int, { nullable: true, description: 'The approved punch correction that created this manual punch (it names the approver); null otherwise.' })
  correctionId?: number | null;
  @Field(() => Float, {
    nullable: true,
    description: "A phone punch's latitude (WGS 84 degrees) as the phone reported it; null for other punches and once erased (TIMEGATE_PUNCH_LOCATION_DAYS).",
  })
  latitude?: number | null;
  @Field(() => Float, { nullable: true, description: "A phone punch's longitude (WGS 84 degrees); null for other punches and once erased." })
  longitude?: number | null;
  @Field(() => Int, { nullable: true, description: "A phone punch's accuracy in metres, as the phone reported it (rounded up)." })
  accuracyM?: number | null;
  @Field(() => Int, { nullable: true, description: 'The geofence a phone punch was made inside (kept after its position is erased).' })
  geofenceId?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'A phone punch the phone kept while offline and sent later with the time it was made.' })
  offlineQueued?: boolean | null;
}

@ObjectType('PunchConnection', {
  description: 'A page of punchs: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class PunchConnection extends Connection(PunchType) {}

@ArgsType()
export class PunchesArgs extends ConnectionArgs {
  @Bounded('dateTime')
  @Field(() => String, {
    nullable: true,
    description: 'ISO 8601 date or date-time (years 1900 to 2199); without offset it is read in the workspace zone. Inclusive.',
  })
  startDate?: string;
  @Bounded('dateTime')
  @Field(() => String, {
    nullable: true,
    description:
      'ISO 8601 date or date-time (years 1900 to 2199); without offset it is read in the workspace zone. A bare date includes that whole day; a date-time is inclusive.',
  })
  endDate?: string;
  @Field(() => Int, { nullable: true, description: 'Only the punches of this employee (its id).' }) employeeId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the punches of this terminal (its id).' }) deviceId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the punches of this company (its id).' }) companyId?: number;
}

@InputType({ description: 'The fields of a new punch.' })
export class CreatePunchInput {
  @Field(() => Int, { description: "The employee, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  employeeId!: number;
  @Field(() => Int, { description: "The terminal (device), by id; an id that is not one of this workspace's is refused (`not_found`)." })
  deviceId!: number;
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." }) companyId!: number;
  @Bounded('dateTime') @Field({ description: 'ISO 8601 date-time; without offset it is the wall-clock time of the device zone.' }) punchTime!: string;
  @Bounded('punchState') @Field({ description: 'The value of a verification state of the workspace.' }) punchState!: string;
}

@ObjectType({ description: 'The result of createPunch.' })
export class CreatePunchPayload {
  @Field(() => PunchType, { description: 'The punch as stored.' }) punch!: PunchType;
  @Field({ description: 'False when this punch (same device, pin and time) already existed; `punch` is then the stored one.' }) created!: boolean;
}
