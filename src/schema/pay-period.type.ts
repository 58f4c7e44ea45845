import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('PayPeriod', { description: "A company's pay period; once locked by an admin its attendance days never change." })
export class PayPeriodType {
  @Field(() => Int, { description: "The pay period's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this pay period.' }) companyId!: number;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) endDate!: string;
  @Field(() => Date, { nullable: true, description: 'When an admin locked it; null while open.' }) lockedAt?: Date | null;
  @Field({ description: 'When the pay period was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the pay period was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('PayPeriodConnection', {
  description:
    'A page of pay periods: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class PayPeriodConnection extends Connection(PayPeriodType) {}

@ArgsType()
export class PayPeriodListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the pay periods of this company (its id).' }) companyId?: number;
}

@InputType({ description: "The new values of a pay period's fields; a field left out (where it may be) keeps its value." })
export class UpdatePayPeriodInput {
  @Bounded('date')
  @Field({ nullable: true, description: '`YYYY-MM-DD`, the first day of the period. Left out: unchanged. A locked period refuses changes (`period_locked`).' })
  startDate?: string;
  @Bounded('date')
  @Field({ nullable: true, description: '`YYYY-MM-DD`, the last day; not before startDate (`before_start_date`). Left out: unchanged.' })
  endDate?: string;
}

@InputType({ description: 'The fields of a new pay period.' })
export class CreatePayPeriodInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId!: number;
  @Bounded('date') @Field({ description: "`YYYY-MM-DD`, the first day of the period, in the company's calendar." }) startDate!: string;
  @Bounded('date')
  @Field({ description: '`YYYY-MM-DD`, the last day; not before startDate (`before_start_date`); periods of a company do not overlap (`overlapping`).' })
  endDate!: string;
}

@ObjectType('PayrollExportRow', { description: 'Paid minutes of one employee under one pay code over a pay period (docs/payroll-export.md).' })
export class PayrollExportRowType {
  @Field(() => Int, { description: 'The id of the employee of this payroll export row.' }) employeeId!: number;
  @Field({ description: "The employee's code (payroll's personnel number)." }) employeeCode!: string;
  @Field({ description: 'First and last name.' }) employeeName!: string;
  @Field({ description: "The company's code." }) companyCode!: string;
  @Field({ description: "The company's name." }) companyName!: string;
  @Field({ description: "`YYYY-MM-DD`, the period's first local date." }) startDate!: string;
  @Field({ description: "`YYYY-MM-DD`, the period's last local date (inclusive)." }) endDate!: string;
  @Field({
    description: "`regular`, `overtime`, `double_time`, `night`, `holiday` or `rest_day`, or paid leave under its absence type's code (`VAC`, `SICK`).",
  })
  payCode!: string;
  @Field(() => Int, { description: 'The minutes of the pay code over the period.' }) minutes!: number;
  @Field({ description: 'Decimal hours, two places, rounded half up (`7.50`).' }) hours!: string;
  @Field({ description: '`H:MM` (`7:30`).' }) hoursMinutes!: string;
  @Field(() => Float, {
    nullable: true,
    description:
      "The code's rate in percent of the base rate, from the company's pay policy (`regular` and paid leave 100); for `night` the premium paid on top. Null in rows frozen before rates were exported.",
  })
  ratePercent?: number | null;
}

@ObjectType('PayrollExport', { description: "A pay period's payroll export; a locked period's is the same every time until it is unlocked." })
export class PayrollExportType {
  @Field(() => Int, { description: 'The id of the pay period of this payroll export.' }) payPeriodId!: number;
  @Field(() => Int, { description: 'The id of the company of this payroll export.' }) companyId!: number;
  @Field({ description: '`YYYY-MM-DD`, the first day of the period.' }) startDate!: string;
  @Field({ description: '`YYYY-MM-DD`, the last day of the period.' }) endDate!: string;
  @Field({ description: "The workspace's zone: the dates are local dates in it." }) timeZone!: string;
  @Field({ description: 'Whether the period is locked: its days and punches no longer change (`period_locked`).' }) locked!: boolean;
  @Field(() => [PayrollExportRowType], { description: 'One row per employee and pay code, minutes summed over the period.' }) rows!: PayrollExportRowType[];
  @Field({ description: 'The rows as RFC 4180 CSV under the requested column mapping.' }) csv!: string;
}
