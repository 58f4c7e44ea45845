import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { renameKeys, snakeToCamel } from '../kernel/case';
import { Bounded, maxChars } from './bounds';

@ObjectType('AbsenceType', {
  description: 'A kind of absence a company grants (vacation, sick, unpaid...), counted in days or hours (docs/attendance.md, "Leave").',
})
export class AbsenceTypeType {
  @Field(() => Int, { description: "The absence type's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this absence type.' }) companyId!: number;
  @Field({ description: "The absence type's name, as the console and reports show it." }) name!: string;
  @Field({ description: 'The pay item code payroll books the absence under (`VAC`).' }) code!: string;
  @Field({ description: 'An approved workday counts its scheduled minutes as leave minutes.' }) paid!: boolean;
  @Field({ description: '`day` (whole or half days) or `hour`.' }) unit!: string;
  @Field(() => Float, { nullable: true, description: 'Per calendar year, in the unit; null: no allowance is tracked.' }) annualAllowance?: number | null;
  @Field(() => Float, { description: "The most of last year's remaining allowance that carries into a year." }) carryOver!: number;
  @Field({ description: 'A request may take the balance below zero.' }) allowNegative!: boolean;
  @Field(() => String, { nullable: true, description: '`#RRGGBB`.' }) color?: string | null;
  @Field({ description: 'When the absence was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the absence was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('AbsenceTypeConnection', {
  description:
    'A page of absence types: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AbsenceTypeConnection extends Connection(AbsenceTypeType) {}

@ArgsType()
export class AbsenceTypeListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the absence types of this company (its id).' }) companyId?: number;
}

@InputType({ description: "The new values of a absence type's fields; a field left out (where it may be) keeps its value." })
export class UpdateAbsenceTypeInput {
  @Bounded('absenceTypeName')
  @Field({ nullable: true, description: `The absence type's name: not blank, ${maxChars('absenceTypeName')} (\`blank\`, \`too_long\`). Left out: unchanged.` })
  name?: string;
  @Bounded('absenceCode')
  @Field({
    nullable: true,
    description: `The absence type's code (payroll's or HR's short key for it): ${maxChars('absenceCode')} (\`too_long\`); unique in its scope (\`already_taken\`). Left out: unchanged.`,
  })
  code?: string;
  @Field({ nullable: true, description: 'Whether an approved workday of this type counts its scheduled minutes as paid leave. Left out: unchanged.' })
  paid?: boolean;
  @Bounded('keyword') @Field({ nullable: true, description: '`day` or `hour`; not changed once requests use the type.' }) unit?: string;
  @Field(() => Float, { nullable: true, description: 'Null clears it (no allowance tracked).' }) annualAllowance?: number | null;
  @Field(() => Float, {
    nullable: true,
    description: "The most of last year's remaining allowance that carries into a year, in the type's unit (0 or more). Left out: unchanged.",
  })
  carryOver?: number;
  @Field({
    nullable: true,
    description: 'Whether a request may take the balance below zero; if not, such a request is refused with `insufficient_balance`. Left out: unchanged.',
  })
  allowNegative?: boolean;
  @Bounded('color')
  @Field(() => String, { nullable: true, description: 'The colour the console shows the type in, `#RRGGBB` (`invalid_value` otherwise). Left out: unchanged.' })
  color?: string | null;
}

@InputType({ description: 'The fields of a new absence type.' })
export class CreateAbsenceTypeInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId!: number;
  @Bounded('absenceTypeName')
  @Field({ description: `The absence type's name: not blank, ${maxChars('absenceTypeName')} (\`blank\`, \`too_long\`).` })
  name!: string;
  @Bounded('absenceCode') @Field({ description: 'Unique in the company.' }) code!: string;
  @Field({ nullable: true, description: 'Default true.' }) paid?: boolean;
  @Bounded('keyword') @Field({ nullable: true, description: '`day` (default) or `hour`.' }) unit?: string;
  @Field(() => Float, { nullable: true, description: 'Per calendar year, in the unit; null (default): not tracked.' }) annualAllowance?: number | null;
  @Field(() => Float, { nullable: true, description: 'Default 0.' }) carryOver?: number;
  @Field({ nullable: true, description: 'Default false.' }) allowNegative?: boolean;
  @Bounded('color')
  @Field(() => String, {
    nullable: true,
    description: 'The colour the console shows the type in, `#RRGGBB` (`invalid_value` otherwise); optional.',
  })
  color?: string | null;
}

@ObjectType('AbsenceRequest', {
  description:
    "An employee's request to be away: pending, then approved or rejected; cancelled by the requester while pending or by an approver after approval.",
})
export class AbsenceRequestType {
  @Field(() => Int, { description: "The absence request's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this absence request.' }) companyId!: number;
  @Field(() => Int, { description: 'The id of the employee of this absence request.' }) employeeId!: number;
  @Field(() => Int, { description: 'The id of the absence type of this absence request.' }) absenceTypeId!: number;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) endDate!: string;
  @Field(() => String, { nullable: true, description: '`am` or `pm`: half of one day (day types).' }) halfDay!: string | null;
  @Field(() => String, { nullable: true, description: '`HH:MM`: the hours of an hourly type on each day.' }) startTime!: string | null;
  @Field(() => String, {
    nullable: true,
    description: '`HH:MM`, local: the end of an hourly request on its one day (after startTime); null for a request in days.',
  })
  endTime!: string | null;
  @Field(() => String, { nullable: true, description: "The requester's note (why, where to reach them); null when none was given." }) note!: string | null;
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
  @Field(() => Date, { nullable: true, description: 'When it was approved, rejected or cancelled (an ISO 8601 date-time in UTC); null while pending.' })
  decidedAt!: Date | null;
  @Field(() => String, { nullable: true, description: "The decider's comment on the approval, rejection or cancellation; null when none was given." })
  decisionComment!: string | null;
  @Field({ description: 'When the absence request was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the absence request was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

/** An `absence_request.updated` payload (or a request's REST shape) as the GraphQL object. */
export function absenceRequestObject(data: Record<string, unknown>): AbsenceRequestType {
  const object = renameKeys(data, snakeToCamel) as Record<string, unknown>;
  for (const key of ['decidedAt', 'createdAt', 'updatedAt']) if (typeof object[key] === 'string') object[key] = new Date(object[key] as string);
  return object as unknown as AbsenceRequestType;
}

@ObjectType('AbsenceRequestConnection', {
  description:
    'A page of absence requests: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AbsenceRequestConnection extends Connection(AbsenceRequestType) {}

@ArgsType()
export class AbsenceRequestListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the absence requests of this company (its id).' }) companyId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the absence requests of this employee (its id).' }) employeeId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the absence requests of this absence type (its id).' }) absenceTypeId?: number;
  @Bounded('keyword') @Field({ nullable: true, description: '`pending`, `approved`, `rejected` or `cancelled`.' }) state?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: requests ending on or after it.' }) startDate?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: requests starting on or before it.' }) endDate?: string;
}

@InputType({ description: 'The fields of a new absence request.' })
export class CreateAbsenceRequestInput {
  @Field(() => Int, { description: "The employee, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  employeeId!: number;
  @Field(() => Int, { description: "The absence type, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  absenceTypeId!: number;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD`, inclusive (at most 366 days).' }) endDate!: string;
  @Bounded('keyword') @Field(() => String, { nullable: true, description: '`am` or `pm` (day types, one date).' }) halfDay?: string | null;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: '`HH:MM` (hourly types).' }) startTime?: string | null;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: '`HH:MM` (hourly types), after startTime.' }) endTime?: string | null;
  @Bounded('note')
  @Field(() => String, {
    nullable: true,
    description: `A note for the approver (why, where to reach the employee): optional, ${maxChars('note')} (\`too_long\`).`,
  })
  note?: string | null;
}

@ObjectType('AbsenceBalance', { description: "An employee's balance of one absence type for one calendar year, in the type's unit." })
export class AbsenceBalanceType {
  @Field(() => Int, { description: 'The id of the absence type of this absence balance.' }) absenceTypeId!: number;
  @Field(() => Int, { description: 'The calendar year the balance is for (January 1 to December 31).' }) year!: number;
  @Field({ description: "The absence type's unit every amount of the balance is in: `day` or `hour`." }) unit!: string;
  @Field(() => Float, { nullable: true, description: 'Null: the type tracks no allowance.' }) allowance!: number | null;
  @Field(() => Float, { description: "Last year's remainder, up to the type's carry-over cap." }) carriedOver!: number;
  @Field(() => Float, { description: 'Approved requests.' }) taken!: number;
  @Field(() => Float, { description: 'Requests waiting for a decision.' }) pending!: number;
  @Field(() => Float, { nullable: true, description: 'What is left, in the unit: allowance + carriedOver − taken − pending; null without an allowance.' })
  remaining!: number | null;
}

@ObjectType('CorrectionPunch', { description: 'One punch a correction adds.' })
export class CorrectionPunchType {
  @Field({ description: 'The moment the corrected punch stands for (an ISO 8601 date-time in UTC).' }) punchTime!: Date;
  @Field({ description: 'The terminal state it stands for (0 check-in, 1 check-out...).' }) punchState!: string;
}

@ObjectType('PunchCorrection', { description: "A request to add an employee's forgotten punches, or to void one; an approver decides it." })
export class PunchCorrectionType {
  @Field(() => Int, { description: "The punch correction's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this punch correction.' }) companyId!: number;
  @Field(() => Int, { description: 'The id of the employee of this punch correction.' }) employeeId!: number;
  @Field(() => [CorrectionPunchType], { description: 'The punches to add, in time order; empty for a void.' }) punches!: CorrectionPunchType[];
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'The punch to void; null when punches are added.' }) voidPunchId!: number | null;
  @Field(() => [GraphQLSafeInt], { description: 'The manual punches its approval created (each has `correctionId`).' }) createdPunchIds!: number[];
  @Field({ description: 'The first local date it touches.' }) firstDate!: string;
  @Field({ description: 'The last local date it touches.' }) lastDate!: string;
  @Field({ description: 'Why the correction is asked for (a forgotten punch, a broken terminal), as the requester wrote it.' }) reason!: string;
  @Field({ description: '`pending`, `approved`, `rejected` or `cancelled`.' }) state!: string;
  @Field(() => Int, { nullable: true, description: 'The id of the API key that filed the request; null when no key did.' })
  requestedByKeyId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The API key that decided it (approved: who approved the punches).' }) decidedByKeyId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The employee who filed it themself in self-service; null when a key or console session did.' })
  requestedByEmployeeId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The employee of the last decision in self-service: the requester cancelling, or their manager.' })
  decidedByEmployeeId!: number | null;
  @Field(() => Date, { nullable: true, description: 'When it was approved, rejected or cancelled (an ISO 8601 date-time in UTC); null while pending.' })
  decidedAt!: Date | null;
  @Field(() => String, { nullable: true, description: "The decider's comment on the approval, rejection or cancellation; null when none was given." })
  decisionComment!: string | null;
  @Field({ description: 'When the punch correction was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the punch correction was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
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

@ObjectType('PunchCorrectionConnection', {
  description:
    'A page of punch corrections: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class PunchCorrectionConnection extends Connection(PunchCorrectionType) {}

@ArgsType()
export class PunchCorrectionListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the punch corrections of this company (its id).' }) companyId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the punch corrections of this employee (its id).' }) employeeId?: number;
  @Bounded('keyword') @Field({ nullable: true, description: '`pending`, `approved`, `rejected` or `cancelled`.' }) state?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: corrections whose last date is on or after it.' }) startDate?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: corrections whose first date is on or before it.' }) endDate?: string;
}

@InputType({ description: 'One punch a correction adds: when, and in which punch state.' })
export class CorrectionPunchInput {
  @Bounded('dateTime') @Field({ description: 'ISO 8601 date-time; without an offset, wall-clock time in the workspace zone.' }) punchTime!: string;
  @Bounded('punchState')
  @Field({
    description: `The punch state: the \`value\` of one of the company's verification states (check in, check out, break...), ${maxChars('punchState')}; an unknown one is refused (\`unknown_state\`).`,
  })
  punchState!: string;
}

@InputType({ description: 'The fields of a new punch correction.' })
export class CreatePunchCorrectionInput {
  @Field(() => Int, { description: "The employee, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  employeeId!: number;
  @Bounded('reason') @Field({ description: 'Why (the approver reads it).' }) reason!: string;
  @Bounded('dateTime') @Field(() => String, { nullable: true, description: 'One punch to add: ISO 8601 date-time.' }) punchTime?: string | null;
  @Bounded('punchState')
  @Field(() => String, {
    nullable: true,
    description: `The punch state of the punch to add: the \`value\` of one of the company's verification states, ${maxChars('punchState')}; an unknown one is refused (\`unknown_state\`).`,
  })
  punchState?: string | null;
  @Field(() => [CorrectionPunchInput], { nullable: true, description: 'Several punches to add (a forgotten week), instead of punchTime/punchState.' })
  punches?: CorrectionPunchInput[] | null;
  @Field(() => GraphQLSafeInt, { nullable: true, description: 'A punch of the employee to void, instead of adding punches.' }) voidPunchId?: number | null;
}
