import { ArgsType, Field, InputType, Int, registerEnumType } from 'type-graphql';
import { ObjectType } from './object-type';
import { ShiftPairing } from '../entities/shift.entity';
import { Connection, ConnectionArgs } from './connection';
import { PayPolicyInput, PayPolicyOverridesType } from './pay-policy.type';
import { Bounded } from './bounds';

registerEnumType(ShiftPairing, {
  name: 'ShiftPairing',
  description:
    '`first_last`: worked = last punch - first punch; `alternating`: in, out, in, out... intervals summed; `by_state`: the punch state decides (0 in, 1 out, 2 break-out, 3 break-in, 4 overtime-in, 5 overtime-out).',
});

@ObjectType('Shift', { description: "A company's working time and the tolerances the attendance engine applies (docs/attendance.md)." })
export class ShiftType {
  @Field(() => Int) id!: number;
  @Field(() => Int) companyId!: number;
  @Field() name!: string;
  @Field({ description: '`HH:MM`, local to `timeZone`.' }) startTime!: string;
  @Field({ description: '`HH:MM`; at or before `startTime`: the next day.' }) endTime!: string;
  @Field({ description: 'IANA zone; the workspace zone when none was given.' }) timeZone!: string;
  @Field(() => [Int], { description: 'ISO weekdays 1 (Monday) to 7 (Sunday).' }) workdays!: number[];
  @Field(() => Int, { description: 'Unpaid break deducted from a day longer than `breakAfterMinutes` without recorded breaks.' }) breakMinutes!: number;
  @Field(() => Int) breakAfterMinutes!: number;
  @Field(() => Int) graceInMinutes!: number;
  @Field(() => Int) graceOutMinutes!: number;
  @Field(() => Int, { description: 'How long before the start punches still belong to the shift.' }) checkInBeforeMinutes!: number;
  @Field(() => Int, { description: 'How long after the end punches still belong to the shift.' }) checkOutAfterMinutes!: number;
  @Field(() => ShiftPairing) pairing!: ShiftPairing;
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
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('ShiftConnection')
export class ShiftConnection extends Connection(ShiftType) {}

@ArgsType()
export class ShiftListArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true }) companyId?: number;
}

@InputType()
export class UpdateShiftInput {
  @Bounded('shiftName') @Field({ nullable: true }) name?: string;
  @Bounded('timeOfDay') @Field({ nullable: true }) startTime?: string;
  @Bounded('timeOfDay') @Field({ nullable: true }) endTime?: string;
  @Bounded('timeZone') @Field({ nullable: true }) timeZone?: string;
  @Field(() => [Int], { nullable: true }) workdays?: number[];
  @Field(() => Int, { nullable: true }) breakMinutes?: number;
  @Field(() => Int, { nullable: true }) breakAfterMinutes?: number;
  @Field(() => Int, { nullable: true }) graceInMinutes?: number;
  @Field(() => Int, { nullable: true }) graceOutMinutes?: number;
  @Field(() => Int, { nullable: true }) checkInBeforeMinutes?: number;
  @Field(() => Int, { nullable: true }) checkOutAfterMinutes?: number;
  @Field(() => ShiftPairing, { nullable: true }) pairing?: ShiftPairing;
  @Field({ nullable: true }) isDefault?: boolean;
  @Field(() => Int, { nullable: true, description: '1-60; null: no rounding.' }) roundingMinutes?: number | null;
  @Bounded('keyword') @Field({ nullable: true, description: '`nearest`, `down` or `up`.' }) roundingMode?: string;
  @Bounded('keyword') @Field({ nullable: true, description: '`replaces`, `adds` or `tops_up`.' }) recordedBreak?: string;
  @Field({ nullable: true }) flexible?: boolean;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: '`HH:MM`; null removes it.' }) coreStart?: string | null;
  @Bounded('timeOfDay') @Field(() => String, { nullable: true, description: '`HH:MM`; null removes it.' }) coreEnd?: string | null;
  @Field(() => Int, { nullable: true, description: '0-1440; null: the shift length minus its break.' }) requiredMinutes?: number | null;
  @Field(() => PayPolicyInput, { nullable: true, description: "Overrides of the company policy (weekly settings are the company's alone)." })
  payPolicy?: PayPolicyInput;
}

@InputType()
export class CreateShiftInput extends UpdateShiftInput {
  @Field(() => Int) companyId!: number;
  @Bounded('shiftName') @Field() declare name: string;
  @Bounded('timeOfDay') @Field() declare startTime: string;
  @Bounded('timeOfDay') @Field() declare endTime: string;
}
