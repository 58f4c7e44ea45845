import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('PayPeriod', { description: "A company's pay period; once locked by an admin its attendance days never change." })
export class PayPeriodType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) startDate!: string;
  @Field({ description: '`YYYY-MM-DD`, inclusive.' }) endDate!: string;
  @Field(() => Date, { nullable: true, description: 'When an admin locked it; null while open.' }) lockedAt?: Date | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('PayPeriodConnection')
export class PayPeriodConnection extends Connection(PayPeriodType) {}

@ArgsType()
export class PayPeriodListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
}

@InputType()
export class UpdatePayPeriodInput {
  @Bounded('date') @Field({ nullable: true }) startDate?: string;
  @Bounded('date') @Field({ nullable: true }) endDate?: string;
}

@InputType()
export class CreatePayPeriodInput {
  @Field(() => Int) companyId!: number;
  @Bounded('date') @Field() startDate!: string;
  @Bounded('date') @Field() endDate!: string;
}

@ObjectType('PayrollExportRow', { description: 'Paid minutes of one employee under one pay code over a pay period (docs/payroll-export.md).' })
export class PayrollExportRowType {
  @Field(() => Int) employeeId!: number;
  @Field() employeeCode!: string;
  @Field({ description: 'First and last name.' }) employeeName!: string;
  @Field() companyCode!: string;
  @Field() companyName!: string;
  @Field({ description: "`YYYY-MM-DD`, the period's first local date." }) startDate!: string;
  @Field({ description: "`YYYY-MM-DD`, the period's last local date (inclusive)." }) endDate!: string;
  @Field({
    description: "`regular`, `overtime`, `double_time`, `night`, `holiday` or `rest_day`, or paid leave under its absence type's code (`VAC`, `SICK`).",
  })
  payCode!: string;
  @Field(() => Int) minutes!: number;
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
  @Field(() => Int) payPeriodId!: number;
  @Field(() => Int) companyId!: number;
  @Field() startDate!: string;
  @Field() endDate!: string;
  @Field({ description: "The workspace's zone: the dates are local dates in it." }) timeZone!: string;
  @Field() locked!: boolean;
  @Field(() => [PayrollExportRowType]) rows!: PayrollExportRowType[];
  @Field({ description: 'The rows as RFC 4180 CSV under the requested column mapping.' }) csv!: string;
}
