import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { ObjectType } from './object-type';
import { Connection, ConnectionArgs } from './connection';
import { Bounded, maxChars } from './bounds';

@ObjectType('Roster', { description: "A company's repeating cycle of shifts and days off, which a shift assignment names instead of a shift." })
export class RosterType {
  @Field(() => Int, { description: "The roster's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this roster.' }) companyId!: number;
  @Field({ description: "The roster's name, as the console and reports show it." }) name!: string;
  @Field({ description: '`YYYY-MM-DD`: the date of the first entry of `days`; the cycle repeats from it in both directions.' }) startDate!: string;
  @Field(() => [Int], {
    nullable: 'items',
    description: 'One entry per day of the cycle: a shift id of the company, or null for a day off (1 to 366 entries).',
  })
  days!: (number | null)[];
  @Field({ description: 'When the roster was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the roster was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('RosterConnection', {
  description: 'A page of rosters: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class RosterConnection extends Connection(RosterType) {}

@ArgsType()
export class RosterListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the rosters of this company (its id).' }) companyId?: number;
}

@InputType({ description: "The new values of a roster's fields; a field left out (where it may be) keeps its value." })
export class UpdateRosterInput {
  @Bounded('rosterName')
  @Field({
    nullable: true,
    description: `The roster's name: not blank, ${maxChars('rosterName')} (\`blank\`, \`too_long\`). Left out: the default on create, unchanged on update.`,
  })
  name?: string;
  @Bounded('date')
  @Field({ nullable: true, description: '`YYYY-MM-DD`: the date of the first entry of `days`. Left out: the default on create, unchanged on update.' })
  startDate?: string;
  @Field(() => [Int], {
    nullable: 'itemsAndList',
    description:
      'The cycle, one entry per day: a shift id of the company, or null for a day off; 1 to 366 entries (`empty`, `too_many_items`). Left out: the default on create, unchanged on update.',
  })
  days?: (number | null)[];
}

@InputType({ description: 'The fields of a new roster.' })
export class CreateRosterInput extends UpdateRosterInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." })
  companyId!: number;
  @Bounded('rosterName') @Field({ description: `The roster's name: not blank, ${maxChars('rosterName')} (\`blank\`, \`too_long\`).` }) declare name: string;
  @Bounded('date')
  @Field({ description: '`YYYY-MM-DD`: the date of the first entry of `days`; the cycle repeats from it in both directions.' })
  declare startDate: string;
  @Field(() => [Int], {
    nullable: 'items',
    description: 'The cycle, one entry per day: a shift id of the company, or null for a day off; 1 to 366 entries (`empty`, `too_many_items`).',
  })
  declare days: (number | null)[];
}
