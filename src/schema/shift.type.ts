import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { ShiftPairing } from '../entities/shift.entity';
import { Connection, ConnectionArgs } from './connection';
import { PayPolicyInput, PayPolicyOverridesType } from './pay-policy.type';
import { Bounded, maxChars } from './bounds';

registerEnumType(ShiftPairing, {
  name: 'ShiftPairing',
  description:
    '`first_last`: worked = last punch - first punch; `alternating`: in, out, in, out... intervals summed; `by_state`: the punch state decides (0 in, 1 out, 2 break-out, 3 break-in, 4 overtime-in, 5 overtime-out).',
  valuesConfig: {
    first_last: { description: 'Worked time is the last punch minus the first punch of the day.' },
    alternating: { description: 'Punches pair as in, out, in, out...; the intervals are summed.' },
    by_state: { description: 'The punch state decides: 0 in, 1 out, 2 break-out, 3 break-in, 4 overtime-in, 5 overtime-out.' },
  },
});

@ObjectType('Shift', { description: "A company's working time and the tolerances the attendance engine applies (docs/attendance.md)." })
export class ShiftType {
  @Field(() => Int, { description: "The shift's id, given by the service when it was created and never reused." }) id!: number;
  @Field(() => Int, { description: 'The id of the company of this shift.' }) companyId!: number;
  @Field({ description: "The shift's name, as the console and reports show it." }) name!: string;
  @Field({ description: '`HH:MM`, local to `timeZone`.' }) startTime!: string;
  @Field({ description: '`HH:MM`; at or before `startTime`: the next day.' }) endTime!: string;
  @Field({ description: 'IANA zone; the workspace zone when none was given.' }) timeZone!: string;
  @Field(() => [Int], { description: 'ISO weekdays 1 (Monday) to 7 (Sunday).' }) workdays!: number[];
  @Field(() => Int, { description: 'Unpaid break deducted from a day longer than `breakAfterMinutes` without recorded breaks.' }) breakMinutes!: number;
  @Field(() => Int, { description: 'The break is deducted only from a day with more worked minutes than this; null: always.' }) breakAfterMinutes!: number;
  @Field(() => Int, { description: 'Minutes after the start a check-in is still on time; beyond them every minute from the start counts as late.' })
  graceInMinutes!: number;
  @Field(() => Int, { description: 'Minutes before the end a check-out is still not an early leave; beyond them every minute before the end counts.' })
  graceOutMinutes!: number;
  @Field(() => Int, { description: 'How long before the start punches still belong to the shift.' }) checkInBeforeMinutes!: number;
  @Field(() => Int, { description: 'How long after the end punches still belong to the shift.' }) checkOutAfterMinutes!: number;
  @Field(() => ShiftPairing, { description: 'How punches become worked time: first and last, alternating in and out, or by punch state.' })
  pairing!: ShiftPairing;
  @Field({ description: 'Applies to every employee of the company without an assignment (one per company).' }) isDefault!: boolean;
  @Field(() => Int, { nullable: true, description: 'Punch rounding step, 1-60 minutes, each punch on its own; null: seconds are dropped.' }) roundingMinutes!:
    number | null;
  @Field({ description: '`nearest` (half up), `down` or `up`, on the grid of roundingMinutes counted from the shift start.' }) roundingMode!: string;
  @Field({ description: 'A recorded break `replaces` the unpaid break, `adds` to it, or `tops_up` (counts towards it; default).' }) recordedBreak!: string;
  @Field(() => PayPolicyOverridesType, { description: "The shift's overrides of its company's pay policy." }) payPolicy!: PayPolicyOverridesType;
  @Field({ description: 'Flexible: startTime-endTime is the span in which work counts; lateness and early leave only against the core hours.' })
  flexible!: boolean;
  @Field(() => String, { nullable: true, description: '`HH:MM`, start of the core hours (flexible shifts).' }) coreStart!: string | null;
  @Field(() => String, { nullable: true, description: '`HH:MM`, end of the core hours.' }) coreEnd!: string | null;
  @Field(() => Int, { nullable: true, description: "A flexible shift's scheduled minutes; null: its length minus the unpaid break." }) requiredMinutes!:
    number | null;
  @Field({ description: 'When the shift was created (ISO 8601 date-time, UTC).' }) createdAt!: Date;
  @Field({ description: 'When the shift was last changed (ISO 8601 date-time, UTC).' }) updatedAt!: Date;
}

@ObjectType('ShiftConnection', {
  description: 'A page of shifts: `nodes` (or `edges`, with a cursor each), `pageInfo` to fetch the next page with `after`, and `totalCount` over all pages.',
})
export class ShiftConnection extends Connection(ShiftType) {}

@ArgsType()
export class ShiftListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only the shifts of this company (its id).' }) companyId?: number;
}

