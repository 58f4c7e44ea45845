import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded, maxChars } from './bounds';

@ObjectType('Holiday', { description: "A company's holiday: nobody is absent on it, and work on it is overtime." })
export class HolidayType {
  @Field(() => Int, { description: "The holiday's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this holiday.' }) companyId!: number;
  @Field({ description: '`YYYY-MM-DD`, a local date.' }) date!: string;
  @Field({ description: "The holiday's name, as the console and reports show it." }) name!: string;
  @Field(() => Int, { description: '1 to 3: door schedules keep separate hours per type; attendance treats all alike.' }) holidayType!: number;
  @Field({ description: 'When the holiday was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the holiday was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('HolidayConnection', {
  description: 'A page of holidays: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class HolidayConnection extends Connection(HolidayType) {}

@ArgsType()
export class HolidayListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the holidays of this company (its id).' }) companyId?: number;
}

@InputType({ description: "The new values of a holiday's fields; a field left out (where it may be) keeps its value." })
export class UpdateHolidayInput {
  @Bounded('date')
  @Field({
    nullable: true,
    description:
      "`YYYY-MM-DD`, the holiday's date in the company's calendar (`invalid_value` otherwise). Left out: the default on create, unchanged on update.",
  })
  date?: string;
  @Bounded('holidayName')
  @Field({
    nullable: true,
    description: `The holiday's name: not blank, ${maxChars('holidayName')} (\`blank\`, \`too_long\`). Left out: the default on create, unchanged on update.`,
  })
  name?: string;
  @Field(() => Int, {
    nullable: true,
    description: '1 to 3: door schedules keep separate hours per type (`out_of_range` otherwise). Left out: the default on create, unchanged on update.',
  })
  holidayType?: number;
}

@InputType({ description: 'The fields of a new holiday.' })
export class CreateHolidayInput extends UpdateHolidayInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId!: number;
  @Bounded('date') @Field({ description: "`YYYY-MM-DD`, the holiday's date in the company's calendar (`invalid_value` otherwise)." }) declare date: string;
  @Bounded('holidayName') @Field({ description: `The holiday's name: not blank, ${maxChars('holidayName')} (\`blank\`, \`too_long\`).` }) declare name: string;
}
