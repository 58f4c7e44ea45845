import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { Bounded } from './bounds';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { AbsenceTypeType, CorrectionPunchInput } from './absence.type';
import { PunchType } from './punch.type';
import { VerificationStateType } from './verification-state.type';

// --- Geofences (workspace keys) ------------------------------------------------------------------

@ObjectType('Geofence', {
  description:
    'A circle on the map where employees of its company may punch from their phones; limited to areas or employees, or (both lists empty) for every employee of the company.',
})
export class GeofenceType {
  @Field(() => Int, { description: "The geofence's id: a phone punch made inside it carries it as `geofenceId`." }) id!: number;
  @Field(() => Int, { description: 'The company whose employees may punch inside it; it never changes.' }) companyId!: number;
  @Field({ description: 'Shown to the employee ("Depot North").' }) name!: string;
  @Field(() => Float, { description: 'Centre latitude, WGS 84 degrees (-90 to 90).' }) latitude!: number;
  @Field(() => Float, { description: 'Centre longitude, WGS 84 degrees (-180 to 180).' }) longitude!: number;
  @Field(() => Int, { description: 'Radius in metres (10 to 100,000).' }) radiusM!: number;
  @Field(() => [Int], { description: 'The areas whose employees it applies to; with employeeIds empty too, every employee of the company.' })
  areaIds!: number[];
  @Field(() => [Int], { description: 'The employees it applies to (besides those of areaIds).' }) employeeIds!: number[];
  @Field({ description: 'When the geofence was created.' }) createdAt!: Date;
  @Field({ description: 'When the geofence was last changed (its creation until then).' }) updatedAt!: Date;
}

@ObjectType('GeofenceConnection', { description: 'A page of geofences, by id.' })
export class GeofenceConnection extends Connection(GeofenceType) {}

@ArgsType()
export class GeofenceListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: "Only this company's fences." }) companyId?: number | null;
}

@InputType({ description: 'A new geofence.' })
export class CreateGeofenceInput {
  @Field(() => Int, { description: 'The company whose employees may punch inside it; one not of this workspace is `not_found`.' }) companyId!: number;
  @Bounded('geofenceName')
  @Field({ description: 'Shown to the employee ("Depot North"): not blank, at most 200 characters (`blank`, `too_long`).' })
  name!: string;
  @Field(() => Float, { description: 'WGS 84 degrees, -90 to 90.' }) latitude!: number;
  @Field(() => Float, { description: 'WGS 84 degrees, -180 to 180.' }) longitude!: number;
  @Field(() => Int, { description: 'Metres, 10 to 100,000.' }) radiusM!: number;
  @Field(() => [Int], { nullable: true, description: 'Areas of the company whose employees it applies to (at most 1,000).' }) areaIds?: number[] | null;
  @Field(() => [Int], { nullable: true, description: 'Employees of the company it applies to (at most 1,000).' }) employeeIds?: number[] | null;
}

@InputType({ description: 'A change of a geofence: a field left out keeps its value; empty lists apply it to the whole company.' })
export class UpdateGeofenceInput {
  @Bounded('geofenceName')
  @Field(() => String, { nullable: true, description: 'The new name shown to the employee: not blank, at most 200 characters (`blank`, `too_long`).' })
  name?: string | null;
  @Field(() => Float, { nullable: true, description: 'WGS 84 degrees, -90 to 90.' }) latitude?: number | null;
  @Field(() => Float, { nullable: true, description: 'WGS 84 degrees, -180 to 180.' }) longitude?: number | null;
  @Field(() => Int, { nullable: true, description: 'Metres, 10 to 100,000.' }) radiusM?: number | null;
  @Field(() => [Int], { nullable: true, description: 'Areas of the company whose employees it applies to.' }) areaIds?: number[] | null;
  @Field(() => [Int], { nullable: true, description: 'Employees of the company it applies to.' }) employeeIds?: number[] | null;
}

// --- Employees' ways in (workspace keys) --------------------------------------------------------

