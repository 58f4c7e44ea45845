import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('ScheduleOverride', { description: "One employee's shift on one date (null: a day off), winning over assignments, rosters and the default shift." })
export class ScheduleOverrideType {
  @Field(() => Int) id!: number;
  @Field(() => Int) employeeId!: number;
  @Field({ description: '`YYYY-MM-DD`, a local date.' }) date!: string;
  @Field(() => Int, { nullable: true, description: "A shift of the employee's company; null: a day off." }) shiftId?: number | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('ScheduleOverrideConnection')
export class ScheduleOverrideConnection extends Connection(ScheduleOverrideType) {}

@ArgsType()
export class ScheduleOverrideListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) employeeId?: number;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: overrides from this date on.' }) startDate?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: overrides up to this date.' }) endDate?: string;
}

@InputType()
export class UpdateScheduleOverrideInput {
  @Bounded('date') @Field({ nullable: true }) date?: string;
  @Field(() => Int, { nullable: true, description: 'null: a day off; omitted: unchanged.' }) shiftId?: number | null;
}

@InputType()
export class CreateScheduleOverrideInput {
  @Field(() => Int) employeeId!: number;
  @Bounded('date') @Field() date!: string;
  @Field(() => Int, { nullable: true, description: 'null or omitted: a day off.' }) shiftId?: number | null;
}
