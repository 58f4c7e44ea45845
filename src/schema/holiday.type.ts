import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('Holiday', { description: "A company's holiday: nobody is absent on it, and work on it is overtime." })
export class HolidayType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field({ description: '`YYYY-MM-DD`, a local date.' }) date!: string;
  @Field() name!: string;
  @Field(() => Int, { description: '1 to 3: door schedules keep separate hours per type; attendance treats all alike.' }) holidayType!: number;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('HolidayConnection')
export class HolidayConnection extends Connection(HolidayType) {}

@ArgsType()
export class HolidayListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
}

@InputType()
export class UpdateHolidayInput {
  @Bounded('date') @Field({ nullable: true }) date?: string;
  @Bounded('holidayName') @Field({ nullable: true }) name?: string;
  @Field(() => Int, { nullable: true }) holidayType?: number;
}

@InputType()
export class CreateHolidayInput extends UpdateHolidayInput {
  @Field(() => Int) companyId!: number;
  @Bounded('date') @Field() declare date: string;
  @Bounded('holidayName') @Field() declare name: string;
}