@InputType({ description: "The new values of a shift's fields; a field left out (where it may be) keeps its value." })
export class UpdateShiftInput {
  @Bounded('shiftName')
  @Field({
    nullable: true,
    description: `The shift's name: not blank, ${maxChars('shiftName')} (\`blank\`, \`too_long\`). Left out: the default on create, unchanged on update.`,
  })
  name?: string;
  @Bounded('timeOfDay')
  @Field({
    nullable: true,
    description: '`HH:MM` (00:00–23:59, `invalid_time`), when the shift starts, in its time zone. Left out: the default on create, unchanged on update.',
  })
  startTime?: string;
  @Bounded('timeOfDay')
  @Field({
    nullable: true,
    description: '`HH:MM`, when it ends; earlier than startTime means the next day (a night shift). Left out: the default on create, unchanged on update.',
  })
  endTime?: string;
  @Bounded('timeZone')
  @Field({
    nullable: true,
    description: `An IANA time zone the shift's times are in, ${maxChars('timeZone')} (\`invalid_time_zone\`); null: the company's. Left out: the default on create, unchanged on update.`,
  })
  timeZone?: string;
  @Field(() => [Int], {
    nullable: true,
    description:
      'The ISO weekdays it is worked, 1 Monday … 7 Sunday; each once, at least one (`invalid_workdays`). Left out: the default on create, unchanged on update.',
  })
  workdays?: number[];
  @Field(() => Int, {
    nullable: true,
    description: 'Unpaid break minutes deducted from a day, 0–720 (`out_of_range`). Left out: the default on create, unchanged on update.',
  })
  breakMinutes?: number;
  @Field(() => Int, {
    nullable: true,
    description:
      'Deduct the break only from a day with more worked minutes than this (0–1440); null: always. Left out: the default on create, unchanged on update.',
  })
  breakAfterMinutes?: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Minutes after the start a check-in is still on time, 0–720 (`out_of_range`). Left out: the default on create, unchanged on update.',
  })
  graceInMinutes?: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Minutes before the end a check-out is not an early leave, 0–720 (`out_of_range`). Left out: the default on create, unchanged on update.',
  })
  graceOutMinutes?: number;
  @Field(() => Int, {
    nullable: true,
    description:
      "How many minutes before the start a punch still counts for this shift's day, 0–720 (`out_of_range`). Left out: the default on create, unchanged on update.",
  })
  checkInBeforeMinutes?: number;
  @Field(() => Int, {
    nullable: true,
    description:
      "How many minutes after the end a punch still counts for this shift's day, 0–720 (`out_of_range`). Left out: the default on create, unchanged on update.",
  })
  checkOutAfterMinutes?: number;
  @Field(() => ShiftPairing, { nullable: true, description: 'How punches become worked time. Left out: the default on create, unchanged on update.' })
  pairing?: ShiftPairing;
  @Field({
    nullable: true,
    description: "Whether it is the company's default shift, the one of employees with no assignment. Left out: the default on create, unchanged on update.",
  })
  isDefault?: boolean;
  @Field(() => Int, { nullable: true, description: '1-60; null: no rounding.' }) roundingMinutes?: number | null;
  @Bounded('keyword') @Field({ nullable: true, description: '`nearest`, `down` or `up`.' }) roundingMode?: string;
  @Bounded('keyword') @Field({ nullable: true, description: '`replaces`, `adds` or `tops_up`.' }) recordedBreak?: string;
  @Field({
    nullable: true,
    description: 'A flexible shift counts worked minutes without start and end (no late or early leave). Left out: the default on create, unchanged on update.',
  })
  flexible?: boolean;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: '`HH:MM`; null removes it.' }) coreStart?: string | null;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: '`HH:MM`; null removes it.' }) coreEnd?: string | null;
  @Field(() => Int, { nullable: true, description: '0-1440; null: the shift length minus its break.' }) requiredMinutes?: number | null;
  @Field(() => PayPolicyInput, { nullable: true, description: "Overrides of the company policy (weekly settings are the company's alone)." })
  payPolicy?: PayPolicyInput;
}

@InputType({ description: 'The fields of a new shift.' })
export class CreateShiftInput extends UpdateShiftInput {
  @Field(() => Int, { description: "The company, by id; an id that is not one of this workspace's is refused (`not_found`)." }) companyId!: number;
  @Bounded('shiftName') @Field({ description: `The shift's name: not blank, ${maxChars('shiftName')} (\`blank\`, \`too_long\`).` }) declare name: string;
  @Bounded('timeOfDay') @Field({ description: '`HH:MM` (00:00–23:59, `invalid_time`), when the shift starts, in its time zone.' }) declare startTime: string;
  @Bounded('timeOfDay') @Field({ description: '`HH:MM`, when it ends; earlier than startTime means the next day (a night shift).' }) declare endTime: string;
}
