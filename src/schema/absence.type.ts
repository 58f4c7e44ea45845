import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { renameKeys, snakeToCamel } from '../kernel/case';
import { Bounded } from './bounds';

@ObjectType('AbsenceType', {
  description: 'A kind of absence a company grants (vacation, sick, unpaid...), counted in days or hours (docs/attendance.md, "Leave").',
})
export class AbsenceTypeType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field() name!: string;
  @Field({ description: 'The pay item code payroll books the absence under (`VAC`).' }) code!: string;
  @Field({ description: 'An approved workday counts its scheduled minutes as leave minutes.' }) paid!: boolean;
  @Field({ description: '`day` (whole or half days) or `hour`.' }) unit!: string;
  @Field(() => Float, { nullable: true, description: 'Per calendar year, in the unit; null: no allowance is tracked.' }) annualAllowance?: number | null;
  @Field(() => Float, { description: "The most of last year's remaining allowance that carries into a year." }) carryOver!: number;
  @Field({ description: 'A request may take the balance below zero.' }) allowNegative!: boolean;
  @Field(() => String, { nullable: true, description: '`#RRGGBB`.' }) color?: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('AbsenceTypeConnection')
export class AbsenceTypeConnection extends Connection(AbsenceTypeType) {}

@ArgsType()
export class AbsenceTypeListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
}

@InputType()
export class UpdateAbsenceTypeInput {
  @Bounded('absenceTypeName') @Field({ nullable: true }) name?: string;
  @Bounded('absenceCode') @Field({ nullable: true }) code?: string;
  @Field({ nullable: true }) paid?: boolean;
  @Bounded('keyword') @Field({ nullable: true, description: '`day` or `hour`; not changed once requests use the type.' }) unit?: string;
  @Field(() => Float, { nullable: true, description: 'Null clears it (no allowance tracked).' }) annualAllowance?: number | null;
  @Field(() => Float, { nullable: true }) carryOver?: number;
  @Field({ nullable: true }) allowNegative?: boolean;
  @Bounded('color') @Field(() => String, { nullable: true }) color?: string | null;
}

@InputType()
export class CreateAbsenceTypeInput {
  @Field(() => Int) companyId!: number;
  @Bounded('absenceTypeName') @Field() name!: string;
  @Bounded('absenceCode') @Field({ description: 'Unique in the company.' }) code!: string;
  @Field({ nullable: true, description: 'Default true.' }) paid?: boolean;
  @Bounded('keyword') @Field({ nullable: true, description: '`day` (default) or `hour`.' }) unit?: string;
  @Field(() => Float, { nullable: true, description: 'Per calendar year, in the unit; null (default): not tracked.' }) annualAllowance?: number | null;
  @Field(() => Float, { nullable: true, description: 'Default 0.' }) carryOver?: number;
  @Field({ nullable: true, description: 'Default false.' }) allowNegative?: boolean;
  @Bounded('color') @Field(() => String, { nullable: true }) color?: string | null;
}

@ObjectType('AbsenceRequest', {
  description:
    "An employee's request to be away: pending, then approved or rejected; cancelled by the requester while pending or by an approver after approval.",
})
export class AbsenceRequestType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field(() => Int) employeeId!: number;
  @Field(() => Int) absenceTypeId!: number;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) endDate!: string;
  @Field(() => String, { nullable: true, description: '`am` or `pm`: half of one day (day types).' }) halfDay!: string | null;
  @Field(() => String, { nullable: true, description: '`HH:MM`: the hours of an hourly type on each day.' }) startTime!: string | null;
  @Field(() => String, { nullable: true }) endTime!: string | null;
  @Field(() => String, { nullable: true }) note!: string | null;
  @Field({ description: '`pending`, `approved`, `rejected` or `cancelled`.' }) state!: string;
  @Field(() => Float, {
    description: "What the request charges, in the type's unit: its workdays (holidays and rest days cost nothing), half a day, or its hours.",
  })
  amount!: number;
  @Field(() => Int, { nullable: true, description: 'The API key that filed it.' }) requestedByKeyId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The API key of the last decision.' }) decidedByKeyId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The employee who filed it themself in self-service; null when a key or console session did.' })
  requestedByEmployeeId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The employee of the last decision in self-service: the requester cancelling, or their manager.' })
  decidedByEmployeeId!: number | null;
  @Field(() => Date, { nullable: true }) decidedAt!: Date | null;
  @Field(() => String, { nullable: true }) decisionComment!: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

/** An `absence_request.updated` payload (or a request's REST shape) as the GraphQL object. */
export function absenceRequestObject(data: Record<string, unknown>): AbsenceRequestType {
  const object = renameKeys(data, snakeToCamel) as Record<string, unknown>;
  for (const key of ['decidedAt', 'createdAt', 'updatedAt']) if (typeof object[key] === 'string') object[key] = new Date(object[key] as string);
  return object as unknown as AbsenceRequestType;
}

@ObjectType('AbsenceRequestConnection')
export class AbsenceRequestConnection extends Connection(AbsenceRequestType) {}

@ArgsType()
export class AbsenceRequestListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
  @Field(() => Int, { nullable: true }) employeeId?: number;
  @Field(() => Int, { nullable: true }) absenceTypeId?: number;
  @Bounded('keyword') @Field({ nullable: true, description: '`pending`, `approved`, `rejected` or `cancelled`.' }) state?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: requests ending on or after it.' }) startDate?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: requests starting on or before it.' }) endDate?: string;
}

