import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { absenceRequestObject } from './absence.type';
import { Bounded, maxChars } from './bounds';

@ObjectType('OvertimeApproval', {
  description:
    'The approval of an employee\'s overtime on one date, for a company whose pay policy requires it (docs/attendance.md, "Overtime approval"): pending, then approved or rejected.',
})
export class OvertimeApprovalType {
  @Field(() => Int, { description: "The overtime approval's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this overtime approval.' }) companyId!: number;
  @Field(() => Int, { description: 'The id of the employee of this overtime approval.' }) employeeId!: number;
  @Field({ description: '`YYYY-MM-DD`: the attendance day.' }) date!: string;
  @Field({ description: '`pending`, `approved` or `rejected`.' }) state!: string;
  @Field(() => Int, { nullable: true, description: "Approved: the most overtime minutes that count; null: all of the day's overtime." }) minutes!:
    number | null;
  @Field(() => String, { nullable: true, description: "The requester's note; null when none was given." }) note!: string | null;
  @Field(() => Int, { nullable: true, description: 'The API key that filed it (or decided a period).' }) requestedByKeyId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The API key of the last decision.' }) decidedByKeyId!: number | null;
  @Field(() => Date, { nullable: true, description: 'When it was approved or rejected (an ISO 8601 date-time in UTC); null while pending.' })
  decidedAt!: Date | null;
  @Field(() => String, { nullable: true, description: "The decider's comment; null when none was given." }) decisionComment!: string | null;
  @Field({ description: 'When the overtime approval was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the overtime approval was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

/** An `overtime_approval.updated` payload (or an approval's REST shape) as the GraphQL object. */
export const overtimeApprovalObject = (data: Record<string, unknown>) => absenceRequestObject(data) as unknown as OvertimeApprovalType;

@ObjectType('OvertimeApprovalConnection', {
  description:
    'A page of overtime approvals: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class OvertimeApprovalConnection extends Connection(OvertimeApprovalType) {}

@ArgsType()
export class OvertimeApprovalListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the overtime approvals of this company (its id).' }) companyId?: number;
  @Field(() => Int, { nullable: true, description: 'Only the overtime approvals of this employee (its id).' }) employeeId?: number;
  @Bounded('keyword') @Field({ nullable: true, description: '`pending`, `approved` or `rejected`.' }) state?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: approvals of this date or later.' }) startDate?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: approvals of this date or earlier.' }) endDate?: string;
}

@InputType({ description: 'The fields of a new overtime approval.' })
export class CreateOvertimeApprovalInput {
  @Field(() => Int, { description: "The employee, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  employeeId!: number;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD`: the attendance day whose overtime is to be approved.' }) date!: string;
  @Bounded('note') @Field(() => String, { nullable: true, description: 'Why (the approver reads it).' }) note?: string | null;
}

@InputType({ description: "Approves the pending overtime of a company's employees over a date range at once." })
export class ApproveOvertimePeriodInput {
  @Field(() => Int, { nullable: true, description: "The company's employees (with employeeIds: only those, which must be of the company)." })
  companyId?: number | null;
  @Field(() => [Int], { nullable: true, description: 'The employees (at most 1000).' }) employeeIds?: number[] | null;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD`, inclusive (at most 366 days).' }) endDate!: string;
  @Bounded('comment')
  @Field(() => String, { nullable: true, description: `A comment kept with each approval: optional, ${maxChars('comment')} (\`too_long\`).` })
  comment?: string | null;
}

/** The same input rejects a period (rejectOvertimePeriod). */
@InputType({ description: "Rejects the pending overtime of a company's employees over a date range at once." })
export class RejectOvertimePeriodInput extends ApproveOvertimePeriodInput {}

@ObjectType('OvertimePeriodApproval', { description: 'What a period approval approved.' })
export class OvertimePeriodApprovalType {
  @Field(() => Int, { description: 'How many days it approved.' }) count!: number;
  @Field(() => [OvertimeApprovalType], {
    description: 'The approvals it approved (pending ones, and new ones for days with pending overtime), by employee and date.',
  })
  approvals!: OvertimeApprovalType[];
}

@ObjectType('OvertimePeriodRejection', { description: 'What a period rejection rejected.' })
export class OvertimePeriodRejectionType {
  @Field(() => Int, { description: 'How many days it rejected.' }) count!: number;
  @Field(() => [OvertimeApprovalType], {
    description: 'The approvals it rejected (pending ones, and new ones for days with pending overtime), by employee and date.',
  })
  approvals!: OvertimeApprovalType[];
}
