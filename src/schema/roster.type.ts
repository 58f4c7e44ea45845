import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded } from './bounds';

@ObjectType('Roster', { description: "A company's repeating cycle of shifts and days off, which a shift assignment names instead of a shift." })
export class RosterType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field() name!: string;
  @Field({ description: '`YYYY-MM-DD`: the date of the first entry of `days`; the cycle repeats from it in both directions.' }) startDate!: string;
  @Field(() => [Int], {
    nullable: 'items',
    description: 'One entry per day of the cycle: a shift id of the company, or null for a day off (1 to 366 entries).',
  })
  days!: (number | null)[];
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('RosterConnection')
export class RosterConnection extends Connection(RosterType) {}

@ArgsType()
export class RosterListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
}

@InputType()
export class UpdateRosterInput {
  @Bounded('rosterName') @Field({ nullable: true }) name?: string;
  @Bounded('date') @Field({ nullable: true }) startDate?: string;
  @Field(() => [Int], { nullable: 'itemsAndList' }) days?: (number | null)[];
}

@InputType()
export class CreateRosterInput extends UpdateRosterInput {
  @Field(() => Int) companyId!: number;
  @Bounded('rosterName') @Field() declare name: string;
  @Bounded('date') @Field() declare startDate: string;
  @Field(() => [Int], { nullable: 'items' }) declare days: (number | null)[];
}
