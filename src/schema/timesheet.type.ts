import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, ID, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('PayItem', { description: 'Paid minutes under one pay code (docs/attendance.md, "Pay items").' })
export class PayItemType {
  @Field({ description: '`regular`, `overtime`, `double_time`, `night` (a premium on top), `holiday` or `rest_day`.' }) code!: string;
  @Field(() => Int, { description: 'The minutes of the day booked under this pay code.' }) minutes!: number;
}

@ObjectType('AttendanceDay', { description: "One employee's attendance on one local date, as the attendance engine computed it (docs/attendance.md)." })
export class AttendanceDayType {
  @Field(() => ID, { description: '`<employeeId>:<date>`: stable, so a normalising client caches the day.' }) id!: string;
  @Field(() => Int, { description: 'The id of the employee of this attendance day.' }) employeeId!: number;
  @Field(() => Int, { description: 'The id of the company of this attendance day.' }) companyId!: number;
  @Field({ description: '`YYYY-MM-DD`: the local date on which the shift starts (a 22:00–06:00 shift is one day).' }) date!: string;
  @Field(() => Int, { nullable: true, description: 'The shift of this workday; null on a rest day or without a shift.' }) shiftId!: number | null;
  @Field({
    description:
      '`present`, `incomplete`, `absent`, `holiday`, `off`, `scheduled` (a day not over yet) `not_employed` (outside the employment dates) or `leave` (approved absence).',
  })
  status!: string;
  @Field(() => Date, { nullable: true, description: 'The first punch of the day that counted (an ISO 8601 date-time in UTC); null when none.' })
  firstIn!: Date | null;
  @Field(() => Date, { nullable: true, description: 'The last punch of the day that counted (an ISO 8601 date-time in UTC); null when none or only one.' })
  lastOut!: Date | null;
  @Field(() => Int, { description: 'Shift length minus the unpaid break, on a workday that is not a holiday.' }) scheduledMinutes!: number;
  @Field(() => Int, { description: 'Minutes worked, after the break was deducted.' }) workedMinutes!: number;
  @Field(() => Int, { description: 'Break minutes deducted.' }) breakMinutes!: number;
  @Field(() => Int, {
    description:
      'Minutes late: once the counted check-in is more than graceInMinutes after the shift start, every minute from the start counts; 0 within the grace.',
  })
  lateMinutes!: number;
  @Field(() => Int, {
    description:
      'Minutes left early: once the counted check-out is more than graceOutMinutes before the shift end, every minute before the end counts; 0 within the grace.',
  })
  earlyLeaveMinutes!: number;
  @Field(() => Int, { description: 'Overtime and double time of the day, after weekly settlement.' }) overtimeMinutes!: number;
  @Field(() => [PayItemType], { description: 'Paid minutes by pay code, the non-zero codes in code order.' }) payItems!: PayItemType[];
  @Field(() => [String], { description: '`missing_in`, `missing_out`, `duplicate_ignored`, `manual_punch`, `outside_shift`, `after_lock`.' })
  exceptions!: string[];
  @Field(() => [GraphQLSafeInt], { description: 'Every punch of the day, counted or not (duplicates, outside the shift); voided punches are not listed.' })
  punchIds!: number[];
  @Field(() => Int, { nullable: true, description: 'The approved absence of this workday (not of a holiday or rest day); null without one.' }) absenceTypeId!:
    number | null;
  @Field(() => String, { nullable: true, description: "The absence type's pay item code." }) absenceCode!: string | null;
  @Field(() => Int, {
    description: "Paid leave minutes: the scheduled minutes of a paid absence day (half for a half day), an hourly absence's minutes; 0 when unpaid.",
  })
  leaveMinutes!: number;
  @Field(() => Int, {
    description:
      'Overtime and double time waiting for an overtime approval (a company whose pay policy requires one): not in payItems or overtimeMinutes until approved.',
  })
  pendingOvertimeMinutes!: number;
}

@ObjectType('AttendanceDayConnection', {
  description:
    'A page of attendance days: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class AttendanceDayConnection extends Connection(AttendanceDayType) {}

@ObjectType('TimesheetSummary', { description: "One employee's totals over a timesheet's range." })
export class TimesheetSummaryType {
  @Field(() => Int, { description: 'The id of the employee of this timesheet summary.' }) employeeId!: number;
  @Field(() => Int, { description: 'Days with status `present`: punches that pair up into worked time.' }) daysPresent!: number;
  @Field(() => Int, { description: 'Days of the range with status `absent`: scheduled, past, and without a punch or approved absence.' }) daysAbsent!: number;
  @Field(() => Int, { description: 'Days with status `incomplete`: past, with punches that do not pair up (an in without an out).' }) daysIncomplete!: number;
  @Field(() => Int, { description: 'Minutes worked over the range.' }) workedMinutes!: number;
  @Field(() => Int, { description: 'Overtime minutes over the range.' }) overtimeMinutes!: number;
  @Field(() => Int, { description: 'Minutes late over the range.' }) lateMinutes!: number;
  @Field(() => Int, { description: 'Days of approved absence (status `leave`).' }) daysLeave!: number;
  @Field(() => Int, { description: 'Paid leave minutes, apart from worked minutes.' }) leaveMinutes!: number;
  @Field(() => [PayItemType], { description: "The days' pay items totalled by code, non-zero codes in code order." }) payItems!: PayItemType[];
  @Field(() => Int, { description: 'Overtime waiting for approval, not paid (not in payItems).' }) pendingOvertimeMinutes!: number;
}

@ObjectType('TimesheetSummaryConnection', {
  description:
    'A page of timesheet summaries: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class TimesheetSummaryConnection extends Connection(TimesheetSummaryType) {}

@ArgsType()
export class TimesheetArgs extends ConnectionArgs {
  @Bounded('date') @Field({ description: '`YYYY-MM-DD` from 1900-01-01 to 2199-12-31, inclusive.' }) startDate!: string;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD` from 1900-01-01 to 2199-12-31, inclusive; at most 366 days after startDate.' }) endDate!: string;
  @Field(() => Int, { nullable: true, description: "Only this employee's days (their id)." }) employeeId?: number | null;
  @Field(() => Int, { nullable: true, description: "Only the days of this company's employees (its id)." }) companyId?: number | null;
  @Field(() => Int, { nullable: true, description: "The area's current employees." }) areaId?: number | null;
}