@ObjectType('EmployeeAccessToken', {
  description: "A token (`tg_emp_…`) that acts as one employee, for an integrator's own app: it reaches `/public/v2/me/*` and GraphQL `me` only.",
})
export class EmployeeAccessTokenType {
  @Field(() => Int, { description: "The token's id (what revokeEmployeeAccessToken takes), not the secret." }) id!: number;
  @Field(() => Int, { description: 'The employee the token acts as.' }) employeeId!: number;
  @Field({ description: 'What the token is for, as its creator named it (empty when unnamed).' }) name!: string;
  @Field({ description: 'The public beginning of the token, e.g. `tg_emp_AbC1`.' }) prefix!: string;
  @Field({ description: 'The last four characters of the token.' }) last4!: string;
  @Field({ description: 'When the token was issued.' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When it was revoked; null while it works.' }) revokedAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'The secret token: present only in the response that created it.' }) token?: string | null;
}

@ObjectType('EmployeeInvitation', { description: 'A one-time link that signs the employee in to the self-service app at /me in the browser that opens it.' })
export class EmployeeInvitationType {
  @Field(() => Int, { description: 'The employee the link signs in.' }) employeeId!: number;
  @Field({ description: 'The link, to send to the employee; shown once. Making another link makes this one stop working.' }) url!: string;
  @Field({ description: 'The link works once, until this time (7 days).' }) expiresAt!: Date;
}

// --- Me (an employee principal) ------------------------------------------------------------------

@ObjectType('MeEmployee', { description: 'The calling employee, as they see themself.' })
export class MeEmployeeType {
  @Field(() => Int, { description: "The employee's id (the `employeeId` of their punches and requests)." }) id!: number;
  @Field(() => Int, { description: 'The company the employee belongs to.' }) companyId!: number;
  @Field({ description: "The employee's first name." }) name!: string;
  @Field({ description: "The employee's last name." }) lastname!: string;
  @Field({ description: "The employee's code (payroll's or HR's short key for them), unique in the workspace." }) code!: string;
  @Field(() => String, { nullable: true, description: "The employee's e-mail address; null when none is recorded." }) email?: string | null;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: first day of employment.' }) employmentStartDate?: string | null;
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: last day of employment.' }) employmentEndDate?: string | null;
}

@ObjectType('MeCompany', { description: "The calling employee's company and what it allows in self-service." })
export class MeCompanyType {
  @Field(() => Int, { description: "The company's id." }) id!: number;
  @Field({ description: "The company's name." }) name!: string;
  @Field({ description: 'Whether the employee may punch from their phone.' }) mobilePunch!: boolean;
  @Field(() => Int, { description: 'The worst accuracy, in metres, a phone punch may have.' }) mobilePunchAccuracyM!: number;
  @Field({ description: 'Whether managers decide requests in self-service.' }) managerApprovals!: boolean;
}

@ObjectType('MeGeofence', { description: 'A place the calling employee may punch from with their phone.' })
export class MeGeofenceType {
  @Field(() => Int, { description: "The geofence's id: a phone punch made inside it carries it as `geofenceId`." }) id!: number;
  @Field({ description: 'The name of the place ("Depot North").' }) name!: string;
  @Field(() => Float, { description: 'Centre latitude, WGS 84 degrees.' }) latitude!: number;
  @Field(() => Float, { description: 'Centre longitude, WGS 84 degrees.' }) longitude!: number;
  @Field(() => Int, { description: 'Radius in metres.' }) radiusM!: number;
}

@ObjectType('MeReport', { description: 'An employee whose requests the calling manager decides (an employee of an area they approve).' })
export class MeReportType {
  @Field(() => Int, { description: "The report's employee id (the `employeeId` of their requests)." }) id!: number;
  @Field({ description: "The report's first name." }) name!: string;
  @Field({ description: "The report's last name." }) lastname!: string;
  @Field({ description: "The report's employee code." }) code!: string;
}

@ObjectType('Me', {
  description:
    "The calling employee (an employee token or a self-service session) and what they may see: their days, punches, balances, requests and corrections; a manager also their reports' requests.",
})
export class MeType {
  @Field(() => MeEmployeeType, { description: 'Who the caller is: the employee behind the token or session.' }) employee!: MeEmployeeType;
  @Field(() => MeCompanyType, { description: "The employee's company and whether it allows phone punches and manager approvals." }) company!: MeCompanyType;
  @Field(() => [MeGeofenceType], { description: 'The places the employee may punch from with their phone (none while the company has it off).' })
  geofences!: MeGeofenceType[];
  @Field(() => [VerificationStateType], { description: 'The punch states of the workspace (what a punch may send as punchState).' })
  verificationStates!: VerificationStateType[];
  @Field(() => [AbsenceTypeType], { description: "The absence types of the employee's company (what a request may ask for)." })
  absenceTypes!: AbsenceTypeType[];
  @Field({
    description: 'True for a manager: an approver of areas, in a company with manager approvals on (reportAbsenceRequests and reportPunchCorrections answer).',
  })
  approver!: boolean;
}

@ArgsType()
export class MeTimesheetArgs extends ConnectionArgs {
  @Bounded('date')
  @Field({ description: '`YYYY-MM-DD` from 1900-01-01 to 2199-12-31, inclusive.' })
  startDate!: string;
  @Bounded('date')
  @Field({ description: '`YYYY-MM-DD`, inclusive; at most 366 days after startDate.' })
  endDate!: string;
}

@ArgsType()
export class MePunchesArgs extends ConnectionArgs {
  @Bounded('dateTime')
  @Field(() => String, { nullable: true, description: 'ISO 8601 date or date-time; without offset it is read in the workspace zone. Inclusive.' })
  startDate?: string | null;
  @Bounded('dateTime')
  @Field(() => String, { nullable: true, description: 'ISO 8601 date or date-time; a bare date includes that whole day.' })
  endDate?: string | null;
}

@ArgsType()
export class MeRequestArgs extends ConnectionArgs {
  @Bounded('keyword')
  @Field(() => String, { nullable: true, description: '`pending`, `approved`, `rejected` or `cancelled`.' })
  state?: string | null;
  @Bounded('date')
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: requests ending on or after it.' })
  startDate?: string | null;
  @Bounded('date')
  @Field(() => String, { nullable: true, description: '`YYYY-MM-DD`: requests starting on or before it.' })
  endDate?: string | null;
}

@ArgsType()
export class MeApprovalArgs extends ConnectionArgs {
  @Bounded('keyword')
  @Field(() => String, { nullable: true, description: '`pending` (the default), `approved`, `rejected` or `cancelled`.' })
  state?: string | null;
}

@InputType({ description: 'An absence request the employee files for themself.' })
export class MyAbsenceRequestInput {
  @Field(() => Int, { description: "An absence type of the employee's company." }) absenceTypeId!: number;
  @Bounded('date')
  @Field({ description: '`YYYY-MM-DD`, inclusive.' })
  startDate!: string;
  @Bounded('date')
  @Field({ description: '`YYYY-MM-DD`, inclusive (at most 366 days).' })
  endDate!: string;
  @Bounded('keyword')
  @Field(() => String, { nullable: true, description: '`am` or `pm` (day types, one date).' })
  halfDay?: string | null;
  @Bounded('timeOfDay')
  @Field(() => String, { nullable: true, description: '`HH:MM` (hourly types).' })
  startTime?: string | null;
  @Bounded('timeOfDay')
  @Field(() => String, { nullable: true, description: '`HH:MM` (hourly types), after startTime.' })
  endTime?: string | null;
  @Bounded('note')
  @Field(() => String, { nullable: true, description: 'For the approver (at most 1,000 characters).' })
  note?: string | null;
}

@InputType({ description: 'A punch correction the employee files for themself: punches to add, or one of their own punches to void.' })
export class MyPunchCorrectionInput {
  @Bounded('reason')
  @Field({ description: 'Why (the approver reads it; at most 500 characters).' })
  reason!: string;
  @Bounded('dateTime')
  @Field(() => String, { nullable: true, description: 'One punch to add: ISO 8601 date-time (without an offset: the workspace zone).' })
  punchTime?: string | null;
  @Bounded('punchState')
  @Field(() => String, { nullable: true, description: 'Its punch state.' })
  punchState?: string | null;
  @Field(() => [CorrectionPunchInput], { nullable: true, description: 'Several punches to add, instead of punchTime/punchState.' })
  punches?: CorrectionPunchInput[] | null;
  @Field(() => GraphQLSafeInt, { nullable: true, description: "One of the employee's own punches to void, instead of adding punches." }) voidPunchId?:
    number | null;
}

@InputType({ description: "A punch from the employee's phone, where the phone says it is." })
export class MyPunchInput {
  @Bounded('punchState')
  @Field({ description: 'The value of a verification state (`0` check-in, `1` check-out...).' })
  punchState!: string;
  @Field(() => Float, { description: 'WGS 84 degrees, as the phone reports it.' }) latitude!: number;
  @Field(() => Float, { description: 'WGS 84 degrees, as the phone reports it.' }) longitude!: number;
  @Field(() => Float, { description: "The position's accuracy in metres, as the phone reports it (a 68 % radius; 0 to 10,000)." }) accuracyM!: number;
  @Bounded('photoBase64')
  @Field(() => String, { nullable: true, description: 'A photo taken with the punch (base64 JPEG or PNG, at most 5 MiB): checked, never kept.' })
  photo?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'True for a punch the phone kept while offline; punchTime is then required.' }) offlineQueued?:
    boolean | null;
  @Bounded('dateTime')
  @Field(() => String, {
    nullable: true,
    description:
      'With offlineQueued: when the phone made the punch (ISO 8601 with Z or an offset, within the last 72 hours). A live punch takes the time it arrives.',
  })
  punchTime?: string | null;
}

@ObjectType('MyPunchPayload', { description: 'A punch from the phone, stored.' })
export class MyPunchPayload {
  @Field(() => PunchType, { description: 'The stored punch (source `mobile`, with the `geofenceId` it was made inside).' }) punch!: PunchType;
  @Field({ description: 'False when this punch (same employee, same second) was already stored: an offline punch sent twice; `punch` is then the stored one.' })
  created!: boolean;
}
