import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('ScheduleOverride', { description: "One employee's shift on one date (null: a day off), winning over assignments, rosters and the default shift." })
export class ScheduleOverrideType {
  @Field(() => Int, { description: "The schedule override's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the employee of this schedule override.' }) employeeId!: number;
  @Field({ description: '`YYYY-MM-DD`, a local date.' }) date!: string;
  @Field(() => Int, { nullable: true, description: "A shift of the employee's company; null: a day off." }) shiftId?: number | null;
  @Field({ description: 'When the schedule override was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the schedule override was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('ScheduleOverrideConnection', {
  description:
    'A page of schedule overrides: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class ScheduleOverrideConnection extends Connection(ScheduleOverrideType) {}

@ArgsType()
export class ScheduleOverrideListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the schedule overrides of this employee (its id).' }) employeeId?: number;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: overrides from this date on.' }) startDate?: string;
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`: overrides up to this date.' }) endDate?: string;
}

@InputType({ description: "The new values of a schedule override's fields; a field left out (where it may be) keeps its value." })
export class UpdateScheduleOverrideInput {
  @Bounded('date') @Field({ nullable: true, description: '`YYYY-MM-DD`, the day the override replaces. Left out: unchanged.' }) date?: string;
  @Field(() => Int, { nullable: true, description: 'null: a day off; omitted: unchanged.' }) shiftId?: number | null;
}

@InputType({ description: 'The fields of a new schedule override.' })
export class CreateScheduleOverrideInput {
  @Field(() => Int, { description: "The employee, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  employeeId!: number;
  @Bounded('date') @Field({ description: '`YYYY-MM-DD`, the day the override replaces the scheduled shift on.' }) date!: string;
  @Field(() => Int, { nullable: true, description: 'null or omitted: a day off.' }) shiftId?: number | null;
}