@InputType()
export class CreateAbsenceRequestInput {
  @Field(() => Int) employeeId!: number;
  @Field(() => Int) absenceTypeId!: number;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD`, inclusive (at most 366 days).' }) endDate!: string;
  @Bounded('keyword') @Field(() => String, { nullable: true, description: '`am` or `pm` (day types, one date).' }) halfDay?: string | null;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: '`HH:MM` (hourly types).' }) startTime?: string | null;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: '`HH:MM` (hourly types), after startTime.' }) endTime?: string | null;
  @Bounded('note') @Field(() => String, { nullable: true }) note?: string | null;
}

@ObjectType('AbsenceBalance', { description: "An employee's balance of one absence type for one calendar year, in the type's unit." })
export class AbsenceBalanceType {
  @Field(() => Int) absenceTypeId!: number;
  @Field(() => Int) year!: number;
  @Field() unit!: string;
  @Field(() => Float, { nullable: true, description: 'Null: the type tracks no allowance.' }) allowance!: number | null;
  @Field(() => Float, { description: "Last year's remainder, up to the type's carry-over cap." }) carriedOver!: number;
  @Field(() => Float, { description: 'Approved requests.' }) taken!: number;
  @Field(() => Float, { description: 'Requests waiting for a decision.' }) pending!: number;
  @Field(() => Float, { nullable: true, description: 'allowance + carriedOver − taken − pending; null without an allowance.' }) remaining!: number | null;
}

@ObjectType('CorrectionPunch', { description: 'One punch a correction adds.' })
export class CorrectionPunchType {
  @Field() punchTime!: Date;
  @Field({ description: 'The terminal state it stands for (0 check-in, 1 check-out...).' }) punchState!: string;
}

@ObjectType('PunchCorrection', { description: "A request to add an employee's forgotten punches, or to void one; an approver decides it." })
export class PunchCorrectionType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field(() => Int) employeeId!: number;
  @Field(() => [CorrectionPunchType], { description: 'The punches to add, in time order; empty for a void.' }) punches!: CorrectionPunchType[];
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'The punch to void; null when punches are added.' }) voidPunchId!: number | null;
  @Field(() => [GraphQLSafeInt], { description: 'The manual punches its approval created (each has `correctionId`).' }) createdPunchIds!: number[];
  @Field({ description: 'The first local date it touches.' }) firstDate!: string;
  @Field({ description: 'The last local date it touches.' }) lastDate!: string;
  @Field() reason!: string;
  @Field({ description: '`pending`, `approved`, `rejected` or `cancelled`.' }) state!: string;
  @Field(() => Int, { nullable: true }) requestedByKeyId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The API key that decided it (approved: who approved the punches).' }) decidedByKeyId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The employee who filed it themself in self-service; null when a key or console session did.' })
  requestedByEmployeeId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The employee of the last decision in self-service: the requester cancelling, or their manager.' })
  decidedByEmployeeId!: number | null;
  @Field(() => Date, { nullable: true }) decidedAt!: Date | null;
  @Field(() => String, { nullable: true }) decisionComment!: string | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

/** A `punch_correction.updated` payload as the GraphQL object. */
export function punchCorrectionObject(data: Record<string, unknown>): PunchCorrectionType {
  const object = absenceRequestObject(data) as unknown as Record<string, unknown>;
  object.punches = (data.punches as { punch_time: string; punch_state: string }[]).map((p) => ({
    punchTime: new Date(p.punch_time),
    punchState: p.punch_state,
  }));
  return object as unknown as PunchCorrectionType;
}

@ObjectType('PunchCorrectionConnection')
export class PunchCorrectionConnection extends Connection(PunchCorrectionType) {}

@ArgsType()
export class PunchCorrectionListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
  @Field(() => Int, { nullable: true }) employeeId?: number;
  @Bounded('keyword') @Field({ nullable: true, description: '`pending`, `approved`, `rejected` or `cancelled`.' }) state?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: corrections whose last date is on or after it.' }) startDate?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: corrections whose first date is on or before it.' }) endDate?: string;
}

@InputType()
export class CorrectionPunchInput {
  @Bounded('dateTime') @Field({ description: 'ISO 8601 date-time; without an offset, wall-clock time in the workspace zone.' }) punchTime!: string;
  @Bounded('punchState') @Field() punchState!: string;
}

@InputType()
export class CreatePunchCorrectionInput {
  @Field(() => Int) employeeId!: number;
  @Bounded('reason') @Field({ description: 'Why (the approver reads it).' }) reason!: string;
  @Bounded('dateTime') @Field(() => String, { nullable: true, description: 'One punch to add: ISO 8601 date-time.' }) punchTime?: string | null;
  @Bounded('punchState') @Field(() => String, { nullable: true }) punchState?: string | null;
  @Field(() => [CorrectionPunchInput], { nullable: true, description: 'Several punches to add (a forgotten week), instead of punchTime/punchState.' })
  punches?: CorrectionPunchInput[] | null;
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'A punch of the employee to void, instead of adding punches.' }) voidPunchId?: number | null;
}
